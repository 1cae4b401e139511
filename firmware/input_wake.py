"""The input's wake-up from the capture's hard IRQ (EdgeRing.wake).

An asyncio.ThreadSafeFlag alone (set at every ring push) wakes the input task through
asyncio's scheduler: its poll, its ready queue and the task's resumption cost ~0.15 ms of
Python on a Pico before the press's pass starts. While asyncio waits in its poll with
nothing to run, every task is parked at an await and no task's work can be cut in two: the
flag then also schedules the pass itself (micropython.schedule), which runs as soon as the
IRQ returns. While a task runs, only the flag is set, and the press waits for that task's
next await as it would anyway.
"""


def input_wake(asyncio, run, schedule):
    """A ThreadSafeFlag of `asyncio` whose set() (safe from a hard IRQ) also schedules
    run(None) through `schedule` (micropython.schedule) while the flag's `idle` is true (see
    watch_idle); run(None) is then called only if asyncio is still idle when it comes (run:
    a generator's send, whose frame, made once, can hold a try)."""

    class InputWake(asyncio.ThreadSafeFlag):
        def __init__(self):
            super().__init__()
            self.idle = False  # asyncio waits in its poll: no task is running
            self.queued = False  # a run is scheduled and has not started

        def set(self):
            self.state = 1  # the base's set() written out: a call less in the hard IRQ
            if self.idle and not self.queued:
                self.queued = True
                schedule(scheduled, None)

    wake = InputWake()

    def scheduled(_):
        wake.queued = False  # a push from here on schedules another run
        if wake.idle:
            run(None)

    return wake


def watch_idle(io_queue, wake):
    """wake.idle is true while asyncio's io_queue (asyncio.core._io_queue) waits for an
    event, the only time its scheduler runs no task. Returns the function that undoes it."""
    wait = io_queue.wait_io_event

    def idle_wait(dt):
        wake.idle = True
        wait(dt)
        wake.idle = False

    io_queue.wait_io_event = idle_wait

    def undo():
        wake.idle = False
        io_queue.wait_io_event = wait

    return undo
