"""`make bench` rows of the PIO capture on the emulated Pico (host/bench_pico.py's box,
"rp2040 emulated", virtual us), beside the host PIO emulator's figure where there is one:
what a drain of the RX FIFO costs per edge, how close chatter may come and still reach
the ring edge by edge, and the longest late drain that loses no press."""

import statistics


def figures(box):
    from tests.host import pico_capture_runs as runs

    return {"drain": runs.drain_cost(box), "edge_by_edge_us": runs.closest_edge_by_edge(box),
            "late_drain_us": runs.longest_late_drain(box)}


def rows(row, label, fig):
    from tests.host.pico_capture_runs import EDGE_BY_EDGE_EDGES
    from tests.host.test_pio_capture import longest_late_drain

    full = [us / n for n, us in fig["drain"] if n > 1]
    one = [us for n, us in fig["drain"] if n == 1]
    row("%s: PIO drain cost per edge" % label, "%.1f us in a full FIFO, %d us alone" % (
        statistics.median(full), statistics.median(one)),
        "PioCapture.drain() between two ticks_us(), median of %d / %d drains; unix port: none"
        % (len(full), len(one)))
    gap = fig["edge_by_edge_us"]
    row("%s: PIO chatter reported edge by edge" % label,
        "edges %d us apart (%d/s)" % (gap, 1_000_000 // gap) if gap else "not even 2 ms apart",
        "%d edges of one button, IRQ drain, bisection; closer ones merge in the full FIFO, "
        "a held press is still kept" % EDGE_BY_EDGE_EDGES)
    late = fig["late_drain_us"]
    row("%s: PIO longest late drain losing no press" % label,
        "%.3f s" % (late / 1e6) if late is not None else "none",
        "bounce storm + held press, nothing drains, bisection to 1 ms (host PIO emulator: %.3f s)"
        % (longest_late_drain() / 1e6))
