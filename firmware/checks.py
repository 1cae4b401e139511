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


def from_spec(spec):
    """The check a registry spec names (firmware/modes): ("int", lo, hi), ("bool",),
    ("one_of", choice, ...) or ("deck",) (automa_deck)."""
    kind = spec[0]
    if kind == "int":
        return int_range(spec[1], spec[2])
    if kind == "bool":
        return boolean
    if kind == "one_of":
        return one_of(*spec[1:])
    if kind == "deck":
        return automa_deck
    raise ValueError("no check %r" % (kind,))


def options_refusal(entry, options):
    """Why a registry entry's mode refuses options (a host's or a script's overrides of its
    settings), the first bad key named; None when every key is one of its settings (players
    included) and passes that setting's check."""
    schema = entry.schema()
    for key in options:
        if key not in schema:
            return "%s has no option %r (known: %s)" % (entry.name, key, ", ".join(sorted(schema)))
        why = schema[key][0](options[key])
        if why:
            return "%s %s" % (key, why)
    return None
