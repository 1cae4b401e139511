"""Value checks for settings and mode options: each returns None when the value is fine,
else the reason it is not (the caller names the key)."""


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def int_range(lo, hi):
    def check(v):
        if not is_int(v):
            return "must be an int, got %r" % (v,)
        if not (lo <= v <= hi):
            return "must be %d..%d, got %d" % (lo, hi, v)
        return None

    return check


def boolean(v):
    if not isinstance(v, bool):
        return "must be true or false, got %r" % (v,)
    return None


def list_or_null(v):
    if v is not None and not isinstance(v, list):
        return "must be null or a list, got %r" % (v,)
    return None


def one_of(values):
    def check(v):
        if v not in values:
            return "must be one of %s, got %r" % (", ".join(values), v)
        return None

    return check


MAX_USER_DECK = 1500  # bytes of a user's automa deck: the settings stay in RAM the whole time


def automa_deck(v):
    """A user's solo Anastasia automa deck: null or [] (the built-in decks), else card lines as
    engine.anastasia_automa validates them (`tablemate config push` turns tables into lines).
    The deck's module is loaded for the check only, then forgotten."""
    if v is None or v == []:
        return None
    if not isinstance(v, list) or not all(isinstance(line, str) for line in v):
        return "must be null or a list of card lines like \"A1: draw 4, leave 1; leave 2\", got %r" % (v,)
    size = sum(len(line.encode()) + 3 for line in v) + 1  # its JSON text
    if size > MAX_USER_DECK:
        return "is %d bytes; a deck on the box holds at most %d" % (size, MAX_USER_DECK)
    from firmware import modes

    before = modes.loaded()
    try:
        from engine.anastasia_automa import BadDeck, validate_deck

        try:
            validate_deck(v)
        except BadDeck as e:
            return str(e)
    finally:
        modes.unload(before)
    return None
