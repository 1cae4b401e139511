"""Every function from a button's edge to the winner's LED keeps its frame off the heap.

MicroPython allocates a called function's frame on the heap when its state (locals and
stack slots, plus the exception stack of a try) is larger than 11 machine words: an
allocation at every call, which cost the emulated Pico's press-to-LED path ~0.4 ms and
breaks "nothing from the pin to the decision allocates". The compiler's own dump
(`micropython -v -v`) gives each code block's N_STATE and N_EXC_STACK; sizes as on a
32-bit port (the 64-bit one doubles both sides of the comparison)."""

import re
import subprocess
from pathlib import Path

from host.virtual_device import micropython_path

ROOT = Path(__file__).resolve().parents[2]
WORD = 4
EXC_ENTRY = 2 * WORD  # mp_exc_stack_t: handler and previous exception
MAX_STATE = 11 * WORD  # py/objfun.c VM_MAX_STATE_ON_STACK

# The path of a press and of its decision: capture, ring, debouncer, app, mode, arbiter, LEDs.
HOT = {
    "firmware/pio_capture.py": ["_on_irq", "drain", "counter_tick", "word_mask"],
    "firmware/buttons.py": ["push", "update", "pop", "__len__", "feed", "poll", "take", "_press",
                            "_emit", "_mark_up", "_confirm_up", "_release", "_check_stuck",
                            "ignored", "_on_edge"],
    "firmware/ticks.py": ["ticks_diff", "ticks_add", "ticks_us"],
    "firmware/app.py": ["_input_pass", "_drain", "_clock_again", "_take_events", "on_button",
                        "_due_soon_us", "_spin_until", "_pass_until_due", "_show_ahead"],
    "firmware/app_parts.py": ["now_us", "ignored", "now_ms"],
    "firmware/modes/base.py": ["on_button", "tick", "due_us", "game"],
    "firmware/modes/anomia.py": ["on_player", "on_tick", "on_due", "_poll", "_decided"],
    "firmware/arbiter.py": ["press", "release", "poll", "due", "set_ignored", "_accepts", "_decide",
                            "_rank_all", "_find_ties", "_insert", "_rank", "_rearm"],
    "firmware/leds.py": ["winner", "tie", "ahead", "show_ahead", "tick", "_players", "_only", "_store",
                         "_status", "_set_mode", "_check_player", "_all_at", "_mask", "_seat", "_steady"],
    "firmware/board_pico.py": ["__setitem__", "show"],
}


def frames(path):
    """{code block name: [(n_state, n_exc_stack)]} of one source file, as MicroPython compiles it."""
    code = "compile(open(%r).read(), %r, 'exec')" % (str(ROOT / path), path)
    res = subprocess.run([str(micropython_path()), "-v", "-v", "-c", code], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    out = {}
    name = n_state = None
    for line in (res.stdout + res.stderr).splitlines():
        m = re.match(r"File .*, code block '([^']+)'", line)
        if m:
            name = m.group(1)
        m = re.match(r"\(N_STATE (\d+)\)", line)
        if m:
            n_state = int(m.group(1))
        m = re.match(r"\(N_EXC_STACK (\d+)\)", line)
        if m:
            out.setdefault(name, []).append((n_state, int(m.group(1))))
    return out


def on_heap(n_state, n_exc):
    return n_state * WORD + n_exc * EXC_ENTRY > MAX_STATE


def test_the_compiler_dump_tells_a_heap_frame():
    # the rule itself, on two made-up functions: 12 slots, and a try with an `as`
    found = frames("tests/host/hot_frames_sample.py")
    assert not any(on_heap(*f) for f in found["small"]), found
    assert all(on_heap(*f) for f in found["many_locals"]), found
    assert all(on_heap(*f) for f in found["guarded"]), found


def test_edge_to_led_functions_keep_their_frames_on_the_stack():
    heavy = []
    for path, names in HOT.items():
        found = frames(path)
        for name in names:
            assert name in found, "%s has no function %s" % (path, name)
            heavy += ["%s %s: %d slots, %d try" % (path, name, s, e) for s, e in found[name] if on_heap(s, e)]
    assert heavy == []
