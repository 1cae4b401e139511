"""Settings: defaults, per-key validation, all-or-nothing atomic update, corrupt files."""

import json
import os

from firmware.settings import MODES, SCHEMA, Settings, SettingsError, bad_path, defaults
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
        assert v["players"] == 4 and v["tie_window_us"] == 1000 and v["lockout_ms"] == 800
        assert v["brightness"] == 64 and v["sound"] is True and v["debounce_ms"] == 25
        assert v["mode"] == "menu" and v["automa_deck"] is None
        assert [p["name"] for p in v["roster"]] == ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
        assert [p["colour"] for p in v["roster"]] == COLOURS
        assert sorted(v) == sorted(SCHEMA)
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
        ("players", 2), ("players", 9), ("players", "4"), ("players", True), ("players", 4.0),
        ("tie_window_us", -1), ("tie_window_us", 50001), ("tie_window_us", None), ("tie_window_us", False),
        ("lockout_ms", -1), ("lockout_ms", 10001), ("lockout_ms", "800"),
        ("brightness", 0), ("brightness", 256), ("brightness", True), ("brightness", 64.0),
        ("sound", 1), ("sound", "yes"), ("sound", None),
        ("debounce_ms", 0), ("debounce_ms", 101), ("debounce_ms", True),
        ("mode", "chess"), ("mode", 1), ("mode", None),
        ("automa_deck", {"cards": []}), ("automa_deck", "deck"), ("automa_deck", 3),
        ("roster", []), ("roster", COLOURS), ("roster", "P1,P2,P3"),
        ("roster", [ok] * 2),  # too few
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


def test_each_bad_value_is_rejected_naming_its_key():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        for key, value in bad_changes():
            e = raises(SettingsError, s.validate, {key: value})
            assert e.key == key, (key, value, e.key)
            assert e.reason and key in str(e)
            e = raises(SettingsError, s.update, {key: value})
            assert e.key == key
            assert isinstance(e, ValueError)
        assert s.all() == defaults()
        assert not exists(d + "/settings.json")


def test_limits_are_accepted():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        for key, value in (("players", 3), ("players", 8), ("tie_window_us", 0), ("tie_window_us", 50000),
                           ("lockout_ms", 0), ("lockout_ms", 10000), ("brightness", 1), ("brightness", 255),
                           ("debounce_ms", 1), ("debounce_ms", 100), ("sound", False),
                           ("automa_deck", []), ("automa_deck", None)):
            s.validate({key: value})
        for mode in MODES:
            s.validate({"mode": mode})
        s.validate({"roster": [{"name": "Ann Marie 12", "colour": [0, 0, 0]},
                               {"name": "~!", "colour": [255, 255, 255]},
                               {"name": "B", "colour": [1, 2, 3]}], "players": 3})


def test_players_cannot_exceed_the_roster():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        short = [{"name": "A", "colour": [1, 2, 3]}] * 3
        e = raises(SettingsError, s.update, {"roster": short})  # 4 players in use
        assert e.key == "roster"
        e = raises(SettingsError, s.update, {"roster": short, "players": 5})
        assert e.key == "players"
        s.update({"roster": short, "players": 3})
        e = raises(SettingsError, s.update, {"players": 4})
        assert e.key == "players"


def test_malformed_changes_are_rejected():
    with tmp_dir() as d:
        s = Settings(d + "/settings.json")
        e = raises(SettingsError, s.update, [("players", 5)])
        assert e.key is None
        e = raises(SettingsError, s.update, {"players": 5, "nope": 1})
        assert e.key == "nope"


def test_failed_update_changes_nothing():
    with tmp_dir() as d:
        path = d + "/settings.json"
        s = Settings(path)
        s.update({"players": 6, "brightness": 200})
        before = read_bytes(path)
        listing = sorted(os.listdir(d))
        # one good change with one bad one: neither is applied
        for changes in ({"players": 5, "brightness": 0}, {"sound": False, "mode": "x"},
                        {"lockout_ms": 100, "volume": 1}):
            raises(SettingsError, s.update, changes)
            assert read_bytes(path) == before
            assert sorted(os.listdir(d)) == listing
            assert s.get("players") == 6 and s.get("brightness") == 200 and s.get("sound") is True
        assert Settings(path).all() == s.all()


def test_update_persists_across_reopen():
    with tmp_dir() as d:
        path = d + "/settings.json"
        s = Settings(path)
        roster = [{"name": "Ann", "colour": [9, 8, 7]}, {"name": "Bo", "colour": [1, 2, 3]},
                  {"name": "Cy", "colour": [0, 0, 255]}, {"name": "Di", "colour": [255, 0, 0]},
                  {"name": "Ed", "colour": [0, 255, 0]}]
        s.update({"roster": roster, "players": 5, "mode": "anomia", "sound": False,
                  "automa_deck": [{"card": 1}], "tie_window_us": 2500})
        assert sorted(os.listdir(d)) == ["settings.json"]  # no temp file left behind
        t = Settings(path)
        assert t.load_error is None
        assert t.all() == s.all()
        assert t.get("roster") == roster and t.get("players") == 5 and t.get("mode") == "anomia"
        assert t.get("sound") is False and t.get("automa_deck") == [{"card": 1}]
        assert t.get("tie_window_us") == 2500 and t.get("lockout_ms") == 800
        # the file is plain JSON holding every setting
        assert sorted(json.loads(read_bytes(path))) == sorted(SCHEMA)


def test_file_from_an_older_firmware_keeps_defaults_for_missing_keys():
    with tmp_dir() as d:
        path = d + "/settings.json"
        write_bytes(path, b'{"players": 6, "brightness": 10}')
        s = Settings(path)
        assert s.load_error is None
        assert s.get("players") == 6 and s.get("brightness") == 10 and s.get("debounce_ms") == 25


def test_corrupt_files_fall_back_to_defaults_and_are_kept_aside():
    for content in (b"", b"{not json", b"\xff\xfe\x00", b"[1, 2]", b'{"players": 99}', b'{"volume": 3}',
                    b'{"players": true}', b'{"roster": [], "players": 3}', b"{" * 3000 + b"}" * 3000):
        with tmp_dir() as d:
            path = d + "/settings.json"
            write_bytes(path, content)
            s = Settings(path)
            assert s.all() == defaults(), content
            assert s.load_error and "settings.bad" in s.load_error
            assert not exists(path)
            assert read_bytes(d + "/settings.bad") == content
            # the device carries on: an update writes a fresh file
            s.update({"players": 5})
            assert Settings(path).get("players") == 5 and Settings(path).load_error is None


def test_leftover_temp_file_is_ignored_and_removed():
    with tmp_dir() as d:
        path = d + "/settings.json"
        Settings(path).update({"players": 7})
        write_bytes(path + ".tmp", b'{"players": 3')
        s = Settings(path)
        assert s.get("players") == 7 and s.load_error is None
        assert not exists(path + ".tmp")


def test_bad_path_naming():
    assert bad_path("/flash/settings.json") == "/flash/settings.bad"
    assert bad_path("/flash/config") == "/flash/config.bad"
