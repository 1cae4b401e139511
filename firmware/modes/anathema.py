"""Anathema score keeper: who deals, the last deal, each hand's scores entered with the
buttons, totals to 21 (engine/anathema_score.py; docs/anathema-box.md).

The dealer's LED is lit and passes to the left after every hand. The dealer presses their
button after each deal (before the game's first deal, whoever presses deals first); the
last deal of a hand flashes the dealer's LED and the screen says LAST DEAL. After the
hand, step by step: the side(s) with the most cards (press to pick, two or more = a tie,
then ok), the same for the Familiars, one press per sweep (ok), one press per point of
the point cards (ok once all are in: the hand is scored). With partners either partner's
button counts for the side. Back clears a pick in progress, else undoes the last entry;
mode ends the game; ok before the first deal cycles the setup 2P, 3P, 4P, 2 v 2 and does
nothing at a deal. A side at 21 or more alone at the top wins: the game ends there, for good.
While a hand is scored the screen says in words what ok does ("ok: score hand"); the hint
row, too narrow for all three keys then, keeps back's and mode's.
"""

from firmware.buttons import BACK_BIT, OK_BIT
from firmware.modes.base import GameMode

SETUPS = ((2, False), (3, False), (4, False), (4, True))  # what ok cycles through before a game
MOST = ("cards", "familiars")  # the steps where sides are picked, then ok
TITLES = {"cards": "MOST CARDS +3", "familiars": "MOST FAMILIAR +1", "sweeps": "SWEEPS +1 EACH"}
HINTS = {"cards": "press, 2+ = tie", "familiars": "press, 2+ = tie", "sweeps": "press each sweep",
         "points": "press each point"}
OK_WORDS = {"cards": "enter pick", "familiars": "enter pick", "sweeps": "to points", "points": "score hand"}


class Mode(GameMode):
    ENGINE = "anathema_score"
    OK_IN_TEXT = True  # every scoring step's screen ends with "ok: ..."

    def __init__(self, ctx, options):
        super().__init__(ctx, options)
        self.pick = 0  # the sides picked for a "most" entry: bit s = side s
        self.note = None  # why the last entry was refused, shown until the next one
        self.last_deal = False  # the last deal was just dealt: say so until the next entry

    def game_options(self):
        v = self.values
        return {"partners": v["partners"] and self.players == 4, "target": v["target"],
                "most_tie": v["most_tie"], "top_tie": v["top_tie"]}

    def next_setup(self):
        now = (self.players, self.values["partners"] and self.players == 4)
        k = SETUPS.index(now) + 1 if now in SETUPS else 0
        players, partners = SETUPS[k % len(SETUPS)]
        return {"players": players, "partners": partners}

    # ---- hooks

    def on_game(self, event, now_ms):
        game = self.game
        if event != "roster":
            self.pick = 0
            self.note = "game resumed" if event == "resume" else None  # until the next entry
        if event == "action" and game.is_over():  # won, or ["end"] entered by a host
            self.end_game("won" if game.winning else "ended", now_ms)
            return
        self.last_deal = last_deal = event == "action" and game.step == "cards"  # only the last deal opens it
        if event in ("action", "undo"):
            self.ctx.sound.play("tie" if last_deal else "click", now_ms)
        self._leds(now_ms, last_deal)
        self.show()

    def on_player(self, seat, down, tick_us):
        if not down:
            return
        game = self.game
        now_ms = self.ctx.clock.now_ms()
        side = game.rules.side(seat)
        if game.step == "deal":
            self.enter(["deal", seat], now_ms)
        elif game.step in MOST:
            self.pick ^= 1 << side
            self.note = None
            self.last_deal = False
            self._leds(now_ms)
            self.show()
        else:
            self.enter(["sweep" if game.step == "sweeps" else "point", side], now_ms)

    def on_control(self, bit, now_ms):
        step = self.game.step
        if bit == BACK_BIT and self.pick:
            self.pick = 0
            self._leds(now_ms)
            self.show()
            return True
        if bit == OK_BIT and step in MOST:
            sides = [s for s in range(self.game.rules.sides) if self.pick >> s & 1]
            if sides:
                self.enter(["most_" + step, sides], now_ms)
            else:
                self.on_refused("press who has the most %s first" % step, now_ms)
            return True
        return False

    def setup_hint(self, setup):
        return "2V2" if setup["partners"] else "%dP" % setup["players"]

    def ok_hint(self):
        return OK_WORDS.get(self.game.step, "-")  # a deal is the dealer's press: ok does nothing

    def on_ok(self, now_ms):
        self.enter(["next"], now_ms)

    def on_refused(self, why, now_ms):
        self.note = why
        self.last_deal = False
        self.ctx.sound.play("error", now_ms)
        self.ctx.emit("refused", {"why": why})  # a front-end or a script sees why, not only the OLED
        self.show()

    def on_end(self, now_ms):
        game = self.game
        sides = game.winning
        leds = self.ctx.leds
        lines = [_cell(name, value) for name, value in self._rows()] + ["ok: new game"]
        if not sides:  # ended early: nobody reached the target, nobody won
            self.ctx.display.text(lines, title="GAME ENDED")
            leds.armed(now_ms)
            return
        names = self._side_names()
        won = "TIE: " + " ".join(names[s] for s in sides) if len(sides) > 1 else names[sides[0]] + " WINS"
        self.ctx.display.text(lines, title=won[:16])
        self.ctx.sound.play("winner", now_ms)
        seats = game.winners()
        if len(seats) == 1:
            leds.winner(seats[0], now_ms)
        else:  # partners, or a shared win: their LEDs take turns
            leds.tie(self._seats(sides), now_ms)

    def mode_status(self):
        game = self.game
        if game is None:
            return {}
        return {"hand": game.hand(), "step": game.step, "dealer": game.dealer + 1, "deals": game.deals,
                "last_deal": game.last_deal(), "partners": game.rules.partners,
                "pick": [s for s in range(game.rules.sides) if self.pick >> s & 1]}

    # ---- LEDs and screen

    def _seats(self, sides):
        """The LED mask of the seats of these sides."""
        mask = 0
        for p in range(self.players):
            if self.game.rules.side(p) in sides:
                mask |= 1 << p
        return mask

    def _leds(self, now_ms, last_deal=False):
        game = self.game
        leds = self.ctx.leds
        if game.step == "deal":
            leds.lit(1 << game.dealer, now_ms)
        elif last_deal:
            leds.winner(game.dealer, now_ms)  # flashes: "last deal!", then stays lit
        elif self.pick:
            leds.lit(self._seats([s for s in range(game.rules.sides) if self.pick >> s & 1]), now_ms)
        else:
            leds.armed(now_ms)

    def _names(self):
        return self.ctx.roster.seat_names(self.players)

    def _side_names(self):
        names = self._names()
        if not self.game.rules.partners:
            return names
        return [names[0] + "+" + names[2], names[1] + "+" + names[3]]

    def _rows(self):
        """(name, "total +hand") per side: this hand's points so far, or at a deal the last hand's."""
        game = self.game
        hand = game.hand_points()
        if game.step == "deal":
            hand = game.results[-1]["points"] if game.results else None
        names = self._side_names()
        rows = []
        for s in range(game.rules.sides):
            name = ("*" if self.pick >> s & 1 else "") + names[s]
            rows.append((name, "%d%s" % (game.totals[s], "" if hand is None else " %+d" % hand[s])))
        return rows

    def show(self):
        game = self.game
        step = game.step
        hints = [HINTS.get(step)]
        if step == "deal":
            last = game.deals == game.rules.deals - 1
            word = "LAST DEAL" if last else "DEAL"
            title = "H%d %s %d/%d" % (game.hand(), word, game.deals + 1, game.rules.deals)
            hints = ["%s: %s," % (self._names()[game.dealer], word.lower()), "press when dealt"]
            if game.dealer_free():  # the game's first deal (or all undone): anyone may deal
                hints = ["who deals: press"]
            if not self.session.recorded:  # before the first deal: the setup
                title = "ANATHEMA " + ("2V2" if game.rules.partners else "%dP" % self.players)
                hints.append("ok: players")
        elif self.last_deal:
            title = "LAST DEAL!"
            hints = ["play it out"]
        elif step == "points":
            title = "POINT CARDS %d/%d" % (sum(game.points), game.rules.point_total)
            if sum(game.points) == game.rules.point_total:
                hints = ["all in"]
        else:
            title = TITLES[step]
        ok = ["ok: " + OK_WORDS[step]] if step in OK_WORDS else []  # the hint row leaves ok out
        rows = self._rows()
        lines = [_cell(name, value) for name, value in rows]
        room = self.ctx.display.free_rows() - 1 - len(lines) - len(ok)
        if self.note and len(_wrap(self.note, 16, 9)) > room:  # two sides a row: room for why
            pairs = [rows[i:i + 2] for i in range(0, len(rows), 2)]
            lines = [" ".join(_cell(n, v.split()[0], 7) for n, v in pair) for pair in pairs]
            room = self.ctx.display.free_rows() - 1 - len(lines) - len(ok)
            if ok and len(_wrap(self.note, 16, 9)) > room:  # a host's long refusal: why comes first
                ok, room = [], room + 1
        lines.extend(_wrap(self.note, 16, room) if self.note else hints)
        self.ctx.display.text(lines + ok, title=title)

def _wrap(text, width, rows):
    """text in at most `rows` lines of `width`, broken between words where it can be."""
    lines = []
    while text and len(lines) < rows:
        cut = len(text) if len(text) <= width else text.rfind(" ", 0, width + 1)
        if cut <= 0:
            cut = width
        lines.append(text[:cut])
        text = text[cut:].lstrip()
    return lines


def _cell(name, value, width=16):
    """A name left and its value right in one screen row."""
    name = name[: max(width - len(value) - 1, 0)]
    return name + " " * (width - len(name) - len(value)) + value
