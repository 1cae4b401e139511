"""Settings: defaults, per-key validation, mode namespaces, all-or-nothing atomic update,
migration of older files, corrupt files."""

import json
import os

from firmware import modes
from firmware.settings import SCHEMA, Settings, SettingsError, bad_path, defaults, seat_names
from tests.shared.compat import raises, tmp_dir

COLOURS = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0],
           [255, 0, 255], [0, 255, 255], [255, 128, 0], [255, 255, 255]]


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def test_defaults_without_a_file():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        assert s.load_error is None
        v = s.all()
        assert v["anomia"] == {"players": 4, "tie_window_us": 1000, "lockout_ms": 800}
        assert v["brightness"] == 64 and v["sound"] is True and v["debounce_ms"] == 25
        assert v["mode"] == "menu"
        assert [p["name"] for p in v["roster"]] == ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
        assert [p["colour"] for p in v["roster"]] == COLOURS
        assert sorted(v) == sorted(list(SCHEMA) + modes.names())
        assert not exists(d + "/settings.json")  # loading writes nothing


def test_get_and_all_return_copies():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        s.all()["roster"][0]["name"] = "hacked"
        s.get("roster")[1]["colour"][0] = 1
        assert s.get("roster")[0]["name"] == "P1" and s.get("roster")[1]["colour"] == [0, 255, 0]
        e = raises(SettingsError, s.get, "volume")
        assert e.key == "volume"


def bad_changes():
    """(key, value) pairs that must each be rejected naming key (built on demand: a small heap)."""
    ok = {"name": "A", "colour": [1, 2, 3]}
    return [
        ("anomia.players", 2), ("anomia.players", 9), ("anomia.players", "4"), ("anomia.players", True),
        ("anomia.players", 4.0), ("anomia.tie_window_us", -1), ("anomia.tie_window_us", 50001),
        ("anomia.tie_window_us", None), ("anomia.tie_window_us", False),
        ("anomia.lockout_ms", -1), ("anomia.lockout_ms", 10001), ("anomia.lockout_ms", "800"),
        ("anomia.volume", 3), ("anomia", 5), ("anomia", [4]),
        ("brightness", 0), ("brightness", 256), ("brightness", True), ("brightness", 64.0),
        ("sound", 1), ("sound", "yes"), ("sound", None),
        ("debounce_ms", 0), ("debounce_ms", 101), ("debounce_ms", True),
        ("mode", "chess"), ("mode", 1), ("mode", None),
        ("roster", []), ("roster", COLOURS), ("roster", "P1,P2,P3"),
        ("roster", [ok] * 9),  # too many
        ("roster", [ok] * 2 + [{"name": "", "colour": [1, 2, 3]}]),
        ("roster", [ok] * 2 + [{"name": "x" * 13, "colour": [1, 2, 3]}]),
        ("roster", [ok] * 2 + [{"name": "tab\there", "colour": [1, 2, 3]}]),
        ("roster", [ok] * 2 + [{"name": "   ", "colour": [1, 2, 3]}]),
        ("roster", [ok] * 2 + [{"name": 7, "colour": [1, 2, 3]}]),
        ("roster", [ok] * 2 + [{"name": "B", "colour": [1, 2]}]),
        ("roster", [ok] * 2 + [{"name": "B", "colour": [1, 2, 256]}]),
        ("roster", [ok] * 2 + [{"name": "B", "colour": [1, 2, -1]}]),
        ("roster", [ok] * 2 + [{"name": "B", "colour": [1, 2, True]}]),
        ("roster", [ok] * 2 + [{"name": "B"}]),
        ("roster", [ok] * 2 + [{"name": "B", "colour": [1, 2, 3], "x": 1}]),
        ("roster", [ok] * 2 + ["B"]),
        ("volume", 3),
    ]


def _change(key, value):
    """{key: value}, or {mode: {key: value}} for a "mode.key" name."""
    if "." in key:
        space, key = key.split(".")
        return {space: {key: value}}
    return {key: value}


def test_each_bad_value_is_rejected_naming_its_key():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        for key, value in bad_changes():
            e = raises(SettingsError, s.validate, _change(key, value))
            assert e.key == key, (key, value, e.key)
            assert e.reason and key in str(e)
            e = raises(SettingsError, s.update, _change(key, value))
            assert e.key == key
            assert isinstance(e, ValueError)
        # the flat keys of older firmware name the mode setting they stand for
        e = raises(SettingsError, s.update, {"players": 2})
        assert e.key == "anomia.players"
        assert s.all() == defaults()
        assert not exists(d + "/settings.json")


def test_limits_are_accepted():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        for key, value in (("anomia.players", 3), ("anomia.players", 8), ("anomia.tie_window_us", 0),
                           ("anomia.tie_window_us", 50000), ("anomia.lockout_ms", 0),
                           ("anomia.lockout_ms", 10000), ("brightness", 1), ("brightness", 255),
                           ("debounce_ms", 1), ("debounce_ms", 100), ("sound", False)):
            s.validate(_change(key, value))
        for mode in ["menu"] + modes.names():
            s.validate({"mode": mode})
        s.validate({"roster": [{"name": "Ann Marie 12", "colour": [0, 0, 0]},
                               {"name": "~!", "colour": [255, 255, 255]},
                               {"name": "B", "colour": [1, 2, 3]}], "anomia": {"players": 3}})


def test_a_roster_of_one_is_fine_and_unnamed_seats_are_pn():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        s.update({"roster": [{"name": "Solo", "colour": [1, 2, 3]}]})
        assert s.get("anomia")["players"] == 4  # seats beyond the roster play under their seat name
        assert seat_names(s.get("roster"), 4) == ["Solo", "P2", "P3", "P4"]


def test_a_namespace_change_names_only_what_changes():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        s.update({"anomia": {"lockout_ms": 300}})
        assert s.get("anomia") == {"players": 4, "tie_window_us": 1000, "lockout_ms": 300}
        s.update({"tie_window_us": 200})  # a flat key of older firmware lands in its namespace
        assert s.get("anomia") == {"players": 4, "tie_window_us": 200, "lockout_ms": 300}


def test_malformed_changes_are_rejected():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        e = raises(SettingsError, s.update, [("players", 5)])
        assert e.key is None
        e = raises(SettingsError, s.update, {"anomia": {"players": 5}, "nope": 1})
        assert e.key == "nope"


def test_failed_update_changes_nothing():
    with tmp_dir() as d:
        path = d + "/settings.json"
        told = []
        s = Settings(path, on_change=told.append)
        s.update({"anomia": {"players": 6}, "brightness": 200})
        assert told == [{"anomia": {"players": 6}, "brightness": 200}]  # the app re-applies what changed
        before = read_bytes(path)
        listing = sorted(os.listdir(d))
        # one good change with one bad one: neither is applied
        for changes in ({"anomia": {"players": 5}, "brightness": 0}, {"sound": False, "mode": "x"},
                        {"anomia": {"lockout_ms": 100, "volume": 1}}):
            raises(SettingsError, s.update, changes)
            assert read_bytes(path) == before
            assert sorted(os.listdir(d)) == listing
            assert s.get("anomia")["players"] == 6 and s.get("brightness") == 200 and s.get("sound") is True
            assert s.get("anomia")["lockout_ms"] == 800
        assert len(told) == 1  # a refused update is not announced
        assert Settings(path).all() == s.all()


def test_update_persists_across_reopen():
    with tmp_dir() as d:
        path = d + "/settings.json"
        s = Settings(path)
        roster = [{"name": "Ann", "colour": [9, 8, 7]}, {"name": "Bo", "colour": [1, 2, 3]},
                  {"name": "Cy", "colour": [0, 0, 255]}, {"name": "Di", "colour": [255, 0, 0]},
                  {"name": "Ed", "colour": [0, 255, 0]}]
        s.update({"roster": roster, "mode": "anomia", "sound": False,
                  "anomia": {"players": 5, "tie_window_us": 2500}})
        assert sorted(os.listdir(d)) == ["settings.json"]  # no temp file left behind
        t = Settings(path)
        assert t.load_error is None
        assert t.all() == s.all()
        assert t.get("roster") == roster and t.get("mode") == "anomia" and t.get("sound") is False
        assert t.get("anomia") == {"players": 5, "tie_window_us": 2500, "lockout_ms": 800}
        # the file is plain JSON holding every setting
        assert sorted(json.loads(read_bytes(path))) == sorted(list(SCHEMA) + modes.names())


def test_file_from_an_older_firmware_keeps_defaults_for_missing_keys():
    with tmp_dir() as d:
        path = d + "/settings.json"
        write_bytes(path, b'{"anomia": {"players": 6}, "brightness": 10}')
        s = Settings(path)
        assert s.load_error is None
        assert s.get("anomia") == {"players": 6, "tie_window_us": 1000, "lockout_ms": 800}
        assert s.get("brightness") == 10 and s.get("debounce_ms") == 25


def test_a_flat_file_of_the_firmware_before_namespaces_migrates_on_load_losing_nothing():
    with tmp_dir() as d:
        path = d + "/settings.json"
        old = {"roster": [{"name": "Ann", "colour": [9, 8, 7]}] * 3, "players": 3, "tie_window_us": 250,
               "lockout_ms": 1200, "brightness": 30, "sound": False, "debounce_ms": 12, "mode": "anomia",
               "automa_deck": ["c1: leave 2; draw 3"]}
        write_bytes(path, json.dumps(old).encode())
        s = Settings(path)
        assert s.load_error is None
        assert s.get("anomia") == {"players": 3, "tie_window_us": 250, "lockout_ms": 1200}
        assert s.get("brightness") == 30 and s.get("sound") is False and s.get("debounce_ms") == 12
        assert s.get("mode") == "anomia" and s.get("roster") == old["roster"]
        # the automa deck waits in the namespace of the mode that will use it
        assert s.all()["anastasia_solo"]["automa_deck"] == ["c1: leave 2; draw 3"]
        # written back migrated: the next boot reads the new layout as it is
        on_flash = json.loads(read_bytes(path))
        assert "players" not in on_flash and on_flash["anomia"]["lockout_ms"] == 1200
        assert Settings(path).all() == s.all()
        # a mode to come back in that this firmware lacks: the menu
        write_bytes(path, b'{"mode": "checkers", "players": 5}')
        s = Settings(path)
        assert s.load_error is None and s.get("mode") == "menu" and s.get("anomia")["players"] == 5


def test_corrupt_files_fall_back_to_defaults_and_are_kept_aside():
    for content in (b"", b"{not json", b"\xff\xfe\x00", b"[1, 2]", b'{"players": 99}', b'{"volume": 3}',
                    b'{"players": true}', b'{"roster": [], "players": 3}', b'{"anomia": {"players": 2}}',
                    b'{"anomia": 4}', b"{" * 3000 + b"}" * 3000):
        with tmp_dir() as d:
            path = d + "/settings.json"
            write_bytes(path, content)
            s = Settings(path)
            assert s.all() == defaults(), content
            assert s.load_error and "settings.bad" in s.load_error
            assert not exists(path)
            assert read_bytes(d + "/settings.bad") == content
            # the device carries on: an update writes a fresh file
            s.update({"anomia": {"players": 5}})
            assert Settings(path).get("anomia")["players"] == 5 and Settings(path).load_error is None


def test_leftover_temp_file_is_ignored_and_removed():
    with tmp_dir() as d:
        path = d + "/settings.json"
        Settings(path).update({"anomia": {"players": 7}})
        write_bytes(path + ".tmp", b'{"players": 3')
        s = Settings(path)
        assert s.get("anomia")["players"] == 7 and s.load_error is None
        assert not exists(path + ".tmp")


def test_bad_path_naming():
    assert bad_path("/flash/settings.json") == "/flash/settings.bad"
    assert bad_path("/flash/config") == "/flash/config.bad"


def _roster(*names):
    return [{"name": n, "colour": [i, 2, 3]} for i, n in enumerate(names)]


def test_latin1_names_are_kept_as_written_and_others_refused():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        s.update({"roster": _roster("Zo\xeb", "Jos\xe9", "\xc6r\xf8", "Ren\xe9e")})
        assert seat_names(s.get("roster"), 5) == ["Zo\xeb", "Jos\xe9", "\xc6r\xf8", "Ren\xe9e", "P5"]
        assert Settings(d + "/settings.json").get("roster") == s.get("roster")  # through the file
        e = raises(SettingsError, s.update, {"roster": _roster("\u0141ukasz")})
        assert e.key == "roster" and "Latin-1" in e.reason


def test_two_players_with_one_name_are_refused_changing_nothing():
    with tmp_dir() as d:
        path = d + "/settings.json"
        s = Settings(path)
        s.update({"roster": _roster("Ana", "Ben", "Cleo")})
        before = read_bytes(path)
        for names, says in ((("Ana", "Ben", "Ana"), "players 1 and 3 are both named 'Ana'"),
                            (("Jos\xe9", "Ben", "jose"), "players 1 and 3, named "),
                            (("Ana", "ANA "), "players 1 and 2, named "),
                            (("P3", "Ben"), "player 1 is named 'P3', the name player 3 has by default")):
            e = raises(SettingsError, s.update, {"roster": _roster(*names)})
            assert e.key == "roster" and says in e.reason, e.reason
            assert "each player needs a name of their own" in e.reason
            assert read_bytes(path) == before and seat_names(s.get("roster"), 3) == ["Ana", "Ben", "Cleo"]
        s.update({"roster": _roster("P1", "Ben", "P3")})  # a seat may keep its own number as its name
