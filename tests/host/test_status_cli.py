"""`tablemate status --port PATH`: a working device, and every way the port can be wrong."""

import json
import os
import pty
import subprocess
import sys

import pytest

from host.cli import main as cli_main
from host.pty_relay import PtyRelay
from host.serial_client import open_port
from tests.host import fuzz_frames

# A stand-in on the other end of the port: answers every line in the way argv[1] names.
FAKE = r"""
import os, sys
sys.path.insert(0, %(root)r)
from firmware import protocol as P
how = sys.argv[1]
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    if how == "garbage":
        os.write(1, b"ERROR 42\r\n+++ATH0\r\n")
        continue
    req = P.decode(line)
    if how == "newer":  # a firmware that speaks protocol 2 and checks the host's version
        reply = P.error_reply(req["id"], P.BAD_VERSION, "device speaks protocol 2, not 1", {"proto": 2})
    else:  # an old firmware that answers hello without checking
        reply = P.ok_reply(req["id"], {"proto": 0, "firmware": "0.0.1", "board": "pico"})
    os.write(1, P.encode(reply))
"""


@pytest.fixture
def fake(tmp_path):
    relays = []

    def start(how):
        script = tmp_path / "fake.py"
        script.write_text(FAKE % {"root": str(fuzz_frames.ROOT)})
        relay = PtyRelay().start([sys.executable, "-u", str(script), how])
        relays.append(relay)
        return relay.port

    yield start
    for r in relays:
        r.stop()


def status(capsys, port, *extra):
    code = cli_main(["status", "--port", port, "--timeout", "0.5"] + list(extra))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err):
    assert code != 0 and out == ""
    assert err.startswith("tablemate: error: ") and err.count("\n") == 1, err
    return err


def test_status_of_a_running_device(device, capsys):
    code, out, err = status(capsys, device.port)
    assert code == 0 and err == ""
    assert out.startswith("tablemate on %s\n" % device.port)
    assert "  firmware  0.1.0-test on board testbox\n" in out
    assert "  protocol  %d\n" % 1 in out
    assert "  runtime   MicroPython 1." in out and "mpy v6." in out
    assert "  mode      menu\n" in out
    assert "  journal   20 records (seq 1..20), acked up to 0" in out


def test_status_json(device, capsys):
    code, out, _ = status(capsys, device.port, "--json")
    data = json.loads(out)
    assert code == 0 and data["hello"]["board"] == "testbox" and data["status"]["journal"]["last_seq"] == 20


def test_the_installed_command(device):
    exe = os.path.join(os.path.dirname(sys.executable), "tablemate")
    res = subprocess.run([exe, "status", "--port", device.port], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0 and "board testbox" in res.stdout


def test_missing_port(capsys, tmp_path):
    err = one_line_error(*status(capsys, str(tmp_path / "ttyNOPE")))
    assert "no such port: %s" % (tmp_path / "ttyNOPE") in err


def test_not_a_serial_port(capsys, tmp_path):
    plain = tmp_path / "file.txt"
    plain.write_text("hi")
    assert "is not a serial port" in one_line_error(*status(capsys, str(plain)))


def test_busy_port(device, capsys):
    holder = open_port(device.port)
    try:
        assert "is busy" in one_line_error(*status(capsys, device.port))
    finally:
        holder.close()


def test_a_pty_nobody_answers_on(capsys):
    master, slave = pty.openpty()
    try:
        err = one_line_error(*status(capsys, os.ttyname(slave)))
        assert "no reply from" in err and "tablemate box running there" in err
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_that_answers_garbage(fake, capsys):
    err = one_line_error(*status(capsys, fake("garbage")))
    assert "answered, but not like a tablemate box" in err and "ERROR 42" in err


def test_a_device_with_a_newer_protocol(fake, capsys):
    err = one_line_error(*status(capsys, fake("newer")))
    assert "speaks protocol 2" in err and "update the host tools" in err


def test_a_device_with_an_older_protocol(fake, capsys):
    err = one_line_error(*status(capsys, fake("older")))
    assert "speaks protocol 0" in err and "update the firmware" in err


def test_no_port_and_no_board_found(capsys, monkeypatch):
    from host import port_select

    monkeypatch.delenv(port_select.PORT_ENV, raising=False)
    monkeypatch.setattr(port_select, "find_boards", lambda: [])
    assert cli_main(["status"]) == 2
    err = capsys.readouterr().err
    assert "no Raspberry Pi board found" in err and "--port" in err
    assert err.count("\n") == 1


def test_a_box_stopped_at_its_repl_is_named_as_such(device, capsys):
    from tests.host.test_link_over_pty import read_until

    with open_port(device.port) as ser:
        ser.write(b"\r\x03")  # Ctrl-C: the firmware's serial task breaks to the REPL
        read_until(ser, b">>> ")
    assert cli_main(["status", "--port", device.port, "--timeout", "1"]) == 1
    err = capsys.readouterr().err
    assert "is at its MicroPython REPL" in err and "soft_reset" in err
    assert err.count("\n") == 1
