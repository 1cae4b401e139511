"""The session's undo for engines without an undo action of their own: back through the
whole game by replaying the standing actions from the seed (read back from the journal),
and the resume after a power cut that replays the same way and checks the kept digest.
The Finding Anastasia ledger is such an engine."""

import gc
import json

import engine.anastasia_ledger  # noqa: F401, I001 - loaded first, on an empty heap, as a box loads a mode's engine
from engine import gamelog_read
from engine.rng import Rng
from firmware.app_parts import Input
from firmware.context import Context
from firmware.journal import Journal
from firmware.leds import Leds
from firmware.session import Session
from firmware.session_restore import REPLAY_CHUNK
from firmware.settings import Settings
from firmware.sound import Sound
from tests.shared.box_parts import Debounced, Strip, VirtualClock
from tests.shared.compat import tmp_dir

ENGINE = "anastasia_ledger"
LASTING = ("reveal", "reveal_self", "declare")  # entries that end games early


def make_ctx(path):
    events = []
    ctx = Context("ledgertest", Input(Debounced(), 8), Leds(Strip(8), 8), None, Sound(None), VirtualClock(),
                  Journal(path + "/journal"), Settings(path + "/settings.json"),
                  lambda kind, fields=None: events.append((kind, fields)), path)
    ctx.events = events
    return ctx


def play(session, rng, steps):
    """Apply steps random legal entries, reveals avoided so the game lasts; the digest after each."""
    digests = []
    for _ in range(steps):
        st = session.state
        if st.ended is not None:
            break
        legal = st.legal_actions()
        lasting = [i for i in range(len(legal)) if legal[i][0] not in LASTING]
        i = lasting[rng.below(len(lasting))] if lasting else rng.below(len(legal))
        action = legal[i]
        legal = lasting = None
        gc.collect()
        session.apply(action)
        digests.append(session.state.digest())
    return digests


def test_undo_walks_back_through_the_whole_game_and_the_records_replay():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(5, {"empress": 2}, {})
        first = s.state.digest()
        digests = [first] + play(s, Rng(11), REPLAY_CHUNK + 8)  # past a replay chunk
        assert len(digests) > REPLAY_CHUNK
        while len(digests) > 1:
            digests.pop()
            assert s.undo() is True
            assert s.state.digest() == digests[-1]
            gc.collect()
        assert s.state.digest() == first
        assert s.undo() is False  # nothing left to take back: nothing recorded either
        n = s.n
        assert s.undo() is False and s.n == n
        more = play(s, Rng(12), 3)
        assert s.undo() is True and s.state.digest() == more[-2]
        assert s.storage_error is None


def test_undo_after_undo_and_new_actions_takes_back_the_newest_standing_one():
    with tmp_dir() as d:
        s = Session(make_ctx(d), ENGINE)
        s.start(4, {}, {})
        a = play(s, Rng(3), 4)
        assert s.undo() and s.undo() and s.state.digest() == a[1]
        b = play(s, Rng(4), 2)
        assert s.undo() and s.state.digest() == b[0]
        assert s.undo() and s.state.digest() == a[1]
        assert s.undo() and s.state.digest() == a[0]
        records = s.ctx.journal.records_since(0, 100)  # the host replays the undo records alike
        assert gamelog_read.replay(records).digest() == s.state.digest()


def test_undo_without_the_records_is_refused_with_the_reason_and_changes_nothing():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(6, {"empress": 0}, {})
        play(s, Rng(5), 6)
        before, n = s.state.digest(), s.n
        ctx.journal.close()
        ctx.journal = Journal(d + "/other")  # a journal that never saw the game
        assert s.undo() is False
        assert s.state.digest() == before and s.n == n
        assert "cannot undo" in s.storage_error
        assert ctx.journal.last_seq == 0  # no undo record


def kept(d):
    with open(d + "/ledgertest_game.json") as f:
        return json.load(f)


def test_resume_replays_the_records_and_checks_the_kept_digest():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(7, {"empress": 3}, {"x": 1})
        play(s, Rng(8), 12)
        s.undo()
        digest, n, gid = s.state.digest(), s.n, s.game_id
        s = None
        gc.collect()
        s2 = Session(ctx, ENGINE)  # a power cut: a new session on the same storage
        k = s2.load_kept()
        assert k["state"].digest() == digest and s2.storage_error is None
        s2.resume(k)
        assert (s2.n, s2.game_id, s2.players, s2.settings) == (n, gid, 7, {"x": 1})
        assert s2.undo() is True  # undo goes on across the power cut
        assert gamelog_read.replay(ctx.journal.records_since(0, 1000)).digest() == s2.state.digest()


def test_the_records_win_over_a_kept_copy_that_differs():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(5, {}, {})
        play(s, Rng(9), 5)
        digest = s.state.digest()
        data = kept(d)
        data["state"]["purses"][1] += 1  # the copy and the records disagree
        data["state"]["supply"] -= 1
        with open(d + "/ledgertest_game.json", "w") as f:
            f.write(json.dumps(data))
        k = Session(ctx, ENGINE).load_kept()
        assert k["state"].digest() == digest and k["n"] == 5


def test_an_action_journaled_but_not_kept_before_a_power_cut_is_resumed():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(4, {}, {})
        play(s, Rng(2), 3)
        with open(d + "/ledgertest_game.json") as f:
            three = f.read()
        play(s, Rng(6), 1)  # recorded, then the cut comes before the kept copy is replaced
        digest = s.state.digest()
        with open(d + "/ledgertest_game.json", "w") as f:
            f.write(three)
        s2 = Session(ctx, ENGINE)
        k = s2.load_kept()
        assert k["state"].digest() == digest and k["n"] == 4 and s2.storage_error is None
        s2.resume(k)
        assert s2.n == 4 and s2.undo() is True  # the next record is n=4: the log stays whole


def test_resume_falls_back_to_the_kept_copy_without_the_records():
    with tmp_dir() as d:
        ctx = make_ctx(d)
        s = Session(ctx, ENGINE)
        s.start(5, {}, {})
        play(s, Rng(9), 3)
        digest = s.state.digest()
        s = None
        ctx.journal.close()
        ctx.journal = Journal(d + "/other")  # a journal that never saw the game
        gc.collect()
        s2 = Session(ctx, ENGINE)
        k = s2.load_kept()
        assert k["state"].digest() == digest
        assert "kept copy" in s2.storage_error and "undo stops" in s2.storage_error
