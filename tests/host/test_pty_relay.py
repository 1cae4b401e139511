"""PtyRelay: raw both ways, stderr kept out of the stream, reopenable port, never blocked by a
silent client, cut/resume with and without hangup, stop."""

import os
import sys
import time

import pytest
import serial

from host.pty_relay import PtyRelay

# Echoes each input line as hex (so every byte is visible), floods on request, chats on stderr.
CHILD = r"""
import os, sys
sys.stderr.write("child stderr hello\n"); sys.stderr.flush()
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    if line.startswith(b"flood "):
        n = int(line.split()[1])
        os.write(1, b"x" * n + b"\n")
        sys.stderr.write("flooded %d\n" % n); sys.stderr.flush()
    os.write(1, b"echo " + line.hex().encode() + b"\n")
"""


@pytest.fixture
def relay(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    r = PtyRelay(link=str(tmp_path / "ttyTEST"), stderr_path=str(tmp_path / "child.log"))
    r.start([sys.executable, "-u", str(script)])
    yield r
    r.stop()


def opened(port):
    return serial.Serial(port, 115200, timeout=0.1, exclusive=True)


def ask(ser, payload, timeout=5.0):
    """Send payload; return the child's echo of it (raises if it does not come)."""
    want = b"echo " + payload.hex().encode() + b"\n"
    ser.write(payload)
    got = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got += ser.read(max(1, ser.in_waiting))
        if want in got:
            return want
    raise AssertionError("no echo of %r; got %r" % (payload, got[-200:]))


def test_bytes_pass_unchanged_both_ways_and_stderr_goes_to_the_log(relay, tmp_path):
    assert os.path.realpath(relay.port) == relay.pts and relay.pts.startswith("/dev/pts/")
    # raw: no echo, no ^C signal, no CR/LF mangling
    payload = bytes(b for b in range(256) if b != 0x0A) + b"\r\n"
    with opened(relay.port) as ser:
        ask(ser, payload)
        ask(ser, b"\x03\x04\x1a\x11\x13\n")
        time.sleep(0.05)
        assert ser.in_waiting == 0  # nothing echoed by the tty layer, nothing from stderr
    assert relay.proc.poll() is None
    assert "child stderr hello" in (tmp_path / "child.log").read_text()


def test_clients_can_open_and_close_the_port_repeatedly(relay):
    for i in range(15):
        with opened(relay.port) as ser:
            ask(ser, b"round %d\n" % i)
    assert relay.running()


def test_a_second_exclusive_client_is_refused(relay):
    with opened(relay.port):
        with pytest.raises(serial.SerialException, match="exclusively lock"):
            opened(relay.port)


def test_output_nobody_reads_is_dropped_without_blocking_anyone(relay, tmp_path):
    with opened(relay.port) as ser:
        ser.write(b"flood 2000000\n")  # then close without reading a byte
    deadline = time.monotonic() + 10
    while "flooded 2000000" not in (tmp_path / "child.log").read_text():
        assert time.monotonic() < deadline, "child blocked on its output"
        time.sleep(0.05)
    with opened(relay.port) as ser:
        ask(ser, b"still there\n")
    st = relay.stats()
    assert st["dropped"] > 1500000 and st["to_port"] < 500000


def test_cut_and_resume_keep_the_child(relay):
    pid = relay.proc.pid
    with opened(relay.port) as ser:
        ask(ser, b"before\n")
        relay.cut()
        assert not relay.running()
        ser.write(b"lost\n")
        time.sleep(0.2)
        assert ser.read(100) == b""  # the line is dead
        relay.resume()
        ask(ser, b"after\n")
    assert relay.proc.pid == pid and relay.proc.poll() is None


def test_hangup_makes_the_port_vanish_and_resume_brings_a_new_one(relay):
    pid = relay.proc.pid
    ser = opened(relay.port)
    ask(ser, b"before\n")
    relay.cut(hangup=True)
    assert not os.path.exists(relay.port)
    with pytest.raises(serial.SerialException):
        for _ in range(20):
            ser.write(b"x\n")
            ser.read(1)
    ser.close()
    relay.resume()
    assert os.path.realpath(relay.port) == relay.pts
    with opened(relay.port) as ser:
        ask(ser, b"after\n")
    assert relay.proc.pid == pid


def test_stop_ends_the_child_and_removes_the_link(tmp_path):
    r = PtyRelay(link=str(tmp_path / "ttyX"))
    r.start([sys.executable, "-c", "import time; time.sleep(60)"])
    assert os.path.islink(r.port) and r.proc.poll() is None
    r.stop()
    assert r.proc.returncode is not None and not os.path.lexists(str(tmp_path / "ttyX"))


def test_a_child_that_exits_leaves_the_port_usable(tmp_path):
    with PtyRelay() as r:
        r.start([sys.executable, "-c", "import os; os.write(1, b'bye\\n')"])
        r.proc.wait(10)
        with opened(r.port) as ser:
            ser.write(b"anyone?\n")
            time.sleep(0.1)
            ser.read(100)  # whatever is left; must not raise
        assert r.running()
