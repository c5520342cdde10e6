"""Every rule and interpretation of Ligretto (LIGRETTO.md), one test or more each."""

from __future__ import annotations

import pytest

import ligretto
from ligretto import IllegalMove, State, card_id
from ligretto.rules import (
    L1_STACK_TOP_FACE_UP,
    L2_ROW_REFILLED_FROM_STACK,
    L3_RECYCLE_SHUFFLES,
    L4_SHARED_WINS,
    SET_SIZE,
    STACK_SIZE,
    card_name,
    colour_of,
    row_size,
    score,
    value_of,
)

R, G, B, Y = range(4)


def deal_with(n: int, first: dict[int, list[int]] | None = None) -> State:
    """A deal where seat s's cards start with ``first[s]`` (dealt order), then the rest."""
    orders = []
    for s in range(n):
        head = (first or {}).get(s, [])
        orders.append(head + [c for c in range(SET_SIZE) if c not in head])
    return State.deal(orders)


def test_card_ids_are_pinned():
    assert card_id(R, 1) == 0 and card_id(G, 1) == 10 and card_id(Y, 10) == 39
    assert [colour_of(c) for c in (0, 9, 10, 39)] == [0, 0, 1, 3]
    assert [value_of(c) for c in (0, 9, 10, 39)] == [1, 10, 1, 10]
    assert card_name(card_id(B, 7)) == "blue 7"
    with pytest.raises(ValueError):
        card_id(4, 1)


@pytest.mark.parametrize(("n", "row"), [(2, 5), (3, 5), (4, 5), (5, 4), (8, 4), (9, 3), (12, 3)])
def test_setup_row_size_and_hand_by_player_count(n, row):
    assert row_size(n) == row
    s = State.new(n, deal_seed=1)
    for p in range(n):
        assert len(s.stacks[p]) == STACK_SIZE
        assert len(s.rows[p]) == row
        assert len(s.hands[p]) == SET_SIZE - STACK_SIZE - row  # 25, 26 or 27
        assert s.hand_piles[p] == ()
        assert sorted(s.cards_of(p)) == list(range(SET_SIZE))


@pytest.mark.parametrize("n", [1, 13, 0])
def test_player_count_outside_2_to_12_is_refused(n):
    with pytest.raises(ValueError, match="2 to 12 players"):
        State.new(n, deal_seed=1)


def test_a_deal_must_hold_each_card_once():
    with pytest.raises(ValueError, match="40 card ids"):
        State.deal([[0] * 40, list(range(40))])


def test_dealt_order_stack_row_hand():
    order = list(range(39, -1, -1))
    s = State.deal([order, list(range(40))])
    assert s.stacks[0] == tuple(order[:10])
    assert s.rows[0] == tuple(order[10:15])
    assert s.hands[0] == tuple(order[15:])


def test_l1_stack_top_is_face_up_and_playable():
    assert L1_STACK_TOP_FACE_UP
    s = deal_with(2, {0: [card_id(R, 1)]})
    assert s.view(1).stack_tops[0] == card_id(R, 1)
    s2 = s.play(0, "stack", pile=-1)
    assert s2.piles == (((0, card_id(R, 1)),),)
    assert len(s2.stacks[0]) == STACK_SIZE - 1


def test_new_pile_needs_a_1_and_piles_take_the_next_number_of_their_colour():
    r1, r2, r3, g2 = card_id(R, 1), card_id(R, 2), card_id(R, 3), card_id(G, 2)
    s = deal_with(2, {0: [r1, r2, r3], 1: [g2]})
    with pytest.raises(IllegalMove, match="does not take"):
        s.play(1, "stack", pile=0)  # no pile yet
    s = s.play(0, "stack", pile=-1)
    with pytest.raises(IllegalMove, match="does not take"):
        s.play(1, "stack", pile=0)  # green 2 on a red pile
    s = s.play(0, "stack", pile=0).play(0, "stack", pile=0)
    assert [c for _, c in s.piles[0]] == [r1, r2, r3]
    with pytest.raises(IllegalMove, match="starts a new pile"):
        deal_with(2, {0: [r1]}).play(0, "stack", pile=3)


def test_several_piles_of_one_colour_may_exist():
    r1 = card_id(R, 1)
    s = deal_with(2, {0: [r1], 1: []})
    s = State.deal([[r1] + [c for c in range(40) if c != r1]] * 2)
    s = s.play(0, "stack").play(1, "stack")
    assert len(s.piles) == 2 and all(colour_of(p[0][1]) == R for p in s.piles)
    assert s.target(card_id(R, 2)) == 0  # the first pile taking it


def test_a_complete_pile_stays_and_takes_nothing_more():
    s = State.deal([list(range(40)), list(range(40))])
    # seat 0: stack red 1..10 -> play the whole stack onto one pile
    for _ in range(9):
        s = s.play(0, "stack", pile=len(s.piles) if not s.piles else 0)
    assert [value_of(c) for _, c in s.piles[0]] == list(range(1, 10))
    s = s.play(0, "stack", pile=0)
    assert value_of(s.piles[0][-1][1]) == 10
    assert not s.accepts(0, card_id(G, 1))
    assert s.stack_emptied() == 0  # the round ends at once


def test_l2_row_gap_refilled_from_own_stack():
    assert L2_ROW_REFILLED_FROM_STACK
    r1 = card_id(R, 1)
    s = deal_with(2, {0: [card_id(B, 5)] + list(range(11, 20)) + [r1]})
    assert s.rows[0][0] == r1
    s2 = s.play(0, "row", slot=0, pile=-1)
    assert s2.rows[0][0] == card_id(B, 5)  # the old stack top
    assert len(s2.stacks[0]) == STACK_SIZE - 1


def test_only_the_top_of_the_hand_pile_is_playable_and_flip_turns_three():
    s = State.new(2, deal_seed=3)
    c1, c2, c3, c4 = s.hands[0][:4]
    s = s.flip(0)
    assert s.hand_piles[0] == (c1, c2, c3)  # c3 on top, c1 lowest
    assert s.view(0).hand_top == c3 and s.hand_top(0) == c3
    assert s.hands[0][0] == c4


def test_hand_top_played_uncovers_the_next():
    # hand of seat 0 begins red 2, green 7, red 1: after a flip red 1 is on top
    rest = [c for c in range(40) if c not in (card_id(R, 2), card_id(G, 7), card_id(R, 1))]
    order = rest[:15] + [card_id(R, 2), card_id(G, 7), card_id(R, 1)] + rest[15:]
    s = State.deal([order, list(range(40))]).flip(0)
    assert s.hand_top(0) == card_id(R, 1)
    s = s.play(0, "hand", pile=-1)
    assert s.hand_top(0) == card_id(G, 7)


def test_flip_turns_fewer_when_fewer_are_left():
    s = State.new(2, deal_seed=4)
    for _ in range(8):
        s = s.flip(0)  # 24 of 25 cards
    assert len(s.hands[0]) == 1
    s = s.flip(0)
    assert s.hands[0] == () and len(s.hand_piles[0]) == 25
    with pytest.raises(IllegalMove, match="recycle"):
        s.flip(0)


def test_l3_used_up_hand_is_recycled_in_a_seeded_order():
    assert L3_RECYCLE_SHUFFLES
    s = State.new(2, deal_seed=4)
    for _ in range(9):
        s = s.flip(0)
    pile = s.hand_piles[0]
    with pytest.raises(IllegalMove, match="reorder"):
        s.recycle(0, pile[1:])
    order = tuple(reversed(pile))
    s2 = s.recycle(0, order)
    assert s2.hands[0] == order and s2.hand_piles[0] == ()
    with pytest.raises(IllegalMove, match="still has"):
        State.new(2, 4).recycle(0, ())


def test_emptying_the_row_alone_does_not_end_the_round_stack_does():
    s = State.new(2, deal_seed=5)
    assert s.stack_emptied() is None
    s2 = State(
        stacks=((), s.stacks[1]),
        rows=s.rows,
        hands=s.hands,
        hand_piles=s.hand_piles,
        idle=(0, 0),
    )
    assert s2.stack_emptied() == 0 and s2.is_over()
    # a row of gaps (played out, no stack to refill from) with a full stack: not over
    s3 = State(
        stacks=s.stacks,
        rows=((-1,) * 5, s.rows[1]),
        hands=s.hands,
        hand_piles=s.hand_piles,
        idle=(0, 0),
    )
    assert s3.stack_emptied() is None


def test_blockade_is_no_card_fitting_anywhere_including_hand_positions():
    s = State.new(2, deal_seed=6)
    assert not s.is_blockade()  # every 1 can start a pile
    # no 1 anywhere accessible: both players' 1s buried in their stacks below the top
    ones = [card_id(c, 1) for c in range(4)]
    others = [c for c in range(40) if c not in ones]
    order = [others[0]] + ones + others[1:]
    blocked = State.deal([order, order])
    assert blocked.is_blockade() and blocked.is_over()
    # a 1 deep in the face-down hand is enough to prevent a blockade
    order2 = others[:30] + ones[:1] + others[30:] + ones[1:]
    assert not State.deal([order2, order]).is_blockade()


def test_scoring_formula_and_source_example():
    assert score(18, 4) == 10  # the source's example
    assert score(0, 10) == -20 and score(10, 0) == 10
    s = State.new(2, deal_seed=7)
    assert s.scores() == (-20, -20)


def test_l4_shared_wins_is_the_interpretation():
    assert L4_SHARED_WINS
    from ligretto.match import winners

    assert winners([5, 9, 9]) == [False, True, True]


def test_view_shows_face_up_cards_only():
    s = State.new(3, deal_seed=8).flip(1)
    v = s.view(0)
    assert v.stack_tops == tuple(s.stacks[p][0] for p in range(3))
    assert v.stack_sizes == (10, 10, 10)
    assert v.rows == s.rows
    assert v.hand_tops == (-1, s.hand_piles[1][-1], -1)
    assert v.hand_pile == () and v.hand_left == 25
    text = repr(v)
    for p in range(3):
        assert str(s.stacks[p][1:]) not in text


def test_transitions_leave_the_old_state_unchanged():
    s = State.new(2, deal_seed=9)
    before = (s.stacks, s.rows, s.hands, s.hand_piles, s.piles)
    s.flip(0)
    assert (s.stacks, s.rows, s.hands, s.hand_piles, s.piles) == before
    assert hash(s) == hash(State.new(2, deal_seed=9))


def test_engine_lost_race_fails_and_costs_time():
    """Two seats aim at one pile; the slower play fails, its card stays."""
    out = ligretto.play_round(_players(4), deal_seed=11, play_seed=12, record=True)
    recycled = [list(r) for r in out.record.recycled]
    fails = [e for e in out.events if e[2] == "fail"]
    assert fails, "this seed has races"
    # replay up to each failure: its pile did not take its card then, and nothing moved
    state = State.deal(ligretto.deal_orders(4, 11))
    for _t, seat, kind, card, pile in out.events:
        if kind == "fail":
            assert not state.accepts(pile, card)
            assert card in state.accessible(seat)
        elif kind in ("stack", "row", "hand"):
            slot = state.rows[seat].index(card) if kind == "row" else 0
            state = state.play(seat, kind, slot, pile)
        elif kind == "flip":
            state = state.flip(seat)
        else:
            state = state.recycle(seat, recycled[seat].pop(0))
    assert state.scores() == out.scores
    # the seat that failed spent the time: its next event is later than the failure
    t, seat = fails[0][0], fails[0][1]
    later = [e[0] for e in out.events if e[1] == seat and e[0] > t]
    assert all(x > t for x in later)


def _players(n: int, order: int = 0):
    import numpy as np

    from ligretto.policy import PolicyPlayer

    return [PolicyPlayer(np.array([1.0, 300, 60, 250, 100, order, 0, 6])) for _ in range(n)]


def test_ties_are_broken_by_seeded_draws_not_seat_number():
    """Zero spread and equal models: every action of all seats is due at the same time."""
    import numpy as np

    from ligretto.policy import PolicyPlayer

    p = np.array([1.0, 300, 0, 0, 0, 0, 0, 6])
    firsts = set()
    for seed in range(20):
        out = ligretto.play_round([PolicyPlayer(p) for _ in range(3)], 1, seed)
        firsts.add(out.events[0][1])
    assert len(firsts) > 1


def test_round_ending_by_blockade_is_recorded_with_null_and_scored():
    ones = [card_id(c, 1) for c in range(4)]
    others = [c for c in range(40) if c not in ones]
    order = [others[0]] + ones + others[1:]
    out = ligretto.play_round(_players(2), 0, 0, record=True, deal=[order, order])
    assert out.ended_by == -1 and out.events == []
    assert out.record.ended_by is None and out.record.scores == [-20, -20]
    assert ligretto.replay(ligretto.RoundRecord.from_json(out.record.to_json()))


def test_round_ends_at_once_when_a_stack_empties():
    out = ligretto.play_round(_players(3), 5, 6, record=True)
    seat = out.ended_by
    assert seat >= 0 and out.state.stacks[seat] == ()
    last = out.events[-1]
    assert last[1] == seat and last[2] in ("stack", "row")
    assert all(e[0] <= last[0] for e in out.events)


def test_record_format_is_the_pinned_one():
    import json

    line = ligretto.play_round(_players(4), 1, 2, record=True, labels=list("abcd")).record.to_json()
    d = json.loads(line)
    # exactly the keys of LIGRETTO.md's "Round records", in its order: nothing added
    assert list(d) == [
        "game", "players", "row_size", "seed", "strategies", "deal", "events", "recycled",
        "ended_by", "stack_left", "centre_cards", "scores",
    ]  # fmt: skip
    assert d["game"] == "ligretto" and d["players"] == 4 and d["row_size"] == 5
    assert d["strategies"] == list("abcd") and isinstance(d["seed"], int)
    assert all(len(x) == 40 for x in d["deal"])
    kinds = {e[2] for e in d["events"]}
    assert kinds <= {"stack", "row", "hand", "flip", "recycle", "fail"}
    for e in d["events"]:
        assert len(e) == 5
        if e[2] in ("flip", "recycle"):
            assert e[3] == -1 and e[4] == -1
    assert len(d["recycled"]) == 4
    for key in ("ended_by", "stack_left", "centre_cards", "scores"):
        assert key in d


def test_replay_rejects_a_tampered_record():
    import pytest

    rec = ligretto.play_round(_players(2), 3, 4, record=True).record
    play = next(i for i, e in enumerate(rec.events) if e[2] in ("stack", "row", "hand"))
    rec.events[play][3] = (rec.events[play][3] + 1) % 40
    with pytest.raises(ligretto.RecordError, match=f"event {play}"):
        ligretto.replay(rec)
    rec2 = ligretto.play_round(_players(2), 3, 4, record=True).record
    rec2.scores = [s + 1 for s in rec2.scores]
    with pytest.raises(ligretto.RecordError, match="scores"):
        ligretto.replay(rec2)


PINNED_ROUNDS = {"1": "685efa3f8998e21ec83515941b72c69653cfdc90089064928fc108857d84c94f"}
"""The pinned rounds' digest under each play version: rounds that play otherwise fail until
``ligretto.PLAY_VERSION`` is bumped and their digest added under the new version (a resume
then refuses the runs the old play played; CONTRIBUTING.md). An entry is never edited."""


def test_each_play_version_pins_its_own_rounds():
    """A version bumped without a change of play would refuse runs that play alike."""
    assert len(set(PINNED_ROUNDS.values())) == len(PINNED_ROUNDS)


def test_compiled_rounds_are_pinned():
    """300 four-player rounds of built-ins, pinned by digest: refactors (the streams now come
    from ``gamekit.seeding``) must not change a single row. A change that does is a change of
    play: bump ``ligretto.PLAY_VERSION`` and add the new digest under it in ``PINNED_ROUNDS``."""
    import hashlib

    import numpy as np

    from ligretto.players import play_batch

    seeds = np.arange(300, dtype=np.uint64)
    b = play_batch(["stack", "row", "cycler", "scanner"], seeds, seeds * np.uint64(7) + 1).batch
    h = hashlib.sha256()
    for a in (b.scores, b.stack_left, b.centre_cards, b.time_ms, b.ended_by, b.plays, b.flips,
              b.fails):  # fmt: skip
        h.update(np.ascontiguousarray(a).astype(np.int64).tobytes())
    assert h.hexdigest() == PINNED_ROUNDS.get(ligretto.PLAY_VERSION), (
        f"the rounds are not the play version's: bump ligretto.PLAY_VERSION and add {h.hexdigest()}"
    )
