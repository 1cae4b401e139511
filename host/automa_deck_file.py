"""A user's solo Finding Anastasia automa deck from a file, validated card by card
(format: engine.anastasia_automa).

Two kinds of file:
- a settings file (.toml or .json) with `automa_deck = [...]` in its [anastasia_solo]
  table (or at the top, as older files have it), the very file `tablemate config push`
  sends to the box (its other settings are not read here); a
  .json file may also be the list of cards alone;
- any other file: one card a line, "name: tier, tier; tier, tier", blank lines and lines
  starting with # skipped.
Every error is one line naming the file, and for a card its line (text files), number,
name, action, tier and field, as engine.anastasia_automa words them.
"""

import json
from pathlib import Path

from engine import anastasia_automa
from host import config_cmd

SETTINGS_FORMATS = config_cmd.FORMATS  # .toml, .json: a settings file


class DeckFileError(ValueError):
    """A deck file that cannot be used; the message names the file and what is wrong."""


def read_text(path):
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckFileError("%s: no such file" % path)
    except IsADirectoryError:
        raise DeckFileError("%s: is a folder, not a deck file" % path)
    except UnicodeError:
        raise DeckFileError("%s: not a text file (UTF-8)" % path)
    except OSError as e:
        raise DeckFileError("%s: cannot read: %s" % (path, e.strerror or e))


def card_lines(text):
    """[(line number, card text)] of a one-card-a-line file."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((number, line))
    return out


def settings_or_list(text, fmt, path):
    """The mapping of a settings file, or the list a .json file holds alone."""
    try:
        return config_cmd.parse_text(text, fmt, path)
    except config_cmd.ConfigError:
        if fmt == ".json":
            try:
                data = json.loads(text)
            except ValueError:
                data = None
            if isinstance(data, list):
                return data
        raise


def load_deck(path):
    """The deck in a file as the canonical card lines a game keeps; DeckFileError if it is not usable."""
    text = read_text(path)
    if Path(path).suffix.lower() in SETTINGS_FORMATS:
        try:
            data = settings_or_list(text, Path(path).suffix.lower(), path)
        except config_cmd.ConfigError as e:
            raise DeckFileError(str(e))
        solo = data.get("anastasia_solo") if isinstance(data, dict) else None
        if isinstance(data, list):
            where, cards = path, data
        elif isinstance(solo, dict) and "automa_deck" in solo:  # the mode's table, as pushed today
            where, cards = "%s: anastasia_solo.automa_deck" % path, solo["automa_deck"]
        elif "automa_deck" in data:
            where, cards = "%s: automa_deck" % path, data["automa_deck"]
        else:
            raise DeckFileError("%s: sets no automa_deck (write automa_deck = [\"name: tier, tier; tier\", "
                                "...], or use a text file with one card a line)" % path)
    else:
        lines = card_lines(text)
        for i in range(len(lines)):
            number = lines[i][0]
            try:  # the deck so far, so that a card's own error or a repeated name names its line
                anastasia_automa.validate_deck([card for _, card in lines[:i + 1]])
            except anastasia_automa.BadDeck as e:
                raise DeckFileError("%s line %d: %s" % (path, number, e))
        where = path
        cards = [line for _, line in lines]
    if isinstance(cards, list) and not cards:
        raise DeckFileError("%s: holds no cards (a card reads \"name: tier, tier; tier, tier\")" % where)
    try:
        return anastasia_automa.validate_deck(cards)
    except anastasia_automa.BadDeck as e:
        raise DeckFileError("%s: %s" % (where, e))
