"""Finding Anastasia ledger: the gem flows, the reveal effects and the end (engine.anastasia_ledger).

Methods of LedgerState kept in their own module, as its checks are (anastasia_ledger_checks):
MicroPython compiles a module from its whole parse tree, and smaller modules load on a
heap too fragmented for one big compile.
"""

from engine import anastasia_cards as cards
from engine import anastasia_rules as rules
from engine.anastasia_ledger_checks import LedgerChecks

ROWS = cards.CLUES_PER_CATEGORY


class LedgerFlows(LedgerChecks):
    """Methods of LedgerState (its fields are set there)."""

    # -- gems ------------------------------------------------------------------
    def gems(self):
        """Where every gem is: {"supply": n, "purses": [per seat], "spaces": [15, by card id]}."""
        return {"supply": self.supply, "purses": list(self.purses), "spaces": list(self.spaces)}

    def _from_supply(self, n, whole):
        """How many of n gems the supply pays; whole: the payment is one indivisible lot."""
        if self.supply >= n:
            return n
        if self.rules["short_supply"] == "all_or_nothing" and whole:
            return 0
        return self.supply

    def _receive(self, p, n):
        got = self._from_supply(n, True)
        self.supply -= got
        self.purses[p] += got

    def _pay(self, p, n):
        self.purses[p] -= n
        self.supply += n

    def _answer(self, t, card):
        """t claims card: t's token of that column moves there, t takes the space's gems and
        each other space of the column gets one from the supply (top down while it lasts)."""
        col = card // ROWS
        self.tokens[t][col] = card % ROWS
        self.purses[t] += self.spaces[card]
        self.spaces[card] = 0
        first = col * ROWS
        if self._from_supply(ROWS - 1, True) == 0:
            return
        for s in range(first, first + ROWS):
            if s != card and self.supply > 0:
                self.supply -= 1
                self.spaces[s] += 1

    def _deal(self, p):
        if self.deck > 0:
            self.deck -= 1
            self.hands[p] += 1

    # -- roles -------------------------------------------------------------------
    def _seat_of(self, role):
        for p in range(self.players):
            if self.roles[p] == role:
                return p
        return -1

    def _reveal(self, t, role, by, poisoned):
        self.roles[t] = role
        self.revealed_by[t] = by
        self.poisoned[t] = poisoned
        if role == cards.ANASTASIA:
            self._end("anastasia")
        elif role == cards.IMPOSTOR:
            self._end("impostor")
        elif role == cards.COLLECTOR:
            self.stack.append(["collector", t])
        elif role == cards.FAMILY_FRIEND:
            if self.empress >= 0:
                self._deal(self.empress)
            elif self.rules["empress_clue_without_empress"] == "family_friend":
                self._deal(t)
            self._receive(t, rules.FAMILY_FRIEND_GEMS)
        elif role == cards.GOSSIP:
            self.stack.append(["snoop", t])
        elif role == cards.MISINFORMANT:
            self.stack.append(["choose", t, self.players])
        elif role == cards.PSYCHIC:
            self.stack.append(["peek", t])
        elif role == cards.RASPUTINS_AGENT:
            self.stack.append(["poison", t])
        elif role == cards.RED_ARMY_SPY:
            self.spy_end = self.turn_no + self.players
        elif role == cards.THIEF:
            n = self.players
            for i in range(1, n):
                q = (t + i) % n
                if self.purses[q] >= rules.THIEF_STEAL:
                    self.purses[q] -= rules.THIEF_STEAL
                    self.purses[t] += rules.THIEF_STEAL
                elif self.rules["thief_empty_purse"] == "supply":
                    self._receive(t, rules.THIEF_STEAL)
            self.stack.append(["act", t, 1])

    def _end(self, reason):
        self.ended = reason
        self.stack = []
        self.react = None

    def _finish(self):
        """Nothing more to decide in this turn: the next player's turn, or the Spy's end."""
        if self.ended is not None or self.stack:
            return
        if self.spy_end == self.turn_no:
            self._end("red_army_spy")
            return
        self.turn = (self.turn + 1) % self.players
        self.turn_no += 1
        self.stack.append(["ask", self.turn])

    # -- the end -----------------------------------------------------------------
    def _role_entry_seat(self):
        for p in range(self.players):
            if self.roles[p] < 0:
                return p
        return -1

    def _collector_question(self):
        """The Collector's seat if the end still needs to know whether they hold a full set."""
        if self.rules["collector_must_declare"] or self.declared >= 0 or self.collector_set >= 0:
            return -1
        c = self._seat_of(cards.COLLECTOR)
        if c < 0 or self.poisoned[c]:
            return -1
        return c

    def end_seat(self):
        """After an end effect: who enters next (a role, else the Collector's set); -1 when done."""
        p = self._role_entry_seat()
        if p >= 0:
            return p
        return self._collector_question()

    def _revealed_by_agent(self, p):
        by = self.revealed_by[p]
        return by >= 0 and self.roles[by] == cards.RASPUTINS_AGENT

    def anastasia_wins(self):
        """Anastasia was revealed, and not by Rasputin's Agent (so not poisoned either)."""
        a = self._seat_of(cards.ANASTASIA)
        return a >= 0 and self.revealed_by[a] >= 0 and not self._revealed_by_agent(a)

    def _wins(self, p):
        if self.poisoned[p]:
            return False
        role = self.roles[p]
        a = self._seat_of(cards.ANASTASIA)
        ana = self.anastasia_wins()
        revealer = self.revealed_by[a] if a >= 0 else -1  # who revealed Anastasia, if anyone
        if role == cards.ANASTASIA:
            return ana
        if role == cards.IMPOSTOR:
            return self.revealed_by[p] >= 0 and not self._revealed_by_agent(p)
        if role in (cards.EMPRESS, cards.PSYCHIC, cards.THIEF):
            return revealer == p
        if role == cards.FAMILY_FRIEND:
            return revealer >= 0 and revealer in (p, self.empress)
        if role == cards.GOSSIP:
            return self.allegiance >= 0 and (self.allegiance == 1) == ana
        if role == cards.COLLECTOR:
            return self.declared == p or self.collector_set == 1
        return not ana  # Misinformant, Rasputin's Agent, Red Army Spy
