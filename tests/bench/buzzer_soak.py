"""The buzzer's decision path soaked under a small heap, run under micropython.

ring -> debouncer -> arbiter -> scorekeeper engine (apply + digest), for N face-offs;
with --journal also a journal record per decision (a temporary directory, acknowledged
every 500 face-offs, pruned when its modelled 512 KB filesystem needs the room).
Prints one JSON line: face-offs, decisions, heap in use (after gc.collect) after the
first 100 face-offs and at the end.

Usage: micropython -X heapsize=64k tests/bench/buzzer_soak.py N [--journal] [--root DIR]
  --root DIR: import the modules from DIR (e.g. compiled .mpy files, as on a box)
"""

import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if "--root" in sys.argv:
    ROOT = sys.argv[sys.argv.index("--root") + 1]
sys.path.insert(0, ROOT)
JOURNAL = "--journal" in sys.argv

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

from pipeline import feed  # noqa: E402  (tests/bench, the script's own folder)

from engine import anomia_score  # noqa: E402
from firmware.arbiter import DONE, NONE, TIE, WIN, Arbiter, faceoff_record  # noqa: E402
from firmware.buttons import Debouncer, EdgeRing  # noqa: E402

PLAYERS = 4
SPACING = 400000  # µs between face-offs, longer than the lockout
LOCKOUT = 200000
ACK_EVERY = 500


def soak(n, path):
    ring = EdgeRing(64)
    deb = Debouncer(11, 25000)
    arb = Arbiter(PLAYERS, 1000, LOCKOUT)
    game = anomia_score.new_game(7, PLAYERS)
    journal = None
    if path is not None:
        from firmware.journal import Journal

        # a modelled 512 KB filesystem holding only the journal: it prunes acked records on need
        journal = Journal(path, free=lambda: 512 * 1024 - journal.stats()["bytes"])
    snap = [0, 0]
    ev = [0, 0, 0]
    deb.start(0, 0)
    decisions = 0
    pending = NONE
    first = first_at = None
    t = SPACING

    def pump(now):
        nonlocal decisions, pending
        feed(ring, deb, arb, snap, ev, now)
        code = arb.poll(now)
        while code != NONE:
            if code == WIN or code == TIE:
                decisions += 1
                pending = code
            elif code == DONE and pending != NONE:
                if pending == WIN:
                    action = ["win", arb.winner, arb.ranked[1] if arb.n_ranked > 1 else -1]
                    if game.tiebreak and action[2] not in game.tiebreak:
                        action[2] = -1
                else:
                    action = ["tie"] + sorted(arb.tied[i] for i in range(arb.n_tied))
                game.apply(action)
                digest = game.digest()
                if journal is not None:
                    journal.append("action", {"action": action, "digest": digest,
                                              "faceoff": faceoff_record(arb)})
                pending = NONE
            code = arb.poll(now)

    # Heap in use is compared at like moments: after a face-off, with no tie-breaker
    # pending (a pending one holds a small list), at the first such moment from face-off
    # 100 on and at the first from face-off n on.
    i = 0
    end = None
    while end is None:
        a = i % PLAYERS
        b = (a + 1 + (i // PLAYERS) % (PLAYERS - 1)) % PLAYERS
        gap = 1 if i % 9 == 0 else 1000 + (i * 137) % 4000
        ring.push(1 << a, t)
        pump(t)
        ring.push((1 << a) | (1 << b), t + gap)
        pump(t + gap)
        ring.push(1 << b, t + 60000)
        ring.push(0, t + 60000 + gap)
        pump(t + SPACING - 1)
        t = (t + SPACING) & 0x3FFFFFFF
        i += 1
        if journal is not None and i % ACK_EVERY == 0:
            journal.ack(journal.last_seq)
        if not game.tiebreak and ((first is None and i >= 100) or i >= n):
            gc.collect()
            if first is None:
                first = gc.mem_alloc()
                first_at = i
            else:
                end = gc.mem_alloc()
    if journal is not None:
        journal.ack(journal.last_seq)
    return {"faceoffs": i, "decisions": decisions, "mem_alloc_after_100": first,
            "first_check_at": first_at, "mem_alloc_end": end,
            "records": journal.last_seq if journal else None,
            "scores": game.scores(), "digest": game.digest(), "journal": journal is not None}


def remove_tree(path):
    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10000
    if not JOURNAL:
        print(json.dumps(soak(n, None)))
        return
    path = "/tmp/tablemate-soak-%s" % "".join("%02x" % b for b in os.urandom(4))
    os.mkdir(path)
    try:
        out = soak(n, path)
    finally:
        remove_tree(path)
    print(json.dumps(out))


main()
