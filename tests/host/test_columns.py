"""Tables line up as a terminal shows them: a wide character takes two columns, a combined
one one; numbers are right-aligned; a cell is printed as written (brackets and colons too);
a long row stays one line."""

import unicodedata

from rich.cells import cell_len

from host.columns import table


def test_columns_line_up_on_screen_whatever_the_characters():
    names = ["Zoë", unicodedata.normalize("NFD", "José"), "名前", "[red]Ann[/red] :smile:"]
    lines = table(("NAME", "N", "NOTE"), [(n, i * 7, "x") for i, n in enumerate(names)], right=(1,))
    assert lines[0].startswith("NAME") and len(lines) == 5
    for line, name in zip(lines[1:], names, strict=True):
        assert line.startswith(name)  # as written
    # the N column ends at the same screen column on every line, the numbers right-aligned
    ends = {cell_len(line[:line.index("  x")]) for line in lines[1:]}
    assert len(ends) == 1 and cell_len(lines[0][:lines[0].index("N ") + 1]) in ends
    assert lines[-1].endswith(" 21  x")


def test_a_long_row_stays_one_line_and_no_header_when_none():
    long = "y" * 500
    assert table(("A", "B"), [(long, 1)]) == ["A" + " " * 501 + "B", long + "  1"]
    assert table(None, [("a", "bb", "c"), ("aaa", "b", "c")]) == ["a    bb  c", "aaa  b   c"]
