"""Anathema self-play: the greedy bot against the random one, and the tallies of a series."""

from engine import anathema
from engine.anathema_bots import CATEGORIES, GreedyBot, make_bot, play_game, self_play
from engine.playout import RandomChooser
from tests.shared.anathema_positions import position
from tests.shared.compat import IS_MICROPYTHON, raises

GAMES = 8 if IS_MICROPYTHON else 40


def test_the_greedy_bot_beats_the_random_bot():
    for players, names, partners in ((2, ["greedy", "random"], False), (2, ["random", "greedy"], False),
                                     (3, ["random", "greedy", "random"], False),
                                     (4, ["random", "greedy", "random", "greedy"], True)):
        r = self_play(anathema, GAMES, 100, players, names, partners=partners)
        greedy = names.index("greedy")
        # observed: all of them; a bot no better than chance would win a half, a third, a half
        assert r["wins"][greedy] * 10 >= GAMES * 9, (names, r["wins"])
        assert r["points"]["points"][greedy] > 3 * max(r["points"]["points"][p] for p in range(players)
                                                     if names[p] == "random")


def test_self_play_tallies_add_up():
    r = self_play(anathema, 6, 5, 3, ["greedy", "random", "random"], advanced=True)
    assert r["games"] == 6 and sum(r["wins"]) >= 6 and r["hands"] >= 6 * 2
    totals = [0, 0, 0]
    for g in range(6):
        s = anathema.new_game(5 + g, 3, advanced=True, dealer=g % 3)
        bots = [make_bot(n, 5 + g + 7919 * p) for p, n in enumerate(["greedy", "random", "random"])]
        play_game(s, bots, 5 + g)
        for p in range(3):
            totals[p] += s.scores()[p]
    assert r["points"]["points"] == totals
    for p in range(3):
        parts = sum(r["points"][name][p] for name in CATEGORIES if name != "points")
        assert parts == r["points"]["points"][p]
    assert self_play(anathema, 6, 5, 3, ["greedy", "random", "random"], advanced=True) == r  # seeded
    e = raises(ValueError, self_play, anathema, 1, 1, 2, ["greedy", "clever"])
    assert "unknown bot 'clever'" in str(e)
    e = raises(ValueError, self_play, anathema, 1, 1, 3, ["greedy", "random"])
    assert "one bot per seat" in str(e)


def test_the_greedy_bot_takes_the_most_and_trails_the_least():
    bot = GreedyBot()
    # 10a can take 3a+7a or the 10c with the 1a: the most cards (and the ace's point) win
    s = position(hands=[["10a", "2b"], ["6c", "8d"]], table=["3a", "7a", "10c", "6b"])
    assert bot.choose(s) == ["capture", "10a", ["3a", "7a", "10c"]]
    # nothing to take: trail the card worth least (not the ace)
    s = position(hands=[["1b", "13c"], ["6c", "8d"]], table=["5d"])
    assert bot.choose(s) == ["trail", "13c"]
    # the random bot only picks listed actions too
    s = position(hands=[["1b", "13c"], ["6c", "8d"]], table=["5d"])
    assert RandomChooser(3).choose(s) in s.legal_actions()
