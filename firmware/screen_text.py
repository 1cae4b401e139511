"""Text as the OLED can draw it: the framebuf font has printable ASCII only, so a
Latin-1 letter is shown as its ASCII base letter (Zoë -> Zoe, José -> Jose, Ærø -> AEro)
and anything else as "?". Names keep their own spelling everywhere else (records, host)."""

# U+00A0 .. U+00FF, one entry each: the ASCII drawn for it
_LATIN1 = (" !cL*Y|S\"ca<--R-o+23'uP.,1o>????"
           "AAAAAA CEEEEIIIIDNOOOOOxOUUUUY  "
           "aaaaaa ceeeeiiiidnooooo/ouuuuy y")
# the letters drawn as two, and the two each is drawn as (strings, not a dict: on MicroPython
# each short literal is a name interned for good)
_WIDE = "\xc6\xde\xdf\xe6\xfe"
_WIDE_AS = "AEThssaeth"


def screen_text(text):
    """text with every character the font lacks replaced by what stands for it."""
    if len(text.encode()) == len(text):
        return text  # ASCII already (the common case: one C call)
    out = []
    for c in text:
        code = ord(c)
        if code <= 0x7E:
            out.append(c if code >= 0x20 else "?")
        elif 0xA0 <= code <= 0xFF:
            wide = _WIDE.find(c)
            out.append(_WIDE_AS[2 * wide:2 * wide + 2] if wide >= 0 else _LATIN1[code - 0xA0:code - 0x9F])
        else:
            out.append("?")
    return "".join(out)
