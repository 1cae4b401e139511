"""Text as the OLED can draw it: the framebuf font has printable ASCII only, so a
Latin-1 letter is shown as its ASCII base letter (Zoë -> Zoe, José -> Jose, Ærø -> AEro)
and anything else as "?". Names keep their own spelling everywhere else (records, host)."""

# U+00A0 .. U+00FF, one entry each: the ASCII drawn for it
_LATIN1 = (" !cL*Y|S\"ca<--R-o+23'uP.,1o>????"
           "AAAAAA CEEEEIIIIDNOOOOOxOUUUUY  "
           "aaaaaa ceeeeiiiidnooooo/ouuuuy y")
_WIDE = {"\xc6": "AE", "\xde": "Th", "\xdf": "ss", "\xe6": "ae", "\xfe": "th"}


def screen_text(text):
    """text with every character the font lacks replaced by what stands for it."""
    if len(text.encode()) == len(text):
        return text  # ASCII already (the common case: one C call)
    out = []
    for c in text:
        if c <= "~":
            out.append(c if c >= " " else "?")
        elif "\xa0" <= c <= "\xff":
            out.append(_WIDE.get(c) or _LATIN1[ord(c) - 0xA0])
        else:
            out.append("?")
    return "".join(out)
