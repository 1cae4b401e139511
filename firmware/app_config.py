"""config.json at the device root: which board the box is, and the capture path it uses.
Read once at boot (App loads this module for it and forgets it after).

Which board: $TABLEMATE_BOARD (the sim launcher sets it), else {"board": NAME} in
config.json, else "pico". config.json may also name the capture path ({"capture": "irq"}).
"""

CONFIG_PATH = "config.json"
BOARD_ENV = "TABLEMATE_BOARD"
DEFAULT_BOARD = "pico"


def read_config(path=CONFIG_PATH):
    """config.json at the device root as a dict ({} when there is none)."""
    try:
        with open(path) as f:
            import json

            config = json.load(f)
    except OSError:
        return {}
    except ValueError as e:
        raise ValueError("%s is not valid JSON: %s" % (path, e))
    if not isinstance(config, dict):
        raise ValueError('%s must look like {"board": "pico"}' % path)
    return config


def choose_board(config=None):
    """The board profile name: environment, then config.json, then the Pico."""
    import os

    getenv = getattr(os, "getenv", None)  # the Pico's os has none
    name = getenv(BOARD_ENV) if getenv is not None else None
    if name:
        return name
    if config is None:
        config = read_config()
    if not isinstance(config.get("board", DEFAULT_BOARD), str):
        raise ValueError('%s must look like {"board": "pico"}' % CONFIG_PATH)
    return config.get("board", DEFAULT_BOARD)


def board_overrides(config):
    """make_board's overrides from config.json: the capture path when it names one."""
    from firmware.board import CAPTURE_METHODS

    capture = config.get("capture")
    if capture is None:
        return {}
    if capture not in CAPTURE_METHODS:
        raise ValueError("%s: capture must be one of %s, got %r"
                         % (CONFIG_PATH, "/".join(CAPTURE_METHODS), capture))
    return {"capture": capture}


def board_choice(board_name=None):
    """(profile name, make_board overrides): board_name if given, else as chosen above."""
    config = read_config()
    return board_name or choose_board(config), board_overrides(config)
