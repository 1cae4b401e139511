"""The built-in automa decks of solo Finding Anastasia (easy, normal, hard): valid data, chosen
by the option difficulty, saved and restored with the game; and game names as people type them."""

from engine import anastasia_automa as automa
from engine import anastasia_solo as solo
from engine import games
from engine.anastasia_automa_deck import DEFAULT_DECK, DIFFICULTIES, builtin_deck
from tests.shared.compat import raises


def tiers_of(deck):
    """[(card index, action index, tier index, tier)] of every tier in a deck."""
    out = []
    for i in range(len(deck)):
        actions = automa.parse_card(deck[i])["actions"]
        for a in range(2):
            for t in range(len(actions[a])):
                out.append((i, a, t, actions[a][t]))
    return out


def test_every_built_in_deck_is_valid_and_treats_every_guest_alike():
    assert builtin_deck("normal") is DEFAULT_DECK
    for level in DIFFICULTIES:
        deck = builtin_deck(level)
        assert automa.validate_deck(deck) == deck and len(deck) == 18, level
        uses = {}
        for _, _, _, tier in tiers_of(deck):
            uses.setdefault(tier[0], set()).add(tier[1])
        for verb in uses:  # a verb the deck uses names every guest: no guest is safer than another
            assert uses[verb] == {1, 2, 3, 4, 5, 6}, (level, verb)


def test_the_easy_deck_reveals_roles_only_when_paying_the_players_and_never_first():
    reveals = [(t, tier) for _, _, t, tier in tiers_of(builtin_deck("easy")) if tier[0].endswith("_reveal")]
    assert reveals and all(tier[0] == "return_reveal" and t > 0 for t, tier in reveals)
    leaves = [t for _, _, t, tier in tiers_of(builtin_deck("easy")) if tier[0] == "leave"]
    assert leaves and set(leaves) == {2}  # a guest leaves only when nothing else can be done


def hunting_early(deck):
    """How many first or second tiers of a deck reveal a role or send a guest away."""
    return len([t for _, _, t, tier in tiers_of(deck)
                if t < 2 and tier[0] in ("expend_reveal", "return_reveal", "leave")])


def test_the_harder_the_deck_the_more_it_reveals_roles_and_sends_guests_away_early():
    assert "return_reveal" not in [tier[0] for _, _, _, tier in tiers_of(builtin_deck("hard"))]
    assert (hunting_early(builtin_deck("easy")), hunting_early(DEFAULT_DECK),
            hunting_early(builtin_deck("hard"))) == (6, 18, 36)


def test_the_option_difficulty_picks_the_deck_and_a_saved_game_keeps_it():
    for level in DIFFICULTIES:
        state = solo.new_game(4, 1, difficulty=level)
        assert state.deck_cards == builtin_deck(level)
        assert sorted(state.automa_deck) == list(range(18))
        state.apply(["reveal_clue", 1, 0])
        state.apply(["draw"])
        state.apply(["keep", 0])
        state.apply(["automa"])
        drawn = automa.parse_card(builtin_deck(level)[state.last_automa["card"]])["name"]
        assert state.describe_automa()[0] == "Automa card %r" % drawn
        copy = solo.from_dict(state.to_dict())
        assert copy.deck_cards == builtin_deck(level) and copy.digest() == state.digest()
        assert copy.describe_automa() == state.describe_automa()
    assert solo.OPTIONS["difficulty"] == "normal"
    assert solo.new_game(4, 1).deck_cards is DEFAULT_DECK


def test_a_wrong_difficulty_or_one_with_a_users_deck_is_refused():
    e = raises(ValueError, solo.new_game, 1, 1, difficulty="medium")
    assert "option difficulty must be one of normal, easy, hard, got 'medium'" in str(e)
    e = raises(ValueError, solo.new_game, 1, 1, difficulty="hard", automa_deck=[DEFAULT_DECK[0]])
    assert "difficulty picks a built-in automa deck" in str(e)
    mine = solo.new_game(1, 1, difficulty="normal", automa_deck=[DEFAULT_DECK[0]])
    assert mine.deck_cards == [DEFAULT_DECK[0]]
    assert "difficulty must be one of easy, normal, hard" in str(raises(ValueError, builtin_deck, "extreme"))


def test_game_names_read_a_dash_as_an_underscore():
    assert games.game_name("anastasia-solo") == games.game_name("anastasia_solo") == "anastasia_solo"
    assert games.get_game("anastasia-solo") is solo
    assert games.game_name("anomia-score") == "anomia_score"
    for bad in ("chess", "anastasia solo", "", None, 3):
        assert "unknown game" in str(raises(ValueError, games.game_name, bad))
