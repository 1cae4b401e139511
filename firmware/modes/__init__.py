"""The registry of game modes the menu offers. Adding a mode is one line in AVAILABLE.

Each entry is (name, menu title, module). The name is the one firmware.settings.MODES
and the protocol's "mode" op use. A mode's module is imported only when the mode is
chosen and dropped when it is left, so modes cost no heap while the menu runs.

A mode module defines `class Mode`:

    Mode(app, options)          app: the running firmware.app.App (board, leds, display,
                                sound, journal, settings, emit(kind, fields), now_ms());
                                options: dict from a sim script ({} from the menu and
                                the protocol's mode op: the mode reads app.settings)
    start(now_ms)               take over LEDs, display and sound
    on_button(bit, down, tick_us) -> bool
                                a debounced edge: bit 0..7 player, 8 mode, 9 ok, 10 back
                                (firmware.board bit numbers), tick_us the capture time.
                                Return True when used; an unused back returns to the menu.
    tick(now_ms)                called every few ms while the mode runs; never blocks
    settled(now_ms) -> bool     optional: False while a decision is still pending
    status() -> dict            optional: shown by the protocol's status op
    settings_changed(changes)   optional: the host changed these settings keys
    stop()                      leave LEDs, display and sound to the app
    suspend()                   optional: the box shuts down (quit, Ctrl-C); keep what the
                                mode needs to resume at the next start, as after a power cut

Mode events go through app.emit(kind, fields): the serial host gets an event frame, the
sim front-end a {"t": "event", "kind": kind, ...} message. `tablemate sim --script` prints
every event of kind "decision" (one per arbiter decision) as a JSON line. What belongs in
the journal a mode appends itself (app.journal.append(kind, data, app.epoch())).
"""

# (name, menu title, module) -- one line per mode that works.
AVAILABLE = (
    ("anomia", "Anomia buzzers", "firmware.modes.anomia"),
)


def names():
    return [entry[0] for entry in AVAILABLE]


def find(name):
    """The registry entry for name, or None."""
    for entry in AVAILABLE:
        if entry[0] == name:
            return entry
    return None


def load(name):
    """The Mode class of a registered mode (imports its module now). ValueError if unknown."""
    entry = find(name)
    if entry is None:
        known = names()
        raise ValueError("no mode %r on this firmware (available: %s)"
                         % (name, ", ".join(known) if known else "none yet"))
    module = __import__(entry[2], None, None, ["Mode"])
    return module.Mode


def unload(name):
    """Forget a mode's module so its code and tables can be collected."""
    import sys

    entry = find(name)
    if entry is not None and entry[2] in sys.modules:
        del sys.modules[entry[2]]
