"""A reset of the virtual box (machine.soft_reset() at its REPL, or the end of a flash)
restarts the firmware from its image behind the same serial port, as a board would."""

import subprocess

from host.serial_client import DeviceClient
from tests.host.fuzz_frames import wait_ready
from tests.host.test_sim_boot import BIN, ROOT, Sim, image_processes, sim_command, sim_env


def firmware_processes(image):
    """The micropython children running this image (not the `tablemate sim` parent)."""
    out = []
    for pid in image_processes(image):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                if b"sim_launch" in f.read():
                    out.append(pid)
        except OSError:
            pass
    return out


def hello_again(port, timeout=20.0):
    """Wait for the firmware to answer again; its hello and status."""
    info = wait_ready(port, timeout)
    with DeviceClient(port, timeout=2.0) as dev:
        return info, dev.status()["status"]


def test_soft_reset_restarts_the_firmware_on_the_same_port(tmp_path):
    image = tmp_path / "flash.img"
    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        info, _ = hello_again(sim.port)
        before = firmware_processes(image)
        assert len(before) == 1
        res = subprocess.run([str(BIN / "mpremote"), "connect", sim.port, "resume", "exec",
                              "import machine; machine.soft_reset()"],
                             capture_output=True, text=True, timeout=30)
        # mpremote may report the port going quiet: the reset is what matters
        info2, st = hello_again(sim.port)
        after = firmware_processes(image)
        assert len(after) == 1 and after != before, (before, after, res.stderr)
        assert info2["device_id"] == info["device_id"]  # same image, same journal
        assert st["mode"] == "menu"
        code, _, err = sim.stop()
        assert code == 0
        assert "restarting it from its image" in err
    assert image_processes(image) == []


def test_a_second_virtual_device_on_the_same_image_is_refused(tmp_path):
    image = tmp_path / "flash.img"
    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        res = subprocess.run(sim_command(image), cwd=ROOT, env=sim_env(tmp_path), capture_output=True,
                             text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert res.returncode == 1
        assert "in use by another virtual device (pid %d)" % sim.proc.pid in res.stderr
        assert res.stdout == ""
        assert len(firmware_processes(image)) == 1  # the running one, untouched
        hello_again(sim.port)
        assert sim.stop()[0] == 0
    # once it has ended, the image is free again
    with Sim(image) as sim:
        sim.wait_ready()
        assert sim.stop()[0] == 0
