"""Anomia soak on the virtual device: thousands of scripted face-offs through the real firmware.

The face-offs go over the world channel on the script clock (virtual time), so 10,000
of them take seconds, not hours. Every 100 face-offs the driver waits until the device
has decided everything and acknowledges the journal over the serial protocol (as a
host sync would), so the journal can prune when it needs the room and the image never
fills up. Heap in use (gc.mem_alloc after gc.collect, from the status op) and the
journal's segment count are read after the first 100 face-offs and at the end.

Usage: python -m host.soak [--faceoffs N] [--heapsize 320k] [--mode NAME]
(--mode: a buzzer mode of the registry; its settings get the soak's players and lockout)
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from host import virtual_device as sim
from host.serial_client import DeviceClient
from host.virtual_device import VirtualDevice, micropython_path, prepare_image

PLAYERS = 4
LOCKOUT_MS = 200
SPACING_US = 400000  # one face-off every 0.4 s of script time: longer than the lockout
CHECK_EVERY = 100


def faceoff_edges(i, t0):
    """The i-th face-off: two players, gaps from 0 (a tie) up to 5 ms, then releases."""
    a = i % PLAYERS
    b = (i + 1 + (i // PLAYERS) % (PLAYERS - 1)) % PLAYERS
    gap = (i * 137) % 5000
    if i % 9 == 0:
        gap = i % 3  # ties (and, after them, tie-breakers that only a and b may win)
    return [(t0, a, 1), (t0 + gap, b, 1), (t0 + 60000, a, 0), (t0 + 60000 + gap, b, 0)]


class Soak:
    def __init__(self, device):
        self.device = device
        self.world = device.world
        self.decisions = 0
        self.ties = 0
        self.sync_id = 0
        self.errors = []

    def take(self, messages):
        for msg in messages:
            if msg.get("t") == "event" and msg.get("kind") == "decision":
                self.decisions += 1
                self.ties += msg.get("event") == "tie"
            elif msg.get("t") == "event" and msg.get("kind") == "storage_error":
                self.errors.append(msg.get("msg"))
            elif msg.get("t") == "error":
                self.errors.append(msg.get("msg"))

    def send(self, msg):
        self.world.send(msg)
        self.take(self.world.read())

    def settle(self, clock_us, timeout=60.0):
        """Advance the clock past the last lockout and wait until the device has decided all."""
        self.send({"t": "clock", "us": clock_us})
        self.sync_id += 1
        self.world.send({"t": "sync", "id": self.sync_id})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msgs = self.world.wait(deadline - time.monotonic())
            self.take(msgs)
            if any(m.get("t") == "sync" and m.get("id") == self.sync_id for m in msgs):
                return
            if self.world.closed:
                raise RuntimeError("the device hung up: %s" % self.device.stderr_tail())
        raise RuntimeError("the device did not settle")


SOAK_MODE = "anomia"


def run_soak(faceoffs, heapsize=sim.DEFAULT_HEAPSIZE, workdir=None, log=None, mode=SOAK_MODE):
    """Returns a dict of figures; raises RuntimeError if the device failed."""
    with tempfile.TemporaryDirectory(prefix="tablemate-soak-") as tmp:
        image = Path(workdir or tmp) / "soak.img"
        exe = micropython_path()
        prepare_image(exe, heapsize, image, fresh=True)
        device = VirtualDevice(exe, image, heapsize)
        port = device.start()
        try:
            device.connect_world()
            soak = Soak(device)
            client = DeviceClient(port, timeout=10.0).open()
            try:
                soak.send({"t": "mode", "name": mode,
                           "options": {"players": PLAYERS, "lockout_ms": LOCKOUT_MS}})
                started = time.monotonic()
                after_first = None
                first_at = None
                t = SPACING_US
                i = 0
                st = None
                while True:
                    if i < faceoffs:
                        edges = faceoff_edges(i, t)
                    else:  # the end: one press from a tied player closes the pending tie-breaker
                        edges = [(t, st["status"]["mode_status"]["tiebreak"][0], 1),
                                 (t + 60000, st["status"]["mode_status"]["tiebreak"][0], 0)]
                    for t_us, player, down in edges:
                        soak.world.send({"t": "clock", "us": t_us})
                        soak.world.edge(player, down, t_us)
                    t += SPACING_US
                    i += 1
                    looking = after_first is None and i >= CHECK_EVERY and i % 10 == 0
                    if i % CHECK_EVERY and i < faceoffs and not looking:
                        continue
                    soak.settle(t)
                    st = client.status()
                    if st["status"].get("mode") != mode:
                        raise RuntimeError("the buzzer mode stopped after %d face-offs: %s"
                                           % (i, st["status"].get("mode_error")))
                    client.ack(st["journal"]["last_seq"])
                    quiet = not st["status"]["mode_status"]["tiebreak"]
                    if log:
                        log("%d face-offs, %d decisions, heap in use %d%s" % (
                            i, soak.decisions, st["status"]["mem_alloc"], "" if quiet else " (tie-break)"))
                    # heap in use is compared at like moments: no tie-breaker pending
                    if quiet and after_first is None:
                        after_first, first_at = st, i
                    elif quiet and i >= faceoffs:
                        break
                elapsed = time.monotonic() - started
                end = client.status()
            finally:
                client.close()
        finally:
            device.stop()
        if soak.errors:
            raise RuntimeError("device errors: %s" % soak.errors[:3])
        stderr = device.stderr_tail()
        if "MemoryError" in stderr or "Traceback" in stderr:
            raise RuntimeError("the firmware failed: %s" % stderr)
        return {
            "faceoffs": faceoffs,
            "decisions": soak.decisions,
            "ties": soak.ties,
            "heapsize": heapsize,
            "mem_alloc_after_first": after_first["status"]["mem_alloc"],
            "faceoffs_at_first_check": first_at,
            "faceoffs_run": i,
            "mem_alloc_end": end["status"]["mem_alloc"],
            # the journal keeps one small index entry per segment it holds: heap that grows
            # with the records kept (acked ones too, until the room is needed), not a leak
            "segments_after_first": after_first["journal"]["segments"],
            "segments_end": end["journal"]["segments"],
            "mode": end["status"].get("mode"),
            "mode_error": end["status"].get("mode_error"),
            "ring_overflows": end["status"].get("ring_overflows"),
            "event_overflows": end["status"].get("event_overflows"),
            "seconds": round(elapsed, 2),
        }


def menu_heap(heapsize=sim.DEFAULT_HEAPSIZE):
    """Heap in use (gc.mem_alloc after gc.collect, from the status op) of a freshly installed
    virtual box in its menu: the first status once it has settled."""
    with tempfile.TemporaryDirectory(prefix="tablemate-menu-") as tmp:
        image = Path(tmp) / "menu.img"
        exe = micropython_path()
        prepare_image(exe, heapsize, image, fresh=True)
        device = VirtualDevice(exe, image, heapsize)
        port = device.start()
        try:
            world = device.connect_world()
            world.send({"t": "sync", "id": 1})  # answered once the box has settled after its boot
            deadline = time.monotonic() + 60.0
            while not any(m.get("t") == "sync" for m in world.wait(1.0)):
                if world.closed or time.monotonic() > deadline:
                    raise RuntimeError("the virtual box did not settle: %s" % device.stderr_tail())
            with DeviceClient(port, timeout=10.0) as client:
                st = client.status()["status"]
        finally:
            device.stop()
    if st.get("mode") != "menu":
        raise RuntimeError("the box did not start in its menu: %s" % st.get("mode"))
    return st["mem_alloc"]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host.soak")
    ap.add_argument("--faceoffs", type=int, default=10000)
    ap.add_argument("--heapsize", default=sim.DEFAULT_HEAPSIZE)
    ap.add_argument("--mode", default=SOAK_MODE, help="the buzzer mode to soak (default %(default)s)")
    args = ap.parse_args(argv)
    res = run_soak(args.faceoffs, args.heapsize, log=lambda s: print(s, file=sys.stderr), mode=args.mode)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
