"""What the Anastasia solo mode shows: the OLED's lines and the guests' LEDs for a player's
turn, a role the table turns over, the round's end, each automa action (in words and in the
LED code of firmware.modes.anastasia_solo_code) and the result. Functions of the running
mode (firmware.modes.anastasia_solo.Mode), kept apart so that each module compiles small."""

from engine.anastasia_automa import parse_card
from engine.anastasia_solo_rules import AUTOMA, OVER, PARTY, REVEAL, player_name
from firmware.modes import anastasia_solo_code as code

GUESTS = 6
GUEST_COLOUR = (255, 255, 255)
ENDINGS = {
    "found": "%s found her: Guest %d is Anastasia",
    "automa_found": "The automa found her first: Guest %d",
    "all_out": "Every player is out",
    "none_hidden": "Anastasia left unseen",
}


def result(mode, now_ms):
    """The end of a game: how it ended, the guest revealed lit."""
    res = mode.game.result
    reason = res["reason"] if res else None
    if reason == "found":
        text = ENDINGS[reason] % (player_name(res["by"]), res["guest"])
    elif reason == "automa_found":
        text = ENDINGS[reason] % res["guest"]
    else:
        text = ENDINGS.get(reason, "Game ended")
    screen(mode, "GAME OVER", code.wrap(text + ".", 16) + ["", "ok: a new game"])
    guest = res["guest"] if res else 0
    lights(mode, [GUEST_COLOUR] * GUESTS, (1 << (guest - 1)) if guest else 0, None, now_ms)


def show(mode, now_ms):
    game = mode.game
    if game.phase == REVEAL and game.turned[1] >= 0:
        g = game.turned[0]
        screen(mode, "GUEST %d ROLE" % g, ["%s turns it over." % player_name(game.turned[1]),
                                            "Is it Anastasia?", "", "G%d button: yes" % g, "ok: no"])
        lights(mode, [GUEST_COLOUR] * GUESTS, 1 << (g - 1), None, now_ms)
    elif mode.shown is not None:
        automa_action(mode, now_ms)
    elif game.phase == AUTOMA:
        note = code.wrap(mode.note, 16)[:3] if mode.note else [""]
        screen(mode, "ROUND %d OVER" % game.round, table_lines(mode) + note[-3:] + ["ok: automa turn"])
        guests_lit(mode, now_ms)
    else:
        turn(mode, now_ms)


def automa_action(mode, now_ms):
    game = mode.game
    rec = game.last_automa
    card = parse_card(game.deck_cards[rec["card"]])
    step = mode.shown
    tiers = card["actions"][step]
    outcome = rec["actions"][step]
    asking = game.phase == REVEAL and step == len(rec["actions"]) - 1
    title, lines = code.action_screen(card["name"], tiers, outcome, step, rows=4 if asking else 6)
    if asking:
        lines += ["Anastasia? G%d" % game.turned[0], "btn: yes, ok: no"]
    elif game.phase != OVER:
        lines.append("ok: %s" % ("action 2" if step == 0 and len(rec["actions"]) > 1 else "next round"))
    if mode.note:
        lines = lines[:4] + code.wrap(mode.note, 16)[:3]
    screen(mode, title, lines)
    colours, mask, blinks = code.led_code(tiers, outcome, step)
    lights(mode, colours, mask, blinks, now_ms)


def turn(mode, now_ms):
    game = mode.game
    p = game.turn
    title = "R%d %s ACTION %d/2" % (game.round, player_name(p), 3 - game.actions_left)
    pick = mode.actions_pick()
    lines = table_lines(mode)
    if mode.card_for is not None:
        op, g = mode.card_for
        lines = ["%s G%d:" % ("Reveal" if op == "reveal_clue" else "Look at", g), "which card?",
                 "guest btn: this"]
    elif mode.session.n == 0:
        lines.append("Set-up %d player%s" % (mode.players, "" if mode.players == 1 else "s"))
    if mode.note:
        lines = lines[:2] + code.wrap(mode.note, 16)[:3]
    screen(mode, title, lines[:6] + [pick.line(16)])
    if mode.card_for is not None:
        lights(mode, [GUEST_COLOUR] * GUESTS, 1 << (mode.card_for[1] - 1), None, now_ms)
    else:
        guests_lit(mode, now_ms)


def table_lines(mode):
    """The purse and tokens of the player in turn; per guest its gems and face-up clues
    ("-": gone, "x" after the gems: its role is face up, not Anastasia)."""
    game = mode.game
    p = game.turn
    gems = []
    up = []
    for x in game.guests:
        if x.status != PARTY:
            gems.append("-")
            up.append("-")
        else:
            gems.append("%d%s" % (x.gems, "x" if x.role_shown else ""))
            up.append(str(x.shown_count()))
    return ["%s gems %d tok %d" % (player_name(p), game.purses[p], game.tokens_of(p)),
            "G  1 2 3 4 5 6", "$  " + " ".join(gems), "up " + " ".join(up)]


def screen(mode, title, lines):
    if mode.ctx.display is not None:
        mode.ctx.display.text(lines, title=title[:16])


def guests_lit(mode, now_ms):
    """The guests still at the party, lit (steady, their colour white)."""
    mask = 0
    for g in range(1, GUESTS + 1):
        if at_party(mode.game, g):
            mask |= 1 << (g - 1)
    lights(mode, [GUEST_COLOUR] * GUESTS, mask, None, now_ms)


def lights(mode, colours, mask, blinks, now_ms):
    mode.ctx.leds.set_colours(colours)
    mode.ctx.leds.lit(mask, now_ms, blinks)


def at_party(game, g):
    """True while Guest g is at the party."""
    return game.guest(g).status == PARTY
