"""`tablemate config`: file parsing and validation (no device), then push/pull against the virtual device."""

import json
import re
import tomllib

import pytest

from firmware import modes
from firmware import settings as schema
from host import config_cmd
from host.cli import main as cli_main

GOOD_TOML = """
brightness = 120
sound = false
debounce_ms = 30

[anomia]
players = 3
tie_window_us = 1500
lockout_ms = 600

[[roster]]
name = "Ana"
colour = "#ff8000"

[[roster]]
name = "Ben"
colour = [0, 255, 0]

[[roster]]
name = "Cleo"
colour = "#0000FF"
"""

EXPECTED = {
    "anomia": {"players": 3, "tie_window_us": 1500, "lockout_ms": 600}, "brightness": 120, "sound": False,
    "debounce_ms": 30,
    "roster": [{"name": "Ana", "colour": [255, 128, 0]}, {"name": "Ben", "colour": [0, 255, 0]},
               {"name": "Cleo", "colour": [0, 0, 255]}],
}


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_toml_and_json_files_give_the_same_settings(tmp_path):
    toml_file = _write(tmp_path, "box.toml", GOOD_TOML)
    assert config_cmd.load_config(toml_file) == EXPECTED
    as_json = dict(EXPECTED, roster=[{"name": "Ana", "colour": "#FF8000"}, EXPECTED["roster"][1],
                                     {"name": "Cleo", "colour": [0, 0, 255]}])
    json_file = _write(tmp_path, "box.json", json.dumps(as_json))
    assert config_cmd.load_config(json_file) == EXPECTED


def test_a_partial_file_is_fine(tmp_path):
    f = _write(tmp_path, "tie.toml", "[anomia]\ntie_window_us = 250\n")
    assert config_cmd.load_config(f) == {"anomia": {"tie_window_us": 250}}


def test_a_file_written_before_the_mode_tables_reads_as_the_firmware_reads_it(tmp_path):
    f = _write(tmp_path, "old.toml", "players = 3\ntie_window_us = 250\nbrightness = 9\n")
    assert config_cmd.load_config(f) == {"anomia": {"players": 3, "tie_window_us": 250}, "brightness": 9}


BAD_FILES = [
    ("unknown.toml", "volume = 3\n", "volume: unknown setting"),
    ("mode.toml", 'mode = "anomia"\n', "mode: is the box's running mode"),
    ("range.toml", "[anomia]\ntie_window_us = 999999\n", "anomia.tie_window_us: must be 0..50000"),
    ("old.toml", "tie_window_us = 999999\n", "anomia.tie_window_us: must be 0..50000"),
    ("mode.json", '{"anomia": {"colour": 1}}', "anomia.colour: unknown setting"),
    ("nomode.json", '{"chess": {"players": 2}}', "chess: unknown setting"),
    ("float.toml", "brightness = 64.0\n", "brightness: must be an int"),
    ("bool.json", '{"sound": "yes"}', "sound: must be true or false"),
    ("colour.toml", '[[roster]]\nname = "A"\ncolour = "red"\n', "roster: player 1 colour must be"),
    ("rgb.toml", '[[roster]]\nname = "A"\ncolour = [1, 2, 300]\n', "roster: "),
    ("many.toml", "".join('[[roster]]\nname = "P%d"\ncolour = "#000000"\n' % i for i in range(9)),
     "roster: must be a list of 1..8"),
    ("syntax.toml", "players = \n", "not valid TOML"),
    ("syntax.json", '{"players": 3,,}', "not valid JSON"),
    ("list.json", "[1, 2]", "top level must be"),
    ("empty.toml", "", "holds no settings"),
    ("settings.yaml", "players: 3\n", "unknown config format"),
    ("deck.toml", '[anastasia_solo]\nautoma_deck = ["a: leave 1; leave 2", "x: draw 7; leave 1"]\n',
     "anastasia_solo.automa_deck: automa card 2 ('x'), action 1, primary tier: draw's guest must be a "
     "guest number 1-6, got 7"),
    ("decktable.json", '{"anastasia_solo": {"automa_deck": [{"name": "t", "actions": [[["leave", 1]]]}]}}',
     "anastasia_solo.automa_deck: automa card 1 ('t'): a card has exactly 2 actions, got 1"),
    ("bigdeck.toml", "[anastasia_solo]\nautoma_deck = [%s]\n" % ", ".join(
        '"card%02d: reveal_clue 1, exchange 2 3, return_reveal 5 3 6; draw 4, leave 1"' % i
        for i in range(20)),
     "anastasia_solo.automa_deck: is 1521 bytes; a deck on the box holds at most 1500"),
    ("difficulty.toml", '[anastasia_solo]\ndifficulty = "brutal"\n',
     "anastasia_solo.difficulty: must be one of normal, easy, hard, got 'brutal'"),
    ("soloplayers.toml", "[anastasia_solo]\nplayers = 4\n", "anastasia_solo.players: must be 1..3"),
    ("twice.toml", "".join('[[roster]]\nname = "%s"\ncolour = "#000000"\n' % n
                           for n in ("Ana", "Ben", "Ana")),
     "roster: players 1 and 3 are both named 'Ana': each player needs a name of their own"),
    ("alike.json", '{"roster": [{"name": "Jos\\u00e9", "colour": [1, 2, 3]},'
                   ' {"name": "jose", "colour": [1, 2, 3]}]}',
     "roster: players 1 and 2, named 'Jos\u00e9' and 'jose', read the same on the box's screen"),
    ("seat.toml", '[[roster]]\nname = "P2"\ncolour = "#000000"\n',
     "roster: player 1 is named 'P2', the name player 2 has by default"),
    ("script.json", '{"roster": [{"name": "\\u0141ukasz", "colour": [1, 2, 3]}]}',
     "roster: player 1 name must be letters, digits and signs of Latin-1"),
]


def test_an_automa_deck_goes_to_the_box_as_card_lines_and_an_empty_one_clears_it(tmp_path):
    table = {"name": "mine", "actions": [[["reveal_clue", 3], "exchange 4 5"], [["leave", 2]]]}
    solo = {"automa_deck": [table], "difficulty": "hard"}
    f = _write(tmp_path, "deck.json", json.dumps({"anastasia_solo": solo}))
    assert config_cmd.load_config(f) == {"anastasia_solo": {
        "automa_deck": ["mine: reveal_clue 3, exchange 4 5; leave 2"], "difficulty": "hard"}}
    f = _write(tmp_path, "clear.toml", "[anastasia_solo]\nautoma_deck = []\n")
    assert config_cmd.load_config(f) == {"anastasia_solo": {"automa_deck": []}}
    # the same file is a deck file for tablemate simulate
    from host.automa_deck_file import load_deck

    assert load_deck(tmp_path / "deck.json") == ["mine: reveal_clue 3, exchange 4 5; leave 2"]


@pytest.mark.parametrize("name,text,message", BAD_FILES)
def test_invalid_files_name_the_key_and_send_nothing(tmp_path, capsys, name, text, message):
    path = _write(tmp_path, name, text)
    with pytest.raises(config_cmd.ConfigError, match=re.escape(message)):
        config_cmd.load_config(path)
    # The CLI refuses before it looks for a port: no port given, no board plugged in, still exit 2
    # with the file's error (not a port error).
    status = cli_main(["config", "push", str(path), "--port", str(tmp_path / "no-such-port")])
    err = capsys.readouterr().err
    assert status == 2
    assert message.split(":")[0] in err and str(path) in err and "port" not in err.split(str(path))[-1]


def test_a_file_not_saved_as_utf8_names_the_line(tmp_path, capsys):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[[roster]]\nname = "Ana"\ncolour = "#000000"\n\n[[roster]]\nname = "Zo\u00eb"\n'
                     'colour = "#ffffff"\n'.encode("latin-1"))
    status = cli_main(["config", "push", str(path), "--port", str(tmp_path / "no-such-port")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "latin1.toml: line 6 is not UTF-8 text (byte 0xeb): save the file as UTF-8" in err


def test_missing_file(tmp_path, capsys):
    assert cli_main(["config", "push", str(tmp_path / "nope.toml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_validation_is_the_firmware_schema():
    # Every key of the schema but mode is a config key, so a new setting needs no change here.
    assert set(config_cmd.CONFIG_KEYS) == set(schema.SCHEMA) - {"mode"} | set(modes.names())
    with pytest.raises(schema.SettingsError) as e:
        config_cmd.validate({"debounce_ms": 0})
    assert e.value.key == "debounce_ms"


def test_written_files_read_back_to_the_same_settings(tmp_path):
    device = schema.defaults()
    device.update(EXPECTED)
    file_values = config_cmd.to_file_values(device)
    assert "mode" not in file_values
    assert file_values["roster"][0]["colour"] == "#ff8000"
    expected = {k: device[k] for k in config_cmd.CONFIG_KEYS}
    expected["anastasia_solo"] = {"players": 1, "difficulty": "normal"}  # an unset deck (null): no TOML form
    for fmt in (".toml", ".json"):
        text = config_cmd.dumps(file_values, fmt)
        path = _write(tmp_path, "pulled" + fmt, text)
        assert config_cmd.load_config(path) == expected, fmt
    toml = tomllib.loads(config_cmd.dumps(file_values, ".toml"))
    assert toml["anomia"]["players"] == 3 and len(toml["roster"]) == 3


def test_push_and_pull_against_the_virtual_device(tmp_path, capsys):
    from host.bench_host import SimProcess, new_image
    from host.serial_client import DeviceClient, DeviceError

    image = tmp_path / "sim.img"
    new_image(image)
    good = _write(tmp_path, "box.toml", GOOD_TOML)
    bad = _write(tmp_path, "bad.toml", GOOD_TOML.replace('"#0000FF"', '"#0000GG"'))
    with SimProcess(image) as sim:
        with DeviceClient(sim.port) as dev:
            factory = dev.settings_get()
        # invalid: refused before the port is touched, the box keeps its settings
        assert cli_main(["config", "push", str(bad), "--port", sim.port]) == 2
        assert "roster: player 3 colour" in capsys.readouterr().err
        with DeviceClient(sim.port) as dev:
            assert dev.settings_get() == factory
        assert cli_main(["config", "push", str(good), "--port", sim.port]) == 0
        assert "pushed" in capsys.readouterr().out
        with DeviceClient(sim.port) as dev:
            now = dev.settings_get()
        assert {k: now[k] for k in EXPECTED} == EXPECTED
        assert now["mode"] == factory["mode"]
        for fmt in (".toml", ".json"):
            pulled = tmp_path / ("pulled" + fmt)
            assert cli_main(["config", "pull", "--port", sim.port, "-o", str(pulled)]) == 0
            expected = config_cmd.to_file_values(now)  # no nulls (TOML has none), colours as lists again
            expected["roster"] = now["roster"]
            assert config_cmd.load_config(pulled) == expected
        assert cli_main(["config", "pull", "--port", sim.port]) == 0
        out = capsys.readouterr().out
        assert tomllib.loads(out.split("\n", 2)[-1])["roster"][0] == {"name": "Ana", "colour": "#ff8000"}
        # a partial mode table changes only what it names
        part = _write(tmp_path, "part.json", json.dumps({"anomia": {"lockout_ms": 900}}))
        assert cli_main(["config", "push", str(part), "--port", sim.port]) == 0
        with DeviceClient(sim.port) as dev:
            assert dev.settings_get()["anomia"] == {"players": 3, "tie_window_us": 1500, "lockout_ms": 900}
        # a deck of your own, then cleared
        deck = _write(tmp_path, "deck.toml", '[anastasia_solo]\nautoma_deck = ["m1: leave 3; draw 2"]\n')
        assert cli_main(["config", "push", str(deck), "--port", sim.port]) == 0
        with DeviceClient(sim.port) as dev:
            assert dev.settings_get()["anastasia_solo"]["automa_deck"] == ["m1: leave 3; draw 2"]
        # names with accents go to the box and come back as they were written; two players with
        # one name are refused by the box itself too (its settings_set op), changing nothing
        names = [{"name": "Zo\u00eb", "colour": [1, 2, 3]}, {"name": "Jos\u00e9", "colour": [4, 5, 6]},
                 {"name": "\u00c6r\u00f8", "colour": [7, 8, 9]}]
        accents = _write(tmp_path, "accents.json", json.dumps({"roster": names}))
        assert cli_main(["config", "push", str(accents), "--port", sim.port]) == 0
        with DeviceClient(sim.port) as dev:
            assert dev.settings_get()["roster"] == names
            with pytest.raises(DeviceError) as e:
                dev.request("settings_set",
                            changes={"roster": names + [{"name": "zoe", "colour": [0, 0, 0]}]})
            assert e.value.code == "bad_arg" and "players 1 and 4" in e.value.msg
            assert "read the same on the box's screen" in e.value.msg
            assert dev.settings_get()["roster"] == names
        clear = _write(tmp_path, "clear.toml", "[anastasia_solo]\nautoma_deck = []\n")
        assert cli_main(["config", "push", str(clear), "--port", sim.port]) == 0
        with DeviceClient(sim.port) as dev:
            solo = dev.settings_get()["anastasia_solo"]
            assert solo == {"players": 1, "difficulty": "normal", "automa_deck": []}
