"""``weighted``: a linear scorer whose weights tournaments can tune."""

from __future__ import annotations

from dataclasses import dataclass

from gamekit.jit import njit
from leaves import Action, PlayerView
from leaves.board import HANDS, M_HI, M_LO, META, TABLE
from leaves.rules import MAX_COPIES
from strategies.policy.params import Param, declare

from ..policy.features import (
    NEAR_WIN_DOC,
    WEIGHTED_RULE,
    PlayRule,
    TakeWeights,
    best_scored_play,
    take_scored,
    winning_play,
)
from ._base import CompiledBuiltin

PLAY_FEATURES = ("shed", "keep", "end", "extreme", "threat", "near_win")
TAKE_FEATURES = ("pass", "take_group", "take_harm", "take_extreme")

# Defaults found by `leaves tune weighted --against taker,counter,high,low,minimal,blocker,
# patient,greedy --players 4 --budget 600000 --seed 7` (docs/tuning.md: +1.3 points on fresh
# seeds over the previous defaults, which had been tuned against high and low only).
WEIGHTED_PARAMS = declare(
    Param("w_shed", -1.59, (-5.0, 5.0), doc="cards played"),
    Param("w_keep", -4.66, (-10.0, 10.0), doc="cards of the played value left in hand"),
    Param("w_end", -0.05, (-5.0, 5.0), doc="size of the end stack the play makes"),
    Param("w_extreme", -0.334, (-3.0, 3.0), doc="distance of the value from 7"),
    Param("w_threat", -0.216, (-2.0, 2.0), doc="values that could answer the new ends"),
    Param("w_near_win", -1.59, (-10.0, 10.0), doc=NEAR_WIN_DOC),
    Param("w_pass", -18.73, (-20.0, 5.0), doc="bias of every take (willingness to pass)"),
    Param("w_take_group", 2.02, (-5.0, 5.0), doc="cards of the taken value already held"),
    Param("w_take_harm", 0.23, (-3.0, 3.0), doc="change of the smaller end size"),
    Param("w_take_extreme", 0.218, (-3.0, 3.0), doc="distance of the taken value from 7"),
)
_W = WEIGHTED_PARAMS.index


_MARGIN = 1e-9
"""Room for rounding: a bound and a score summed in another order may differ by a few ulps."""


@njit(cache=True, inline="always")
def _take_bound(board, seat, lo, hi, params):
    """An upper bound of every take's score (``take_scored``), from three cheap maxima: the
    most cards of one value held, the end sizes, the value farthest from 7 between the ends."""
    wg = params[_W.w_take_group]
    wh = params[_W.w_take_harm]
    we = params[_W.w_take_extreme]
    held = 0
    for v in range(13):
        held = max(held, board[HANDS + seat, v])
    ease = min(board[TABLE, lo], board[TABLE, hi])
    # held in [0, held]; harm = ease after - ease in [-ease, MAX_COPIES - ease]; |t - 6| <= the
    # farther end's, t lying between the ends
    ub = params[_W.w_pass]
    ub += wg * held if wg > 0 else 0.0
    ub += wh * (MAX_COPIES - ease) if wh > 0 else -wh * ease
    ub += we * max(abs(lo - 6), abs(hi - 6)) if we > 0 else 0.0
    return ub


@njit(cache=True)
def policy_weighted(board, seat, sizes, params, rng, work):
    """Linear score of a feature vector per legal action; the best score wins (ties: lowest id).

    Play (v, k) features: [k, cards of v kept, new end size, |v - 7|, threat, near_win];
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
    at = (_W.w_shed, _W.w_keep, _W.w_end, _W.w_extreme, _W.w_threat, _W.w_near_win)
    how = PlayRule(WEIGHTED_RULE, at, count)
    best, bs = best_scored_play(board, seat, sizes, lo, hi, params, work, how)
    if lo < 0:
        return best
    # Plays have lower ids than takes, so a take must score strictly more to win a tie.
    if best >= 0 and _take_bound(board, seat, lo, hi, params) < bs - _MARGIN:
        return best  # no take can score more: skip scoring each one
    weights = TakeWeights(
        params[_W.w_pass],
        params[_W.w_take_group],
        params[_W.w_take_harm],
        params[_W.w_take_extreme],
    )
    return take_scored(board, seat, lo, hi, weights, best, bs)


class WeightedStrategy(CompiledBuiltin):
    """Scores every legal action as a feature vector dotted with a weight vector (the
    constructor parameters) and plays the best (ties to the lowest action id; a play that
    empties the hand is always chosen). Play (v, k) features: ``shed`` = k; ``keep`` = cards of
    v left in hand; ``end`` = size of the end stack it makes; ``extreme`` = |v - 7|; ``threat``
    = values that could answer the new ends, by counting unseen and known cards (as
    ``counter``); ``near_win`` = 1 if a new end needs no more cards to answer it than the
    shortest opponent hand still in the round holds (``features.NEAR_WIN_DOC``). Pass-taking-t
    features: ``pass`` = 1 (a bias: how willing it is to pass while it could play);
    ``take_group`` = cards of t held; ``take_harm`` = change of the smaller end size (as
    ``taker``); ``take_extreme`` = |t - 7|. Weights are named ``w_<feature>``.
    """

    name = "weighted"
    description = "linear score of action features with tunable weights"
    policy = policy_weighted
    PARAMS = WEIGHTED_PARAMS
    classifier = {"uses_card_counting": True}

    def explain(self, view: PlayerView) -> list[Scored]:
        """Every legal action of ``view`` (its owner to act) with its features, each feature's
        contribution (weight x value) and the score, best first: the order in which this
        strategy prefers them (``[0]`` is what ``choose`` plays). Computed in Python from the
        feature definitions above, for people asking why; the policy itself is compiled."""
        return explain_weighted(self.weights, view)

    @property
    def weights(self) -> list[float]:
        """The weights in ``PLAY_FEATURES + TAKE_FEATURES`` order."""
        return [float(self._vector[getattr(_W, f"w_{f}")]) for f in PLAY_FEATURES + TAKE_FEATURES]


@dataclass(frozen=True)
class Scored:
    """One action as ``weighted`` sees it: score = sum of contributions (weight x feature);
    ``wins`` marks a play that empties the hand (always chosen, whatever its score)."""

    action: Action
    score: float
    features: dict[str, float]
    contributions: dict[str, float]
    wins: bool = False


def _features(view: PlayerView) -> list[tuple[Action, list[str], list[float], bool]]:
    """(action, feature names, values, empties the hand) for each legal action of ``view``."""
    me, n = view.player, view.n_players
    hand, table = view.hand, view.table
    ends = view.ends
    lo = -1 if ends is None else ends[0][0] - 1
    hi = -1 if ends is None else ends[1][0] - 1
    others = [i for i in range(n) if i != me]
    in_round = [i for i in others if not view.passed[i]]
    rules = view.rules
    avail = [
        rules.deck[u]
        - hand[u]
        - table[u]
        - view.removed[u]
        - sum(view.known[i][u] for i in others)
        + max((view.known[i][u] for i in in_round), default=0)
        for u in range(13)
    ]
    mopp = min((view.hand_sizes[i] for i in in_round), default=99)

    def kmin(u: int) -> int | None:
        if lo < 0:
            return 1
        if u <= lo:
            return table[lo] if rules.min_count else 1
        if u >= hi:
            return table[hi] if rules.min_count else 1
        return None

    def new_ends(u: int, k: int) -> tuple[int, int, int, int]:
        if lo < 0:
            return u, k, u, k
        if u <= lo:
            a = k + (table[u] if u == lo else 0)
            return (u, a, u, a) if lo == hi and u == lo else (u, a, hi, table[hi])
        b = k + (table[u] if u == hi else 0)
        return (u, b, u, b) if lo == hi and u == hi else (lo, table[lo], u, b)

    def threat(lo_v: int, a: int, hi_v: int, b: int) -> int:
        if lo_v == hi_v:
            return sum(avail[u] >= min(a, b) for u in range(13))
        return sum(avail[u] >= a for u in range(lo_v + 1)) + sum(
            avail[u] >= b for u in range(hi_v, 13)
        )

    size = view.hand_sizes[me]
    out = []
    for u in range(13):
        c, need = hand[u], kmin(u)
        if c == 0 or need is None or c < need:
            continue
        for k in range(need, c + 1):
            nlo, a, nhi, b = new_ends(u, k)
            end = a if u == nlo else b
            ta, tb = (a, b) if rules.min_count else (1, 1)  # the cards answering each end
            values = [
                k,
                c - k,
                end,
                abs(u - 6),
                threat(nlo, ta, nhi, tb),
                float(min(ta, tb) <= mopp),
            ]
            out.append((Action.play(u + 1, k), list(PLAY_FEATURES), values, k == size))
    out += _take_features(view, lo, hi)
    return out


def _take_features(
    view: PlayerView, lo: int, hi: int
) -> list[tuple[Action, list[str], list[float], bool]]:
    """``_features``' passes: each take the rules allow with [1, held, harm, |t - 7|], or the
    pass taking nothing (``take=nothing``) with [1, 0, 0, 0] (its bias alone)."""
    hand, table, take = view.hand, view.table, view.rules.take
    if lo < 0:
        return []
    if take == "nothing":
        return [(Action.pass_(), list(TAKE_FEATURES), [1, 0, 0, 0], False)]

    def ease_after_take(t: int) -> int:
        if table[t] > 1 or (t != lo and t != hi):
            return min(table[lo] - (t == lo), table[hi] - (t == hi))
        if lo == hi:
            return 0
        if t == lo:
            nl = next(u for u in range(lo + 1, 13) if table[u])
            return min(table[nl], table[hi])
        nh = next(u for u in range(hi - 1, -1, -1) if table[u])
        return min(table[lo], table[nh])

    ease = min(table[lo], table[hi])
    return [
        (
            Action.take(t + 1),
            list(TAKE_FEATURES),
            [1, hand[t], ease_after_take(t) - ease, abs(t - 6)],
            False,
        )
        for t in range(lo, hi + 1)
        if table[t] and (take == "any" or t in (lo, hi))
    ]


def explain_weighted(weights: list[float], view: PlayerView) -> list[Scored]:
    """``WeightedStrategy.explain`` for a weight vector in ``PLAY_FEATURES + TAKE_FEATURES``
    order. Ties keep the lower action id, as the policy does."""
    w = dict(zip(PLAY_FEATURES + TAKE_FEATURES, weights, strict=True))
    scored = []
    for action, names, values, wins in _features(view):
        contrib = {f: w[f] * v for f, v in zip(names, values, strict=True)}
        score = 0.0
        for x in contrib.values():  # the policy's order of summation: ties break alike
            score += x
        feats = {f: float(v) for f, v in zip(names, values, strict=True)}
        scored.append(Scored(action, score, feats, contrib, wins))
    return sorted(scored, key=lambda s: (not s.wins, -s.score, s.action.id))
