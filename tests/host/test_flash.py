"""`tablemate flash`: the compile target, the plan, port selection, and the virtual device end to end
(dry run writes nothing, a cut flash is completed, incremental flash, sync on the flashed firmware)."""

import io
import json
import os
import pty
import shutil

import pytest

from host import flash as flashmod
from host import port_select
from host.bench_host import SimProcess, add_games_to_image, new_image
from host.cli import CliError
from host.cli import main as cli_main
from host.device_files import DEVICE_PACKAGES, ROOT, ROOT_SCRIPTS
from host.progress import Progress
from host.serial_client import DeviceClient, open_port


def _mpy(version, sub, arch):
    return version | (sub << 8) | (arch << 10)


def test_compile_target_follows_the_boards_mpy():
    emitted = (6, 3)
    assert flashmod.compile_target(2822, emitted) == "x64"  # this unix port
    assert flashmod.compile_target(_mpy(6, 3, 4), emitted) == "armv6m"  # RP2040
    assert flashmod.compile_target(_mpy(6, 3, 7), emitted) == "armv7emsp"  # RP2350 (Arm)
    assert flashmod.compile_target(_mpy(6, 2, 4), emitted) is None  # other sub-version: bytecode only
    assert flashmod.compile_target(_mpy(6, 3, 0), emitted) is None  # no native arch
    with pytest.raises(CliError, match="loads .mpy v5"):
        flashmod.compile_target(_mpy(5, 0, 4), emitted)
    with pytest.raises(CliError, match="did not report"):
        flashmod.compile_target(None, emitted)
    assert flashmod.mpy_cross_version() == (6, 3)


def test_target_files_keep_the_scripts_run_by_name():
    targets = dict((dest, src) for src, dest in flashmod.target_files())
    assert "main.py" in targets and "boot.py" in targets
    assert "firmware/app.mpy" in targets and "firmware/app.py" not in targets
    assert "hardware/boards.json" in targets
    assert all(d.endswith((".mpy", ".json")) for d in targets if d not in ROOT_SCRIPTS)


def test_only_a_unix_port_box_gets_the_unixbox_package():
    pico = [dest for _src, dest in flashmod.target_files()]
    unix = [dest for _src, dest in flashmod.target_files(backend="unix")]
    assert not [d for d in pico if d.startswith("unixbox/")]
    assert "unixbox/board_sim.mpy" in unix and "unixbox/world.mpy" in unix
    assert set(pico) < set(unix)
    # firmware/ holds exactly what goes on a Pico: nothing of it is kept off the board
    assert {d for d in pico if d.startswith("firmware/")} == {
        "firmware/" + p.relative_to(ROOT / "firmware").with_suffix(".mpy").as_posix()
        for p in (ROOT / "firmware").rglob("*.py") if p.name not in ROOT_SCRIPTS}


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_build_compiles_for_the_target_and_caches(tmp_path):
    local = flashmod.build("armv6m", cache_dir=tmp_path / "cache")
    header = local["engine/core.mpy"][:4]
    # .mpy v6; bytecode-only modules carry no arch (-march matters for native code only)
    assert header[:2] == b"M\x06" and header[2] == 0
    assert local["main.py"] == (ROOT / "firmware" / "main.py").read_bytes()
    cached = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert len(cached) == sum(1 for d in local if d.endswith(".mpy"))
    watched = _Terminal()  # a terminal sees the compile counted to the last file, then the bar gone
    assert flashmod.build("armv6m", cache_dir=tmp_path / "cache", progress=Progress(watched)) == local
    shown = watched.getvalue()
    assert "compiling with mpy-cross" in shown and "%d/%d" % (len(local), len(local)) in shown
    assert shown.endswith("\x1b[2K")
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == cached
    plain = flashmod.build(None, cache_dir=tmp_path / "cache")
    assert set(plain) == set(local)
    # compiled per target: another -march is another cache entry
    assert len(list((tmp_path / "cache").iterdir())) == 2 * len(cached)


def test_plan_copies_changed_removes_stale_and_keeps_the_rest():
    local = {"main.py": b"main", "engine/a.mpy": b"AAAA", "engine/b.mpy": b"BB",
             "hardware/boards.json": b"{}"}
    hashes = {p: flashmod.sha(d) for p, d in local.items()}
    manifest = json.dumps({"files": {"main.py": hashes["main.py"], "engine/a.mpy": hashes["engine/a.mpy"],
                                     "engine/b.mpy": "old", "engine/gone.mpy": "x", "extra.txt": "y"}})
    on_device = {"main.py": 4, "engine/a.mpy": 4, "engine/b.mpy": 2, "engine/a.py": 10, "engine/gone.mpy": 3,
                 "extra.txt": 1, "data/journal/00000001.seg": 500, "config.json": 20, "firmware/keep.json": 5}
    plan = flashmod.make_plan(local, on_device, manifest, 2822, "x64")
    assert plan.unchanged == ["engine/a.mpy", "main.py"]
    assert plan.copy == ["engine/b.mpy", "hardware/boards.json"]  # changed hash, missing on device
    # the old .py would shadow the new .mpy; files the last flash put there and no longer wanted
    assert plan.remove == ["engine/a.py", "engine/gone.mpy", "extra.txt"]
    assert plan.manifest["files"] == hashes and plan.manifest["march"] == "x64"
    # a file of the right hash but the wrong size on the device (a cut copy) is copied again
    on_device["engine/a.mpy"] = 2
    assert "engine/a.mpy" in flashmod.make_plan(local, on_device, manifest, 2822, "x64").copy
    # no manifest (a first flash, or a garbled one): everything is copied
    for text in (None, "{not json", "[]"):
        assert flashmod.make_plan(local, on_device, text, 2822, "x64").copy == sorted(local)


def test_port_selection(monkeypatch):
    monkeypatch.delenv(port_select.PORT_ENV, raising=False)
    assert port_select.resolve_port("/dev/ttyX", boards=[]) == "/dev/ttyX"
    assert port_select.resolve_port(None, boards=[("/dev/ttyACM0", "Board in FS mode")]) == "/dev/ttyACM0"
    with pytest.raises(CliError, match="no Raspberry Pi board found"):
        port_select.resolve_port(None, boards=[])
    with pytest.raises(CliError, match="2 Raspberry Pi boards found: /dev/ttyACM0.*ttyACM1.*--port"):
        port_select.resolve_port(None, boards=[("/dev/ttyACM0", "a"), ("/dev/ttyACM1", "b")])
    monkeypatch.setenv(port_select.PORT_ENV, os.devnull)  # a path that exists
    assert port_select.resolve_port(None, boards=[]) == os.devnull


def test_find_boards_picks_the_raspberry_pi_vendor(monkeypatch):
    class Info:
        def __init__(self, device, vid):
            self.device, self.vid, self.description, self.product = device, vid, "desc " + device, None

    from serial.tools import list_ports

    ports = [Info("/dev/ttyUSB0", 0x10C4), Info("/dev/ttyACM1", 0x2E8A), Info("/dev/ttyS0", None)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert port_select.find_boards() == [("/dev/ttyACM1", "desc /dev/ttyACM1")]


def test_flash_bad_ports(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(port_select.PORT_ENV, raising=False)
    monkeypatch.setattr(port_select, "find_boards", lambda: [])
    assert cli_main(["flash"]) == 2
    assert "no Raspberry Pi board found" in capsys.readouterr().err
    assert cli_main(["flash", "--port", str(tmp_path / "ttyNONE")]) == 1
    assert "no such port" in capsys.readouterr().err
    master, slave = pty.openpty()
    try:
        holder = open_port(os.ttyname(slave))
        try:
            assert cli_main(["flash", "--dry-run", "--port", os.ttyname(slave)]) == 1
            assert "busy" in capsys.readouterr().err
        finally:
            holder.close()
    finally:
        os.close(master)
        os.close(slave)


def _journal(port):
    with DeviceClient(port, timeout=2.0) as dev:
        return dev.status()["journal"]


def _changed_tree(tmp_path):
    """A copy of the device sources with one module changed."""
    tree = tmp_path / "tree"
    for pkg in DEVICE_PACKAGES:
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ROOT_SCRIPTS:
        shutil.copy(ROOT / "firmware" / name, tree / "firmware" / name)
    core = tree / "engine" / "core.py"
    core.write_text(core.read_text() + "\nCHANGED_FOR_THE_TEST = 1\n")  # new bytecode, not just a comment
    return tree


def test_virtual_device_flash_end_to_end(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TABLEMATE_DATA_DIR", str(tmp_path / "data"))  # its own compile cache
    image = tmp_path / "sim.img"
    new_image(image)
    lines = []

    # 1. a dry run lists everything, writes nothing, and neither stops nor resets the box
    with SimProcess(image) as sim:
        before = _journal(sim.port)
        res = flashmod.flash(sim.port, dry_run=True, out=lines.append)
        assert res["restarted"] is None and res["hello"]["board"] == "sim"
        assert sim.proc.poll() is None
        # nothing was copied: a second dry run plans exactly the same work, and no restart
        # happened in between (each boot appends a boot record)
        again = flashmod.flash(sim.port, dry_run=True, out=[].append)
        assert again["plan"].copy == res["plan"].copy and again["plan"].remove == res["plan"].remove
        assert _journal(sim.port)["last_seq"] == before["last_seq"]
    assert res["copied"] == 0 and again["copied"] == 0
    would_copy = [ln for ln in lines if ln.startswith("  would copy")]
    would_remove = [ln for ln in lines if ln.startswith("  would remove")]
    # the image holds sources: every module is to be compiled; boot.py, main.py and the
    # board file are the same bytes already (the device's own hashes say so)
    compiled = [d for _s, d in flashmod.target_files(backend="unix") if d.endswith(".mpy")]
    assert sorted(ln.split()[2] for ln in would_copy) == sorted(compiled)
    assert any("firmware/app.py" in ln for ln in would_remove)

    # 2. a flash cut by Ctrl-C in the sixth file says which five were written; the next one completes it
    with SimProcess(image) as sim:
        real_write = flashmod.RawRepl.write
        copied = []

        def ctrl_c_in_the_sixth_file(self, path, data, progress=None):
            def shown(*progress_args):
                if len(copied) == 5:
                    raise KeyboardInterrupt  # where a Ctrl-C lands: between two chunks sent to the board
            real_write(self, path, data, shown)
            copied.append(path)

        monkeypatch.setattr(flashmod.RawRepl, "write", ctrl_c_in_the_sixth_file)
        assert cli_main(["flash", "--port", sim.port]) == 130
        err = capsys.readouterr().err
        total = len(would_copy)  # the plan the dry run listed
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith("tablemate: flash interrupted after writing 5 of %d files: %s;"
                              % (total, ", ".join(copied))), err
        assert "until `tablemate flash` runs again, which copies the rest" in err
        monkeypatch.setattr(flashmod.RawRepl, "write", real_write)
        assert cli_main(["flash", "--port", sim.port]) == 0
        out = capsys.readouterr().out
        # the cut left the app stopped at the REPL: the probe there has no hashes and no
        # manifest yet, so everything is copied again
        assert "flashed %d files" % len(flashmod.target_files(backend="unix")) in out
        assert "answers on %s" % sim.port in out  # the new firmware runs at once

    # 3. the flashed firmware runs; sync twice; then an incremental flash copies one file
    records = add_games_to_image(image, 30)
    db = tmp_path / "games.sqlite3"
    with SimProcess(image) as sim:
        assert sim.hello["firmware"]
        for expect in ("synced", "nothing new"):
            assert cli_main(["sync", "--port", sim.port, "--db", str(db)]) == 0
            assert expect in capsys.readouterr().out
        res = flashmod.flash(sim.port, out=lines.append, root=_changed_tree(tmp_path))
        assert (res["copied"], res["removed"]) == (1, 0)
        assert res["plan"].copy == ["engine/core.mpy"]
        assert flashmod.summary(res).startswith("flashed 1 file (")  # not "1 files"
        assert res["unchanged"] == len(flashmod.target_files(backend="unix")) - 1
        assert res["restarted"] == "ended+restarted"
    from host import db as dbmod

    with dbmod.open_db(db) as s:
        stored = s.records()
    seqs = [r["seq"] for r in stored]
    assert seqs == sorted(set(seqs))
    assert {r["seq"] for r in records} <= set(seqs)
    assert len(stored) == len(records) + sum(1 for r in stored if r["kind"] == "boot")


def test_probe_output_parses_from_a_board_and_from_the_unix_port():
    manifest = '{"files":{"main.py":"ab"},"version":1}\n'
    lines = ["mpy 4870", "platform rp2", "cwd /", "file 120 engine/core.mpy", "file 9 my file.txt",
             "manifest"]
    for eol in ("\n", "\r\n"):
        info = flashmod.parse_probe(eol.join(lines) + eol + manifest.replace("\n", eol))
        assert info["mpy"] == 4870 and info["platform"] == "rp2" and info["cwd"] == "/"
        assert info["files"] == {"engine/core.mpy": 120, "my file.txt": 9}
        assert flashmod.parse_manifest(info["manifest"]) == {"main.py": "ab"}
    bare = flashmod.parse_probe("mpy -1\nplatform linux\ncwd /flash\n")
    assert bare["mpy"] is None and bare["manifest"] is None and bare["files"] == {}


def test_flashes_in_a_row_and_a_dry_run_between_leave_the_box_running(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TABLEMATE_DATA_DIR", str(tmp_path / "data"))
    image = tmp_path / "sim.img"
    new_image(image)
    with SimProcess(image) as sim:
        first = flashmod.flash(sim.port, out=[].append)
        assert first["copied"] > 0 and first["restarted"] == "ended+restarted"
        # each restart comes within seconds of the last one: asked for, so never a crash loop
        for argv in (["flash"], ["flash", "--dry-run"], ["flash"], ["flash"]):
            boots = _journal(sim.port)["last_seq"]
            assert cli_main(argv + ["--port", sim.port, "--wait", "20"]) == 0, argv
            out = capsys.readouterr().out
            if "--dry-run" in argv:
                assert "the box kept running" in out and "waiting" not in out
                assert _journal(sim.port)["last_seq"] == boots  # not restarted: no boot record
            else:
                assert "flashed 0 files" in out and "waiting up to 20 s for the firmware" in out
                assert "firmware 0.1.0 answers on %s" % sim.port in out
                assert _journal(sim.port)["last_seq"] > boots  # it did restart
            assert sim.running()
        with DeviceClient(sim.port, timeout=2.0) as dev:
            assert dev.info["board"] == "sim"


def test_flash_exits_non_zero_when_the_box_does_not_answer_after_its_restart(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TABLEMATE_DATA_DIR", str(tmp_path / "data"))
    image = tmp_path / "sim.img"
    new_image(image)
    tree = _changed_tree(tmp_path)
    # a main.py that never serves the protocol
    (tree / "firmware" / "main.py").write_text("import time\nwhile True:\n    time.sleep(1)\n")
    with SimProcess(image) as sim:
        real_build = flashmod.build
        monkeypatch.setattr(flashmod, "build", lambda march, root=None, *a: real_build(march, tree, *a))
        assert cli_main(["flash", "--port", sim.port, "--wait", "3"]) == 1
        captured = capsys.readouterr()
        assert "waiting up to 3 s" in captured.out
        assert "the firmware did not answer within 3 s of its restart" in captured.err
    assert cli_main(["flash", "--port", sim.port, "--wait", "0"]) == 2
    assert "--wait must be" in capsys.readouterr().err


def test_flash_checks_the_room_before_it_stops_or_writes_anything(tmp_path, monkeypatch):
    local = flashmod.build(None, cache_dir=tmp_path / "cache", backend="unix")
    facts = {"mpy": 2822, "platform": "linux", "cwd": "/flash", "files": {}, "hashes": {}, "manifest": None,
             "hello": {"board": "sim"}, "block": 4096}
    plan = flashmod.make_plan(local, {}, None, 2822, None, {})
    need = flashmod.room_needed(plan, local, {}, 4096)
    # every file new: its blocks, the largest once more (written beside its old copy), and 2 spare
    blocks = sum(-(-len(d) // 4096) for d in local.values())
    assert need == (blocks + max(-(-len(d) // 4096) for d in local.values()) + 2) * 4096

    def no_repl(port):
        raise AssertionError("the box was stopped")

    monkeypatch.setattr(flashmod, "RawRepl", no_repl)
    monkeypatch.setattr(flashmod, "device_inventory", lambda port: (dict(facts, free=need - 1), True))
    monkeypatch.setattr(flashmod, "compile_target", lambda mpy: None)
    with pytest.raises(CliError, match="not enough room on the board: the copies need .* nothing was"):
        flashmod.flash("/dev/ttyNONE", out=[].append, cache_dir=tmp_path / "cache")
    # a dry run says how the room stands
    lines = []
    monkeypatch.setattr(flashmod, "device_inventory", lambda port: (dict(facts, free=need + 4096), True))
    res = flashmod.flash("/dev/ttyNONE", dry_run=True, out=lines.append, cache_dir=tmp_path / "cache")
    assert res["restarted"] is None and "room: %.1f KB needed" % (need / 1024.0) in lines[-1]


def test_a_ctrl_c_says_what_the_box_was_left_with():
    words = flashmod._interrupted_words
    assert words(False, [], 0) == "flash interrupted before anything was written: the box runs as it was"
    assert words(True, [], 4).startswith("flash interrupted before any file was written; the box's firmware "
                                         "stays stopped at its REPL until `tablemate flash` runs again")
    one = words(True, ["engine/core.mpy"], 1)
    assert one.startswith("flash interrupted after writing 1 of 1 file: engine/core.mpy;")
    many = words(True, ["f%d.mpy" % i for i in range(11)], 40)
    assert "after writing 11 of 40 files: f0.mpy, f1.mpy," in many and "f7.mpy and 3 more;" in many
