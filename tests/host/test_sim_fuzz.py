"""10,000 random and malformed frames through the pty of a running virtual device
(`tablemate sim --headless`): every one is answered with a typed error, the device stays
up, and its status, settings and records are unchanged."""

from host.serial_client import DeviceClient
from tests.host import fuzz_frames
from tests.host.test_link_over_pty import all_records
from tests.host.test_sim_boot import Sim

FUZZ_N = 10000
# Status fields that move by themselves (clock, heap) or count the link's own traffic.
MOVING = ("uptime_s", "mem_free", "mem_alloc")


def snapshot(dev):
    reply = dev.status()
    st = {k: v for k, v in reply["status"].items() if k not in MOVING}
    return {"status": st, "journal": reply["journal"], "settings": dev.settings_get(),
            "records": all_records(dev)}, reply["link"]["rx_errors"]


def test_fuzzed_frames_through_the_virtual_device(tmp_path, capsys):
    with Sim(tmp_path / "flash.img", "--fresh") as sim:
        sim.wait_ready()
        with DeviceClient(sim.port, timeout=5.0) as dev:
            before, errors_before = snapshot(dev)
        summary = fuzz_frames.run_fuzz(sim.port, n=FUZZ_N, seed=77)
        with capsys.disabled():
            print("\nvirtual device fuzz: " + fuzz_frames.describe(summary))
        fuzz_frames.assert_all_typed_errors(summary, FUZZ_N)
        assert sim.proc.poll() is None
        with DeviceClient(sim.port, timeout=5.0) as dev:
            after, errors_after = snapshot(dev)
        assert after == before
        assert errors_after == errors_before + FUZZ_N
        code, _, err = sim.stop()
        assert code == 0, err
