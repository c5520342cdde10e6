"""``ismcts``'s ``own``: the seat's own playout policy, apart from the opponents' models."""

from __future__ import annotations

import numpy as np
import pytest

from leaves.players.ismcts import ISMCTS
from leaves.players.testing import PHASES, random_position


def _search(strat: ISMCTS, state) -> tuple[dict, dict]:
    seat = state.current_player
    strat.choose(state.view(seat), state.legal_actions(), np.random.default_rng(5))
    return strat.last_visits, strat.last_models


@pytest.mark.parametrize("phase", PHASES[1:3])
def test_own_changes_the_seats_playouts_and_no_opponents_model(phase):
    _, state = random_position(4, 31, phase)
    base = _search(ISMCTS(iterations=300, stop_early=False), state)
    same = _search(ISMCTS(iterations=300, stop_early=False, own="weighted"), state)
    other = _search(ISMCTS(iterations=300, stop_early=False, own="random"), state)
    assert same == base  # the rollout policy named: the same search
    assert other[1] == base[1]  # every opponent keeps its model
    assert other[0] != base[0]  # the seat's playouts are another policy's


def test_own_must_be_a_compiled_policy():
    with pytest.raises(ValueError, match="own playout policy"):
        ISMCTS(own="no_such_policy")
