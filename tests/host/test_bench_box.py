"""`tablemate bench --port PATH` against the virtual box: every figure as a number in its
row, the head saying where the figures come from, and the box left as it was."""

import os
import re

from host import bench_box
from host.cli import main
from host.serial_client import DeviceClient
from tests.host.doctor_harness import switch_mode

ROWS = ("serial round trip (hello)", "status op", "free heap after boot", "free / allocated heap now",
        "journal", "journal read", "file listing with SHA-256", "LED chain write", "OLED full frame")


def journal_and_screen(port):
    with DeviceClient(port, timeout=5.0) as dev:
        st = dev.status()
    return st["journal"], st["status"]["mode"], st["status"].get("selftest")


def test_bench_prints_every_figure_of_the_virtual_box(sim_box, capsys):
    before = journal_and_screen(sim_box.port)
    code = main(["bench", "--port", sim_box.port, "--runs", "5"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("figures of board sim, micropython ")
    assert "the virtual box, the unix port on this computer, not silicon" in lines[0]
    rows = {line.split("  ")[0]: line for line in lines[1:]}
    assert sorted(rows) == sorted(ROWS), out
    for name in ("serial round trip (hello)", "status op"):
        assert re.search(r"  \d+\.\d / \d+\.\d ms  ", rows[name]), rows[name]
    assert re.search(r"  \d+\.\d ms  ", rows["LED chain write"])
    assert re.search(r"  \d+\.\d ms  ", rows["OLED full frame"])
    assert re.search(r"  \d+ B  ", rows["free heap after boot"])
    assert re.search(r"  \d+ records/s  ", rows["journal read"])
    assert "1 record," in rows["journal"]  # the boot record: one, said in the singular
    assert journal_and_screen(sim_box.port) == before  # nothing read was acknowledged, menu again


def test_bench_over_a_game_leaves_it_running(sim_box, capsys):
    switch_mode(sim_box.port, "anomia", players=3)
    try:
        assert main(["bench", "--port", sim_box.port, "--runs", "2"]) == 0
        out = capsys.readouterr().out
        assert re.search(r"\nLED chain / OLED frame +skipped +anomia is running: only measured from", out)
        assert journal_and_screen(sim_box.port)[1] == "anomia"
    finally:
        switch_mode(sim_box.port, "menu")


def test_the_head_tells_silicon_from_a_virtual_board():
    info = {"board": "pico", "impl": "micropython", "micropython": "1.28.0", "mpy": 6 | 3 << 8 | 4 << 10}
    assert bench_box.source(info, "/dev/ttyACM0").endswith(": silicon")
    master, slave = os.openpty()
    try:
        assert "emulated Pico" in bench_box.source(info, os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)


def test_bench_refuses_careless_arguments(capsys, tmp_path):
    assert main(["bench", "--port", str(tmp_path / "none"), "--runs", "0"]) == 2
    assert capsys.readouterr().err == "tablemate: error: --runs must be at least 1\n"
    assert main(["bench", "--port", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tablemate: error: ") and err.count("\n") == 1
