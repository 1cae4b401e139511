"""Anomia buzzer scorekeeper: the winning-pile counts the box keeps while the cards are physical.

The box cannot see the cards, so this engine knows only what the buzzers and the
players tell it: who won each face-off (and whose top card they took), ties and
their tie-breakers, undo and the end of the game. Same API as every engine.

Actions (JSON-safe lists):
  ["win", winner, loser]  winner takes loser's top card: winner's pile +1.
                          loser is -1 when unknown (only one player buzzed).
  ["tie", a, b, ...]      two or more players (ascending) tied; the next
                          face-off is a tie-breaker among exactly them. A tie
                          within a tie-breaker (among some of its players)
                          starts another tie-breaker among those.
  ["undo"]                reverts the last win or tie (scores and tie-breaker).
  ["end"]                 ends the game.

current_player() is core.SIMULTANEOUS while the game runs (every face-off is a
race) and core.TERMINAL once it is over.
"""

from engine.core import SIMULTANEOUS, TERMINAL, IllegalAction, action_name, digest_of
from engine.rng import Rng

MIN_PLAYERS = 3
MAX_PLAYERS = 8
OPTIONS = {}
STATE_VERSION = 1
UNDO_ACTION = ["undo"]
NOBODY = -1  # the loser of a face-off nobody else buzzed in
HISTORY_LIMIT = 64  # undo depth; bounded so a long game keeps a bounded state
# An undo history entry is one small int, [op, a, b, mask] packed (see pack_entry): a small
# int lives in the list's own slot, so a full history holds no object per entry.
_ENTRY_OPS = ("win", "tie")


def _names(players):
    return ", ".join("P%d" % (p + 1) for p in players)


def _mask(players):
    m = 0
    for p in players or ():
        m |= 1 << p
    return m


def _players(mask):
    """The ascending player list of a mask; None for 0."""
    if not mask:
        return None
    return [p for p in range(MAX_PLAYERS) if mask >> p & 1]


def pack_entry(op, a, b, mask):
    """A history entry as one small int: op (win 0, tie 1), a (3 bits), b + 1 (4 bits: b
    may be NOBODY), the tie-breaker pending before it as a player mask (8 bits)."""
    return (op == "tie") | a << 1 | (b + 1) << 4 | mask << 8


def _unpack_entry(e):
    return [_ENTRY_OPS[e & 1], e >> 1 & 7, (e >> 4 & 15) - 1, e >> 8]


def _ties_among(players):
    """Every tie action among two or more of players (members ascending)."""
    players = sorted(players)
    out = []
    for mask in range(3, 1 << len(players)):
        if mask & (mask - 1):
            out.append(["tie"] + [players[i] for i in range(len(players)) if mask >> i & 1])
    return out


class AnomiaScore:
    def __init__(self, players, rng):
        self.players = players
        self.rng = rng  # unused by the rules; kept so every engine saves a PRNG state
        self.piles = [0] * players
        self.tiebreak = None  # [a, b] while a tie-breaker is pending
        self.history = []  # stack of applied actions that undo can revert (pack_entry)
        self.faceoffs = 0
        self.over = False

    # -- common API --------------------------------------------------------
    def current_player(self):
        return TERMINAL if self.over else SIMULTANEOUS

    def legal_actions(self):
        if self.over:
            return []
        acts = []
        if self.tiebreak:
            tied = self.tiebreak
            for w in tied:
                acts.append(["win", w, NOBODY])
                for lo in tied:
                    if lo != w:
                        acts.append(["win", w, lo])
            acts.extend(_ties_among(tied))
        else:
            for w in range(self.players):
                acts.append(["win", w, NOBODY])
                for lo in range(self.players):
                    if lo != w:
                        acts.append(["win", w, lo])
            acts.extend(_ties_among(list(range(self.players))))
        if self.history:
            acts.append(["undo"])
        acts.append(["end"])
        return acts

    def apply(self, action):
        self._check(action)
        op = action[0]
        if op == "win":
            self.piles[action[1]] += 1
            self.faceoffs += 1
            self._push("win", action[1], action[2])
            self.tiebreak = None
        elif op == "tie":
            self._push("tie", action[1], action[2])
            self.tiebreak = list(action[1:])
        elif op == "undo":
            last = self.history.pop()
            if not last & 1:  # a win
                self.piles[last >> 1 & 7] -= 1
                self.faceoffs -= 1
            self.tiebreak = _players(last >> 8)
        else:
            self.over = True

    def _push(self, op, a, b):
        # The pending tie-breaker before this action is kept as a bitmask: every history
        # entry is then one small int, so a full history has a fixed size.
        self.history.append(pack_entry(op, a, b, _mask(self.tiebreak)))
        if len(self.history) > HISTORY_LIMIT:
            self.history.pop(0)

    def _check(self, action):
        op = action_name(action, self.over)
        if op in ("undo", "end"):
            if len(action) != 1:
                raise IllegalAction("%s takes no arguments" % op)
            if op == "undo" and not self.history:
                raise IllegalAction("nothing to undo")
            return
        if op == "tie":
            self._check_tie(action[1:])
            return
        if op != "win" or len(action) != 3:
            raise IllegalAction("unknown action %r" % (action,))
        w, lo = action[1], action[2]
        self._check_player(w, False)
        self._check_player(lo, True)
        if w == lo:
            raise IllegalAction("a face-off needs two different players")
        tb = self.tiebreak
        if tb and (w not in tb or (lo != NOBODY and lo not in tb)):
            raise IllegalAction("only %s may take part in the pending tie-breaker" % _names(tb))

    def _check_player(self, p, may_be_nobody):
        if not isinstance(p, int) or isinstance(p, bool) or p >= self.players or p < NOBODY \
                or (p == NOBODY and not may_be_nobody):
            raise IllegalAction("no player %r in a %d-player game" % (p, self.players))

    def _check_tie(self, tied):
        if len(tied) < 2:
            raise IllegalAction("a tie needs two or more players")
        last = NOBODY
        for p in tied:
            self._check_player(p, False)
            if p <= last:
                raise IllegalAction("tied players must be distinct and ascending, got %r" % (list(tied),))
            last = p
        tb = self.tiebreak
        if tb:
            for p in tied:
                if p not in tb:
                    raise IllegalAction("only %s may take part in the pending tie-breaker" % _names(tb))

    def is_over(self):
        return self.over

    def scores(self):
        return list(self.piles)

    def winners(self):
        """Every player with the biggest pile once the game is over; [] before."""
        if not self.over:
            return []
        best = max(self.piles)
        return [p for p in range(self.players) if self.piles[p] == best]

    def to_dict(self):
        return {
            "game": "anomia_score",
            "version": STATE_VERSION,
            "players": self.players,
            "rng": self.rng.state(),
            "piles": list(self.piles),
            "tiebreak": list(self.tiebreak) if self.tiebreak else None,
            "history": [_unpack_entry(h) for h in self.history],
            "faceoffs": self.faceoffs,
            "over": self.over,
        }

    def digest(self):
        return digest_of(self.to_dict())


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def new_game(seed, players, **options):
    if options:
        raise ValueError("anomia_score takes no options, got %s" % ", ".join(sorted(options)))
    if not _is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError("anomia_score needs %d-%d players, got %r" % (MIN_PLAYERS, MAX_PLAYERS, players))
    if not _is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    return AnomiaScore(players, Rng(seed))


def from_dict(d):
    """Rebuild a state saved by to_dict(); BadState for anything a game could not have reached.

    A saved state without "version" (written before states carried one) reads as version 1.
    The checks live in engine/anomia_score_saved.py, loaded only when a state is read: the
    box's decision path never holds them.
    """
    from engine.anomia_score_saved import load

    return load(d)
