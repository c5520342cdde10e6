"""``weighted``'s explanation (Python features x weights) agrees with its compiled policy."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves.players.builtin import PLAY_FEATURES, TAKE_FEATURES
from leaves.testing import positions

WEIGHTS = st.lists(st.floats(-5, 5, allow_nan=False), min_size=10, max_size=10)
NAMES = [f"w_{f}" for f in PLAY_FEATURES + TAKE_FEATURES]


@settings(max_examples=60, deadline=None)
@given(positions(), WEIGHTS)
def test_explanation_ranks_first_what_the_policy_plays(state, weights):
    params = dict(zip([f"w_{f}" for f in PLAY_FEATURES + TAKE_FEATURES], weights, strict=True))
    for s in (strategies.get("weighted"), strategies.get("weighted", **params)):
        view = state.view(state.current_player)
        scored = s.explain(view)
        legal = state.legal_actions()
        assert sorted(x.action.id for x in scored) == [a.id for a in legal]
        assert scored[0].action == s.choose(view, legal, np.random.default_rng(0))
        for x in scored:
            assert set(x.contributions) == set(x.features)
            assert np.isclose(x.score, sum(x.contributions.values()))
            for name, c in x.contributions.items():
                assert (
                    c == s.weights[(PLAY_FEATURES + TAKE_FEATURES).index(name)] * x.features[name]
                )


def test_explanation_of_a_known_position():
    from tests.helpers import counts, position

    hands = [counts(v3=3, v5=4, v9=1, v12=1, v13=2), counts(v1=2), counts(v8=2), counts(v10=1)]
    state = position(hands, table=counts(v6=3, v12=2), current=0)
    scored = {str(x.action): x for x in strategies.get("weighted").explain(state.view(0))}
    play = scored["play 3x3"]  # three 3s on the left end (6, size 3)
    assert play.features["shed"] == 3 and play.features["keep"] == 0
    assert play.features["end"] == 3 and play.features["extreme"] == 4
    take = scored["pass, take 12"]
    assert take.features == {"pass": 1, "take_group": 1, "take_harm": -1, "take_extreme": 5}


@settings(max_examples=200, deadline=None)
@given(positions(), WEIGHTS)
def test_no_take_scores_above_the_bound_that_lets_the_policy_skip_them(state, weights):
    """``policy_weighted`` skips scoring takes when their bound is below its best play: the
    bound must hold for every take of every position."""
    from leaves.board import M_HI, M_LO, META, public_board
    from leaves.players.builtin.weighted import _take_bound

    view = state.view(state.current_player)
    if view.ends is None:
        return
    s = strategies.get("weighted", **dict(zip(NAMES, weights, strict=True)))
    board, _ = public_board(view)
    vec = np.asarray(s.compiled()[1], np.float64)
    bound = _take_bound(board, view.player, board[META, M_LO], board[META, M_HI], vec)
    takes = [x.score for x in s.explain(view) if x.action.is_pass]
    assert takes and max(takes) <= bound + 1e-9
