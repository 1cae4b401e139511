"""How each game reads on the host: `games show`, `games export --format csv` and `stats`
ask the view of a game's mode (its game_start "name") rather than assume face-offs.

A view gives the DETAIL text of a record, its CSV columns, and what a game adds to the
per-player statistics. Games of a mode without a view of its own read through GameView:
actions, scores and winners, never face-offs. A new mode adds a line to VIEWS if its
records carry more than that.
"""

from engine.anastasia_cards import EMPRESS
from host.words import count

TICK_MASK = (1 << 30) - 1  # face-off times are in the device's 30-bit µs tick domain
BASE_COLUMNS = ("seq", "kind", "t", "n", "action", "digest", "scores", "winners", "reason", "detail")


def seat(p):
    """A player as people number them (the records keep the engine's 0-based numbers)."""
    return "P%d" % (p + 1) if isinstance(p, int) and p >= 0 else str(p)


def seats(players):
    """[0, 2] -> 'P1 P3'; None stays None."""
    return None if players is None else " ".join(seat(p) for p in players)


class GameView:
    """Any game: its actions and their scores; who won each finished game. A view with
    `figures` ((key, column title), ...) and a `title` adds them to each PlayerStats.figures in tally(), and
    `tablemate stats` prints them as a table of their own."""

    kind = "game"
    title = ""
    columns = BASE_COLUMNS
    figures = ()
    won_reasons = ("ended",)  # the game_end reasons whose winners count as games won

    def of(self, game):
        """The view of one stored game (a view that reads a game in order keeps its place)."""
        return self

    def detail(self, rec):
        d = rec["data"]
        if rec["kind"] == "game_end":
            scores = d.get("scores")
            if isinstance(scores, list):
                scores = ", ".join("%s %s" % (seat(i), v) for i, v in enumerate(scores))
            return "scores %s; %s" % (scores, d.get("reason"))
        if "undo" in d:
            return "undo of action %s" % d.get("undo")
        return ""

    def action_text(self, rec):
        """The ACTION column: the action's name (its detail says it in words, players as P1...)."""
        d = rec["data"]
        if "undo" in d:
            return "undo"
        action = d.get("action")
        if isinstance(action, list) and action:
            return str(action[0])
        return "" if action is None else str(action)

    def row(self, rec):
        """A record as a CSV row; the detail is read in record order, as in `games show`."""
        d = rec["data"]
        row = {"seq": rec["seq"], "kind": rec["kind"], "t": rec["t"], "action": self.action_text(rec),
               "winners": seats(d.get("winners")), "detail": self.detail(rec)}
        for k in ("n", "digest", "scores", "reason"):
            row[k] = d.get(k)
        return row

    def tally(self, player, game, records):
        """Add one game to the players' statistics; player(i) is seat i's PlayerStats (or None)."""
        for i in range(len(game["players"])):
            ps = player(i)
            if ps:
                ps.games += 1
        if game["ended"] and game["reason"] in self.won_reasons:
            for w in game["winners"] or []:
                ps = player(w)
                if ps:
                    ps.games_won += 1


class FaceoffView(GameView):
    """The buzzer modes: each action record is a face-off with the arbiter's measurements."""

    kind = "faceoff"
    columns = BASE_COLUMNS[:6] + ("first_us", "gap_us", "tie", "tiebreak", "window_us", "presses") \
        + BASE_COLUMNS[6:]

    def action_text(self, rec):
        action = rec["data"].get("action")
        if "undo" in rec["data"] or not isinstance(action, list) or len(action) < 2:
            return GameView.action_text(self, rec)
        if action[0] == "win":
            loser = action[2] if len(action) > 2 else -1
            if loser < 0:
                return "%s alone" % seat(action[1])
            return "%s beats %s" % (seat(action[1]), seat(loser))
        if action[0] == "tie":
            return "tie %s" % seats(action[1:])
        return GameView.action_text(self, rec)

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
        for k in ("first_us", "gap_us", "tie", "tiebreak", "window_us"):
            row[k] = fo.get(k)
        presses = fo.get("presses")
        if isinstance(presses, list):
            presses = [[seat(p[0])] + p[1:] if isinstance(p, list) and p else p for p in presses]
        row["presses"] = presses
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


class HandView(GameView):
    """The Anathema score keeper: deals, each hand's entries by category, hands scored to 21
    (engine/anathema_score.py). Statistics per player come from the hands as the engine
    scored them on replay; partners share their side's figures."""

    kind = "hands"
    title = "Anathema hands (partners share their side's; most = hands that scored it)"
    won_reasons = ("won",)  # a game ended early has no winner
    figures = (("hands", "HANDS"), ("points", "POINTS"), ("most_cards", "MOST CARDS"),
               ("most_familiars", "MOST FAM"), ("sweeps", "SWEEPS"), ("card_points", "CARD PTS"))

    def __init__(self, game=None):
        self.partners = bool(game and (game.get("options") or {}).get("partners"))
        self.scores = None  # the scores before the record being read (detail reads in order)

    def of(self, game):
        return HandView(game)

    def side(self, s):
        return "P%d+P%d" % (s + 1, s + 3) if self.partners else "P%d" % (s + 1)

    def detail(self, rec):
        d = rec["data"]
        before, self.scores = self.scores, d.get("scores")
        action = d.get("action")
        if rec["kind"] != "action" or "undo" in d or not isinstance(action, list) or not action:
            return GameView.detail(self, rec)
        op, arg = action[0], action[1] if len(action) > 1 else None
        if op == "deal":
            return "P%d dealt" % (arg + 1) if isinstance(arg, int) else ""
        if op in ("most_cards", "most_familiars") and isinstance(arg, list):
            tie = " (tie)" if len(arg) > 1 else ""
            return "most %s: %s%s" % (op[5:].replace("_", " "), " ".join(self.side(s) for s in arg), tie)
        if op in ("sweep", "point") and isinstance(arg, int):
            return "%s +1 %s" % (self.side(arg), op)
        if op == "next":
            if before is None or self.scores == before:
                return "sweeps entered"
            return "hand scored: totals %s" % " ".join(str(s) for s in self.scores or [])
        return GameView.detail(self, rec)

    def tally(self, player, game, records):
        GameView.tally(self, player, game, records)
        from engine import gamelog_read

        try:
            state = gamelog_read.replay(records)
        except (gamelog_read.ReplayMismatch, ValueError):
            return  # an incomplete or damaged game: its games count, not its hands
        rules = state.rules
        for r in state.results:
            for p in range(state.players):
                ps = player(p)
                if ps is None:
                    continue
                s = rules.side(p)
                f = ps.figures
                f["hands"] = f.get("hands", 0) + 1
                for key in ("points", "sweeps", "card_points"):
                    f[key] = f.get(key, 0) + r[key][s]
                for key in ("most_cards", "most_familiars"):
                    f[key] = f.get(key, 0) + (1 if r[key][s] else 0)


END_WORDS = {"anastasia": "Anastasia revealed", "impostor": "the Impostor revealed",
             "collector": "a Collector declared", "red_army_spy": "the Red Army Spy's last round"}


class LedgerView(GameView):
    """Finding Anastasia on the box (engine/anastasia_ledger.py): each entry in the ledger's
    own words (who asked whom, what was claimed, who paid to reveal whom), the end effect and
    the winners; per player the gems held at the end and the roles they revealed."""

    kind = "ledger"
    title = "Finding Anastasia (gems at the end; roles revealed, the Empress's own not counted)"
    figures = (("gems", "GEMS AT END"), ("reveals", "REVEALED"))

    def __init__(self, game=None):
        self.state = None  # the ledger before the record being read (detail reads in order)
        self.standing = []
        self.start = None

    def of(self, game):
        return LedgerView(game)

    def _rebuild(self):
        engine, seed, players, options = self.start
        self.state = engine.new_game(seed, players, **options)
        for entry in self.standing:
            self.state.apply(entry)

    def detail(self, rec):
        """The record in the game's words; the records are read in order, the state kept."""
        from engine import gamelog_read
        from engine.core import IllegalAction

        d = rec["data"]
        try:
            if rec["kind"] == "game_start":
                self.start = gamelog_read.new_game_args(d)
                self.standing = []
                self._rebuild()
                return self._started()
            if self.state is None or rec["kind"] != "action":
                return self._end(rec) if rec["kind"] == "game_end" else GameView.detail(self, rec)
            if "undo" in d:
                self.standing.pop()
                self._rebuild()
                return "undo of action %s" % d.get("undo")
            action = d.get("action")
            words = self._words(action)
            self.state.apply(action)
            self.standing.append(action)
            return self._after(action, words)
        except (IllegalAction, ValueError, TypeError, IndexError, KeyError):
            self.state = None  # records that do not replay: the plain view from here on
            return GameView.detail(self, rec)

    def _started(self):
        empress = self.state.empress
        who = "the Empress P%d" % (empress + 1) if empress >= 0 else "no Empress"
        return "%d players, %s" % (self.state.players, who)

    def _words(self, action):
        """The action in words, said before it is applied."""
        return self.state.describe(action)

    def _after(self, action, words):
        """The words once the action is applied (a view may add what it did)."""
        return words

    def _end(self, rec):
        d = rec["data"]
        ended = self.state.ended if self.state is not None else None
        why = END_WORDS.get(ended, str(ended)) if ended else "ended before an end effect"
        won = " ".join("P%d" % (p + 1) for p in d.get("winners") or [])
        return "%s (%s); won: %s" % (why, d.get("reason"), won or "nobody")

    def tally(self, player, game, records):
        GameView.tally(self, player, game, records)
        from engine import gamelog_read

        try:
            state = gamelog_read.replay(records)
        except (gamelog_read.ReplayMismatch, ValueError):
            return  # an incomplete or damaged game: its games count, not its gems
        for p in range(state.players):
            ps = player(p)
            if ps is None:
                continue
            f = ps.figures
            f["gems"] = f.get("gems", 0) + state.purses[p]
            shown = [q for q in range(state.players)
                     if state.revealed_by[q] == p and state.roles[q] != EMPRESS]
            f["reveals"] = f.get("reveals", 0) + len(shown)


SOLO_ENDS = {"found": "P%(by)s found Anastasia (Guest %(guest)s)",
             "automa_found": "the automa revealed Anastasia (Guest %(guest)s)",
             "all_out": "every player was out", "none_hidden": "Anastasia left or was removed unseen"}


class SoloView(LedgerView):
    """Finding Anastasia for 1-3 players on the box (engine/anastasia_solo.py, cards on the
    table): each action in words, each automa turn as the engine resolved it, how it ended."""

    kind = "solo"
    title = ""
    figures = ()

    def of(self, game):
        return SoloView(game)

    def _started(self):
        opts = self.state.options
        deck = "own deck" if opts["automa_deck"] else "%s deck" % opts["difficulty"]
        away = ", guests away: %s" % " ".join(str(g) for g in opts["away"]) if opts["away"] else ""
        return "%s, %s%s" % (count(self.state.players, "player"), deck, away)

    def _after(self, action, words):
        if action == ["automa"] or (self._by_automa and self.state.phase != "reveal"):
            words += " ".join([""] + self.state.describe_automa())  # the turn as resolved
        return words

    def _words(self, action):
        s = self.state
        op = action[0]
        who = "P%d" % (s.turn + 1)
        self._by_automa = False
        if op == "automa":
            return "the automa's turn:"
        if op == "role_seen":
            g, by = s.turned
            self._by_automa = by < 0
            return "the table: Guest %d is %sAnastasia" % (g, "" if action[1] == "anastasia" else "not ")
        if op == "draw":
            return "%s draws a clue" % who
        g = action[1]
        if op == "remove":
            return "%s removes Guest %d (+%s)" % (who, g, count(s.guest(g).gems, "gem"))
        if op == "reveal_role":
            return "%s turns Guest %d's role over" % (who, g)
        if op == "reveal_clue":
            fee = s.clue_fee(g)
            return "%s reveals Guest %d's card %d (%s)" % (who, g, action[2] + 1, count(fee, "gem"))
        return "%s looks at Guest %d's card %d (a token)" % (who, g, action[2] + 1)

    def _end(self, rec):
        d = rec["data"]
        result = self.state.result if self.state is not None else None
        why = SOLO_ENDS.get(result["reason"], result["reason"]) % {
            "by": result["by"] + 1, "guest": result["guest"]} if result else "ended before the end"
        won = " ".join("P%d" % (p + 1) for p in d.get("winners") or [])
        return "%s (%s); won: %s" % (why, d.get("reason"), won or "nobody")

    def tally(self, player, game, records):
        GameView.tally(self, player, game, records)


# mode name (game_start "name") -> its view
VIEWS = {"anomia": FaceoffView(), "anathema": HandView(), "anastasia": LedgerView(),
         "anastasia_solo": SoloView()}
DEFAULT = GameView()


def view_for(game):
    """The view of a stored game (a host.db games row)."""
    return VIEWS.get(game.get("name"), DEFAULT).of(game)
