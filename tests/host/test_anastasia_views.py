"""`games`, `replay` and `stats` read the box's Finding Anastasia games in the ledger's own
words: records made by the real mode (on the mode harness) with its buttons, an undo among
them, stored as a sync stores them."""

import pytest

from engine import anastasia_cards as cards
from firmware.record import decode_record, encode_record
from host import db as dbmod
from host.cli import main as cli_main
from tests.shared.compat import tmp_dir
from tests.shared.test_anastasia_mode import Table


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    with tmp_dir() as d:
        tb = Table(d, players=5, empress=0)  # the Empress P1 starts with 5 gems
        tb.answer(1, 1, 2)  # P2 claims Trinket 3
        tb.act(3)  # draw ...
        tb.back()  # ... taken back
        tb.act(4)  # P1 reveals P4: Anastasia
        tb.press(3)
        tb.ok(tb.box.mode.draft.roles.index(cards.ANASTASIA))
        tb.press(0)
        for seat, role in ((1, cards.THIEF), (2, cards.PSYCHIC), (4, cards.RASPUTINS_AGENT)):
            tb.ok(tb.box.mode.draft.roles.index(role))
            tb.press(seat)
        tb.box.mode_button(tb.t + 1)
        tb.box.ok(tb.t + 2)  # yes to END GAME?
        wire = [encode_record(r["seq"], r["kind"], r["data"], r["t"]) for r in tb.box.records()]
    path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box-1", [decode_record(line) for line in wire], {"board": "sim"})
    return path


def _run(capsys, *argv):
    status = cli_main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_games_show_reads_the_ledger_entries_in_words(store_path, capsys):
    status, out, _ = _run(capsys, "games", "show", "1", "--db", store_path)
    assert status == 0 and "winners  P1, P4" in out and "gap" not in out
    for words in ("5 players, the Empress P1", "P1 asks P2: P2 claims Trinket: Icon", "P1 draws 2 clues",
                  "undo of action 1", "P1 pays 5 to reveal P4: Anastasia", "P2 was the Thief",
                  "Anastasia revealed (ended); won: P1 P4"):
        assert words in out, words
    status, out, _ = _run(capsys, "replay", "1", "--db", store_path)
    assert status == 0 and "every digest matches" in out


def test_stats_count_the_gems_and_the_reveals(store_path, capsys):
    status, out, _ = _run(capsys, "stats", "--db", store_path)
    assert status == 0 and "GEMS AT END" in out
    table = [ln.split() for ln in out.splitlines() if ln.startswith("P")]
    rows = {cells[0]: cells[1:] for cells in table if len(cells) == 3}
    assert rows["P1"] == ["0", "1"] and rows["P4"][1] == "0"  # P1 paid her 5 gems for one reveal
