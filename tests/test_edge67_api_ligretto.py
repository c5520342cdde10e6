"""Ligretto's ``State`` at its edges: no play, turn-over or recycle once the round is over (a
stack emptied, or a blockade), and a card aimed where no pile takes it told which piles do."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from ligretto import IllegalMove, State, card_id, card_name, value_of

R, G, B, Y = range(4)


def _played_out(state: State, seen: list[State] | None = None) -> State:
    """Each seat in turn plays its first card that fits (stack, row, hand pile), else turns
    hand cards (recycling first): a round played until it is over (each state into
    ``seen``)."""
    while not state.is_over():
        for seat in range(state.n_players):
            if state.is_over():
                break
            cards = [("stack", 0, state.stack_top(seat)), ("hand", 0, state.hand_top(seat))]
            cards[1:1] = [("row", slot, c) for slot, c in enumerate(state.rows[seat])]
            fits = [(src, slot, c) for src, slot, c in cards if state.target(c) is not None]
            if fits:
                src, slot, card = fits[0]
                state = state.play(seat, src, slot, state.target(card))
            elif state.can_flip(seat):
                if not state.hands[seat]:
                    state = state.recycle(seat, state.hand_piles[seat][::-1])
                state = state.flip(seat)
            if seen is not None:
                seen.append(state)
    return state


@pytest.fixture(scope="module")
def over() -> State:
    """deal_seed 2 at 4 seats, played until seat 1 empties its stack."""
    state = _played_out(State.new(4, deal_seed=2))
    assert state.stack_emptied() == 1
    return state


def test_no_play_once_a_stack_is_emptied(over):
    """A row card that fits was played after the end, and the finished round's scores changed."""
    seat, slot = next((s, i) for s in range(4) for i, c in enumerate(over.rows[s]) if over.fits(c))
    card = over.rows[seat][slot]
    with pytest.raises(IllegalMove, match="^the round is over: seat 1 emptied its stack$"):
        over.play(seat, "row", slot, over.target(card))


def test_no_turn_over_or_recycle_once_a_stack_is_emptied(over):
    seat = next(s for s in range(4) if over.hands[s])
    with pytest.raises(IllegalMove, match="^the round is over: seat 1 emptied its stack$"):
        over.flip(seat)
    spent = replace(over, hands=over._set("hands", seat, ()),
                    hand_piles=over._set("hand_piles", seat, over.hands[seat]))  # fmt: skip
    with pytest.raises(IllegalMove, match="^the round is over: seat 1 emptied its stack$"):
        spent.recycle(seat, spent.hand_piles[seat])


def _blockade() -> State:
    """Two seats, nothing either can reach fits: their 1s lie under their stack tops, the
    centre's one pile shows a red 5, and no red 6 is in reach (face-down hands count)."""
    return State(
        stacks=((card_id(G, 3), card_id(G, 1)), (card_id(B, 4), card_id(B, 1))),
        rows=((card_id(Y, 3), -1, -1), (card_id(Y, 4), -1, -1)),
        hands=((card_id(Y, 9),), ()),
        hand_piles=((card_id(R, 7),), (card_id(B, 7),)),
        piles=(tuple((s % 2, card_id(R, v)) for s, v in enumerate(range(1, 6))),),
        idle=(0, 0),
    )


def test_no_action_in_a_blockade():
    """A blockade ends the round as an emptied stack does: a turn-over, a recycle and a play
    are refused saying so (the play once said only that its pile does not take the card)."""
    state = _blockade()
    assert state.is_blockade() and state.stack_emptied() is None
    said = "^" + re.escape("the round is over: a blockade (no seat can play any card)") + "$"
    with pytest.raises(IllegalMove, match=said):
        state.flip(0)
    with pytest.raises(IllegalMove, match=said):
        state.recycle(1, state.hand_piles[1])
    with pytest.raises(IllegalMove, match=said):
        state.play(0, "row", 0, 0)
    with pytest.raises(IllegalMove, match=said):
        state.play(1, "row", 1, 0)  # an empty slot: no card there either


def test_the_blockade_test_agrees_with_asking_every_card():
    """``is_blockade`` asks the cards that fit now, not ``fits`` card by card: the two agree
    over every state of played-out rounds and over the blockade above."""
    states = [_blockade()]
    for deal_seed in range(8):
        _played_out(State.new(3, deal_seed=deal_seed), states)
    assert states[0].is_blockade() and len(states) > 900
    for s in states:
        each = not any(s.fits(c) for seat in range(s.n_players) for c in s.accessible(seat))
        assert s.is_blockade() == each


def test_a_card_aimed_at_a_new_pile_is_told_only_a_1_starts_one():
    """It said 'pile -1 does not take blue 3': there is no pile -1."""
    state = State.new(4, deal_seed=7)
    assert card_name(state.stack_top(0)) == "blue 3" and not state.piles
    for pile in (-1, 0):  # -1, or the next pile's number: both start a new one
        with pytest.raises(IllegalMove) as exc:
            state.play(0, "stack", pile=pile)
        assert str(exc.value) == (
            f"a new pile (pile {pile}) does not take blue 3: only a 1 starts one; no pile takes it"
        )


def _centre(*tops: int) -> State:
    """Seat 0 shows a blue 3 on its stack, seat 1 a yellow 1 (so no blockade); the centre
    holds a pile from a 1 up to each of ``tops`` (seat 1's cards)."""
    piles = tuple(tuple((1, top - v) for v in range(value_of(top) - 1, -1, -1)) for top in tops)
    return State(stacks=((card_id(B, 3), 5), (card_id(Y, 1),)), rows=((), ()), hands=((), ()),
                 hand_piles=((), ()), piles=piles, idle=(0, 0))  # fmt: skip


@pytest.mark.parametrize(
    ("tops", "pile", "said"),
    [
        (
            (card_id(B, 2),),
            -1,
            "a new pile (pile -1) does not take blue 3: only a 1 starts one; pile 0 takes it",
        ),
        ((card_id(R, 2), card_id(B, 2)), 0, "pile 0 does not take blue 3; pile 1 takes it"),
        (
            (card_id(B, 2), card_id(R, 4), card_id(B, 2)),
            1,
            "pile 1 does not take blue 3; piles 0 and 2 take it",
        ),
        (
            (card_id(B, 2),) * 3,
            5,
            "there is no pile 5 (the centre has piles 0 to 2); piles 0, 1 and 2 take it",
        ),
        ((card_id(R, 2),), -2, "there is no pile -2 (the centre has pile 0); no pile takes it"),
        (
            (),
            10**5000,
            "there is no pile a whole number of about 5,001 digits (the centre has "
            "no piles yet); no pile takes it",
        ),
    ],
    ids=["new", "other", "two", "none-such", "negative", "huge"],
)
def test_a_card_no_pile_takes_is_told_the_piles_that_do(tops, pile, said):
    state = _centre(*tops)
    assert [card_name(p[-1][1]) for p in state.piles] == [card_name(t) for t in tops]
    with pytest.raises(IllegalMove) as exc:
        state.play(0, "stack", pile=pile)
    assert str(exc.value) == said


def test_a_1_aimed_at_a_pile_past_the_digits_python_writes_says_it_in_words():
    """The pile's number went into the message as it was: past 4,300 digits the message
    itself raised ValueError (Python refuses to write such a number out)."""
    state = State(stacks=((card_id(R, 1),), (5,)), rows=((), ()), hands=((), ()),
                  hand_piles=((), ()), idle=(0, 0))  # fmt: skip
    with pytest.raises(IllegalMove) as exc:
        state.play(0, "stack", pile=10**5000)
    assert (
        str(exc.value) == "red 1 starts a new pile, not pile a whole number of about 5,001 digits"
    )


@pytest.mark.parametrize(
    ("ask", "said"),
    [
        (lambda s: s.view(10**5000), "seat must be 0 to 2 at this table of 3, got "),
        (
            lambda s: s.pile_top(10**5000),
            "pile must be a centre pile (the centre has no piles yet), got ",
        ),
        (lambda s: s.play(0, "row", 10**5000), "seat 0 has no row slot "),
    ],
    ids=["seat", "pile", "slot"],
)
def test_a_number_past_the_digits_python_writes_is_said_in_words(ask, said):
    """A seat, pile or slot past 4,300 digits went into its message as it was, and writing
    the message raised Python's own ValueError instead."""
    with pytest.raises(ValueError) as exc:
        ask(State.new(3, deal_seed=1))
    assert str(exc.value) == said + "a whole number of about 5,001 digits"
