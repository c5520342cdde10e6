"""The edges of ``leaves.view``: whose seat a view is (numpy seats, out of range), what it says
about passes, the end of the game, the opponents still in the round, the owner's legal moves
and the unseen cards, and a determinization where nothing is hidden. Each expectation is
worked out by hand from docs/rules.md ("What a player can see")."""

from __future__ import annotations

import numpy as np
import pytest

from leaves import Action, Rules, new_game
from leaves.rules import DECK
from leaves.view import check_seat

from .helpers import counts, position


@pytest.mark.parametrize("seat", [0, 3, np.int64(0), np.int64(3), np.uint8(2)])
def test_check_seat_gives_a_plain_int(seat):
    got = check_seat(seat, 4)
    assert got == seat and type(got) is int


@pytest.mark.parametrize("seat", [4, 7, -1, np.int64(4), np.int64(-1)])
def test_check_seat_refuses_a_seat_off_the_table(seat):
    with pytest.raises(ValueError, match=r"player must be a seat 0\.\.3"):
        check_seat(seat, 4)


@pytest.mark.parametrize("seat", [True, False, 1.0, "1", None])
def test_check_seat_refuses_what_is_no_seat_number(seat):
    with pytest.raises(TypeError, match=r"player must be a seat number 0\.\.3"):
        check_seat(seat, 4)


def test_a_view_is_of_a_seat_at_the_table():
    s = new_game(4, seed=2)
    assert s.view(0).player == 0 and s.view(3).player == 3
    v = s.view(np.int64(1))
    assert v.player == 1 and type(v.player) is int
    for bad in (4, -1, np.int64(4), np.int64(-1)):
        with pytest.raises(ValueError, match=r"player must be a seat 0\.\.3"):
            s.view(bad)
    with pytest.raises(TypeError):
        s.view(True)


def test_passes_and_the_opponents_still_in_the_round():
    hands = [counts(v2=1), counts(v3=1), counts(v4=1), counts(v5=1)]
    s = position(hands, table=counts(v9=1), passed=[True, False, True, False], current=1)
    v = s.view(1)
    assert v.passed == (True, False, True, False)
    assert v.opponents_in_round() == (3,)
    assert s.view(0).opponents_in_round() == (1, 3)  # a seat that passed sees the others
    assert s.view(3).opponents_in_round() == (1,)


def test_a_view_is_terminal_when_the_game_is():
    hands = [counts(v5=1), counts(v3=2), counts(v9=1)]
    s = position(hands, current=0, turn=8, rules={"turn_limit": 10})
    assert not s.view(0).is_terminal
    won = s.apply(Action.play(5, 1))
    assert won.view(1).is_terminal and won.view(1).winner == 0
    assert won.view(0).legal_actions() == ()
    other = position([counts(v5=2), counts(v3=2), counts(v9=1)], current=0, turn=9,
                     rules={"turn_limit": 10})  # fmt: skip
    limit = other.apply(Action.play(5, 1))
    assert limit.turn == limit.turn_limit == 10 and limit.winner is None
    v = limit.view(1)
    assert v.is_terminal and v.legal_actions() == ()
    assert not other.view(1).is_terminal


def test_only_the_seat_to_act_sees_legal_moves():
    s = new_game(4, seed=5, first_player=2)
    assert s.view(2).legal_actions() == s.legal_actions() != ()
    assert s.view(2).legal_actions() == s.legal_actions()  # asked twice: the same
    for p in (0, 1, 3):
        assert s.view(p).legal_actions() == ()


def test_a_view_cannot_be_changed():
    v = new_game(3, seed=1).view(0)
    v.legal_actions()
    with pytest.raises(AttributeError, match="immutable"):
        v.player = 1
    with pytest.raises(AttributeError, match="immutable"):
        v.turn = 5


def _nothing_hidden():
    """3 seats; the opponents' every card known from takes, the rest of the deck removed."""
    hands = [counts(v2=1, v7=2), counts(v4=1), counts(v9=1, v10=1)]
    table = counts(v13=1)
    rest = [DECK[v] - sum(h[v] for h in hands) - table[v] for v in range(13)]
    known = [counts(), hands[1], hands[2]]
    return position(hands, table=table, removed=rest, known=known, current=1)


def test_unseen_counts_what_the_owner_cannot_place():
    s = _nothing_hidden()
    assert s.view(0).unseen() == (0,) * 13
    hands = [counts(v2=1), counts(v4=2), counts(v9=1)]
    s = position(hands, table=counts(v13=2), removed=counts(v1=1),
                 known=[counts(), counts(v4=1), counts()])  # fmt: skip
    want = list(DECK)
    want[1] -= 1  # own 2
    want[12] -= 2  # the table
    want[0] -= 1  # removed
    want[3] -= 1  # the 4 seat 1 is known to hold
    assert s.view(0).unseen() == tuple(want)


def test_a_determinization_with_nothing_hidden_is_the_state_itself():
    s = _nothing_hidden()
    rng = np.random.default_rng(3)
    for seat in range(3):
        assert s.view(seat).sample_state(rng) == s


def test_a_determinization_keeps_what_the_view_knows():
    s = new_game(4, seed=8, rules=Rules(hand_size=11))
    for _ in range(12):
        s = s.apply(s.legal_actions()[-1])  # passes taking the highest stack when they can
    v = s.view(2)
    d = v.sample_state(np.random.default_rng(1))
    assert d.view(2) == v and d.hand(2) == s.hand(2)
    assert d.hand_sizes == s.hand_sizes and d.winner is None
