"""Keys that reach the terminal front-end in one read are pressed at the same microsecond:
two buzzer keys sent together are a tie (0 us apart), as the arbiter decides it, every time."""

import io
import os
import queue
import threading

from host.tui import Tui
from host.virtual_device import DEFAULT_HEAPSIZE, VirtualDevice, micropython_path, prepare_image

WAIT_S = 60.0  # a loaded machine may hold a decision back; each wait ends when it arrives


def test_buzzer_keys_of_one_read_tie_at_0_us(tmp_path):
    exe = micropython_path()
    image = tmp_path / "flash.img"
    prepare_image(exe, DEFAULT_HEAPSIZE, image, fresh=True)
    device = VirtualDevice(exe, image)
    device.start()
    r, w = os.pipe()
    thread = None
    try:
        device.connect_world()
        device.world.send({"t": "mode", "name": "anomia", "options": {"players": 4, "lockout_ms": 100}})
        tui = Tui(device, r, io.StringIO())
        decisions = queue.Queue()
        shown = tui.view.apply

        def apply(msg):
            if msg.get("kind") == "decision":
                decisions.put(msg)
            shown(msg)

        tui.view.apply = apply
        thread = threading.Thread(target=tui.loop, daemon=True)
        thread.start()
        # one write of several keys: the front-end gets them in one read, as from a terminal
        # where two players hit their keys at once
        for keys, expected in (("13", ("tie", [1, 3])), ("31", ("tie", [1, 3])), ("13", ("tie", [1, 3])),
                               ("3", ("win", 3)), ("421", ("tie", [1, 2, 4])), ("24", ("tie", [2, 4]))):
            os.write(w, keys.encode())
            got = decisions.get(timeout=WAIT_S)
            outcome = (got["event"], got["players"] if got["event"] == "tie" else got["winner"])
            assert outcome == expected, (keys, got)
            if got["event"] == "tie":
                assert got["gap_us"] == 0, (keys, got)  # pressed at the same microsecond
        os.write(w, b"q")
        thread.join(WAIT_S)
        assert not thread.is_alive()
    finally:
        os.close(w)
        if thread is not None and thread.is_alive():
            device.world.close()  # the loop ends when its world goes
        device.stop()
        os.close(r)
