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


def one_of(*choices):
    def check(v):
        if v not in choices:
            return "must be one of %s, got %r" % (", ".join(choices), v)
        return None

    return check


def automa_deck(v):
    """A user's solo Anastasia automa deck: null or [] (the built-in decks), else the card lines
    firmware.deck_check accepts. That check and the engine's deck module are loaded for it
    only, then forgotten: the menu's heap does not hold them."""
    if v is None or v == []:
        return None
    from firmware import modes

    return modes.call_once("firmware.deck_check", "check", v)
