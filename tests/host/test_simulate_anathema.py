"""`tablemate simulate anathema`: its figures against an independent count of the same games,
the same arguments printing the same report, careless input refused in one line, the greedy
bot beating the random one; and `tablemate play anathema` narrating in the engine's words."""

import json
import re

import pytest

from engine import anathema
from engine.anathema_bots import GreedyBot
from engine.core import CHANCE
from engine.playout import RandomChooser
from host.cli import main
from host.play import StepNarrator
from tests.host.test_simulate import figures, simulate, textbook_wilson

STRIDE = 7919  # seat p's bot is seeded seed + 7919 * p (engine.anathema_bots)
WORDS = {"most cards": "most_cards", "most Familiars": "most_familiars", "sweeps": "sweeps",
         "point cards": "card_points", "total": "points"}


def count_by_hand(games, seed, names, **options):
    """The same games in a plain loop, counted from each hand's result without the report's code."""
    players = len(names)
    sides = 2 if options.get("partners") else players
    wins, bot_won = [0] * sides, {}
    points = {key: [0] * sides for key in WORDS.values()}
    hands, actions = [], []
    for i in range(games):
        state = anathema.new_game(seed + i, players, dealer=i % players, **options)
        bots = [GreedyBot() if n == "greedy" else RandomChooser(seed + i + STRIDE * p)
                for p, n in enumerate(names)]
        chance = RandomChooser(seed + i)
        steps = 0
        while not state.is_over():
            p = state.current_player()
            state.apply((chance if p == CHANCE else bots[p]).choose(state))
            steps += 1
        won = sorted(set(p % sides for p in state.winners()))  # partners: seats 0, 2 are side 0
        for s in won:
            wins[s] += 1
        for n in set(names[p] for p in state.winners()):
            bot_won[n] = bot_won.get(n, 0) + 1
        for r in state.results:
            for key in WORDS.values():
                points[key] = [a + b for a, b in zip(points[key], r[key], strict=True)]
        hands.append(len(state.results))
        actions.append(steps)
    return wins, bot_won, points, hands, actions


def rate_of(out, label):
    """The numbers of the report's line for `label` (a seat, partnership or bot), after it."""
    for line in out.splitlines():
        if line.startswith("  " + label + "  "):
            return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", line[len(label) + 2:])]
    raise AssertionError("no line for %r in\n%s" % (label, out))


def spread(values):
    values = sorted(values)
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return [round(sum(values) / len(values), 2), median, max(values)]


def average_points(out, columns):
    """{category: [average per column]} from the report's points table."""
    lines = out.splitlines()
    start = lines.index("average points a game") + 2
    table = {}
    for line in lines[start:start + len(WORDS)]:
        label = re.match(r"\s+(\D+?)\s{2,}", line).group(1)
        table[WORDS[label]] = [float(x) for x in line.split()[-columns:]]
    return table


@pytest.mark.parametrize("names, flags", [
    (["greedy", "random", "random"], ["--advanced"]),
    (["random", "greedy", "random", "greedy"], ["--partners"]),
])
def test_the_report_agrees_with_an_independent_count_of_the_same_games(capsys, names, flags):
    games, seed = 12, 40
    status, out, err = simulate(capsys, "anathema", "--games", games, "--seed", seed, "--players", len(names),
                                "--bots", ",".join(names), *flags)
    assert status == 0 and err == ""
    options = {"advanced": True} if "--advanced" in flags else {"partners": True}
    wins, bot_won, points, hands, actions = count_by_hand(games, seed, names, **options)
    lines = out.splitlines()
    assert lines[0] == "anathema: %d games, %d players, seeds %d-%d, bots: %s" % (
        games, len(names), seed, seed + games - 1,
        ", ".join("P%d %s" % (p + 1, n) for p, n in enumerate(names)))
    f = figures(out)
    if "--partners" in flags:
        labels = ["P1+P3 (random)", "P2+P4 (greedy)"]
    else:
        labels = ["P%d (%s)" % (p + 1, n) for p, n in enumerate(names)]
    for s, label in enumerate(labels):
        low, high = textbook_wilson(wins[s], games)
        figures_of = rate_of(out, label)
        assert figures_of[:4] == [wins[s], games, round(100 * wins[s] / games, 1), 95], label
        # the textbook's z is 1.96, the report's 1.95996...: they may round apart by 0.1
        assert figures_of[4:] == pytest.approx([low, high], abs=0.11), label
    for n in ("greedy", "random"):
        assert rate_of(out, n)[:2] == [bot_won.get(n, 0), games]
    table = average_points(out, len(labels))
    for key in WORDS.values():
        assert table[key] == [round(v / games, 2) for v in points[key]], key
    assert f["hands per game"] == spread(hands)
    assert f["actions per game"] == spread(actions)


def test_the_same_arguments_print_the_same_report(capsys):
    argv = ["anathema", "--games", 15, "--seed", 3, "--players", 3, "--bots", "random", "--advanced"]
    status, first, _ = simulate(capsys, *argv)
    assert status == 0
    assert simulate(capsys, *argv)[1] == first
    other = simulate(capsys, *argv[:4], 4, *argv[5:])[1]
    assert other.splitlines()[0].endswith("seeds 4-18, bot: random")
    assert other.splitlines()[1:] != first.splitlines()[1:]  # other games, not only another header


def test_a_fixed_first_dealer_is_kept_and_said(capsys):
    status, out, _ = simulate(capsys, "anathema", "--games", 4, "--option", "dealer=1")
    assert status == 0
    assert out.splitlines()[1] == "each for themselves, basic rules, first dealer P2 in every game"
    turning = simulate(capsys, "anathema", "--games", 4)[1]
    assert "the first dealer turns from game to game" in turning.splitlines()[1]
    assert turning.splitlines()[3:] != out.splitlines()[3:]


CARELESS = [
    (["--partners"], "--partners plays two partnerships of two: it needs --players 4, got the default 2"),
    (["--partners", "--players", "3"], "--partners plays two partnerships of two: it needs --players 4, got 3"
     ),
    (["--option", "partners=true", "--players", "2"], "it needs --players 4, got 2"),
    (["--players", "4", "--option", "partners=true", "--option", "advanced=yes"],
     "advanced must be true or false, got 'yes'"),
    (["--players", "5"], "anathema needs 2-4 players, got 5"),
    (["--players", "1"], "anathema needs 2-4 players, got 1"),
    (["--advanced", "--option", "advanced=false"],
     "--advanced and --option advanced=false contradict each other: give one"),
    (["--bots", "greedy,clever"], "unknown bot 'clever' (known: greedy, random)"),
    (["--bots", "greedy,random,random"], "--bots names one bot for every seat or one per seat (2), got 3"),
    (["--option", "dealer=2"], "dealer must be a seat 0-1, got 2"),
    (["--option", "target=0"], "target must be an int 1-999, got 0"),
    (["--difficulty", "hard"], "--difficulty is an option of anastasia_solo, not of anathema"),
    (["--games", "0"], "--games must be 1 or more, got 0"),
]


@pytest.mark.parametrize("argv, message", CARELESS)
def test_careless_input_gets_one_clear_line_and_status_2(capsys, argv, message):
    status, out, err = simulate(capsys, "anathema", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tablemate: error: ") and message in err, err


def test_the_greedy_bot_beats_the_random_one_from_either_seat(capsys):
    for bots, greedy in (("greedy,random", "P1 (greedy)"), ("random,greedy", "P2 (greedy)")):
        status, out, _ = simulate(capsys, "anathema", "--games", 40, "--seed", 9, "--bots", bots)
        assert status == 0
        won, games, share, _, low, high = rate_of(out, greedy)
        # observed: all 40; a bot no better than chance would win about half
        assert games == 40 and low > 75, out


def test_play_narrates_deals_and_plays_in_the_engines_words(capsys):
    assert main(["play", "anathema", "--players", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    steps = [ln for ln in lines if ln.startswith("step ")]
    assert "player -1" not in "\n".join(lines)
    assert steps[0] == ("step 1  deal: P1 shuffles and deals hand 1: 4 cards to each player and 4 face up "
                        "to the table")
    # every line is what the engine says of that step, in order
    state = anathema.new_game(1, 3)
    chooser = RandomChooser(1)
    for line in steps:
        action = chooser.choose(state)
        said = state.describe(action)
        assert line.split("  ", 1)[1] == ("deal: " + said if state.current_player() == CHANCE else said)
        state.apply(action)
    assert state.is_over()


class Silent:
    """A state of a game whose engine has no describe(): only its seat to play."""

    def __init__(self, seat):
        self.seat = seat

    def current_player(self):
        return self.seat


def test_without_describe_a_step_names_the_seat_or_chance():
    said = []
    narrator = StepNarrator(None, said.append)
    narrator.before(Silent(1), ["keep", 3])
    narrator.before(Silent(CHANCE), ["automa"])
    narrator.before(Silent(CHANCE), ["deal"])
    assert said == ["step 1  P2: " + json.dumps(["keep", 3]), 'step 2  chance: ["automa"]',
                    'step 3  deal: ["deal"]']
