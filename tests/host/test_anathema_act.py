"""The Anathema score keeper over the protocol (the act op) on the virtual device: entries
as the buttons make them, the same refusals, undo, an early end, the mode's status, then
sync, games, replay and stats; and a script of button edges printing each entry and refusal."""

import json
import subprocess

import pytest

from host.serial_client import DeviceError
from tests.host.test_end_to_end import tablemate
from tests.host.test_sim_boot import ROOT, Sim, sim_command, sim_env


def test_a_host_deals_scores_and_undoes_a_hand(tmp_path):
    with Sim(tmp_path / "box.img", "--fresh") as sim:
        sim.wait_ready()
        with sim.client() as dev:
            dev.request("mode", name="anathema", options={"players": 3})
            st = dev.status()["status"]["mode_status"]
            assert (st["hand"], st["step"], st["dealer"], st["last_deal"]) == (1, "deal", 1, False)
            for _ in range(4):
                reply = dev.act(["deal", 1])  # P2 deals first
            assert reply["n"] == 4 and reply["over"] is False
            status = dev.status()["status"]["mode_status"]
            assert (status["step"], status["dealer"], status["last_deal"]) == ("cards", 2, True)
            with pytest.raises(DeviceError) as e:
                dev.act(["point", 0])
            assert e.value.code == "bad_arg"
            assert e.value.msg == "points are not entered now: the cards step is open"
            assert dev.act(["most_cards", [0]])["scores"] == [0, 0, 0]  # scored when the hand closes
            dev.act(["most_familiars", [2]])
            dev.act(["next"])
            for seat in (0, 0, 0, 1, 1, 2, 2):
                dev.act(["point", seat])
            assert dev.act(["next"])["scores"] == [6, 2, 3]
            assert dev.status()["status"]["mode_status"]["dealer"] == 3  # the deal passed left
            assert dev.act(["undo"])["scores"] == [0, 0, 0]  # the hand is open again
            status = dev.status()["status"]["mode_status"]
            assert (status["hand"], status["step"], status["dealer"]) == (1, "points", 2)
            dev.act(["next"])
            dev.act(["end"])
        # synced, listed, shown, replayed and counted in its own terms
        db = str(tmp_path / "games.db")
        assert tablemate(tmp_path, "sync", "--port", sim.port, "--db", db).returncode == 0
        listed = tablemate(tmp_path, "games", "list", "--db", db).stdout.splitlines()
        assert len(listed) == 2 and "anathema" in listed[1] and "P1 6, P2 2, P3 3" in listed[1]
        game_id = listed[1].split()[0]
        shown = tablemate(tmp_path, "games", "show", game_id, "--db", db).stdout
        assert "most familiars: P3" in shown and "undo of action 14" in shown and "hand scored" in shown
        assert "scores P1 6, P2 2, P3 3; ended" in shown  # an end entered early: no winner
        replayed = tablemate(tmp_path, "replay", game_id, "--db", db)
        assert replayed.returncode == 0 and "every digest matches" in replayed.stdout
        stats = tablemate(tmp_path, "stats", "--db", db).stdout
        assert "Anathema hands" in stats and "face-off" not in stats


def test_a_script_prints_each_entry_and_each_refusal(tmp_path):
    script = tmp_path / "deals.txt"
    script.write_text("10000 2 down\n60000 2 up\n200000 2 down\n250000 2 up\n400000 1 down\n450000 1 up\n")
    cmd = sim_command(tmp_path / "flash.img", "--fresh", "--players", "3", "--mode", "anathema",
                      "--script", str(script), headless=False)
    res = subprocess.run(cmd, cwd=ROOT, env=sim_env(tmp_path), capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    assert res.returncode == 0, res.stderr
    lines = [json.loads(line) for line in res.stdout.splitlines()[1:]]
    assert [d.get("action") for d in lines[:2]] == [["deal", 1], ["deal", 1]]  # P2 deals first
    assert lines[2:] == [{"kind": "refused", "why": "P2 deals this hand, not P1"}]
