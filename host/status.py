"""`tablemate status [--port PATH]`: say hello to a box (or the virtual device) and show its status."""

import json
import sys

from host import game_ids
from host.cli import CliError
from host.game_views import HandView, seat, seats
from host.port_select import add_port_argument, resolve_port
from host.serial_client import DeviceClient, LinkError, mpy_info
from host.stored_games import scores_text


def add_parser(subparsers):
    p = subparsers.add_parser("status", help="show a connected box's firmware, mode and journal")
    add_port_argument(p)
    p.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for each reply (default 2)")
    p.add_argument("--json", action="store_true", help="print the raw hello and status replies as JSON")
    p.set_defaults(func=run)


def _runtime(info):
    if info.get("impl") != "micropython":
        return str(info.get("impl"))
    text = "MicroPython %s" % info.get("micropython")
    mpy = mpy_info(info.get("mpy"))
    if mpy:
        text += ", mpy v%d.%d (%s)" % mpy
    return text


def _value(v):
    return json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else str(v)


# mode_status fields shown in the game's lines rather than as they came
_GAME_FIELDS = ("game", "actions", "over", "players", "names", "scores", "tiebreak")


def game_lines(device_id, ms):
    """The running game in the words the other commands use: its id (game_ids), its players
    numbered P1... with their scores so far, a pending tie-breaker."""
    if not isinstance(ms.get("game"), int):
        return ["  game      none recorded yet, %s players (a game is recorded from its first action)"
                % ms.get("players")]
    names = ms.get("names") if isinstance(ms.get("names"), list) else []
    lines = ["  game      %s, %s actions%s" % (game_ids.game_id(device_id, ms["game"]), ms.get("actions"),
                                               ", over" if ms.get("over") else "")]
    if isinstance(ms.get("scores"), list):
        lines.append("  scores    %s" % scores_text(names, ms["scores"]))
    if ms.get("tiebreak"):
        lines.append("  tiebreak  %s" % seats(ms["tiebreak"]))
    return lines


def readable(ms):
    """The rest of a mode's status with its players numbered P1...: an Anastasia ledger's
    waiting decision (["ask", 1] -> "ask P2"), the Anathema sides picked for a category."""
    out = dict(ms)
    frame = ms.get("frame")
    if isinstance(frame, list) and len(frame) >= 2 and isinstance(frame[1], int):
        out["frame"] = " ".join([str(frame[0]), seat(frame[1])] + [str(x) for x in frame[2:]])
    if isinstance(ms.get("pick"), list):
        view = HandView({"options": {"partners": bool(ms.get("partners"))}})
        out["pick"] = " ".join(view.side(s) for s in ms["pick"]) or "-"
    return out


def format_status(port, info, st):
    j = st["journal"] or {}
    lines = [
        "tablemate on %s" % port,
        "  firmware  %s on board %s" % (info.get("firmware"), info.get("board")),
        "  protocol  %s" % info.get("proto"),
        "  runtime   %s" % _runtime(info),
    ]
    app = st["status"] if isinstance(st["status"], dict) else {"status": st["status"]}
    for key in sorted(app):
        value = app[key]
        if key == "mode_status" and isinstance(value, dict) and "game" in value:
            lines.extend(game_lines(info.get("device_id"), value))
            value = readable({k: v for k, v in value.items() if k not in _GAME_FIELDS})
        lines.append("  %-9s %s" % (key, _value(value)))
    lines.append("  journal   %s records (seq %s..%s), acked up to %s, %s segments, %s bytes"
                 % (j.get("records"), j.get("first_seq"), j.get("last_seq"), j.get("acked"),
                    j.get("segments"), j.get("bytes")))
    if j.get("bad_records") or j.get("torn_bytes_cut"):
        lines.append("  damage    %s bad records skipped, %s torn bytes cut"
                     % (j.get("bad_records"), j.get("torn_bytes_cut")))
    return "\n".join(lines) + "\n"


def run(args):
    try:
        port = resolve_port(args.port)
        with DeviceClient(port, timeout=args.timeout) as dev:
            st = dev.status()
            info = dev.info
    except LinkError as e:
        raise CliError(str(e), 1)
    if args.json:
        sys.stdout.write(json.dumps({"hello": info, "status": st}, sort_keys=True, indent=2) + "\n")
    else:
        sys.stdout.write(format_status(port, info, st))
    return 0
