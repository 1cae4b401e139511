"""The act op against the virtual device: the app hands the action to the running mode's game
(GameMode.enter), as a button entry would be made; refusals are typed and change nothing."""

import pytest

from host.serial_client import DeviceError
from tests.host.test_sim_boot import Sim


def test_act_applies_to_the_running_game_and_refuses_with_the_reason(tmp_path):
    with Sim(tmp_path / "box.img", "--fresh") as sim:
        sim.wait_ready()
        with sim.client() as dev:
            with pytest.raises(DeviceError) as e:
                dev.act(["win", 1, 0])
            assert e.value.code == "busy" and "no game" in e.value.msg  # the menu runs
            dev.request("mode", name="anomia", options={"players": 3})
            reply = dev.act(["win", 1, 0])
            assert reply["n"] == 1 and reply["scores"] == [0, 1, 0] and reply["over"] is False
            with pytest.raises(DeviceError) as e:
                dev.act(["win", 5, 0])
            assert e.value.code == "bad_arg" and e.value.msg
            with pytest.raises(DeviceError) as e:
                dev.request("act", action="win")
            assert e.value.code == "bad_arg"
            status = dev.status()["status"]["mode_status"]
            assert status["actions"] == 1 and status["scores"] == [0, 1, 0]
