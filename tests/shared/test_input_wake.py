"""The input's wake-up: a ThreadSafeFlag that, while asyncio idles, also schedules the pass."""

from firmware.input_wake import input_wake, watch_idle
from tests.shared.compat import IS_MICROPYTHON, assert_alloc_free, skip


class Flag:
    """asyncio.ThreadSafeFlag as MicroPython 1.28 has it, for CPython (which has none):
    set() stores state 1, asyncio's poll reads it."""

    def __init__(self):
        self.state = 0

    def set(self):
        self.state = 1


class FlagModule:
    ThreadSafeFlag = Flag


class Scheduler:
    """micropython.schedule: keeps the calls until run(), as the VM keeps them until the
    IRQ has returned."""

    def __init__(self):
        self.queue = []

    def schedule(self, fn, arg):
        self.queue.append((fn, arg))

    def run(self):
        queue, self.queue = self.queue, []
        for fn, arg in queue:
            fn(arg)


class IoQueue:
    """asyncio.core._io_queue: wait_io_event(dt) is where asyncio waits with no task to run;
    the steps given happen during one wait (pushes from the IRQ, the VM running what they
    scheduled)."""

    def __init__(self):
        self.steps = []
        self.waits = []

    def wait_io_event(self, dt):
        self.waits.append(dt)
        steps, self.steps = self.steps, []
        for step in steps:
            step()


def _parts():
    sched = Scheduler()
    runs = []
    wake = input_wake(FlagModule, lambda _: runs.append(wake.idle), sched.schedule)
    io = IoQueue()
    undo = watch_idle(io, wake)
    return wake, sched, runs, io, undo


def test_a_push_while_a_task_runs_only_sets_the_flag():
    wake, sched, runs, io, _ = _parts()
    wake.set()
    assert wake.state == 1 and sched.queue == [] and runs == []


def test_a_push_while_asyncio_idles_runs_the_pass_once_inside_the_wait():
    wake, sched, runs, io, _ = _parts()
    io.steps = [wake.set, wake.set, wake.set, sched.run]  # a bounce train: one pass
    io.wait_io_event(5)
    assert io.waits == [5] and runs == [True] and wake.state == 1 and not wake.idle
    # a push after that pass has started schedules the next one
    io.steps = [wake.set, sched.run, wake.set, sched.run]
    io.wait_io_event(3)
    assert runs == [True, True, True]


def test_a_scheduled_pass_that_comes_after_the_wait_leaves_the_press_to_the_task():
    wake, sched, runs, io, _ = _parts()
    io.steps = [wake.set]
    io.wait_io_event(5)  # the VM had no chance to run it before asyncio went on
    sched.run()  # now a task runs: the pass is not cut into its work
    assert runs == [] and wake.state == 1  # the flag wakes the input task instead
    io.steps = [wake.set, sched.run]  # and the next push while idle is scheduled again
    io.wait_io_event(5)
    assert runs == [True]


def test_undo_gives_asyncio_its_own_wait_back():
    wake, sched, runs, io, undo = _parts()
    assert io.wait_io_event.__name__ == "idle_wait"
    undo()
    assert io.wait_io_event.__name__ == "wait_io_event" and not wake.idle
    io.steps = [wake.set, sched.run]
    io.wait_io_event(5)
    assert runs == []


def test_on_micropython_the_real_flag_wakes_its_task_and_set_allocates_nothing():
    if not IS_MICROPYTHON:
        skip("asyncio.ThreadSafeFlag is MicroPython's")
    import asyncio

    import micropython

    woke = []
    wake = input_wake(asyncio, lambda _: None, micropython.schedule)

    async def waiter():
        await wake.wait()
        woke.append(True)

    async def main():
        task = asyncio.create_task(waiter())
        await asyncio.sleep_ms(5)
        assert woke == []
        wake.set()  # set() written out must still be the base's: the waiting task wakes
        await asyncio.sleep_ms(5)
        assert woke == [True], "the flag's set() did not wake its task"
        task.cancel()

    asyncio.run(main())
    asyncio.new_event_loop()
    assert_alloc_free(lambda: wake.set)
