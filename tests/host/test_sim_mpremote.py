"""mpremote drives the virtual device's pty like a real board: `resume fs ls` shows the
firmware in the image, `resume cp` writes into the image, and the next start sees the file."""

import subprocess

from tests.host.test_sim_boot import BIN, Sim, image_processes

MARK = "hello from the image"


def mpremote(port, *args):
    res = subprocess.run([str(BIN / "mpremote"), "connect", port, "resume"] + list(args),
                         capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, (args, res.stdout, res.stderr)
    return res.stdout


def test_mpremote_lists_and_copies_into_the_image(tmp_path):
    image = tmp_path / "flash.img"
    local = tmp_path / "newfile.py"
    local.write_text("print(%r)\n" % MARK)

    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        listing = mpremote(sim.port, "fs", "ls")
        for name in ("main.py", "boot.py", "firmware/", "engine/", "hardware/", "data/"):
            assert name in listing, listing
        assert "newfile.py" not in listing
        assert "app.py" in mpremote(sim.port, "fs", "ls", ":firmware")
        mpremote(sim.port, "cp", str(local), ":newfile.py")
        rc, _, err = sim.stop()
    assert rc == 0, err
    assert image_processes(image) == []

    with Sim(image) as sim:
        sim.wait_ready()  # the firmware in the image still boots
        assert "newfile.py" in mpremote(sim.port, "fs", "ls")
        assert MARK in mpremote(sim.port, "exec", "import newfile")
