"""`tablemate simulate`: its report checked against an independent count of the same games,
the same arguments printing the same report, careless input refused in one line, user deck
files, the built-in difficulties in order, the baseline bot's fair play, and a second game
joining through one declaration module."""

import copy
import math
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from engine import anastasia_automa
from engine import anastasia_solo as solo
from engine.core import CHANCE
from engine.games import GAMES
from host import simulations
from host.cli import main
from host.simulations import tally
from host.simulations.anastasia_solo_bot import BaselineBot
from tests.shared.anastasia_solo_tables import BLANK, table

ROOT = Path(__file__).resolve().parents[2]


def simulate(capsys, *argv):
    """(status, stdout, stderr) of `tablemate simulate ARGV`, argparse's own exits included."""
    try:
        status = main(["simulate"] + [str(a) for a in argv])
    except SystemExit as e:
        status = e.code
    out = capsys.readouterr()
    return status, out.out, out.err


def figures(out):
    """The report's numbers by label: {label: [numbers on its line]}."""
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*([a-zA-Z][a-zA-Z0-9 _]*?)\s{2,}(.*)$", line)
        if m:
            found[m.group(1)] = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", m.group(2))]
    return found


def count_by_hand(games, seed, players, **options):
    """The same games played by the baseline in a plain loop, counted without the report's code."""
    won, seat_wins, rounds, actions = 0, [0] * players, [], []
    tiers, skipped, not_taken, verbs, endings = [0, 0, 0], 0, 0, {}, {}
    for i in range(games):
        state = solo.new_game(seed + i, players, **options)
        bots = [BaselineBot(p, seed + i) for p in range(players)]
        moves = 0
        while not state.is_over():
            p = state.current_player()
            if p == CHANCE:
                state.apply(["automa"])
                card = anastasia_automa.parse_card(state.deck_cards[state.last_automa["card"]])
                for a, outcome in enumerate(state.last_automa["actions"]):
                    if outcome["tier"] >= 0:
                        tiers[outcome["tier"]] += 1
                        verb = card["actions"][a][outcome["tier"]][0]
                        verbs[verb] = verbs.get(verb, 0) + 1
                    elif outcome["failed"] == [["over"]]:
                        not_taken += 1
                    else:
                        skipped += 1
            else:
                action = bots[p].choose(state)
                state.apply(action)
                moves += action[0] != "keep"
        won += bool(state.winners())
        for w in state.winners():
            seat_wins[w] += 1
        rounds.append(state.round)
        actions.append(moves)
        endings[state.result["reason"]] = endings.get(state.result["reason"], 0) + 1
    return {"won": won, "seat_wins": seat_wins, "rounds": rounds, "actions": actions, "tiers": tiers,
            "skipped": skipped, "not_taken": not_taken, "verbs": verbs, "endings": endings}


def textbook_wilson(k, n):
    """The Wilson score interval as textbooks write it, in percent."""
    z = 1.96
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (centre - half) / (1 + z * z / n), 100 * (centre + half) / (1 + z * z / n)


def spread(values):
    return [round(statistics.mean(values), 2), statistics.median(values), max(values)]


@pytest.mark.parametrize("players, difficulty", [(1, "hard"), (2, "normal")])
def test_the_report_agrees_with_an_independent_count_of_the_same_games(capsys, players, difficulty):
    status, out, err = simulate(capsys, "anastasia-solo", "--games", 60, "--seed", 11, "--players", players,
                                "--difficulty", difficulty)
    assert status == 0 and err == ""
    truth = count_by_hand(60, 11, players, difficulty=difficulty)
    f = figures(out)
    assert out.splitlines()[0] == "anastasia_solo: 60 games, %d player%s, seeds 11-70, bot: baseline" % (
        players, "" if players == 1 else "s")
    assert out.splitlines()[1] == "automa deck: %s (built in, 18 cards)" % difficulty
    low, high = textbook_wilson(truth["won"], 60)
    assert f["players won"] == [truth["won"], 60, round(100 * truth["won"] / 60, 1), 95,
                                round(low, 1), round(high, 1)]
    if players > 1:
        for p in range(players):
            assert f["P%d won" % (p + 1)][:2] == [truth["seat_wins"][p], 60]
    assert f["rounds per game"] == spread(truth["rounds"])
    assert f["player actions"] == spread(truth["actions"])
    judged = sum(truth["tiers"]) + truth["skipped"]
    for t, name in enumerate(("primary", "secondary", "tertiary")):
        assert f[name + " tier"] == [truth["tiers"][t], round(100 * truth["tiers"][t] / judged, 1)]
    assert f["skipped"][0] == truth["skipped"]
    turns = re.search(r"automa: (\d+) turns, (\d+) actions judged(, (\d+) not taken)?", out)
    assert int(turns.group(2)) == judged and int(turns.group(4) or 0) == truth["not_taken"]
    assert 2 * int(turns.group(1)) == judged + truth["not_taken"]
    for verb in anastasia_automa.VERB_ORDER:
        assert f[verb][0] == truth["verbs"].get(verb, 0)
    assert f["a player found Anastasia"][0] == truth["endings"].get("found", 0) == truth["won"]
    assert f["the automa revealed Anastasia"][0] == truth["endings"].get("automa_found", 0)
    assert f["every player was out"][0] == truth["endings"].get("all_out", 0)
    assert f["Anastasia left or was removed unseen"][0] == truth["endings"].get("none_hidden", 0)
    assert sum(truth["endings"].values()) == 60


def test_the_counting_helpers_on_cases_worked_by_hand():
    # Wilson 95% intervals worked by hand (z^2 = 3.8416): 0 of 10 reaches 3.8416 / 13.8416 ...
    for (k, n), (low, high) in {(5, 10): (23.66, 76.34), (0, 10): (0.0, 27.75), (10, 10): (72.25, 100.0),
                                (1, 10): (1.79, 40.42)}.items():
        got = tally.wilson_interval(k, n)
        assert abs(100 * got[0] - low) < 0.05 and abs(100 * got[1] - high) < 0.05, (k, n, got)
    assert tally.rate(5, 10) == "5 of 10  50.0%  (95% CI 23.7-76.3%)"
    s = tally.Spread()
    for v in (4, 1, 3, 10):
        s.add(v)
    assert s.text() == "mean 4.50, median 3.5, max 10"
    s.add(2)
    assert s.text() == "mean 4.00, median 3, max 10"
    assert tally.table([("a", 1), ("long", 3)], 4) == ["  a          1   25.0%", "  long       3   75.0%"]


def test_the_same_arguments_print_the_same_report_in_another_process(capsys):
    argv = ["anastasia_solo", "--games", 150, "--seed", 5, "--players", 2]
    first = simulate(capsys, *argv)[1]
    assert simulate(capsys, *argv)[1] == first
    assert simulate(capsys, "anastasia-solo", *argv[1:])[1] == first  # a dash reads as _
    status, other, _ = simulate(capsys, *argv[:4], 6, *argv[5:])
    assert status == 0 and other.splitlines()[0].endswith("seeds 6-155, bot: baseline")
    assert other.splitlines()[1:] != first.splitlines()[1:]  # other games, not only another header
    exe = str(Path(sys.executable).parent / "tablemate")
    env = dict(os.environ, PYTHONHASHSEED="123")
    again = subprocess.run([exe, "simulate"] + [str(a) for a in argv], capture_output=True, text=True,
                           timeout=120, cwd=ROOT, env=env)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first


def test_play_reads_a_dash_in_the_game_name_too(capsys):
    assert main(["play", "anastasia-solo", "--seed", "3"]) == 0
    dashed = capsys.readouterr().out
    assert main(["play", "anastasia_solo", "--seed", "3"]) == 0
    assert capsys.readouterr().out == dashed and dashed.startswith("anastasia_solo, seed 3")


CARELESS = [
    (["chess"], "unknown game 'chess' (simulate knows: anastasia, anastasia_solo, anathema)"),
    (["anomia"], "anomia has no simulation yet (simulate knows: anastasia, anastasia_solo, anathema)"),
    (["anastasia-solo", "--games", "0"], "--games must be 1 or more, got 0"),
    (["anastasia-solo", "--games", "-5"], "--games must be 1 or more, got -5"),
    (["anastasia-solo", "--games", "many"], "argument --games: invalid int value: 'many'"),
    (["anastasia-solo", "--players", "4"], "anastasia_solo needs 1-3 players, got 4"),
    (["anastasia-solo", "--players", "0"], "anastasia_solo needs 1-3 players, got 0"),
    (["anastasia-solo", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["anastasia-solo", "--deck", "/no/such/deck.txt"], "/no/such/deck.txt: no such file"),
    (["anastasia-solo", "--deck", "/"], "/: is a folder, not a deck file"),
    (["anastasia-solo", "--difficulty", "medium"], "argument --difficulty: invalid choice: 'medium'"),
    (["anastasia-solo", "--difficulty", "hard", "--deck", "x.txt"], "--deck brings its own cards"),
    (["anastasia-solo", "--bots", "clever"], "unknown bot 'clever' (known: baseline, random)"),
    (["anastasia-solo", "--players", "2", "--bots", "random,random,random"],
     "--bots names one bot for every seat or one per seat (2), got 3"),
    (["anastasia-solo", "--option", "cards=table"], 'option cards must stay "dealt"'),
    (["anastasia-solo", "--option", "purse_solo=99"],
     "option purse_solo must be a whole number 0-50, got 99"),
    (["anastasia-solo", "--option", "nokey"], "--option needs KEY=VALUE"),
]


@pytest.mark.parametrize("argv, message", CARELESS)
def test_careless_input_gets_one_clear_line_and_status_2(capsys, argv, message):
    status, out, err = simulate(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tablemate: error: ") and message in err, err


def test_every_player_count_the_game_allows_is_accepted(capsys):
    for players in (1, 2, 3):
        status, out, err = simulate(capsys, "anastasia-solo", "--games", 2, "--players", players)
        assert status == 0 and err == "" and out.startswith("anastasia_solo: 2 games, %d player" % players)
    one = simulate(capsys, "anastasia-solo", "--games", 1)[1]
    assert one.startswith("anastasia_solo: 1 game, 1 player, seed 0,")


BAD_DECKS = [
    ("deck.txt", "# my deck\n\nm1: reveal_clue 1, exchange 2 3; draw 4, leave 5\nm2: reveal_clue 2; draw 7\n",
     "deck.txt line 4: automa card 2 ('m2'), action 2, primary tier: draw's guest must be a guest number "
     "1-6, got 7"),
    ("deck.txt", "m1: reveal_clue 1; leave 2\nm1: leave 3; leave 4\n",
     "deck.txt line 2: automa card 2 ('m1'): the name is already used by automa card 1"),
    ("deck.txt", "# only a comment\n", "deck.txt: holds no cards"),
    ("deck.toml", 'brightness = 10\nautoma_deck = ["m1: reveal_clue 1; expend_reveal 2 0 3"]\n',
     "deck.toml: automa_deck: automa card 1 ('m1'), action 2, primary tier: expend_reveal's gems must be a "
     "whole number 1-20, got 0"),
    ("deck.toml", "players = 3\n", "deck.toml: sets no automa_deck"),
    ("deck.toml", "automa_deck = [\n", "deck.toml: not valid TOML"),
    ("deck.json", '{"automa_deck": [{"name": "j", "actions": [[["reveal_clue", 1]], [["leave", 0]]]}]}',
     "deck.json: automa_deck: automa card 1 ('j'), action 2, primary tier: leave's guest must be a guest "
     "number 1-6, got 0"),
    ("deck.json", '[{"name": "j", "actions": [[["exchange", 2, 2]], [["leave", 1]]]}]',
     "deck.json: automa card 1 ('j'), action 1, primary tier: exchange names Guest 2 twice"),
]


@pytest.mark.parametrize("name, text, message", BAD_DECKS)
def test_a_bad_deck_file_is_refused_naming_the_card_and_the_field(capsys, tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    status, out, err = simulate(capsys, "anastasia-solo", "--games", 2, "--deck", path)
    assert status == 2 and out == ""
    assert err.startswith("tablemate: error: %s/%s" % (tmp_path, message)) and err.count("\n") == 1, err


def test_a_users_deck_file_is_played_as_written(capsys, tmp_path):
    lines = ["mine: reveal_clue 1, exchange 2 3; leave 4", "also: draw 5; expend_reveal 6 2 1, leave 2"]
    (tmp_path / "deck.txt").write_text("# two cards\n" + "\n".join(lines) + "\n")
    (tmp_path / "deck.toml").write_text("automa_deck = %s\nplayers = 3\n" % str(lines).replace("'", '"'))
    status, out, _ = simulate(capsys, "anastasia-solo", "--games", 40, "--deck", tmp_path / "deck.txt")
    assert status == 0 and "automa deck: %s (2 cards)" % (tmp_path / "deck.txt") in out
    toml_out = simulate(capsys, "anastasia-solo", "--games", 40, "--deck", tmp_path / "deck.toml")[1]
    assert toml_out.replace("deck.toml", "deck.txt") == out
    truth = count_by_hand(40, 0, 1, automa_deck=lines)
    assert figures(out)["players won"][0] == truth["won"]
    assert figures(out)["leave"][0] == truth["verbs"].get("leave", 0) > 0


def win_rate(capsys, *argv):
    status, out, _ = simulate(capsys, "anastasia-solo", *argv)
    assert status == 0
    return figures(out)["players won"][2]


def test_easy_normal_and_hard_are_clearly_ordered_for_the_baseline(capsys):
    rates = [win_rate(capsys, "--games", 300, "--seed", 1000, "--difficulty", d)
             for d in ("easy", "normal", "hard")]
    assert rates[0] - rates[1] >= 5 and rates[1] - rates[2] >= 10, rates


def test_the_baseline_plays_far_better_than_chance(capsys):
    baseline = win_rate(capsys, "--games", 200)
    chance = win_rate(capsys, "--games", 200, "--bots", "random")
    assert baseline >= 70 and chance <= 30, (baseline, chance)


def hidden_twin(state, rng_pick):
    """The same table as `state` with two face-down roles swapped and two unseen clues swapped:
    everything a player sees is the same, the truth behind it is not."""
    d = state.to_dict()
    hidden = [g for g in range(6) if not d["role_shown"][g]]
    if len(hidden) >= 2:
        a, b = hidden[rng_pick % len(hidden)], hidden[(rng_pick + 1) % len(hidden)]
        d["roles"][a], d["roles"][b] = d["roles"][b], d["roles"][a]
    unseen = [(g, s) for g in range(6) for s in range(len(d["clues"][g]))
              if not d["revealed"][g][s] and not d["looked"][g][s]]
    if len(unseen) >= 2:
        (ga, sa), (gb, sb) = unseen[rng_pick % len(unseen)], unseen[-1 - rng_pick % len(unseen)]
        d["clues"][ga][sa], d["clues"][gb][sb] = d["clues"][gb][sb], d["clues"][ga][sa]
    twin = solo.from_dict(d)
    for p in range(state.players):
        assert twin.view(p) == state.view(p) or d["result"] is not None
    return twin


def test_the_baseline_decides_from_what_a_player_sees_only():
    differ = 0
    for seed in range(40):
        state = solo.new_game(seed, 1 + seed % 3)
        bots = [BaselineBot(p, seed) for p in range(state.players)]
        step = 0
        while not state.is_over():
            p = state.current_player()
            if p == CHANCE:
                state.apply(["automa"])
                continue
            twin = hidden_twin(state, seed + step)
            differ += twin.digest() != state.digest()
            assert copy.deepcopy(bots[p]).choose(twin) == copy.deepcopy(bots[p]).choose(state), (seed, step)
            state.apply(bots[p].choose(state))
            step += 1
    assert differ > 200  # the twins really hid something else


def test_the_baseline_follows_a_card_the_automa_moved_back_to_the_guest_it_was_dealt_to():
    # Anastasia is Guest 1 (Location 0 unseen, Trinket and Story face up); Guest 2 shows Location
    # and Trinket, its Blank unseen. The automa swaps the only unshown clues of Guests 1 and 2,
    # then turns Guest 1's face-down card up: the Blank, which was dealt to Guest 2.
    state = table(anastasia=1, automa_deck=["t: exchange 1 2; reveal_clue 1"], phase="automa",
                  revealed=[[False, True, True], [True, True, False]] + [[False] * 3] * 4)
    bot = BaselineBot(0)
    bot.origin = [[g] * 3 for g in range(1, 7)]  # the deal, as the bot saw it before the automa's turn
    state.apply(["automa"])
    assert state.last_automa["actions"][0]["did"] == {"slots": [0, 2]}
    assert state.guest(1).clues[0] == BLANK and state.guest(1).revealed[0]
    action = bot.choose(state)
    view = state.view(0)
    belief = bot.belief(view, bot.seen_by_origin(view))
    assert belief[2] == 0.0 and belief[1] == max(belief)  # the Blank clears Guest 2, not Guest 1
    assert action == ["look", 2, 2]  # Guest 1's third card, dealt to it, now lies with Guest 2
    state.apply(action)
    assert bot.choose(state) == ["reveal_role", 1]  # Location, Trinket, Story: certain


def test_a_second_game_joins_with_one_declaration_module_and_its_flags_stay_its_own(capsys, monkeypatch):
    monkeypatch.setitem(simulations.SIMULATIONS, "anomia", "tests.host.simulate_toy_declaration")
    status, out, err = simulate(capsys, "anomia", "--games", 3, "--seed", 2, "--deck-colour", "red")
    assert status == 0 and err == ""
    assert out.splitlines()[0] == "anomia: 3 games, 4 players, seeds 2-4, bot: random"
    assert re.match(r"3 games, \d+ actions, decks: red$", out.splitlines()[1])
    status, out, err = simulate(capsys, "anastasia-solo", "--deck-colour", "red")
    assert status == 2
    assert err == "tablemate: error: --deck-colour is an option of anomia, not of anastasia_solo\n"
    status, out, err = simulate(capsys, "anomia", "--difficulty", "hard")
    assert status == 2 and "--difficulty is an option of anastasia_solo, not of anomia" in err
    assert "anomia" in GAMES  # simulate names games as the engine registry does
