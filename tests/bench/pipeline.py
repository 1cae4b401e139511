"""The buzzer's input path as the box's input task runs it, for the bench scripts."""


def feed(ring, deb, arb, snap, ev, now):
    """Drain the ring into the debouncer, confirm what is due at now, and hand every
    debounced edge to the arbiter. Allocates nothing."""
    while ring.pop(snap):
        deb.feed(snap[0], snap[1])
    deb.poll(now)
    while deb.take(ev):
        if ev[1]:
            arb.press(ev[0], ev[2])
        else:
            arb.release(ev[0], ev[2])
