"""`tablemate simulate anastasia`: its figures against an independent count of the same games
(win rates by role, end effects, length, gems to the acting player), the same arguments
printing the same report, a game's own flags refused."""

from engine import anastasia
from engine import anastasia_cards as cards
from engine.playout import KindChooser
from host.simulate import SEAT_SALT
from tests.host.test_simulate import figures, simulate

ACTIONS = ("look", "exchange", "question", "draw", "reveal", "reveal_self")


def count_by_hand(games, seed, players):
    """The same games in a plain loop, counted from the ledger without the report's code."""
    dealt, won, ended, turns = {}, {}, {}, []
    net = {a: 0 for a in ACTIONS}
    for i in range(games):
        state = anastasia.new_game(seed + i, players)
        bots = [KindChooser(seed + i + SEAT_SALT * (p + 1)) for p in range(players)]
        pending = None
        while not state.is_over():
            action = bots[state.current_player()].choose(state)
            frame = state.table.frame()
            if frame[0] == "act" and action[0] in ACTIONS:
                pending = (action[0], frame[1], state.table.purses[frame[1]])
            state.apply(action)
            if pending and any(e[0] == pending[0] for e in state.entries):
                net[pending[0]] += state.table.purses[pending[1]] - pending[2]
                pending = None
        for p in range(players):
            name = cards.ROLE_NAMES[state.roles[p]]
            dealt[name] = dealt.get(name, 0) + 1
            won[name] = won.get(name, 0) + (p in state.winners())
        ended[state.table.ended] = ended.get(state.table.ended, 0) + 1
        turns.append(state.table.turn_no + 1)
    return dealt, won, ended, turns, net


def test_the_report_counts_roles_endings_length_and_gems_as_the_games_went(capsys):
    status, out, err = simulate(capsys, "anastasia", "--games", 40, "--seed", 9, "--players", 6)
    assert status == 0, err
    assert out.splitlines()[0] == "anastasia: 40 games, 6 players, seeds 9-48, bot: kinds"
    dealt, won, ended, turns, net = count_by_hand(40, 9, 6)
    f = figures(out)
    lines = out.splitlines()
    for name in dealt:
        line = [ln for ln in lines if ln.startswith("  " + name + " ")][0]
        assert line[18:].split()[:4] == [str(dealt[name]), str(won[name]), "of", str(dealt[name])], line
    assert f["Anastasia revealed"][0] == ended.get("anastasia", 0)
    assert f["the Impostor revealed"][0] == ended.get("impostor", 0)
    assert f["a Collector declared"][0] == ended.get("collector", 0)
    assert f["turns per game"][2] == max(turns)
    for a in ACTIONS:
        line = [ln for ln in out.splitlines() if ln.strip().startswith(a + " ")][0]
        assert int(line.split()[2]) == net[a], line
    again = simulate(capsys, "anastasia", "--games", 40, "--seed", 9, "--players", 6)
    assert again[1] == out


def test_careless_input_is_one_line(capsys):
    careless = ((["--players", 3], "4-8 players"), (["--difficulty", "easy"], "--difficulty is an option"))
    for argv, words in careless:
        status, out, err = simulate(capsys, "anastasia", "--games", 2, *argv)
        assert status != 0 and words in err and len(err.strip().splitlines()) == 1, err
