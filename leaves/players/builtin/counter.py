"""``counter``: the card-counting heuristic."""

from __future__ import annotations

from gamekit.jit import njit
from leaves.board import M_HI, M_LO, META
from strategies.policy.params import Param, declare

from ..policy.features import (
    COUNTER_RULE,
    NEAR_WIN_DOC,
    PlayRule,
    best_scored_play,
    take_group,
    winning_play,
)
from ._base import CompiledBuiltin

# Defaults found by `leaves tune counter --against weighted,taker,high,low,minimal,blocker,
# patient,greedy --players 4 --budget 600000 --seed 7` (docs/tuning.md: +1.4 points on fresh
# seeds over the previous hand-set defaults; the threat term went to zero, so the counting
# pays through ``safe_bonus``, when no value could answer the new ends).
COUNTER_PARAMS = declare(
    Param("threat_weight", 0.0, (0.0, 3.0), doc="per value that could answer the new ends"),
    Param("keep_weight", 4.89, (0.0, 12.0), doc="per card of the played value kept in hand"),
    Param("safe_bonus", 3.966, (0.0, 6.0), doc="when no value could answer the new ends"),
    Param("near_win_penalty", 6.78, (0.0, 12.0), doc=NEAR_WIN_DOC),
    Param("shed_weight", -2.09, (-5.0, 5.0), doc="per card played"),
)
_W = COUNTER_PARAMS.index


@njit(cache=True)
def policy_counter(board, seat, sizes, params, rng, work):
    """Card counter: plays ends the unseen cards are unlikely to answer.

    Score of play (v, k): shed_weight * k - threat_weight * threat - keep_weight * (cards of
    v kept) + safe_bonus if nobody can answer - near_win_penalty if a new end needs no more
    cards than the shortest opponent hand in the round holds.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    at = (_W.shed_weight, _W.threat_weight, _W.keep_weight, _W.safe_bonus, _W.near_win_penalty, 0)
    how = PlayRule(COUNTER_RULE, at, True)
    best, _ = best_scored_play(board, seat, sizes, lo, hi, params, work, how)
    if best >= 0:
        return best
    return take_group(board, seat, lo, hi)


class CounterStrategy(CompiledBuiltin):
    """Counts cards: it tracks every card it has seen (own hand, table, cards removed at round
    ends, cards opponents are known to hold from their takes) and so knows the unseen remainder
    (``PlayerView.unseen()``). For each legal play it computes the ends the table would have
    and the threat: how many values could still answer them, a value counting when the unseen
    copies plus what an opponent in the round is known to hold reach the end's size (the
    rulebook's "only one 6 is left" reasoning). Score = ``shed_weight`` x cards shed -
    ``threat_weight`` x threat - ``keep_weight`` x cards of that value kept + ``safe_bonus`` if
    nothing can answer - ``near_win_penalty`` if a new end needs no more cards to answer it
    than the shortest opponent hand still in the round holds (a count of cards, as
    ``weighted``'s ``near_win``). Best score wins (ties to the lowest id); a play that empties
    its hand always wins; a forced pass takes the value it holds most of.
    """

    name = "counter"
    description = "counts unseen cards and plays ends opponents are unlikely to answer"
    policy = policy_counter
    PARAMS = COUNTER_PARAMS
    classifier = {"uses_card_counting": True}
