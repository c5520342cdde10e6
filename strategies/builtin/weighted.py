"""``weighted``: a linear scorer whose weights tournaments can tune."""

from __future__ import annotations

from numba import njit

from leaves.board import M_HI, M_LO, META

from ..policy.features import (
    fill_avail,
    min_opp_size,
    new_ends,
    play_id,
    play_range,
    take_scored,
    threat,
    winning_play,
)
from ..policy.params import Param, declare
from ._base import CompiledBuiltin

PLAY_FEATURES = ("shed", "keep", "end", "extreme", "threat", "near_win")
TAKE_FEATURES = ("pass", "take_group", "take_harm", "take_extreme")

WEIGHTED_PARAMS = declare(
    Param("w_shed", -0.5, (-5.0, 5.0), doc="cards played"),
    Param("w_keep", -4.0, (-10.0, 10.0), doc="cards of the played value left in hand"),
    Param("w_end", -0.8, (-5.0, 5.0), doc="size of the end stack the play makes"),
    Param("w_extreme", -0.4, (-3.0, 3.0), doc="distance of the value from 7"),
    Param("w_threat", -0.15, (-2.0, 2.0), doc="values that could answer the new ends"),
    Param("w_near_win", -2.0, (-10.0, 10.0), doc="an end lets the shortest hand go out"),
    Param("w_pass", -13.0, (-20.0, 5.0), doc="bias of every take (willingness to pass)"),
    Param("w_take_group", 1.2, (-5.0, 5.0), doc="cards of the taken value already held"),
    Param("w_take_harm", 0.0, (-3.0, 3.0), doc="change of the smaller end size"),
    Param("w_take_extreme", 0.2, (-3.0, 3.0), doc="distance of the taken value from 7"),
)
_W = WEIGHTED_PARAMS.index


@njit(cache=True)
def policy_weighted(board, seat, sizes, params, rng, work):
    """Linear score of a feature vector per legal action; the best score wins (ties: lowest id).

    Play (v, k) features: [k, cards of v kept, new end size, |v - 7|, threat, near-winner];
    take t features: [1, held t, harm, |t - 7|] (``take_scored``); weights ``w_<feature>``.
    A play that empties the hand is always chosen. Threat is counted only when its weight is
    nonzero (it is the costly feature).
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    count = params[_W.w_threat] != 0.0
    if count:
        fill_avail(board, seat, work)
    mopp = min_opp_size(board, seat, sizes)
    best = -1
    bs = -1e18
    for v in range(13):
        km, c = play_range(board, seat, v, lo, hi)
        for k in range(km, c + 1):
            nlo, a, nhi, b = new_ends(board, lo, hi, v, k)
            th = threat(work, nlo, a, nhi, b) if count else 0
            end = a if v == nlo else b
            near = 1.0 if min(a, b) <= mopp else 0.0
            s = (
                params[_W.w_shed] * k
                + params[_W.w_keep] * (c - k)
                + params[_W.w_end] * end
                + params[_W.w_extreme] * abs(v - 6)
                + params[_W.w_threat] * th
                + params[_W.w_near_win] * near
            )
            if s > bs:
                bs = s
                best = play_id(v, k)
    if lo < 0:
        return best
    # Plays have lower ids than takes, so a take must score strictly more to win a tie.
    return take_scored(
        board,
        seat,
        lo,
        hi,
        params[_W.w_pass],
        params[_W.w_take_group],
        params[_W.w_take_harm],
        params[_W.w_take_extreme],
        best,
        bs,
    )


class WeightedStrategy(CompiledBuiltin):
    """Scores every legal action as a feature vector dotted with a weight vector (the
    constructor parameters) and plays the best (ties to the lowest action id; a play that
    empties the hand is always chosen). Play (v, k) features: ``shed`` = k; ``keep`` = cards of
    v left in hand; ``end`` = size of the end stack it makes; ``extreme`` = |v - 7|; ``threat``
    = values that could answer the new ends, by counting unseen and known cards (as
    ``counter``); ``near_win`` = 1 if an end would be small enough for the shortest hand still
    in the round to go out. Pass-taking-t features: ``pass`` = 1 (a bias: how willing it is to
    pass while it could play); ``take_group`` = cards of t held; ``take_harm`` = change of the
    smaller end size (as ``taker``); ``take_extreme`` = |t - 7|. Weights are named ``w_<feature>``.
    """

    name = "weighted"
    description = "linear score of action features with tunable weights"
    kind = 9
    policy = policy_weighted
    PARAMS = WEIGHTED_PARAMS
    classifier = {"uses_card_counting": True}
