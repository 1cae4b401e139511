"""`tablemate config push FILE [--port PATH] | pull [--port PATH] [-o FILE]`: the box's settings as a file.

The file is TOML or JSON, chosen by its extension (.toml / .json). It may hold any of
the device settings except the running mode: roster (names and colours; a colour is
"#rrggbb" or [r, g, b]), brightness, sound, debounce_ms, and each mode's own settings
as a table named after the mode ([anomia] players, tie_window_us, lockout_ms;
[anastasia_solo] players, difficulty, automa_deck: a deck of your own, its cards as lines
or tables, sent as lines, at most 1,500 bytes; [] clears it). Files
written before the mode tables (players, tie_window_us, lockout_ms at the top) are read
as the firmware reads them. Keys left out keep the device's current values.

push validates the whole file with the firmware's own schema (firmware.settings)
before opening the port: on any error nothing is sent, and the message names the key.
The device then applies all the changes or none. pull writes the device's settings in
the same format, colours as "#rrggbb".
"""

import json
import re
import sys
import tomllib
from pathlib import Path

from engine import anastasia_automa
from firmware import modes, settings_check
from firmware import settings as schema
from host.cli import CliError
from host.output_file import check_output_path, write_text
from host.port_select import add_port_argument, resolve_port
from host.serial_client import DeviceClient, DeviceError, LinkError

# Settings a config file carries: all of them but the mode the box happens to be in.
CONFIG_KEYS = tuple(k for k in schema.SCHEMA if k != "mode") + tuple(modes.names())
FORMATS = (".toml", ".json")
_HEX_COLOUR = re.compile(r"^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


class ConfigError(ValueError):
    """A config file that cannot be pushed; the message names the file and the key."""


def file_format(path):
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ConfigError("%s: unknown config format %r: use a .toml or .json file"
                          % (path, suffix or "none"))
    return suffix


def parse_text(text, fmt, where):
    """The raw mapping in a config text; ConfigError with the line on a syntax error."""
    try:
        data = tomllib.loads(text) if fmt == ".toml" else json.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s: not valid TOML: %s" % (where, e))
    except json.JSONDecodeError as e:
        raise ConfigError("%s: not valid JSON: %s (line %d, column %d)" % (where, e.msg, e.lineno, e.colno))
    if not isinstance(data, dict):
        raise ConfigError("%s: the top level must be a table/object of settings" % where)
    return data


def _colour(value, player):
    if isinstance(value, str):
        m = _HEX_COLOUR.match(value.strip())
        if not m:
            raise schema.SettingsError("roster", "player %d colour must be \"#rrggbb\" or [r, g, b], got %r"
                                       % (player, value))
        return [int(m.group(i), 16) for i in (1, 2, 3)]
    return value


def to_settings(data):
    """File mapping -> device setting changes (colours as [r, g, b]); SettingsError naming the key."""
    changes = {}
    for key, value in data.items():
        if key not in CONFIG_KEYS and key not in schema.LEGACY_KEYS:
            reason = "is the box's running mode, not a setting a file carries" if key == "mode" else \
                "unknown setting (known: %s)" % ", ".join(CONFIG_KEYS)
            raise schema.SettingsError(key, reason)
        if key == "roster" and isinstance(value, list):
            value = [dict(p, colour=_colour(p["colour"], i + 1))
                     if isinstance(p, dict) and "colour" in p else p for i, p in enumerate(value)]
        changes[key] = value
    changes = settings_check.migrate(changes)[0]
    solo = changes.get("anastasia_solo")
    if isinstance(solo, dict) and isinstance(solo.get("automa_deck"), list) and solo["automa_deck"]:
        try:  # cards written as tables go to the box as the lines a game keeps (a third of the bytes)
            solo["automa_deck"] = anastasia_automa.validate_deck(solo["automa_deck"])
        except anastasia_automa.BadDeck as e:
            raise schema.SettingsError("anastasia_solo.automa_deck", str(e))
    return changes


def validate(changes):
    """The firmware's own check of every change, as the device would merge them onto defaults."""
    settings_check.merge(schema.defaults(), changes)


def load_config(path):
    """The validated setting changes in a config file; ConfigError with a one-line reason."""
    fmt = file_format(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("%s: no such file" % path)
    except UnicodeDecodeError as e:
        # e.g. a name with an accent saved in Latin-1 or Windows-1252
        line = e.object[:e.start].count(b"\n") + 1
        raise ConfigError("%s: line %d is not UTF-8 text (byte 0x%02x): save the file as UTF-8"
                          % (path, line, e.object[e.start]))
    except (OSError, UnicodeError) as e:
        raise ConfigError("%s: cannot read: %s" % (path, e))
    data = parse_text(text, fmt, path)
    try:
        changes = to_settings(data)
        validate(changes)
    except schema.SettingsError as e:
        raise ConfigError("%s: %s" % (path, e))
    if not changes:
        raise ConfigError("%s: holds no settings" % path)
    return changes


# ---------------------------------------------------------------- writing


def to_file_values(settings):
    """Device settings -> the file's mapping: config keys only, colours as "#rrggbb", no nulls."""
    out = {}
    for key in CONFIG_KEYS:
        if key not in settings or settings[key] is None:
            continue
        value = settings[key]
        if key == "roster":
            value = [dict(p, colour="#%02x%02x%02x" % tuple(p["colour"])) for p in value]
        elif isinstance(value, dict):  # a mode's table: a null (a setting left unset) has no TOML form
            value = {k: v for k, v in value.items() if v is not None}
        out[key] = value
    return out


def _toml_key(k):
    return k if _BARE_KEY.match(k) else json.dumps(k)


def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join("%s = %s" % (_toml_key(k), _toml_value(x)) for k, x in v.items()) + "}"
    raise ConfigError("cannot write %r in TOML" % (v,))


def dumps_toml(values):
    lines = ["# tablemate settings (tablemate config push FILE)"]
    tables = []
    spaces = []
    for key, value in values.items():
        if key == "roster":
            tables.append((key, value))
        elif isinstance(value, dict):
            spaces.append((key, value))
        else:
            lines.append("%s = %s" % (_toml_key(key), _toml_value(value)))
    for key, table in spaces:  # a mode's settings: a table after the top-level keys
        lines.append("")
        lines.append("[%s]" % _toml_key(key))
        for k, v in table.items():
            lines.append("%s = %s" % (_toml_key(k), _toml_value(v)))
    for key, rows in tables:
        for row in rows:
            lines.append("")
            lines.append("[[%s]]" % _toml_key(key))
            for k, v in row.items():
                lines.append("%s = %s" % (_toml_key(k), _toml_value(v)))
    return "\n".join(lines) + "\n"


def dumps(values, fmt):
    if fmt == ".json":
        return json.dumps(values, indent=2) + "\n"
    return dumps_toml(values)


# ---------------------------------------------------------------- CLI


def add_parser(subparsers):
    p = subparsers.add_parser("config", help="push a settings file to the box, or pull its settings",
                              description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="config_command", metavar="{push,pull}")
    sub.required = True
    push = sub.add_parser("push", help="validate FILE and send its settings to the box")
    push.add_argument("file", metavar="FILE", help="settings file (.toml or .json)")
    add_port_argument(push)
    pull = sub.add_parser("pull", help="write the box's settings as TOML (or JSON with -o FILE.json)")
    add_port_argument(pull)
    pull.add_argument("-o", "--output", metavar="FILE", help="write here (.toml or .json) instead of stdout")
    for q in (push, pull):
        q.add_argument("--timeout", type=float, default=3.0,
                       help="seconds to wait for each reply (default 3)")
    p.set_defaults(func=run)


def _device(args):
    return DeviceClient(resolve_port(args.port), timeout=args.timeout)


def run_push(args):
    try:
        changes = load_config(args.file)
    except ConfigError as e:
        raise CliError(str(e), 2)
    try:
        with _device(args) as dev:
            now = dev.settings_set(changes)
    except DeviceError as e:
        raise CliError("%s: the box refused it: %s; nothing changed" % (args.file, e.msg), 1)
    except LinkError as e:
        raise CliError(str(e), 1)
    print("pushed %s: %s" % (args.file, ", ".join("%s" % k for k in changes)))
    differs = []
    for k in changes:
        if isinstance(changes[k], dict) and isinstance(now.get(k), dict):  # a mode's: the keys sent
            differs += ["%s.%s" % (k, n) for n in changes[k] if now[k].get(n) != changes[k][n]]
        elif now.get(k) != changes[k]:
            differs.append(k)
    if differs:
        raise CliError("the box reports other values than pushed for: %s" % ", ".join(differs), 1)
    return 0


def run_pull(args):
    fmt = ".toml"
    if args.output:
        check_output_path(args.output, example="settings.toml")  # before the box is asked
        try:
            fmt = file_format(args.output)
        except ConfigError as e:
            raise CliError(str(e), 2)
    try:
        with _device(args) as dev:
            settings = dev.settings_get()
    except LinkError as e:
        raise CliError(str(e), 1)
    try:
        text = dumps(to_file_values(settings), fmt)
    except ConfigError as e:
        raise CliError(str(e), 1)
    if args.output:
        write_text(args.output, text)
        print("settings written to %s" % args.output)
    else:
        sys.stdout.write(text)
    return 0


def run(args):
    return run_push(args) if args.config_command == "push" else run_pull(args)
