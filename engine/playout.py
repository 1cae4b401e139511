"""Seeded random playouts: uniform choices among legal_actions(), shared by the tests,
`tablemate play` and the cross-runtime determinism check.

The decisions come from their own engine.rng.Rng, separate from the game's PRNG,
so a playout is a pure function of (game, seed, players, options) on CPython and
MicroPython alike.
"""

from engine.rng import Rng

# Mixed into the game seed so the decision stream differs from the game's shuffle stream.
DECISION_SALT = 0x1545F491


class RandomChooser:
    def __init__(self, seed):
        self.rng = Rng(seed ^ DECISION_SALT)

    def choose(self, state):
        return self.pick(state.legal_actions())

    def pick(self, actions):
        """One of a non-empty list of legal actions."""
        return actions[self.rng.below(len(actions))]


class KindChooser(RandomChooser):
    """Uniform over the kinds of action first (action[0]), then among the actions of that kind.

    Where one kind has many variants (every clue of every player to ask about) and another
    few (reveal a role), uniform choice would almost never pick the rare kind; this one
    picks every kind as often, so random games reach every rule and stay short.
    """

    def pick(self, actions):
        kinds = []
        for a in actions:
            if a[0] not in kinds:
                kinds.append(a[0])
        kind = kinds[self.rng.below(len(kinds))]
        same = [a for a in actions if a[0] == kind]
        return same[self.rng.below(len(same))]


def run(state, seed, before=None, after=None, max_steps=100000, chooser=None):
    """Play `state` to the end with choices seeded by `seed`; returns the number of steps.

    before(state, action) is called just before each apply, after(state, action)
    just after it. chooser (anything with choose(state) -> action) replaces the random
    choices, e.g. bots; default RandomChooser(seed). RuntimeError if the game is not over
    after max_steps actions.
    """
    if chooser is None:
        chooser = RandomChooser(seed)
    steps = 0
    while not state.is_over():
        if steps >= max_steps:
            raise RuntimeError("playout did not end within %d steps" % max_steps)
        action = chooser.choose(state)
        if before is not None:
            before(state, action)
        state.apply(action)
        steps += 1
        if after is not None:
            after(state, action)
    return steps


def playout(game, seed, players, after=None, **options):
    """New game of `game` (an engine module) with `seed`, played out randomly; returns the final state."""
    state = game.new_game(seed, players, **options)
    run(state, seed, after=after)
    return state
