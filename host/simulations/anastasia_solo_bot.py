"""The baseline player of solo Finding Anastasia: a careful detective who reasons from what
a player at the table may know (docs/anastasia-solo.md, "Simulation").

It reads only state.view(seat) (face-up cards, the clues it looked at itself, gems, tokens,
the automa's last turn) and the automa deck's printed cards (state.deck_cards): never a
hidden card.

What it knows: Anastasia's invite holds one Location, one Trinket and one Story; every
other guest's holds a Blank and two real clues. So a Blank, or two clues of one category,
clears a guest, and three different categories convict one. The automa's exchanges move
cards between guests and its draws add cards: the bot follows each card from the guest it
was dealt to (the automa's record names the slots), so a clue seen anywhere still speaks
of the guest it was dealt to.

What it does with each action:
1. It names the likeliest guest at the party once that guest is Anastasia with probability
   reveal_at or more (1.0 by default: only when sure).
2. Otherwise it learns: of every face-down clue it has not seen, it takes the one whose
   sight lowers the uncertainty (entropy) about who Anastasia is the most per cost, by
   looking (a token, worth TOKEN_COST gems) or by revealing it (its fee), whichever is
   cheaper and possible.
3. Short of gems and tokens for that, it removes a cleared guest with gems beneath it.
4. With nothing useful to do it draws a clue (it changes nothing at the party), else
   removes a cleared guest, else names the likeliest guest.
A drawn pair: it keeps the top card (clue identities do not matter to this reasoning).
"""

import math

from engine import anastasia_automa, anastasia_cards
from engine.anastasia_solo_rules import GUESTS, PARTY

LOCATION, TRINKET, STORY, BLANK = (anastasia_cards.LOCATION, anastasia_cards.TRINKET,
                                   anastasia_cards.STORY, anastasia_cards.BLANK)
FROM_DECK = 0  # the origin of a card a guest drew from the clue deck: nobody's invite

# The category make-up of an invite, with its probability. Anastasia: one of each real
# category. Another guest: a Blank and two clues drawn from the twelve real clues left
# (four per category) once Anastasia's three are out.
ANASTASIA_HANDS = (((LOCATION, TRINKET, STORY), 1.0),)
OTHER_HANDS = tuple(((BLANK, x, y), (6.0 if x == y else 16.0) / 66.0)
                    for x in (LOCATION, TRINKET, STORY) for y in (LOCATION, TRINKET, STORY) if x <= y)

TOKEN_COST = 2  # a look is worth this many gems: 2 tokens solo against 10 gems
CERTAIN = 1.0 - 1e-9


_chances = {}  # (sorted categories seen, hands) -> sight_chance: a few dozen keys in all


def sight_chance(seen, hands):
    """The chance that the cards seen (categories, in any order) are part of an invite dealt
    as `hands` [(categories, probability)]."""
    key = (tuple(sorted(seen)), hands)
    if key not in _chances:
        _chances[key] = _sight_chance(seen, hands)
    return _chances[key]


def _sight_chance(seen, hands):
    total = 0.0
    for hand, p in hands:
        left = list(hand)
        chance = p
        for c in seen:
            if c not in left:
                chance = 0.0
                break
            chance *= left.count(c) / len(left)
            left.remove(c)
        total += chance
    return total


class BaselineBot:
    def __init__(self, seat, seed=0, reveal_at=1.0):
        self.seat = seat
        self.reveal_at = reveal_at
        self.origin = None  # origin[g - 1][s]: the guest whose invite the card in Guest g's slot s was
        self.followed_round = 0  # the last round whose automa turn was followed

    # -- what the table shows -------------------------------------------------
    def follow_automa(self, state, view):
        """Move the cards' origins as the automa's latest turn moved the cards."""
        rec = view["last_automa"]
        if rec is None or rec["round"] <= self.followed_round:
            return
        self.followed_round = rec["round"]
        card = anastasia_automa.parse_card(state.deck_cards[rec["card"]])
        for a in range(len(rec["actions"])):
            outcome = rec["actions"][a]
            if outcome["tier"] < 0:
                continue
            tier = card["actions"][a][outcome["tier"]]
            if tier[0] == "exchange":
                ga, gb = tier[1], tier[2]
                sa, sb = outcome["did"]["slots"]
                oa, ob = self.origin[ga - 1], self.origin[gb - 1]
                oa[sa], ob[sb] = ob[sb], oa[sa]
            elif tier[0] == "draw":
                self.origin[tier[1] - 1].append(FROM_DECK)

    def seen_by_origin(self, view):
        """For each guest 1-6, the categories seen of the cards dealt to it."""
        seen = [[] for _ in range(GUESTS + 1)]
        for g in range(GUESTS):
            for s, card in enumerate(view["clues"][g]):
                if card is not None:
                    seen[self.origin[g][s]].append(anastasia_cards.clue_category(card))
        return seen

    def belief(self, view, seen):
        """[P(Guest g is Anastasia) for g in 1-6] from what has been seen (index 0 unused)."""
        weights = [0.0] * (GUESTS + 1)
        sure = []
        for g in range(1, GUESTS + 1):
            if view["role_shown"][g - 1]:
                continue  # shown and the game goes on: not her
            as_her = sight_chance(seen[g], ANASTASIA_HANDS)
            as_other = sight_chance(seen[g], OTHER_HANDS)
            if as_her == 0.0:
                continue
            if as_other == 0.0:
                sure.append(g)
            else:
                weights[g] = as_her / as_other
        if sure:
            weights = [0.0] * (GUESTS + 1)
            for g in sure:
                weights[g] = 1.0
        total = sum(weights)
        return [w / total for w in weights] if total else weights

    # -- choosing --------------------------------------------------------------------
    def choose(self, state):
        view = state.view(self.seat)
        if view["drawn"] is not None:
            return ["keep", 0]
        if self.origin is None:
            self.origin = [[g] * len(view["clues"][g - 1]) for g in range(1, GUESTS + 1)]
        self.follow_automa(state, view)
        seen = self.seen_by_origin(view)
        belief = self.belief(view, seen)
        at_party = [g for g in range(1, GUESTS + 1) if view["status"][g - 1] == PARTY]
        suspects = [g for g in at_party if not view["role_shown"][g - 1]]
        best = max(suspects, key=lambda g: belief[g]) if suspects else None
        if best is not None and belief[best] >= min(self.reveal_at, CERTAIN):
            return ["reveal_role", best]
        purse = view["purses"][self.seat]
        tokens = view["tokens"][0 if len(view["tokens"]) == 1 else self.seat]
        learn, wanted = self.best_sight(view, seen, belief, at_party, purse, tokens)
        if learn is not None:
            return learn
        cleared = sorted((g for g in at_party if belief[g] == 0.0),
                         key=lambda g: -view["beneath"][g - 1])
        rich = [g for g in cleared if view["beneath"][g - 1] > 0]
        if wanted and rich:
            return ["remove", rich[0]]
        if view["clue_deck"] > 0:
            return ["draw"]
        if cleared:
            return ["remove", cleared[0]]
        if best is not None:
            return ["reveal_role", best]
        return ["remove", at_party[0]]  # no role left to find at the party: the game ends now

    def best_sight(self, view, seen, belief, at_party, purse, tokens):
        """(the action that learns the most per cost, whether a useful sight was out of reach)."""
        bit = 1 << self.seat
        now = entropy(belief)
        gains = {}  # origin -> what a sight of one more of its cards is worth
        best, best_value, wanted = None, 0.0, False
        for g in at_party:
            fee = len([r for r in view["revealed"][g - 1] if r]) + 1
            for s, card in enumerate(view["clues"][g - 1]):
                origin = self.origin[g - 1][s]
                if card is not None or origin == FROM_DECK or not 0.0 < belief[origin] < CERTAIN:
                    continue
                if origin not in gains:
                    gains[origin] = now - expected_entropy(belief, seen, origin)
                gain = gains[origin]
                if gain <= 1e-9:
                    continue
                ways = []
                if tokens > 0 and not view["looked"][g - 1][s] & bit:
                    ways.append((TOKEN_COST, ["look", g, s]))
                if fee <= purse:
                    ways.append((fee, ["reveal_clue", g, s]))
                if not ways:
                    wanted = True
                    continue
                cost, action = min(ways, key=lambda w: w[0])
                if gain / cost > best_value + 1e-12:
                    best, best_value = action, gain / cost
        return best, wanted


def entropy(belief):
    return -sum(p * math.log(p) for p in belief if p > 0.0)


def expected_entropy(belief, seen, origin):
    """The uncertainty left, on average, after seeing one more card dealt to `origin`."""
    known = seen[origin]
    her = sight_chance(known, ANASTASIA_HANDS)
    other = sight_chance(known, OTHER_HANDS)
    total = 0.0
    for c in (LOCATION, TRINKET, STORY, BLANK):
        # chance of c as the next card of origin's invite, if origin is her / is not her
        if_her = sight_chance(known + [c], ANASTASIA_HANDS) / her if her else 0.0
        if_other = sight_chance(known + [c], OTHER_HANDS) / other if other else 0.0
        after = [belief[g] * (if_her if g == origin else if_other) for g in range(len(belief))]
        chance = sum(after)
        if chance > 0.0:
            total += chance * entropy([p / chance for p in after])
    return total
