"""Careless input to the host tools: each gets one clear line on stderr, no traceback, and
writes nothing (no file, no temporary file, no image, no lock)."""

import os
import sys

import pytest

from host import port_select
from host.bench_host import game_records
from host.cli import main as cli_main
from host.db import open_db
from host.words import count


def _run(capsys, *argv):
    status = cli_main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def _export(capsys, db, *argv):
    return _run(capsys, "games", "export", "1", "--db", str(db), *argv)


def _tree(path):
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.fixture()
def db(tmp_path):
    path = tmp_path / "store" / "games.sqlite3"
    path.parent.mkdir()
    with open_db(path) as s:
        s.add_records("box-1", game_records(5, players=3, faceoffs=4))
    return path


def _one_line_error(status, err, *words):
    assert status != 0
    assert err.count("\n") == 1 and err.startswith("tablemate: error: ") and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def test_games_export_into_a_missing_folder_or_onto_a_folder(db, tmp_path, capsys):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    before = _tree(tmp_path)
    status, out, err = _export(capsys, db, "-o", str(out_dir / "no" / "g.json"))
    _one_line_error(status, err, "the folder %s does not exist" % (out_dir / "no"))
    status, out, err = _export(capsys, db, "--format", "csv", "-o", str(out_dir))
    _one_line_error(status, err, "%s is a folder" % out_dir, str(out_dir / "game1.csv"))
    assert out == "" and _tree(tmp_path) == before


def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_temporary_one(db, tmp_path, capsys):
    import resource
    import signal

    target = tmp_path / "g.csv"
    target.write_text("old\n")
    before = _tree(tmp_path)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, limits[1]))  # as a full disk would: the write fails
    try:
        status, out, err = _export(capsys, db, "--format", "csv", "-o", str(target))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, old_handler)
    _one_line_error(status, err, "cannot write %s" % target, "nothing was written")
    assert _tree(tmp_path) == before and target.read_text() == "old\n"
    status, out, err = _export(capsys, db, "-o", "/proc/g.json")
    _one_line_error(status, err, "cannot write /proc/g.json")


def test_games_export_to_a_file_replaces_it_whole(db, tmp_path, capsys):
    target = tmp_path / "g.csv"
    target.write_text("old\n")
    status, out, err = _export(capsys, db, "--format", "csv", "-o", str(target))
    assert status == 0 and out == "" and err == ""
    assert target.read_text().startswith("seq,kind,") and os.listdir(tmp_path).count("g.csv") == 1
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    assert sorted(os.listdir(tmp_path)) == ["g.csv", "store"]


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_config_pull_onto_a_folder_is_refused_before_the_box_is_asked(tmp_path, capsys):
    status, _, err = _run(capsys, "config", "pull", "--port", str(tmp_path / "ttyNONE"), "-o", str(tmp_path))
    _one_line_error(status, err, "is a folder", "settings.toml")
    assert os.listdir(tmp_path) == []


def test_sim_image_given_a_folder_makes_no_lock_file(tmp_path, capsys):
    folder = tmp_path / "images"
    folder.mkdir()
    for board in ("sim", "pico"):
        status, _, err = _run(capsys, "sim", "--board", board, "--headless", "--image", str(folder))
        _one_line_error(status, err, "--image %s is a folder" % folder)
    assert _tree(tmp_path) == ["images"]


def test_sim_without_a_terminal_creates_no_image(tmp_path, capsys, monkeypatch):
    image = tmp_path / "flash.img"
    with open(os.devnull) as devnull:
        monkeypatch.setattr(sys, "stdin", devnull)
        status, _, err = _run(capsys, "sim", "--image", str(image))
        _one_line_error(status, err, "needs a terminal", "--headless")
        monkeypatch.setattr(sys, "stdin", None)  # started with stdin closed
        status, _, err = _run(capsys, "sim", "--board", "pico", "--image", str(image))
        _one_line_error(status, err, "needs a terminal")
    assert os.listdir(tmp_path) == []


def test_a_tablemate_port_that_does_not_exist_is_named(tmp_path, capsys, monkeypatch):
    gone = str(tmp_path / "pts-of-a-stopped-sim")
    monkeypatch.setenv(port_select.PORT_ENV, gone)
    for argv in (["status"], ["flash", "--dry-run"], ["sync", "--db", str(tmp_path / "g.sqlite3")]):
        status, _, err = _run(capsys, *argv)
        _one_line_error(status, err, "TABLEMATE_PORT=%s: no such port" % gone, "--port")
    assert os.listdir(tmp_path) == []
    # --port still wins over the variable, and a URL is passed on as it is
    assert port_select.resolve_port("/dev/ttyX") == "/dev/ttyX"
    monkeypatch.setenv(port_select.PORT_ENV, "socket://localhost:7777")
    assert port_select.resolve_port(None, boards=[]) == "socket://localhost:7777"


def test_counts_read_as_words():
    assert [count(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert count(1, "new record") == "1 new record" and count(3, "face-off") == "3 face-offs"
    assert count(2, "box", "boxes") == "2 boxes"


def test_ctrl_c_while_the_commands_load_ends_quietly(monkeypatch, capsys):
    from host import cli

    def interrupted_import():
        raise KeyboardInterrupt  # a Ctrl-C while build_parser imports the commands

    monkeypatch.setattr(cli, "build_parser", interrupted_import)
    assert cli.main(["stats"]) == 130
    assert capsys.readouterr().err == ""
