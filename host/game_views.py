"""How each game reads on the host: `games show`, `games export --format csv` and `stats`
ask the view of a game's mode (its game_start "name") rather than assume face-offs.

A view gives the DETAIL text of a record, its CSV columns, and what a game adds to the
per-player statistics. Games of a mode without a view of its own read through GameView:
actions, scores and winners, never face-offs. A new mode adds a line to VIEWS if its
records carry more than that.
"""

TICK_MASK = (1 << 30) - 1  # face-off times are in the device's 30-bit µs tick domain
BASE_COLUMNS = ("seq", "kind", "t", "n", "action", "digest", "scores", "winners", "reason")


class GameView:
    """Any game: its actions and their scores; who won each finished game."""

    kind = "game"
    columns = BASE_COLUMNS

    def detail(self, rec):
        d = rec["data"]
        if rec["kind"] == "game_end":
            return "scores %s, %s" % (d.get("scores"), d.get("reason"))
        if "undo" in d:
            return "undo of action %s" % d.get("undo")
        return ""

    def row(self, rec):
        d = rec["data"]
        row = {"seq": rec["seq"], "kind": rec["kind"], "t": rec["t"]}
        for k in ("n", "action", "digest", "scores", "winners", "reason"):
            row[k] = d.get(k)
        return row

    def tally(self, player, game, records):
        """Add one game to the players' statistics; player(i) is seat i's PlayerStats (or None)."""
        for i in range(len(game["players"])):
            ps = player(i)
            if ps:
                ps.games += 1
        if game["ended"] and game["reason"] == "ended":
            for w in game["winners"] or []:
                ps = player(w)
                if ps:
                    ps.games_won += 1


class FaceoffView(GameView):
    """The buzzer modes: each action record is a face-off with the arbiter's measurements."""

    kind = "faceoff"
    columns = BASE_COLUMNS[:6] + ("first_us", "gap_us", "tie", "tiebreak", "window_us", "presses") \
        + BASE_COLUMNS[6:]

    def detail(self, rec):
        fo = rec["data"].get("faceoff")
        if isinstance(fo, dict):
            gap = fo.get("gap_us")
            return "gap %s%s%s" % ("-" if gap is None else "%.3f ms" % (gap / 1000.0),
                                   " tie" if fo.get("tie") else "", " tiebreak" if fo.get("tiebreak") else "")
        return GameView.detail(self, rec)

    def row(self, rec):
        row = GameView.row(self, rec)
        fo = rec["data"].get("faceoff") if isinstance(rec["data"].get("faceoff"), dict) else {}
        for k in ("first_us", "gap_us", "tie", "tiebreak", "window_us", "presses"):
            row[k] = fo.get(k)
        return row

    def tally(self, player, game, records):
        GameView.tally(self, player, game, records)
        for ev in faceoff_events(records):
            if ev[0] == "win":
                ps = player(ev[1])
                if ps:
                    ps.won += 1
                    if ev[2] is not None:
                        ps.gaps_us.append(ev[2])
            else:
                for i in ev[1]:
                    ps = player(i)
                    if ps:
                        ps.ties += 1


def _tied_players(action, faceoff):
    if len(action) >= 3:
        return list(action[1:])
    # An engine whose tie action names nobody: the players who pressed within the window.
    first, window = faceoff.get("first_us"), faceoff.get("window_us")
    if not isinstance(first, int) or not isinstance(window, int):
        return []
    return [p[0] for p in faceoff.get("presses") or [] if ((p[1] - first) & TICK_MASK) <= window]


def faceoff_events(records):
    """The face-off outcomes that stand at the end of a game: [("win", player, gap_us|None) |
    ("tie", [players])], undone ones removed."""
    actions = [r for r in records if r["kind"] == "action"]
    actions.sort(key=lambda r: (r["data"].get("n", 0), r["seq"]))
    events = []
    for rec in actions:
        d = rec["data"]
        action = d.get("action")
        if "undo" in d or action == ["undo"]:
            if events:
                events.pop()
            continue
        if not isinstance(action, list) or not action:
            continue
        faceoff = d.get("faceoff") if isinstance(d.get("faceoff"), dict) else {}
        op = action[0]
        if op == "win" and len(action) >= 2:
            gap = faceoff.get("gap_us")
            measured = isinstance(gap, int) and not faceoff.get("tie")
            events.append(("win", action[1], gap if measured else None))
        elif op == "tie":
            events.append(("tie", _tied_players(action, faceoff)))
    return events


# mode name (game_start "name") -> its view
VIEWS = {"anomia": FaceoffView()}
DEFAULT = GameView()


def view_for(game):
    """The view of a stored game (a host.db games row)."""
    return VIEWS.get(game.get("name"), DEFAULT)
