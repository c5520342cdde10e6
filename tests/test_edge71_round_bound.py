"""``State.from_dict`` refuses a round no game reaches: round 1 begins at turn 0 and each
turn begins at most one more (round 50 at turn 0 was taken, 10**30 overflowed later)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import leaves
from leaves import State


def _with(**changes) -> dict:
    d = leaves.new_game(4, seed=1).to_dict()
    return {**d, **changes}


@pytest.mark.parametrize("turn, rnd", [(0, 2), (0, 50), (9, 11), (0, 10**30)])
def test_a_round_past_turn_plus_one_is_refused(turn, rnd):
    """round 50 at turn 0 was taken, and 10**30 later overflowed a built-in's bridge."""
    with pytest.raises(ValueError) as exc:
        State.from_dict(_with(turn=turn, round=rnd))
    assert str(exc.value) == (
        f"round must be at most turn + 1 ({turn + 1}): round 1 begins at turn 0 and each turn "
        f"begins at most one more, got {rnd}"
    )


def test_a_round_up_to_turn_plus_one_is_taken():
    assert State.from_dict(_with(turn=0, round=1)).round == 1
    assert State.from_dict(_with(turn=9, round=10)).round == 10


@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5, 6]))
def test_every_position_of_play_keeps_its_round_within_the_bound(seed, players):
    """The bound is one play keeps (so no position of a real game is refused): random play to
    the end, each position's round at most its turn + 1, and each read back."""
    rng = np.random.default_rng(seed)
    s = leaves.new_game(players, seed=seed)
    while not s.is_terminal:
        assert 1 <= s.round <= s.turn + 1
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.integers(len(legal)))])
    assert State.from_dict(s.to_dict()).round == s.round <= s.turn + 1
