"""config.json at the device root: which board, and which capture path it uses."""

from firmware.app_config import board_overrides, read_config
from tests.shared.compat import raises, tmp_dir


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def test_no_file_is_an_empty_config():
    with tmp_dir() as d:
        assert read_config(d + "/config.json") == {}


def test_capture_names_the_path_the_board_is_built_with():
    with tmp_dir() as d:
        path = d + "/config.json"
        write(path, '{"board": "pico", "capture": "irq"}')
        config = read_config(path)
        assert board_overrides(config) == {"capture": "irq"}
        assert board_overrides({"board": "pico"}) == {}


def test_an_unknown_capture_is_refused_by_name():
    e = raises(ValueError, board_overrides, {"capture": "usb"})
    assert "capture must be one of pio/irq" in str(e) and "'usb'" in str(e)


def test_a_config_that_is_not_an_object_is_refused():
    with tmp_dir() as d:
        path = d + "/config.json"
        write(path, "[1]")
        assert "must look like" in str(raises(ValueError, read_config, path))
        write(path, "{nope")
        assert "is not valid JSON" in str(raises(ValueError, read_config, path))
