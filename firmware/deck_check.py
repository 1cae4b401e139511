"""The check of a user's solo Anastasia automa deck in the settings (loaded by
firmware.checks.automa_deck only while a deck is checked)."""

MAX_USER_DECK = 1500  # bytes of a user's automa deck: the settings stay in RAM the whole time


def check(v):
    """None if v, a list of card lines (`tablemate config push` turns tables into lines), is a
    deck engine.anastasia_automa accepts and small enough, else the reason."""
    if not isinstance(v, list) or not all(isinstance(line, str) for line in v):
        return "must be null or a list of card lines like \"A1: draw 4, leave 1; leave 2\", got %r" % (v,)
    size = sum(len(line.encode()) + 3 for line in v) + 1  # its JSON text
    if size > MAX_USER_DECK:
        return "is %d bytes; a deck on the box holds at most %d" % (size, MAX_USER_DECK)
    from engine.anastasia_automa import BadDeck, validate_deck

    try:
        validate_deck(v)
    except BadDeck as e:
        return str(e)
    return None
