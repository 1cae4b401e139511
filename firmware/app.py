"""The firmware app: the board, its storage, the serial link and the mode menu, as asyncio tasks.

Tasks: serial link (firmware.link.serve), input (EdgeRing -> Debouncer -> menu or mode,
woken by every snapshot the capture pushes, plus a timed pass for the timers),
LEDs, display and sound; on the sim board also the world channel (unixbox/world.py).

Which board (firmware/app_config.py): $TABLEMATE_BOARD (the sim launcher sets it), else {"board": NAME} in
config.json at the device root, else "pico". config.json may also name the capture
path ({"capture": "irq"}: the pin IRQs instead of the profile's PIO, on a Pico whose PIO
is needed elsewhere or to compare the two). Data lives under data/ relative to the
device root (the current directory: "/" on the Pico, the mounted image on the sim):
the journal in data/journal, the settings in data/settings.json.

The menu: mode cycles through the entries, ok opens one, back returns. It offers only
the modes in firmware/modes (AVAILABLE) plus an About screen. A mode gets a
firmware.context.Context (input, LEDs, display, sound, clock, journal, its settings),
never the app. Outside a mode every
player button is a button test: its LED lights in the player's colour while held and
a moment after, so a build (or the virtual device) can be checked button by button.
"""

import gc
import time

from firmware import modes
from firmware import settings as settings_mod
from firmware.app_parts import Clock, Input
from firmware.buttons import BACK_BIT, MODE_BIT, N_INPUTS, OK_BIT, SEATS
from firmware.ticks import TICKS_HALF, TICKS_MASK, ticks_add, ticks_diff

FIRMWARE_VERSION = "0.1.0"
DATA_DIR = "data"
JOURNAL_DIR = DATA_DIR + "/journal"
SETTINGS_PATH = DATA_DIR + "/settings.json"

# The input path is event-driven: every snapshot a capture pushes wakes the input task at
# once (EdgeRing.wake), and a decision the mode has due is waited for to the microsecond.
# Besides, a timed pass runs every TIMED_PASS_MS for what no edge announces: the debouncer's
# settle and stuck timers, the modes' screen timers, the button test's linger, syncs.
TIMED_PASS_MS = 5
# A decision due sooner than this is slept for exactly; a later one (a lockout's end) is
# left to the timed passes, so the input task keeps waking for every edge meanwhile.
# A wait this short is spent on the clock, not in asyncio: a yield would run another whole
# pass first (~0.6 ms on a Pico) and decide that much late.
SPIN_US = 2000
DUE_SOON_US = 60000  # above the longest tie window a mode allows (50 ms)
LED_PERIOD_MS = 20
SOUND_PERIOD_MS = 10
DISPLAY_PERIOD_MS = 50
ABOUT_REFRESH_MS = 1000
BUTTON_TEST_LINGER_MS = 1000  # a tapped button's LED stays lit this long after release
STATUS_COLOUR = (0, 255, 0)  # steady green: the box is up

SCREEN_MENU = "menu"
SCREEN_ABOUT = "about"
SCREEN_MODE = "mode"
ABOUT = "about"  # the menu entry that is not a mode


class App:
    def __init__(self, board_name=None, board=None):
        from firmware.board import make_board
        from firmware.buttons import Debouncer
        from firmware.journal import Journal, makedirs
        from firmware.link import Link
        from firmware.settings import Settings

        self.firmware_version = FIRMWARE_VERSION
        self.started_ms = time.ticks_ms()
        if board is None:
            # config.json is read once, by code the box forgets after (firmware/app_config.py)
            name, overrides = modes.call_once("firmware.app_config", "board_choice", board_name)
            board = make_board(name, **overrides)
        self.board = board
        self.board_name = self.board.name
        gc.collect()  # the parsed board file is garbage now: keep the heap unfragmented
        makedirs(DATA_DIR)
        self.journal = Journal(JOURNAL_DIR)
        gc.collect()  # the scan of a full journal leaves much garbage: free it before what lives on
        # Who the host files these records under: this board and this journal's life.
        self.device_id = "%s-%s" % (self.board.uid() or self.board_name, self.journal.id)
        # the serial link changes settings; the app then re-applies brightness, colours, sound, debounce
        self.settings = Settings(SETTINGS_PATH, on_change=self.apply_settings)
        self.leds = self.board.make_leds(self.settings.get("brightness"))
        self.display = self.board.make_display()
        self.sound = self.board.make_sound(enabled=self.settings.get("sound"))
        self.link = Link(self)
        self.debouncer = Debouncer(N_INPUTS, self.settings.get("debounce_ms") * 1000)
        self.input = Input(self.debouncer, SEATS)
        self.clock = Clock()
        self.leds.set_colours(settings_mod.seat_colours(self.settings.get("roster")))
        self.leds.set_status(STATUS_COLOUR)

        self.mode = None
        self._mode_due = None  # the running mode's due_us, if it has one
        self.mode_name = "menu"
        self._modules_before = None  # modules loaded before the running mode started
        self.mode_error = None  # why the last mode failed to start, for the status op
        self.storage_error = None  # why the boot record was not stored, for the status op
        self.screen = SCREEN_MENU
        self.menu_index = 0
        self._dirty = True
        self._drawn_ms = 0
        self._test_down = 0  # player buttons held (button test)
        self._test_until = [0] * SEATS  # ms tick until which a released button stays lit
        self._test_lingering = 0
        self._lit = -1  # mask the LEDs show in the button test (-1: not drawn yet)
        self._hints = None  # what the menu's hint row says (a mode keeps its own)
        self.selftest = None  # a host's self-test (firmware/selftest.py), while one runs
        self._snap = [0, 0]
        self._event = [0, 0, 0]
        self._syncs = []
        self._wake = None  # the input task's asyncio.ThreadSafeFlag, set by every ring push
        self._stop = None
        self.stop_reason = None
        self.mem_free_boot = None

        world = getattr(self.board, "world", None)
        if world is not None:
            world.on("quit", lambda msg: self.stop("quit"))
            world.on("closed", lambda msg: self.stop("front-end gone"))
            world.on("mode", self._world_mode)
            world.on("sync", self._world_sync)
            world.on("time", lambda msg: self.set_time(msg.get("epoch")))

    # ---- the ctx the serial link uses

    def status(self):
        """The app's part of the status op (the link adds the journal stats and its counters)."""
        ring = self.board.ring
        deb = self.debouncer
        gc.collect()  # so mem_alloc is what is live, comparable between two calls
        st = {
            "board": self.board_name,
            "capture": self.board.profile["capture"],
            "mode": self.mode_name,
            "screen": self.screen,
            "modes": modes.names(),
            "uptime_s": time.ticks_diff(time.ticks_ms(), self.started_ms) // 1000,
            "mem_free": gc.mem_free(),
            "mem_alloc": gc.mem_alloc(),
            "mem_free_boot": self.mem_free_boot,
            "settings_error": self.settings.load_error,
            "buttons": {
                "down": ring.level,
                "held_at_boot": deb.held_at_boot,
                "stuck": deb.stuck,
                "flagged": deb.flagged,
            },
            "ring_overflows": ring.overflows,
            "event_overflows": deb.overflows,
            "time_set": self.clock.is_set(),
        }
        if self.selftest is not None:
            st["selftest"] = self.selftest.part
        if self.mode_error:
            st["mode_error"] = self.mode_error
        if self.storage_error:
            st["storage_error"] = self.storage_error
        world = getattr(self.board, "world", None)
        if world is not None:
            st["world_dropped"] = world.dropped
        mode_status = getattr(self.mode, "status", None)
        if mode_status is not None:
            st["mode_status"] = mode_status()
        return st

    def set_time(self, epoch):
        self.clock.set_epoch(epoch)

    def act(self, action):
        """The act op: one engine action for the running mode's game, checked as a button
        entry is (GameMode.enter); ValueError with the reason when refused."""
        enter = getattr(self.mode, "enter", None)
        if enter is None:
            from firmware.protocol import BUSY, OpError

            raise OpError(BUSY, "no game is running (%s)" % self.mode_name)
        why = enter(action, time.ticks_ms())
        if why is not None:
            raise ValueError(why)
        session = self.mode.session
        return {"n": session.n, "over": session.over, "scores": session.state.scores(),
                "digest": session.state.digest()}

    def switch_mode(self, name, options=None):
        """Leave the current mode and start `name` ("menu" = back to the menu) with options
        (overrides of the mode's settings for the game it starts). ValueError if unknown or
        if the options are refused."""
        if options is not None and not isinstance(options, dict):
            raise ValueError("mode options must be an object")
        if name == "menu":
            if options:
                raise ValueError("the menu takes no options")
            self.leave_mode()
            return
        if modes.find(name) is None:
            modes.load(name)  # raises the ValueError that lists the available modes
        if self.selftest is not None:
            self.selftest.end(time.ticks_ms())
        self.leave_mode()
        now = time.ticks_ms()
        self._modules_before = modes.loaded()
        try:
            from firmware.context import Context  # forgotten with the mode: the menu does not hold it

            ctx = Context(name, self.input, self.leds, self.display, self.sound, self.clock, self.journal,
                          self.settings, self.emit, DATA_DIR)
            mode = modes.load(name)(ctx, options or {})
            mode.start(now)
        except Exception as e:  # a broken mode must not take the box down: back to the menu
            modes.unload(self._modules_before)
            self.mode_error = "%s: %s: %s" % (name, type(e).__name__, e)
            self._show_menu(now)
            raise ValueError("mode %s failed to start (%s)" % (name, e))
        self.mode = mode
        # optional: when its next decision is due; bound once here, as a getattr at every
        # input pass would allocate
        self._mode_due = getattr(mode, "due_us", None)
        self.mode_name = name
        self.mode_error = None
        self.screen = SCREEN_MODE
        self._remember_mode(name)
        self.emit("mode", {"name": name})

    def _remember_mode(self, name):
        """Keep the running mode in the settings, so the box comes back in it after a reset
        or a power cut (a mode may then resume its own state, e.g. a game in progress)."""
        if self.settings.get("mode") == name:
            return
        try:
            self.settings.update({"mode": name})
        except (OSError, ValueError) as e:  # storage trouble: the box still runs, says why
            self.mode_error = "could not keep mode %s: %s" % (name, e)

    def leave_mode(self):
        if self.mode is None:
            return
        try:
            self.mode.stop()
        finally:
            self.mode = None
            self.mode_name = "menu"
            modes.unload(self._modules_before)
            gc.collect()
            self.sound.stop()
            self._show_menu(time.ticks_ms())
            self._remember_mode("menu")
            self.emit("mode", {"name": "menu"})

    def emit(self, kind, fields=None):
        """Announce an event to the sim front-end (world) and to the serial host (an event frame)."""
        world = getattr(self.board, "world", None)
        if world is not None:
            msg = {"t": "event", "kind": kind}
            if fields:
                for k in fields:
                    msg[k] = fields[k]
            world.send(msg)
        self.link.notify(kind, fields)

    def apply_settings(self, changes):
        if "brightness" in changes:
            self.leds.set_brightness(self.settings.get("brightness"))
        if "roster" in changes:
            self.leds.set_colours(settings_mod.seat_colours(self.settings.get("roster")))
        if "sound" in changes:
            self.sound.set_enabled(self.settings.get("sound"))
        if "debounce_ms" in changes:
            self.debouncer.debounce_us = self.settings.get("debounce_ms") * 1000
        hook = getattr(self.mode, "settings_changed", None)
        if hook is not None:
            hook(changes)
        self._dirty = True

    # ---- menu and button test

    def _show_menu(self, now_ms):
        self.screen = SCREEN_MENU
        self._hints = None  # a mode may have changed the hint row
        self._dirty = True
        self._lit = -1
        self._test_down = 0
        self._test_lingering = 0
        self.leds.lit(0, now_ms)

    def on_button(self, bit, down, tick_us):
        """One debounced edge (bit as in firmware.board, tick_us its capture time)."""
        if self.selftest is not None:
            self.selftest.on_button(bit, down)
            return
        mode = self.mode
        if mode is not None:
            if not mode.on_button(bit, down, tick_us) and down and bit == BACK_BIT:
                self.leave_mode()
            return
        if bit < SEATS:
            self._button_test(bit, down)
        elif down:
            self._menu_key(bit)

    def _menu_key(self, bit):
        """mode, ok or back pressed in the menu (its own method: see _drain)."""
        if bit == MODE_BIT:
            if self.screen == SCREEN_MENU:
                self.menu_index = (self.menu_index + 1) % (len(modes.AVAILABLE) + 1)  # the modes, About
            self.screen = SCREEN_MENU
            self._dirty = True
        elif bit == OK_BIT and self.screen == SCREEN_MENU:
            i = self.menu_index
            key = modes.AVAILABLE[i].name if i < len(modes.AVAILABLE) else ABOUT
            if key == ABOUT:
                self.screen = SCREEN_ABOUT
                self._dirty = True
            else:
                try:
                    self.switch_mode(key)
                except ValueError:
                    self.leds.error(time.ticks_ms())
        elif bit == BACK_BIT and self.screen == SCREEN_ABOUT:
            self.screen = SCREEN_MENU
            self._dirty = True

    def _button_test(self, player, down):
        bit = 1 << player
        now = time.ticks_ms()
        if down:
            self._test_down |= bit
            self.sound.play("click", now)
        else:
            self._test_down &= ~bit
            self._test_lingering |= bit
            self._test_until[player] = time.ticks_add(now, BUTTON_TEST_LINGER_MS)

    def _button_test_tick(self, now_ms):
        lingering = self._test_lingering
        if lingering:
            lingering = self._test_lingering = self._still_lingering(lingering, now_ms)
        mask = self._test_down | lingering
        if mask != self._lit:
            self._lit = mask
            self.leds.lit(mask, now_ms)

    def _still_lingering(self, lingering, now_ms):
        for p in range(SEATS):
            if lingering & (1 << p) and time.ticks_diff(now_ms, self._test_until[p]) >= 0:
                lingering &= ~(1 << p)
        return lingering

    def _draw(self, now_ms):
        display = self.display
        self._dirty = False
        self._drawn_ms = now_ms
        about = self.screen == SCREEN_ABOUT
        hints = ("-", "menu", "-") if about else ("open", "-", "next")
        if hints != self._hints:  # the same hint row and event as a mode's (firmware/modes/base.py)
            self._hints = hints
            line = "O:%s B:%s M:%s" % hints
            if display is not None:
                display.set_hint(line)
            self.emit("hints", {"ok": hints[0], "back": hints[1], "mode": hints[2], "line": line})
        if display is None:
            return
        if about:
            from firmware.about import about_lines

            display.text(about_lines(self, now_ms), title="ABOUT")
        else:
            titles = [entry.title for entry in modes.AVAILABLE] + ["About"]
            display.menu(titles, self.menu_index, title="tablemate")

    # ---- the world channel (sim)

    def _world_mode(self, msg):
        name = msg.get("name")
        if not isinstance(name, str):
            raise ValueError("mode needs a name")
        options = msg.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("mode options must be an object")
        self.switch_mode(name, options)

    def _world_sync(self, msg):
        self._syncs.append(msg.get("id"))

    def settled(self, now_ms):
        """True when every captured edge has been handled and the mode decided all it will."""
        ring = self.board.ring
        deb = self.debouncer
        if len(ring) or deb.pending():
            return False
        releasing = 0
        for b in range(N_INPUTS):
            if deb.is_down(b):
                releasing |= 1 << b
        if releasing & ~ring.level & ~deb.ignored():
            return False
        check = getattr(self.mode, "settled", None)
        return check is None or check(now_ms)

    def _answer_syncs(self, now_ms):
        if self.settled(now_ms):
            world = self.board.world
            for sid in self._syncs:
                world.send({"t": "sync", "id": sid})
            self._syncs = []

    # ---- tasks

    def _input_pass(self):
        """Everything captured up to now through the debouncer to the menu or the mode, then
        what is due by now; returns that now (us). A mode that raises is left by the task
        that called this (_input_task, _periodic)."""
        # The clock is read BEFORE draining: every edge stamped up to `now` is then fed
        # before anything is decided at `now` (the arbiter's contract); `now` is the clock
        # less the capture's lag, for the presses whose IRQ has not run yet.
        board = self.board
        # in the ticks domain without ticks_add's Python frame: the lag is a few us
        now_us = (board.now_us() - board.capture_lag_us) & TICKS_MASK
        self.input.at_us = now_us
        ring = board.ring
        # an empty ring (a decision's pass after its wait) is seen without a call
        if ring._r != ring._w and self._drain():
            now_us = self._clock_again(now_us)
        if self.leds.ahead_player >= 0:
            now_us = self._show_ahead(now_us)
        now = time.ticks_ms()
        # The mode's tick before the debouncer's timers: a decision due by now does not wait
        # for them (they confirm releases and flag stuck buttons, which decide nothing; the
        # events they give are taken right after, in this pass).
        if self.mode is not None:
            self.mode.tick(now)
        else:
            self._button_test_tick(now)
        deb = self.debouncer
        deb.poll(now_us)
        if deb.pending():
            self._take_events()
        if self._syncs:
            self._answer_syncs(now)
        return now_us

    # The input path is split in small methods, and its try is in the tasks (a coroutine's
    # frame is made once): MicroPython puts the frame of a function with more than 11 slots,
    # or a try with fewer, on the heap, an allocation at every call that costs a Pico's hot
    # path hundreds of us.

    def _drain(self):
        """Every snapshot in the ring through the debouncer to the menu or the mode; True if any."""
        ring = self.board.ring
        deb = self.debouncer
        snap = self._snap
        ev = self._event
        if not ring.pop(snap):
            return False
        while True:
            deb.feed(snap[0], snap[1])
            # events are taken after every snapshot, so a burst never overflows the
            # debouncer's event queue (_take_events written out: a call less per press)
            while deb.take(ev):
                self.on_button(ev[0], ev[1], ev[2])
            if not ring.pop(snap):
                return True

    def _clock_again(self, now_us):
        """After a drain that fed something, a fresh reading of the clock when nothing was
        captured since, else now_us:
        a press's own pass takes longer than a tie window on a Pico, and the mode may then
        decide in this pass, not wait for the next one. Read before the ring is looked at,
        as in _input_pass. A clock that moves only when told (a scripted sim, which walks a
        long pause one step per reading) is read once a pass."""
        board = self.board
        if not board.clock_moves():
            return now_us
        later = (board.now_us() - board.capture_lag_us) & TICKS_MASK  # as _input_pass reads it
        ring = board.ring
        if ring._r != ring._w:  # len(ring) without its call
            return now_us
        self.input.at_us = later
        return later

    def _show_ahead(self, now_us):
        """The frame a mode said its decision starts with (Leds.ahead), once due by now_us,
        or after a wait on the clock when due within SPIN_US: before the Python that makes
        the decision (the mode's tick, right after), so the decision's first sign does not
        wait for it. Every edge stamped up to now_us is fed by then; returns the pass's now."""
        leds = self.leds
        wait = (leds.ahead_due - now_us) & TICKS_MASK  # ticks_diff written out
        if 0 < wait < TICKS_HALF:  # not due yet
            if wait > SPIN_US or not self.board.clock_moves():
                return now_us  # a later pass's
            self._spin_until(now_us, wait)
            later = self._clock_again(now_us)
            if later == now_us:
                return now_us  # a press came while waiting: the pass decides with it
            now_us = later
        leds.show_ahead()
        return now_us

    def _take_events(self):
        deb = self.debouncer
        ev = self._event
        while deb.take(ev):
            self.on_button(ev[0], ev[1], ev[2])

    def _due_soon_us(self, now_us):
        """us until the mode's next decision falls due (0: now), or -1 when none is due
        within DUE_SOON_US or the board's clock moves only when told (a scripted sim)."""
        if self.mode is None or self._mode_due is None:
            return -1
        due = self._mode_due()
        if due < 0 or not self.board.clock_moves():
            return -1
        wait = ticks_diff(due, now_us)
        if wait >= DUE_SOON_US:
            return -1
        return wait if wait > 0 else 0

    def _spin_until(self, now_us, wait_us):
        """Hold the CPU until wait_us after now_us on the input task's clock (less the capture
        lag, as _input_pass reads it): the last part of a wait below SPIN_US. An asyncio yield
        there would run another whole pass (~0.6 ms on a Pico) and decide that much late."""
        board = self.board
        due = ticks_add(now_us, wait_us + board.capture_lag_us)
        now = board.now_us
        # ticks_diff(due, now()) > 0 without its Python call: one turn is that much shorter
        while 0 < (due - now()) & TICKS_MASK < TICKS_HALF:
            pass

    def _pass_until_due(self):
        """An input pass; then while the mode's next decision falls due within SPIN_US, the
        wait on the clock and another pass. Returns _due_soon_us after the last pass: the
        wait (>= SPIN_US, or 0: due and still not decided) the caller may leave to asyncio."""
        now_us = self._input_pass()
        wait_us = self._due_soon_us(now_us)
        while 0 < wait_us < SPIN_US:
            self._spin_until(now_us, wait_us)
            now_us = self._input_pass()
            wait_us = self._due_soon_us(now_us)
        return wait_us

    async def _input_task(self):
        """A pass for every wake from the capture; then, while a decision is due soon,
        wait for it (whole ms through asyncio, the last part on the clock) and pass
        again, so it is made at its microsecond, not at the next timed pass."""
        import asyncio

        wake = self._wake
        while True:
            await wake.wait()
            try:
                wait_us = self._pass_until_due()
                while wait_us >= 0:
                    # whole ms, waking SPIN_US / 2 before the decision's time, the last part
                    # then on the clock: another task's turn when the sleep ends (an LED
                    # write, a sound step) must not make it late; 0: due and still not
                    # decided, the other tasks run first
                    await asyncio.sleep_ms((wait_us - SPIN_US // 2) // 1000 if wait_us else 0)
                    wait_us = self._pass_until_due()
            except Exception as e:  # noqa: BLE001 - input must survive a failing mode
                self.mode_failed(e)

    async def _periodic(self, period_ms, work=None):
        """work(now_ms) every period_ms (None: the timed input pass). Input that waits in the
        ring is taken first, by whichever task runs, with a decision it makes due within SPIN_US:
        asyncio runs the task due first, and a press must not wait for this task's turn and
        then for the input task's (a task switch costs ~0.3 ms on a Pico)."""
        import asyncio

        ring = self.board.ring
        while True:
            worked = work is None  # the timed pass: the input pass is its work
            while True:
                if work is None or len(ring):
                    try:
                        self._pass_until_due()
                        if len(ring):  # a press came during the pass: now, not after a task switch
                            self._pass_until_due()
                    except Exception as e:  # noqa: BLE001 - input must survive a failing mode
                        self.mode_failed(e)
                if worked:
                    break
                work(time.ticks_ms())
                worked = True  # a press that came during the work: taken before this task yields
            await asyncio.sleep_ms(period_ms)

    def mode_failed(self, e):
        """A mode raised: keep its journal, say why (status, LEDs, an event), back to the menu."""
        name = self.mode_name
        self.mode_error = "%s: %s: %s" % (name, type(e).__name__, e)
        self.leds.error(time.ticks_ms())
        self.emit("error", {"msg": self.mode_error})
        try:
            self.leave_mode()
        except Exception:  # noqa: BLE001 - the menu must come back regardless
            self.mode = None
            self.mode_name = "menu"

    def _led_tick(self, now):
        if self.selftest is None or self.selftest.tick(now):
            self.leds.tick(now)

    def _display_tick(self, now):
        if self.mode is None and self.selftest is None:
            if self._dirty or (self.screen == SCREEN_ABOUT
                               and time.ticks_diff(now, self._drawn_ms) >= ABOUT_REFRESH_MS):
                self._draw(now)

    async def _serial_task(self):
        from firmware.link import serve

        await serve(self.link)
        self.stop("serial closed")

    async def _main(self):
        import asyncio

        self._stop = asyncio.Event()
        self._wake = asyncio.ThreadSafeFlag()
        self.board.ring.wake = self._wake
        self._wake.set()  # a first pass for what the capture pushed before the tasks ran
        tasks = [
            asyncio.create_task(self._serial_task()),
            asyncio.create_task(self._input_task()),
            asyncio.create_task(self._periodic(TIMED_PASS_MS)),
            asyncio.create_task(self._periodic(LED_PERIOD_MS, self._led_tick)),
            asyncio.create_task(self._periodic(SOUND_PERIOD_MS, self.sound.tick)),
            asyncio.create_task(self._periodic(DISPLAY_PERIOD_MS, self._display_tick)),
        ]
        world = getattr(self.board, "world", None)
        if world is not None:
            tasks.append(asyncio.create_task(world.serve()))
            tasks.append(asyncio.create_task(world.pump()))
        gc.collect()
        self.mem_free_boot = gc.mem_free()
        self.emit("ready", {"board": self.board_name, "mem_free": self.mem_free_boot})
        await self._stop.wait()
        for t in tasks:
            t.cancel()

    def stop(self, reason):
        self.stop_reason = reason
        if self._stop is not None:
            self._stop.set()

    # ---- start and stop

    def start(self):
        """Everything before the tasks: capture on, the resume mode, a boot record."""
        now_ms = time.ticks_ms()
        self.board.start_capture()
        self.debouncer.start(self.board.ring.level, self.board.now_us())
        self._show_menu(now_ms)
        if self.settings.load_error:
            self.leds.error(now_ms)
        boot = {"fw": self.firmware_version, "board": self.board_name}
        try:
            self.journal.append("boot", boot, self.clock.epoch())
        except OSError as e:  # full or failing storage must not stop the box: a sync makes room
            self.storage_error = "boot record not stored: %s" % (e,)
            self.leds.error(now_ms)
        resume = self.settings.get("mode")
        if resume != "menu" and modes.find(resume) is not None:
            try:
                self.switch_mode(resume)
            except ValueError:
                pass  # noted in mode_error; the menu is up

    def run(self):
        """Run until a quit (returns) or Ctrl-C (KeyboardInterrupt, after cleaning up)."""
        import asyncio

        self.start()
        interrupted = True
        try:
            asyncio.run(self._main())
            interrupted = False
        finally:
            self.shutdown(interrupted)
            asyncio.new_event_loop()  # a clean loop for whatever runs next at the REPL

    def shutdown(self, interrupted=False):
        """Outputs off, journal closed. After Ctrl-C the world channel stays open (the process
        lives on in the REPL); after a quit it is closed last, once everything is on flash."""
        if self.mode is not None:
            # Like a power cut, not like leaving the mode: the mode keeps what it needs to
            # resume (suspend), and the settings keep it as the mode to come back in.
            try:
                suspend = getattr(self.mode, "suspend", None)
                (suspend or self.mode.stop)()
            except Exception:  # noqa: BLE001 - shutting down regardless
                pass
            self.mode = None
        self.board.stop_capture()
        self.sound.stop()
        now = time.ticks_ms()
        self.leds.off(now)
        self.leds.set_status((0, 0, 0))
        self.leds.tick(now)
        self.journal.close()
        self.emit("halted", {"why": "interrupt" if interrupted else self.stop_reason})
        if not interrupted:
            close = getattr(self.board, "close", None)
            if close is not None:
                close()


def main(board_name=None):
    app = App(board_name)
    app.run()
    return app
