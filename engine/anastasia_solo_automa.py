"""The automa's side of a solo Finding Anastasia state: the table that engine.anastasia_automa
asks and acts on, the automa's turn (draw, reshuffle, resolve, wait for a role the table
turns over) and its narration. A mixin of engine.anastasia_solo.SoloState, which holds the
attributes used here (guests, options, rng, purses, supply, clue_deck, automa deck ...)."""

from engine import anastasia_automa, anastasia_cards
from engine.anastasia_solo_rules import LEFT, OTHER_ROLE, OVER, PARTY, REVEAL, UNKNOWN, player_name


class AutomaTable:
    # -- what the automa may ask: public facts only --------------------------------
    def present(self, g):
        return self.guest(g).status == PARTY

    def role_hidden(self, g):
        return not self.guest(g).role_shown

    def facedown_count(self, g):
        return len(self.guest(g).facedown_slots())

    def unshown_slots(self, g):
        x = self.guest(g)
        if self.options["unshown"] == "face_down":
            return x.facedown_slots()
        return [s for s in range(len(x.clues)) if not x.revealed[s] and not x.looked[s]]

    def unshown_count(self, g):
        return len(self.unshown_slots(g))

    def gems_beneath(self, g):
        return self.guest(g).gems

    def clue_deck_size(self):
        return len(self.clue_deck)

    def return_need(self, n):
        if self.options["returned_gems"] == "each":
            return n * len(self.players_in())
        return n

    def is_over(self):
        return self.phase == OVER

    # -- what the automa does ------------------------------------------------------
    def automa_reveal_clue(self, g):
        x = self.guest(g)
        slots = x.facedown_slots()
        s = slots[self.rng.below(len(slots))]
        x.revealed[s] = True
        return {"slot": s, "clue": x.clues[s]}

    def automa_exchange(self, a, b):
        xa, xb = self.guest(a), self.guest(b)
        ua, ub = self.unshown_slots(a), self.unshown_slots(b)
        sa = ua[self.rng.below(len(ua))]
        sb = ub[self.rng.below(len(ub))]
        # The card moves with what is known of it (a "face_down" exchange may carry a looked-at clue).
        xa.clues[sa], xb.clues[sb] = xb.clues[sb], xa.clues[sa]
        xa.looked[sa], xb.looked[sb] = xb.looked[sb], xa.looked[sa]
        return {"slots": [sa, sb]}

    def automa_return(self, a, n):
        x = self.guest(a)
        paid = [0] * self.players
        seats = self.players_in()
        if self.options["returned_gems"] == "each":
            for p in seats:
                paid[p] = n
        else:
            p = self.share_next
            for _ in range(n):
                while self.out[p]:
                    p = (p + 1) % self.players
                paid[p] += 1
                p = (p + 1) % self.players
            self.share_next = p
        for p in seats:
            self.purses[p] += paid[p]
            x.gems -= paid[p]
        return {"paid": paid}

    def automa_expend(self, a, n):
        self.guest(a).gems -= n
        self.supply += n
        return {"spent": n}

    def automa_reveal_role(self, g):
        return {"role": self.turn_role(g, -1)}

    def automa_draw(self, g):
        return {"slot": self.guest(g).add_clue(self.clue_deck.pop())}

    def automa_leave(self, g):
        x = self.guest(g)
        x.status = LEFT
        gems = x.gems
        self.supply += gems  # nobody takes them: back to the supply
        x.gems = 0
        return {"gems": gems}

    # -- the automa's turn -------------------------------------------------------------
    def start_automa_turn(self):
        reshuffled = False
        if not self.automa_deck:
            # "the Automa discarded cards are shuffled together to reform the Automa deck"
            self.automa_deck = self.automa_discard
            self.automa_discard = []
            self.rng.shuffle(self.automa_deck)
            reshuffled = True
        index = self.automa_deck.pop()
        self.automa_discard.append(index)  # the card is out of the deck: its turn is on the record
        self.last_automa = {"card": index, "round": self.round, "reshuffled": reshuffled, "actions": []}
        self.continue_automa_turn()

    def continue_automa_turn(self):
        """Resolve the card's actions not yet resolved; stop while the table shows a role."""
        rec = self.last_automa
        card = anastasia_automa.parse_card(self.deck_cards[rec["card"]])
        while len(rec["actions"]) < 2:
            rec["actions"].append(anastasia_automa.resolve_action(self, card["actions"][len(rec["actions"])]))
            if self.phase == REVEAL:
                return
        self.check_end()
        if self.phase != OVER:
            self.start_round()

    def role_seen_by_automa(self, role):
        """The table said what the role the automa turned over is: record it and go on."""
        self.last_automa["actions"][-1]["did"]["role"] = role
        self.continue_automa_turn()

    # -- words ---------------------------------------------------------------------
    def describe_automa(self):
        """The latest automa turn in words, one line per item (engine.anastasia_solo_words)."""
        from engine.anastasia_solo_words import describe_automa

        return describe_automa(self)


def outcome_text(tier, did):
    """What the table saw when `tier` was taken: which card of a fan (card 1 is the first), the
    clue turned up, the gems paid, the role; None if nothing to add."""
    if not did:
        return None
    parts = []
    if "slots" in did:
        parts.append("Guest %d's card %d for Guest %d's card %d"
                     % (tier[1], did["slots"][0] + 1, tier[2], did["slots"][1] + 1))
    if "clue" in did:
        clue = did["clue"]
        parts.append("card %d%s" % (did["slot"] + 1,
                                    "" if clue == UNKNOWN else ", " + anastasia_cards.clue_label(clue)))
    if "paid" in did:
        parts.append(", ".join("%s +%d" % (player_name(p), did["paid"][p])
                               for p in range(len(did["paid"])) if did["paid"][p]))
    if "role" in did:
        role = did["role"]
        if role == anastasia_cards.ANASTASIA:
            parts.append("it is Anastasia")
        elif role == OTHER_ROLE:
            parts.append("not Anastasia")
        elif role == UNKNOWN:
            parts.append("is it Anastasia?")
        else:
            parts.append("the %s" % anastasia_cards.ROLE_NAMES[role])
    if "gems" in did and did["gems"]:
        parts.append("%d gems back to the supply" % did["gems"])
    return "; ".join(parts) or None
