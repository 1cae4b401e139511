"""Finding Anastasia ledger: the list of every entry that can be made now (legal_actions).

The simulations, the tests and the host list entries; the box checks the one entered and
never needs the list, so this is loaded only on first use.
"""

from engine import anastasia_cards as cards
from engine.anastasia_ledger_checks import FRAME_ENTRIES, SPACES


def legal_actions(self):
    """Every entry LedgerState `self` takes now."""
    out = []
    if self.is_over():
        return out
    if self.react is not None:
        for p in range(self.players):
            if self._react_problem(p) is None:
                out.append(["react", p])
    fr = self.frame()
    kind, p = fr[0], fr[1]
    n = self.players
    others = [t for t in range(n) if t != p]
    if kind == "role":
        for r in range(cards.ROLE_COUNT):
            if self.role_problem(p, r) is None:
                out.append(["role", p, r])
        return out
    for name in (FRAME_ENTRIES[kind] if kind in FRAME_ENTRIES else (kind,)):
        if name in ("answer", "question"):
            cands = [[name, t, c] for t in others for c in range(SPACES)]
        elif name in ("look", "exchange", "snoop"):
            cands = [[name, t] for t in others]
        elif name == "reveal" or name == "poison":
            cands = [[name, t, r] for t in others for r in self.possible]
        elif name == "reveal_self":
            cands = [[name, r] for r in self.possible]
        elif name == "peek":
            cands = [[name, t, v] for t in others for v in (1, 0)]
        elif name in ("allegiance", "collector_set"):
            cands = [[name, 1], [name, 0]]
        else:
            cands = [[name]]
        for e in cands:
            if self._problem(e[0], e[1:]) is None:
                out.append(e)
    return out
