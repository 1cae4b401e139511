"""One Finding Anastasia ledger entry being made with the box's buttons (the mode's set-up of
an entry, step by step), from the decision the ledger waits for (state.frame()).

Steps: a buzzer (whose: a target, the responder), or a pick list (firmware/modes/menu.py:
ok next, back previous or cancel, the deciding player's buzzer chooses). press(bit) answers
    (ENTRY, entry)   complete: the mode enters it (GameMode.enter checks it)
    (REFUSE, why)    refused at once, nothing chosen is lost
    (MOVED, None)    the list moved or a step was taken: show it again
    (CANCEL, None)   back with nothing left to step back from
    (NONE, None)     not a button this step uses
A Reaction: while the active player picks the action after a claimed answer, another
player's buzzer is their Reaction; after a further question (the turn has passed) ok opens
it (react()), then their buzzer.
"""

from engine import anastasia_cards as cards
from engine.anastasia_ledger_checks import SELF_WORDS, TARGETED
from engine.anastasia_rules import player
from firmware.buttons import BACK_BIT, SEATS
from firmware.modes import anastasia_text as text
from firmware.modes.menu import CANCEL, CHOSEN, MOVED, NONE, Menu

ENTRY = 10
REFUSE = 11
# Entry name -> its steps after the name: "seat" (a buzzer), "column" + "space" (a clue
# space), "role" (a role card), "choice" (text.CHOICES).
STEPS = {
    "answer": ("seat", "column", "space"), "question": ("seat", "column", "space"),
    "look": ("seat",), "exchange": ("seat",), "snoop": ("seat",),
    "reveal": ("seat", "role"), "poison": ("seat", "role"), "reveal_self": ("role",),
    "peek": ("seat", "choice"), "allegiance": ("choice",), "collector_set": ("choice",), "role": ("role",),
}


class Draft:
    def __init__(self, game):
        frame = game.frame()
        self.game = game
        self.kind = frame[0]
        self.p = frame[1]
        self.name = None  # the entry's name once known
        self.args = []
        self.steps = []
        self.menu = None  # the pick list open now; None while a buzzer is awaited
        self.col = 0
        self.reacting = False
        self.values = None  # what the top pick list's items stand for
        if self.kind == "act":
            items = text.ACTIONS + ((text.PASS,) if frame[2] else ())
            self.values = [v for _, v in items]
            self.menu = Menu("%s %s" % (player(self.p), "FREE ACT" if frame[2] else "ACTS"),
                             [label for label, _ in items])
        elif self.kind in ("collector", "choose"):
            labels, self.values = text.CHOICES[self.kind]
            self.menu = Menu("%s %s" % (player(self.p), text.FRAME_TITLES[self.kind]), list(labels))
        else:
            self._begin("answer" if self.kind == "ask" else self.kind)

    def at_top(self):
        """Nothing chosen yet: back here is the game's undo."""
        if self.reacting:
            return False
        if self.values is not None:
            return self.name is None
        return len(self.steps) == len(STEPS.get(self.name, ()))

    def decider(self):
        """Whose buzzer chooses now: the responder picks the space they claim."""
        if self.name in ("answer", "question") and self.args:
            return self.args[0]
        return self.p

    def react(self):
        """ok at the start of a turn while a claimed answer may still be disproved."""
        if self.kind == "ask" and self.at_top() and self.game.react is not None:
            self.reacting = True
            return True
        return False

    def press(self, bit):
        if self.reacting:
            if bit < SEATS:
                return ENTRY, ["react", bit]
            if bit == BACK_BIT:
                self.reacting = False
                return MOVED, None
            return NONE, None
        if self.menu is None:  # a buzzer is awaited
            if bit >= SEATS:
                return (CANCEL, None) if bit == BACK_BIT else (NONE, None)
            if bit == self.p and self.name in TARGETED:
                return REFUSE, "%s cannot %s" % (player(self.p), SELF_WORDS[self.name])
            self.args.append(bit)
            self.steps.pop(0)
            return self._next()
        result = self.menu.press(bit)
        if result == CHOSEN:
            who = self.decider()
            if bit != who:
                if self.kind == "act" and self.name is None and self.game.react is not None:
                    return ENTRY, ["react", bit]
                return REFUSE, "out of turn: %s chooses now" % player(who)
            return self._chosen()
        if result == CANCEL:
            return CANCEL, None
        return (MOVED, None) if result == MOVED else (NONE, None)

    # ---- steps

    def _begin(self, name):
        self.name = name
        self.steps = list(STEPS.get(name, ()))
        if name == "role":
            self.args = [self.p]
        return self._next()

    def _chosen(self):
        i = self.menu.index
        if self.name is None:
            return self._begin(self.values[i])
        step = self.steps.pop(0)
        if step == "column":
            self.col = i
        elif step == "space":
            self.args.append(self.col * cards.CLUES_PER_CATEGORY + i)
        elif step == "role":
            self.args.append(self.roles[i])
        else:
            self.args.append(text.CHOICES[self.name][1][i])
        return self._next()

    def _next(self):
        if not self.steps:
            self.menu = None
            return ENTRY, [self.name] + self.args
        step = self.steps[0]
        who = player(self.decider())
        if step == "seat":
            self.menu = None
        elif step == "column":
            self.menu = Menu("%s: COLUMN" % who, list(text.COLUMNS))
        elif step == "space":
            self.menu = Menu("%s: %s" % (who, text.COLUMNS[self.col].upper()), text.space_labels(self.col))
        elif step == "role":
            self.roles = [r for r in self.game.possible if r != cards.EMPRESS]
            title = "ROLE OF %s" % player(self.args[0] if self.args else self.p)
            self.menu = Menu(title, text.role_labels(self.roles))
        else:
            labels = text.CHOICES[self.name][0]
            self.menu = Menu("%s %s" % (who, text.FRAME_TITLES.get(self.name, "PSYCHIC SAW")), list(labels))
        return MOVED, None
