"""Ligretto's rules at their boundaries: the ``State`` API against positions worked out by
hand from docs/ligretto-rules.md, so that a wrong comparison or a bound moved by one in
``ligretto/state.py`` fails a test (``benchmarks/bench_mutation.py ligretto/state.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import ligretto
from ligretto import Decision, IllegalMove, State, card_id

R, G, B, Y = range(4)
GOING = (card_id(Y, 1),)
"""Seat 1's stack in a round still going: a yellow 1 on top, which always fits, so a position
is neither over (no stack emptied) nor blocked, and a transition is asked of a live round."""


def table(**fields) -> State:
    """Two seats with nothing anywhere but what ``fields`` give (seat 0 first)."""
    empty = ((), ())
    base = {"stacks": empty, "rows": empty, "hands": empty, "hand_piles": empty,
            "piles": (), "idle": (0, 0)}  # fmt: skip
    base.update(fields)
    return State(**base)


def pile(colour: int, top: int, seat: int = 1) -> tuple[tuple[int, int], ...]:
    """A centre pile of ``colour`` from 1 up to ``top``, every card seat ``seat``'s."""
    return tuple((seat, card_id(colour, v)) for v in range(1, top + 1))


# ------------------------------------------------------------------ which pile takes a card
def test_a_pile_takes_only_its_colours_next_number():
    s = table(piles=(pile(R, 3), pile(G, 5)))
    assert s.accepts(0, card_id(R, 4)) and s.accepts(1, card_id(G, 6))
    assert not s.accepts(0, card_id(R, 5)) and not s.accepts(0, card_id(R, 3))
    assert not s.accepts(0, card_id(G, 4)) and not s.accepts(1, card_id(R, 6))
    assert not s.accepts(2, card_id(R, 4))  # no pile 2
    assert not s.accepts(-1, card_id(G, 6))  # -1 is no pile, never the last one


def test_target_is_a_new_pile_for_a_1_and_the_first_pile_taking_the_card():
    s = table(piles=(pile(B, 2), pile(R, 6), pile(R, 6)))
    assert s.target(card_id(Y, 1)) == -1
    assert s.target(card_id(R, 7)) == 1  # the first of two that take it
    assert s.target(card_id(B, 3)) == 0
    assert s.target(card_id(B, 4)) is None and not s.fits(card_id(B, 4))
    assert s.fits(card_id(R, 7))
    view = s.view(0)
    assert view.target(card_id(Y, 1)) == -1
    assert view.target(card_id(R, 7)) == 1 and view.target(card_id(B, 3)) == 0
    assert view.target(card_id(B, 4)) is None and view.target(card_id(G, 3)) is None


def test_pile_top_reads_the_last_card_and_names_a_missing_pile():
    s = table(piles=(pile(B, 2), pile(Y, 9)))
    assert s.pile_top(0) == (B, 2) and s.pile_top(1) == (Y, 9)
    for bad in (2, -1):
        with pytest.raises(ValueError, match="piles 0 to 1"):
            s.pile_top(bad)
    with pytest.raises(ValueError, match="no piles yet"):
        table().pile_top(0)


# ------------------------------------------------------------------ what a seat holds
def test_tops_of_stack_and_hand_pile():
    s = table(stacks=((5, 6), ()), hand_piles=((7, 8, 9), ()))
    assert s.stack_top(0) == 5 and s.stack_top(1) == -1
    assert s.hand_top(0) == 9 and s.hand_top(1) == -1  # the pile's last card is on top


def test_counts_scores_and_the_seat_whose_stack_emptied():
    s = table(stacks=((1, 2, 3), (4,)), piles=(pile(R, 3, seat=0) + ((1, card_id(R, 4)),),))
    assert s.stack_left() == (3, 1)
    assert s.centre_cards() == (3, 1)
    assert s.scores() == (3 - 2 * 3, 1 - 2 * 1)
    assert s.stack_emptied() is None
    assert table(stacks=((1,), ())).stack_emptied() == 1
    assert table(stacks=((), ())).stack_emptied() == 0  # the first seat found
    assert table(stacks=((), (1,))).stack_emptied() == 0


def test_accessible_cards_skip_empty_row_slots():
    s = table(stacks=((3, 4), ()), rows=((5, -1, 6), (-1,)), hands=((7,), ()),
              hand_piles=((8,), ()))  # fmt: skip
    assert s.accessible(0) == (3, 5, 6, 7, 8)
    assert s.accessible(1) == ()


def test_blockade_is_when_no_accessible_card_fits_anywhere():
    red2 = card_id(R, 2)
    stuck = table(stacks=((red2,), (card_id(G, 3),)))
    assert stuck.is_blockade() and stuck.is_over()
    # the card that fits lies deep in a hand: still no blockade
    moving = table(stacks=((red2,), (card_id(G, 3),)), hands=((), (card_id(Y, 5), card_id(B, 1))))
    assert not moving.is_blockade() and not moving.is_over()
    on_a_pile = table(stacks=((red2,), (card_id(G, 3),)), piles=(pile(R, 1),))
    assert not on_a_pile.is_blockade()
    assert table(stacks=((), (red2,))).is_over()  # an empty stack ends it whatever fits


def test_can_flip_with_hand_or_hand_pile():
    assert table(hands=((1,), ())).can_flip(0)
    assert table(hand_piles=((1,), ())).can_flip(0)
    assert not table(hands=((), (1,))).can_flip(0)


# ------------------------------------------------------------------ transitions
def test_a_row_card_played_is_replaced_by_the_stack_top():
    r1, g7 = card_id(R, 1), card_id(G, 7)
    s = table(stacks=((g7, 30), GOING), rows=((11, r1, 12), ()), idle=(4, 2))
    after = s.play(0, "row", slot=1)
    assert after.rows[0] == (11, g7, 12) and after.stacks[0] == (30,)
    assert after.piles == (((0, r1),),)
    assert after.idle == (0, 2)
    last = table(stacks=((g7,), GOING), rows=((r1,), ()))
    ended = last.play(0, "row", slot=0)  # the stack's last card fills the gap: it is emptied
    assert ended.rows[0] == (g7,) and ended.stacks[0] == () and ended.stack_emptied() == 0


def test_row_slots_out_of_range_are_refused():
    s = table(stacks=((1,), GOING), rows=((card_id(R, 1), 12), ()))
    for slot in (2, -1):
        with pytest.raises(IllegalMove, match=f"no row slot {slot}"):
            s.play(0, "row", slot=slot)


def test_plays_from_stack_and_hand():
    r1, r2 = card_id(R, 1), card_id(R, 2)
    s = table(stacks=((r1, 5), GOING), hand_piles=((7, r2), ()))
    s = s.play(0, "stack")
    assert s.stacks[0] == (5,) and s.piles == (((0, r1),),)
    s = s.play(0, "hand", pile=0)
    assert s.hand_piles[0] == (7,) and s.piles == (((0, r1), (0, r2)),)
    with pytest.raises(IllegalMove, match="no card to play from its hand"):
        table(stacks=((1,), GOING)).play(0, "hand")


def test_a_1_starts_a_pile_only_as_a_new_one():
    y1 = card_id(Y, 1)
    s = table(stacks=((y1, 5), GOING), piles=(pile(R, 2),))
    assert s.play(0, "stack", pile=1).piles[1] == ((0, y1),)  # len(piles): the next pile
    assert s.play(0, "stack", pile=-1).piles[1] == ((0, y1),)
    for bad in (0, 2):
        with pytest.raises(IllegalMove, match="starts a new pile"):
            s.play(0, "stack", pile=bad)


def test_a_card_the_pile_does_not_take_is_refused():
    s = table(stacks=((card_id(R, 4), 5), GOING), piles=(pile(R, 2),))
    with pytest.raises(IllegalMove, match="does not take red 4"):
        s.play(0, "stack", pile=0)


def test_flip_turns_three_then_what_is_left():
    s = table(stacks=((39,), GOING), hands=((1, 2, 3, 4, 5), ()), hand_piles=((9,), ()))
    s = s.flip(0)
    assert s.hands[0] == (4, 5) and s.hand_piles[0] == (9, 1, 2, 3)
    s = s.flip(0)
    assert s.hands[0] == () and s.hand_piles[0] == (9, 1, 2, 3, 4, 5)
    with pytest.raises(IllegalMove, match="no face-down hand"):
        s.flip(0)


def test_recycle_needs_a_used_up_hand_and_a_reordering_of_its_pile():
    s = table(stacks=((39,), GOING), hand_piles=((1, 2, 3), ()))
    after = s.recycle(0, [3, 1, 2])
    assert after.hands[0] == (3, 1, 2) and after.hand_piles[0] == ()
    with pytest.raises(IllegalMove, match="must reorder"):
        s.recycle(0, [1, 2])
    with pytest.raises(IllegalMove, match="still has face-down"):
        table(stacks=((39,), GOING), hands=((4,), ()), hand_piles=((1,), ())).recycle(0, [1])
    with pytest.raises(IllegalMove, match="no hand pile"):
        table(stacks=((39,), GOING)).recycle(0, [])


def test_rest_counts_idle_actions_and_a_play_resets_them():
    s = table(stacks=((card_id(R, 1), 5), GOING), idle=(0, 0))
    s = s.rest(0).rest(0).rest(1)
    assert s.idle == (2, 1) and s.view(0).idle == 2
    assert s.play(0, "stack").idle == (0, 1)


def test_a_view_shows_face_up_cards_and_counts_only():
    s = table(stacks=((5, 6, 7), ()), rows=((8,), (9,)), hands=((1, 2), (3,)),
              hand_piles=((11, 12), ()), piles=(pile(G, 2),))  # fmt: skip
    v = s.view(0)
    assert v.seat == 0 and v.n_players == 2
    assert v.pile_tops == (card_id(G, 2),)
    assert v.stack_tops == (5, -1) and v.stack_sizes == (3, 0)
    assert v.row == (8,) and v.rows == ((8,), (9,))
    assert v.hand_tops == (12, -1) and v.hand_pile == (11, 12) and v.hand_left == 2
    assert v.stack_top == 5 and v.hand_top == 12 and v.can_flip
    assert not table(hands=((), ()), hand_piles=((), ())).view(1).can_flip
    assert table(hands=((), (4,))).view(1).can_flip
    assert table(hand_piles=((), (4,))).view(1).can_flip


@pytest.mark.parametrize("seat", [2, -1])
def test_a_seat_outside_the_table_is_named(seat):
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        table().view(seat)


def test_cards_of_finds_every_card_wherever_it_lies():
    s = table(stacks=((1,), ()), rows=((2, -1), ()), hands=((3,), ()), hand_piles=((4,), ()),
              piles=(((0, 0), (1, 1), (0, 2)),))  # fmt: skip
    assert s.cards_of(0) == [1, 2, 3, 4, 0, 2]
    assert s.cards_of(1) == [1]


def test_card_0_is_a_card_not_an_empty_place():
    red1 = card_id(R, 1)
    assert red1 == 0
    s = table(stacks=((red1, 5), ()), rows=((7, red1), ()))
    assert s.accessible(0) == (red1, 7, red1)
    assert not s.is_blockade()  # red 1 on the stack top starts a pile
    assert not table(stacks=((5,), (6,)), rows=((red1,), ())).is_blockade()


def test_the_row_slot_defaults_to_the_first():
    s = table(stacks=((5,), GOING), rows=((card_id(R, 1), 12), ()))
    assert s.play(0, "row").rows[0] == (5, 12)


def test_a_fresh_deal_has_no_idle_actions():
    assert State.new(3, deal_seed=4).idle == (0, 0, 0)


def test_a_numpy_seat_0_is_a_seat():
    s = table(stacks=((5,), ()))
    assert s.stack_top(np.int64(0)) == 5 and s.view(np.int8(1)).seat == 1


def test_numpy_card_ids_are_kept_as_plain_ints():
    orders = [np.arange(40, dtype=np.int64).tolist(), list(np.arange(40)[::-1])]
    s = State.deal(orders)
    assert all(type(c) is int for part in (s.stacks, s.rows, s.hands) for seat in part
               for c in seat)  # fmt: skip
    back = table(stacks=((39,), GOING), hand_piles=((1, 2, 3), ()))
    back = back.recycle(0, np.array([3, 1, 2]).tolist())
    assert back.hands[0] == (3, 1, 2)
    mixed = table(stacks=((39,), GOING), hand_piles=((1, 2, 3), ()))
    mixed = mixed.recycle(0, [np.int64(2), np.int8(3), 1])
    assert mixed.hands[0] == (2, 3, 1) and all(type(c) is int for c in mixed.hands[0])


def test_no_card_there_fits_nowhere():
    s = table(piles=(pile(R, 2),))
    assert s.target(-1) is None and not s.fits(-1)
    assert s.view(0).target(-1) is None


@pytest.mark.parametrize("bad", [True, "a", 1.0])
def test_a_pile_is_a_whole_number(bad):
    with pytest.raises(TypeError, match="pile must be an integer"):
        table(piles=(pile(R, 2),)).accepts(bad, card_id(R, 3))
    assert table(piles=(pile(R, 2),)).accepts(np.int64(0), card_id(R, 3))


# ------------------------------------------------------------------ the Python round loop
class Clock:
    """A reaction-time model taking ``ms`` for every action, noting what it was asked."""

    def __init__(self, ms: int = 100):
        self.ms, self.looked = ms, []

    def duration(self, looked, flip, rng):
        self.looked.append(looked)
        return self.ms


class Scripted:
    """A player making ``decide(view)``'s decision, on a ``Clock``."""

    def __init__(self, decide, ms: int = 100):
        self.reaction, self._decide = Clock(ms), decide

    def decide(self, view, rng):
        return self._decide(view)


def flipper(ms: int = 100) -> Scripted:
    return Scripted(lambda view: Decision("flip"), ms)


def red_1_on_top() -> list[list[int]]:
    """Seat 0's stack top is red 1 (card 0), its row green 1 then red 2 to 5 (cards 10, 1 to
    4); seat 1's cards in reverse order."""
    first = [0, *range(20, 29), 10, 1, 2, 3, 4]  # the stack of 10, then the row of 5
    return [first + [c for c in range(40) if c not in first], list(range(39, -1, -1))]


def one_decision(decision, deal=None) -> ligretto.RoundOutcome:
    """A round where seat 0 decides ``decision`` once, then both seats only flip."""
    said = []

    def first(view):
        said.append(1)
        return decision if len(said) == 1 else Decision("flip")

    return ligretto.play_round([Scripted(first), flipper()], 1, 2, deal=deal or red_1_on_top(),
                               max_actions=3)  # fmt: skip


def test_a_decisions_defaults_start_a_pile_and_look_at_nothing():
    out = one_decision(Decision("stack", card=0))  # pile left at -1: a new pile
    assert out.events[0] == [100, 0, "stack", 0, 0] and out.state.piles[0] == ((0, 0),)
    p = Scripted(lambda view: Decision("flip"))
    ligretto.play_round([p, flipper()], 1, 2, max_actions=2)
    assert p.reaction.looked[0] == 0


@pytest.mark.parametrize(("decision", "said"), [
    (Decision("row"), "no row slot -1"),
    (Decision("row", slot=5, card=0), "no row slot 5"),
    (Decision("row", slot=-1, card=0), "no row slot -1"),
    (Decision("stack"), "stack does not show card -1"),
    (Decision("stack", card=10), "stack does not show card 10"),
    (Decision("hand", card=-1), "hand does not show card -1"),
    (Decision("stack", card=0, pile=0), "a 1 starts a new pile"),
    (Decision("row", slot=1, card=1, pile=0), "no centre pile 0"),
    (Decision("row", slot=1, card=1, pile=-1), "no centre pile -1"),
    (Decision("flip", looked=-1), "looked must be at least 0"),
    (Decision("dance"), "unknown decision kind 'dance'"),
    (Decision("flip", looked=1.0), "a Decision's looked must be an integer"),
    (Decision("flip", looked=True), "a Decision's looked must be an integer"),
])  # fmt: skip
def test_a_decision_the_rules_do_not_allow_is_the_players_error(decision, said):
    with pytest.raises(ligretto.PlayerError, match=f"seat 0: {said}"):
        one_decision(decision)


def test_a_decision_takes_numpy_integers():
    out = one_decision(Decision("row", slot=np.int64(0), card=np.int64(10), pile=np.int8(-1)))
    assert out.events[0][:4] == [100, 0, "row", 10]


def test_a_player_needs_a_decide_method_and_a_reaction_model():
    class NoClock:
        def decide(self, view, rng):
            return Decision("flip")

    class NoDecide:
        reaction = Clock()

    for odd in (NoClock(), NoDecide()):
        with pytest.raises(TypeError, match="seat 1's .* is no Player"):
            ligretto.play_round([flipper(), odd], 1, 2)


@pytest.mark.parametrize("actions", [1, 5])
def test_the_loop_resolves_exactly_max_actions(actions):
    out = ligretto.play_round([flipper(), flipper()], 1, 2, max_actions=actions)
    assert len(out.events) == actions and out.ended_by == -2


def test_an_action_due_at_the_time_limit_resolves_and_none_after():
    from ligretto.rules import MAX_ROUND_MS

    half = MAX_ROUND_MS // 2
    out = ligretto.play_round([flipper(half), flipper(half)], 1, 2)
    times = sorted(e[:3] for e in out.events)  # equal times: a seeded order, not the seat's
    assert times == [[half, 0, "flip"], [half, 1, "flip"], [MAX_ROUND_MS, 0, "flip"],
                     [MAX_ROUND_MS, 1, "flip"]]  # fmt: skip
    assert out.time_ms == MAX_ROUND_MS and out.ended_by == -2


def test_a_round_whose_first_action_is_past_the_limit_stops_at_the_limit():
    """Nobody acts within the round's time: it stops unfinished having lasted the limit (its
    length read 0 s, as if it had lasted no time), in every engine."""
    from ligretto import cengine
    from ligretto.round_loop import nb_round
    from ligretto.rules import MAX_ROUND_MS

    out = ligretto.play_round([flipper(MAX_ROUND_MS + 1), flipper(MAX_ROUND_MS + 1)], 1, 2)
    assert out.events == [] and out.time_ms == MAX_ROUND_MS and out.ended_by == -2
    table = np.tile([1.0, MAX_ROUND_MS + 1, 0, 0, 0, 0, 0, 0], (2, 1))
    rounds = [nb_round] + ([cengine.round_] if cengine.available() else [])
    for play in rounds:
        got = np.zeros(3 * 2 + 6, np.int64)
        play(table, 2, 3, np.uint64(1), np.uint64(2), np.zeros((1, 5), np.int64), False, got)
        assert got[3 * 2] == -2 and got[3 * 2 + 1] == MAX_ROUND_MS, play


# ------------------------------------------------------------------ ligretto/rules.py
def test_the_largest_hand_is_the_largest_any_deal_gives():
    """MAX_HAND sizes the compiled round's hands: 40 - 10 in the stack - a row of 3 = 27."""
    from ligretto import rules

    dealt = [rules.SET_SIZE - rules.STACK_SIZE - rules.row_size(n) for n in range(2, 13)]
    assert rules.MAX_HAND == max(dealt) == 27


def test_a_match_is_played_to_the_sources_target():
    from ligretto import rules
    from ligretto.match import Match

    assert rules.MATCH_TARGET == 100 and Match.__dataclass_fields__["target"].default == 100


def test_card_ids_at_their_edges():
    from ligretto.rules import card_id as cid
    from ligretto.rules import check_card, score

    assert cid(0, 1) == 0 and cid(3, 10) == 39
    for colour, value in ((-1, 1), (4, 1), (0, 0), (0, 11)):
        with pytest.raises(ValueError, match="^no Ligretto card of colour"):
            cid(colour, value)
    assert check_card(np.int64(0)) == 0 and type(check_card(np.int64(5))) is int
    assert check_card(39) == 39 and check_card(np.int8(39)) == 39
    for bad in (-1, 40, np.int64(-1), np.int64(40)):
        with pytest.raises(ValueError, match="^card must be a card id 0 to 39"):
            check_card(bad)
    assert score(0, 0) == 0 and score(40, 10) == 40 - 20
    for centre, stack in ((-1, 0), (0, -1), (41, 0), (0, 11)):
        with pytest.raises(ValueError, match="must be 0 to"):
            score(centre, stack)


def test_a_given_deal_names_the_seat_that_holds_no_card_list():
    from ligretto.engine import _dealt

    for bad, shown in (([1, 2, 3], "1"), (["ab", "cd"], "'ab'"), ([b"ab"], "b'ab'")):
        with pytest.raises(TypeError, match=f"^deal must hold each seat's 40 card ids: seat 0 "
                                            f"holds {shown}, not a list of card ids$"):  # fmt: skip
            _dealt(bad, 2)
