"""Text tables as `docker ps` or `kubectl get` print them, laid out by rich: a header row,
one line per row, columns two spaces apart, each as wide as its widest cell on screen
(rich measures what a terminal shows: a wide or combined character counts as it is drawn),
never wrapped, so a script can read them line by line."""

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

_UNBOUNDED = 100_000  # columns: a row is one line however long


def table(headers, rows, right=()):
    """Lines of a table: headers (None: no header row), then one line per row; columns whose
    index is in right are right-aligned (numbers)."""
    grid = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, show_header=headers is not None)
    for i, head in enumerate(headers if headers is not None else [""] * len(rows[0])):
        grid.add_column(Text(str(head)), justify="right" if i in right else "left", no_wrap=True,
                        header_style="")
    for row in rows:
        grid.add_row(*(Text(str(c)) for c in row))  # as written: no markup, no emoji codes
    out = io.StringIO()
    Console(file=out, width=_UNBOUNDED, color_system=None, highlight=False).print(grid)
    return [line.rstrip() for line in out.getvalue().splitlines()]
