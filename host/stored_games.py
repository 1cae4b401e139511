"""`tablemate games list | show ID | export ID --format json|csv`: the games in the store."""

import csv
import io
import json
import sys
import time

from engine import gamelog_read
from host import db as dbmod
from host.columns import table
from host.game_views import seat, view_for
from host.output_file import write_text


def when(t):
    """Epoch seconds as local time, or '-' when the device clock was never set."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if isinstance(t, int) else "-"


def player_names(game):
    return [p.get("name") or "P%d" % (i + 1) for i, p in enumerate(game["players"])]


def _status(game):
    if game.get("incomplete"):
        return "incomplete"
    if not game["ended"]:
        return "open"
    return game["reason"] or "ended"


def player_label(names, i):
    """'P1 Ana'; 'P3' for a player without a name of their own."""
    name = names[i] if i < len(names) else ""
    return seat(i) if name in ("", seat(i)) else "%s %s" % (seat(i), name)


def scores_text(names, scores):
    """'P1 Ana 3, P2 Ben 5, P3 4'."""
    if not scores:
        return "-"
    return ", ".join("%s %s" % (player_label(names, i), s) for i, s in enumerate(scores))


def list_games(store, out):
    games = store.games()
    if not games:
        out.write("no games stored in %s (run `tablemate sync`)\n" % store.path)
        return
    rows = []
    for g in games:
        # an open game shows its scores so far: those after its last stored action
        scores = g["scores"] if g["ended"] else store.last_scores(g)
        rows.append((g["id"], when(g["start_t"]), g["name"] or g["engine"] or "?", g["device_id"],
                     g["actions"], _status(g), scores_text(player_names(g), scores)))
    for line in table(("ID", "STARTED", "GAME", "DEVICE", "ACTIONS", "STATUS", "SCORES"), rows, right=(4,)):
        out.write(line + "\n")


def show_game(store, game, out):
    names = player_names(game)
    # a game whose game_start fell in a gap: its name and engine are not known here
    out.write("game %s: %s (engine %s)\n" % (game["id"], game["name"] or "?", game["engine"] or "?"))
    out.write("  device   %s, records %d..%d\n" % (game["device_id"], game["start_seq"], game["last_seq"]))
    out.write("  started  %s   ended %s (%s)\n" % (when(game["start_t"]), when(game["end_t"]), _status(game)))
    records = store.game_records(game)
    try:
        settings = gamelog_read.settings_of(records[0]["data"])
    except ValueError:
        settings = {}
    seed = "?" if game["seed"] is None else game["seed"]
    out.write("  seed     %s   options %s   settings %s\n" % (
        seed, json.dumps(game["options"], sort_keys=True), json.dumps(settings, sort_keys=True)))
    out.write("  players  %s\n" % ", ".join(player_label(names, i) for i in range(len(names))))
    if game["incomplete"]:
        out.write("  missing  seqs %s: pruned on the box before this database received them;"
                  " the game is incomplete\n" % dbmod.seq_ranges_text(game["missing"]))
    out.write("  actions  %d\n" % game["actions"])
    if game["scores"] is not None:
        out.write("  scores   %s\n" % scores_text(names, game["scores"]))
        winners = [w for w in game["winners"] or [] if isinstance(w, int) and 0 <= w < len(names)]
        out.write("  winners  %s\n" % ", ".join(player_label(names, w) for w in winners))
    elif not game["ended"]:
        out.write("  so far   %s\n" % scores_text(names, store.last_scores(game)))
    view = view_for(game)
    rows = [(rec["seq"], rec["kind"], rec["data"].get("n", ""), view.action_text(rec), view.detail(rec))
            for rec in records]
    out.write("\n")
    for line in table(("SEQ", "KIND", "N", "ACTION", "DETAIL"), rows, right=(0, 2)):
        out.write(line + "\n")


def export_json(store, game):
    """The game and its records as the box wrote them (players 0-based, as the engine numbers them)."""
    records = [{k: r[k] for k in ("seq", "kind", "t", "data")} for r in store.game_records(game)]
    game = {k: v for k, v in game.items() if k != "row"}
    return json.dumps({"game": game, "records": records}, indent=2, sort_keys=True) + "\n"


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"))
    return v


def export_csv(store, game):
    """One row per record of the game, in the columns of its view (host/game_views.py), players
    numbered P1...; JSON values (scores, presses) as compact JSON cells."""
    view = view_for(game)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(view.columns)
    for rec in store.game_records(game):
        row = view.row(rec)
        w.writerow([_cell(row.get(c)) for c in view.columns])
    return buf.getvalue()


def add_parser(subparsers):
    p = subparsers.add_parser("games", help="list, show and export the stored games")
    dbmod.add_db_argument(p)
    sub = p.add_subparsers(dest="games_command", metavar="{list,show,export}")
    sub.required = True
    ls = sub.add_parser("list", help="one line per stored game")
    dbmod.add_db_argument(ls, nested=True)
    show = sub.add_parser("show", help="a game's details and records")
    show.add_argument("game_id", metavar="ID", help="the game's id as `games list` prints it")
    dbmod.add_db_argument(show, nested=True)
    ex = sub.add_parser("export", help="a game's records as JSON or CSV")
    ex.add_argument("game_id", metavar="ID", help="the game's id as `games list` prints it")
    ex.add_argument("--format", choices=("json", "csv"), default="json")
    ex.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    dbmod.add_db_argument(ex, nested=True)
    p.set_defaults(func=run)


def run(args):
    with dbmod.open_from_args(args) as store:
        if args.games_command == "list":
            list_games(store, sys.stdout)
            return 0
        game = dbmod.game_from_args(store, args.game_id)
        if args.games_command == "show":
            show_game(store, game, sys.stdout)
            return 0
        text = export_csv(store, game) if args.format == "csv" else export_json(store, game)
    if args.output:
        write_text(args.output, text, example="game%d.%s" % (game["start_seq"], args.format))
    else:
        sys.stdout.write(text)
    return 0
