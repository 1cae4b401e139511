"""The real serve() under micropython behind a PtyRelay: hello/status/records over pyserial,
10,000 fuzzed frames (every one answered with a typed error, nothing changed), Ctrl-C and
mpremote take-over, and a pulled cable."""

import os
import subprocess
import sys
import time

import pytest
import serial

from firmware import protocol as P
from host.pty_relay import PtyRelay
from host.serial_client import CorruptRecord, DeviceClient, DeviceTimeout, PortError
from tests.host import fuzz_frames

FUZZ_N = int(os.environ.get("TABLEMATE_FUZZ_N", "10000"))
MPREMOTE = str(fuzz_frames.ROOT / ".venv" / "bin" / "mpremote")


def without_beats(status):
    st = dict(status["status"])
    beats = st.pop("beats")
    return {"status": st, "journal": status["journal"]}, beats


def all_records(dev):
    out = []
    cursor = 0
    while True:
        page = dev.records(cursor, limit=7)
        out.extend(page["records"])
        if not page["more"]:
            return out
        cursor = page["next"]


def test_hello_status_and_records_over_the_pty(device):
    with DeviceClient(device.port) as dev:
        info = dev.info
        assert info["impl"] == "micropython" and info["micropython"].startswith("1.")
        assert info["proto"] == P.PROTOCOL_VERSION and info["board"] == "testbox"
        assert (info["mpy"] & 0xFF) == 6
        first, beats1 = without_beats(dev.status())
        assert first["status"] == {"mode": "menu", "clock_set": False, "players": 4}
        assert first["journal"]["last_seq"] == 20
        time.sleep(0.2)
        _, beats2 = without_beats(dev.status())
        assert beats2 > beats1 + 5  # the heartbeat task runs while serve() waits for input
        recs = all_records(dev)
        assert [r["seq"] for r in recs] == list(range(1, 21))
        assert dev.settings_set({"brightness": 9})["brightness"] == 9
        assert dev.time_set(1700000000) == 1700000000
        assert dev.mode("anomia") == "anomia"
        assert dev.ack(5) == 5
        assert dev.status()["status"]["clock_set"] is True
        dev.send_line(b"line noise\n")  # its null-id error reply must not answer the next request
        time.sleep(0.2)
        assert dev.request("hello")["proto"] == P.PROTOCOL_VERSION


def test_fuzzed_frames_all_get_typed_errors_and_change_nothing(device, capsys):
    with DeviceClient(device.port) as dev:
        before, _ = without_beats(dev.status())
        records_before = all_records(dev)
        settings_before = dev.settings_get()
        errors_before = dev.status()["link"]["rx_errors"]
    summary = fuzz_frames.run_fuzz(device.port, n=FUZZ_N, seed=20240501)
    with capsys.disabled():
        print("\nfuzz: " + fuzz_frames.describe(summary))
    fuzz_frames.assert_all_typed_errors(summary, FUZZ_N)
    assert summary["noise_lines"] == 0
    assert device.proc.poll() is None
    with DeviceClient(device.port) as dev:
        after, _ = without_beats(dev.status())
        assert after == before
        assert all_records(dev) == records_before
        assert dev.settings_get() == settings_before
        assert dev.status()["link"]["rx_errors"] == errors_before + FUZZ_N


def read_until(ser, marker, timeout=5.0):
    got = b""
    deadline = time.monotonic() + timeout
    while marker not in got:
        assert time.monotonic() < deadline, "no %r in %r" % (marker, got[-300:])
        got += ser.read(max(1, ser.in_waiting))
    return got


def test_ctrl_c_breaks_to_the_repl(device):
    with serial.Serial(device.port, timeout=0.1) as ser:
        ser.write(b'{"id":1,"op":"stat')  # half a frame, then Ctrl-C
        ser.write(b"\r\x03")
        read_until(ser, b">>> ")
        ser.write(b"print(ctx.journal.last_seq * 2)\r")
        read_until(ser, b"40")
    assert device.proc.poll() is None


def test_mpremote_takes_over_a_serving_device(device):
    res = subprocess.run([MPREMOTE, "connect", device.port, "resume", "exec",
                          "print('seq', ctx.journal.last_seq)"], capture_output=True, timeout=30)
    assert res.returncode == 0, res.stderr
    assert b"seq 20" in res.stdout


def test_a_pulled_cable_then_reconnect(device):
    dev = DeviceClient(device.port, timeout=0.5).open()
    assert dev.status()["journal"]["last_seq"] == 20
    device.cut()
    with pytest.raises(DeviceTimeout):
        dev.status()
    device.cut(hangup=True)
    with pytest.raises(PortError):
        for _ in range(5):
            dev.status()
    dev.close()
    device.resume()
    with DeviceClient(device.port) as dev:
        st = dev.status()
        assert st["journal"]["last_seq"] == 20 and st["link"]["rx_ok"] >= 2


# A device that surrounds every reply with what a client must skip, and damages one record.
CHATTY = r"""
import os, sys
sys.path.insert(0, %(root)r)
from firmware import protocol as P
from firmware.link import wire_record
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    req = P.decode(line)
    os.write(1, P.event("press", {"player": 1}))
    os.write(1, b"some debug print\r\n")
    os.write(1, P.encode(P.ok_reply(req["id"] + 1000, {"stale": True})))
    os.write(1, P.encode({"id": req["id"], "ok": True, "x": 1}).replace(b'"x":1', b'"x":2'))
    if req["op"] == "records":
        recs = [wire_record({"seq": s, "kind": "press", "t": s, "data": {"p": s}}) for s in (1, 2)]
        recs[1]["data"]["p"] = 99  # changed after its CRC was taken
        reply = P.ok_reply(req["id"], {"records": recs, "next": 2, "more": False, "last_seq": 2, "acked": 0})
    else:
        reply = P.ok_reply(req["id"], {"proto": P.PROTOCOL_VERSION, "echo": req["op"]})
    os.write(1, P.encode(reply))
"""


def test_client_skips_events_noise_stale_and_corrupt_frames(tmp_path):
    script = tmp_path / "chatty.py"
    script.write_text(CHATTY % {"root": str(fuzz_frames.ROOT)})
    with PtyRelay().start([sys.executable, "-u", str(script)]) as relay:
        with DeviceClient(relay.port) as dev:
            assert dev.request("status")["echo"] == "status"
            assert dev.request("mode", name="x")["echo"] == "mode"
            assert [e["ev"] for e in dev.events] == ["press"] * 3
            assert dev.noise_lines == 3 and dev.corrupt_lines == 3
            with pytest.raises(CorruptRecord, match="record 2"):
                dev.records(0, 10)
            assert len(dev.records(0, 10, verify=False)["records"]) == 2
