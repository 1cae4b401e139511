"""Which actions a solo Finding Anastasia state takes now, and why not: legal_actions() and the
checks of apply(). A mixin of engine.anastasia_solo.SoloState (its own module, so that neither
compiles big on a board)."""

from engine.anastasia_solo_rules import AUTOMA, GUESTS, OVER, PARTY, REMOVED, REVEAL, player_name
from engine.core import IllegalAction

ROLE_SEEN = ("anastasia", "other")  # what the table may say of a role it turned over (cards "table")

# action name -> its length, the name included
ACTION_SIZES = {"remove": 2, "draw": 1, "keep": 2, "reveal_clue": 3, "look": 3, "reveal_role": 2,
                "automa": 1, "role_seen": 2}


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class SoloMoves:
    def legal_actions(self):
        if self.phase == OVER:
            return []
        if self.phase == AUTOMA:
            return [["automa"]]
        if self.phase == REVEAL:
            return [["role_seen", seen] for seen in ROLE_SEEN]
        if self.drawn is not None:
            return [["keep", 0], ["keep", 1]]
        p = self.turn
        acts = []
        at_party = [g for g in range(1, GUESTS + 1) if self.present(g)]
        for g in at_party:
            acts.append(["remove", g])
        if self.clue_deck:
            acts.append(["draw"])
        purse = self.purses[p]
        for g in at_party:
            if self.clue_fee(g) <= purse:
                for s in self.guest(g).facedown_slots():
                    acts.append(["reveal_clue", g, s])
        if self.tokens_of(p) > 0:
            bit = 1 << p
            for g in at_party:
                x = self.guest(g)
                for s in x.facedown_slots():
                    if not x.looked[s] & bit:
                        acts.append(["look", g, s])
        for g in at_party:
            if not self.guest(g).role_shown:
                acts.append(["reveal_role", g])
        return acts

    def _guest_arg(self, action, what):
        g = action[1]
        if not _is_int(g) or not (1 <= g <= GUESTS):
            raise IllegalAction("%s names a guest 1-%d: got %r" % (what, GUESTS, action))
        x = self.guest(g)
        if x.status != PARTY:
            raise IllegalAction("Guest %d has %s the party" % (g, "been removed from" if x.status == REMOVED
                                                               else "left"))
        return g

    def _slot_arg(self, action, g):
        s = action[2]
        x = self.guest(g)
        if not _is_int(s) or not (0 <= s < len(x.clues)):
            raise IllegalAction("Guest %d has clues in slots 0-%d: got %r" % (g, len(x.clues) - 1, action))
        if x.revealed[s]:
            raise IllegalAction("Guest %d's clue in slot %d is already face up" % (g, s))
        return s

    def _check(self, action):
        if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
            raise IllegalAction('an action is a list like ["remove", 3] or ["draw"], got %r' % (action,))
        op = action[0]
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if op not in ACTION_SIZES:
            raise IllegalAction("unknown action %r (known: %s)" % (op, ", ".join(sorted(ACTION_SIZES))))
        if len(action) != ACTION_SIZES[op]:
            raise IllegalAction("%s takes %d argument%s: got %r"
                                % (op, ACTION_SIZES[op] - 1, "" if ACTION_SIZES[op] == 2 else "s", action))
        if self.phase == REVEAL:
            if op != "role_seen" or action[1] not in ROLE_SEEN:
                raise IllegalAction('Guest %d\'s role is turned over: say what it is, ["role_seen", '
                                    '"anastasia"] or ["role_seen", "other"]' % self.turned[0])
            return op, action[1]
        if op == "role_seen":
            raise IllegalAction("no role is being turned over")
        if self.phase == AUTOMA:
            if op != "automa":
                raise IllegalAction("the round is over: the automa takes its turn first")
            return op, None
        if op == "automa":
            left = self.actions_left
            raise IllegalAction("the automa plays after the round; %s still has %d action%s"
                                % (player_name(self.turn), left, "" if left == 1 else "s"))
        if self.drawn is not None:
            if op != "keep":
                raise IllegalAction("%s must first keep one of the two drawn clues" % player_name(self.turn))
            if not _is_int(action[1]) or action[1] not in (0, 1):
                raise IllegalAction("keep takes 0 (the top card) or 1: got %r" % (action,))
            return op, [action[1]]
        p = self.turn
        if op == "keep":
            raise IllegalAction("there is no drawn clue to keep")
        if op == "draw":
            if not self.clue_deck:
                raise IllegalAction("the clue deck is empty")
            return op, None
        g = self._guest_arg(action, op)
        if op == "remove":
            return op, [g]
        if op == "reveal_role":
            if self.guest(g).role_shown:
                raise IllegalAction("Guest %d's role is already face up" % g)
            return op, [g]
        s = self._slot_arg(action, g)
        if op == "reveal_clue":
            fee = self.clue_fee(g)
            if fee > self.purses[p]:
                raise IllegalAction("revealing a clue of Guest %d costs %d gem%s; %s has %d"
                                    % (g, fee, "" if fee == 1 else "s", player_name(p), self.purses[p]))
        else:  # look
            if self.tokens_of(p) <= 0:
                raise IllegalAction("%s has no token left" % ("the table" if self.shared_tokens()
                                                              else player_name(p)))
            if self.guest(g).looked[s] & (1 << p):
                raise IllegalAction("%s already looked at Guest %d's clue in slot %d"
                                    % (player_name(p), g, s))
        return op, [g, s]
