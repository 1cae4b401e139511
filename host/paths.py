"""Where the host tools keep the user's data (the game database, the virtual device's image).

The per-user data directory comes from platformdirs; TABLEMATE_DATA_DIR overrides it
(handy for a second profile, a USB stick, or tests that must not touch the real one).
"""

import os
from pathlib import Path

import platformdirs

APP_NAME = "tablemate"
DATA_DIR_ENV = "TABLEMATE_DATA_DIR"
DB_FILENAME = "games.sqlite3"
SIM_IMAGE_FILENAME = "sim-flash.img"


def data_dir():
    """The directory for tablemate's data (not created here)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_db_path():
    return data_dir() / DB_FILENAME


def default_sim_image_path():
    return data_dir() / SIM_IMAGE_FILENAME


def ensure_parent(path):
    """Create the directory that will hold path; returns path as a Path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
