"""The measures a rules designer asks about, per run, each with its 95% interval, and their
differences between runs played under different rules.

Every measure is a statistic of one run written as a sum over its duplicate sets (a deal at a
table, ``reports.clusters``): a mean or a share over games is a ratio, linearised per set as
``(sum - value * count) / all counted``; the skill spread is a mean over the sets where the two
strategies sat of their paired difference. The variance is the reports' stratified one (the
tables strata, ``D / (D - 1)`` within each, t with the duplicate sets less the tables as
degrees of freedom), so a measure here gets the interval its run's own report would give.

A difference between two runs: when they played the same deal seeds at the same tables (the
same seed and design, only the rules changed; ``paired_design``), the per-set contributions
are subtracted set by set and the difference gets the same stratified variance over the sets:
valid whether or not the two rule sets' games are alike, and tighter where they are (a rule
that leaves the deal alone replays the same cards). Otherwise the runs are independent: the
variances add, with Welch's degrees of freedom (``reports.compare``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .clusters import Estimates, given, mean_estimates, wilson_t
from .compare import PAIRING_KEYS, _unpaired
from .data import MISSING, Games, Run
from .designer_measures import file_measures, ladder_measures, paired_measure
from .expert import match_arrays, match_winners
from .newcombe import newcombe
from .tables import summary
from .variants_sets import (
    PER_SEAT_PAIR,
    Design,
    Measure,
    decided,
    decided_sums,
    design,
    forfeiters,
    measure,
    ratio,
)

__all__ = [
    "Measure",
    "difference",
    "difference_intervals",
    "difference_tests",
    "estimate",
    "interval",
    "intervals",
    "measures",
    "paired_design",
    "stack",
]

RANDOM = "random"
"""The strategy whose games against the best measure skill against random play."""

GAME_MEASURES = ("turns", "rounds", "runner_up", "unfinished")
"""Measures over the games of a run (per table size too when a run mixes sizes)."""


def _runner_up(g: Games) -> np.ndarray:
    """Per game the rank value (e.g. cards left) of the second-best finisher."""
    key = g.ranks_key()
    second = np.argsort(key, axis=1, kind="stable")[:, 1] if key.shape[1] > 1 else None
    if second is None:
        return np.zeros(len(g))
    return g.values[np.arange(len(g)), second].astype(float)


def _game_measures(d: Design, sizes: list[str]) -> list[Measure]:
    """Mean turns and rounds, the runner-up's rank value in finished games and the share of
    unfinished games (games ended by a forfeit left out, as the run's report does)."""
    g = d.g
    played = ~g.forfeited
    finished = played & ~g.unfinished & (g.winner >= 0)
    runner = _runner_up(g)
    finished &= runner != MISSING
    series = {
        "turns": (g.lengths.get("turns"), played, False),
        "rounds": (g.lengths.get("rounds"), played, False),
        "runner_up": (runner, finished, False),
        "unfinished": (g.unfinished.astype(float), played, True),
    }
    out = []
    for n in sizes:
        sets = np.ones(d.key.size, bool) if n == "all" else d.size == int(n)
        for metric, (x, counted, rate) in series.items():
            if x is None:
                continue
            got = ratio(d, d.of_game, x.astype(float), counted, sets)
            out.append(measure(d, metric, n, got, rate))
    return [m for m in out if m is not None]


def _seat_measures(d: Design) -> list[Measure]:
    """Per table size and position relative to the first player, the share of the games
    someone won that were won from that seat, shown less the fair share 1 / players. Games
    nobody won (unfinished) are left out: a rule that leaves many games unfinished would
    otherwise make every seat look worse than fair."""
    g = d.g
    if not g.declaration.has_first_player:
        return []
    won = g.wins()
    decided = ~g.forfeited & won.any(axis=1)
    rows = np.arange(len(g))
    n_all = g.n_players.astype(np.int64)
    out = []
    for n in sorted(set(d.size.tolist())):
        at = decided & (n_all == n)
        for p in range(n):
            x = won[rows, (g.first.astype(np.int64) + p) % n].astype(float)
            got = ratio(d, d.of_game, x, at, d.size == n)
            out.append(measure(d, "seat", str(n), got, True, position=p, fair=1.0 / n))
    return [m for m in out if m is not None]


def _skill_measures(d: Design) -> list[Measure]:
    """The spread between the best and the worst strategy (the summary's order): over the
    duplicate sets where both sat, the mean of (best's win rate - worst's), as the report's
    significance table pairs them, over the finished games (``decided_sums``: an unfinished
    game, nobody's win, would shrink the spread by the share a turn limit stops; the seats'
    edges leave it out too); and the best's rate of finishing ahead of random, over every
    game (an unfinished one ranks them by what they hold at the limit, as the head-to-head
    table does). Games ended by a forfeit say nothing of the rules and are left out, and so
    is a strategy that forfeited a game (the games it finished ended before it broke:
    ``forfeiters``); where no game was won (every one unfinished) neither is measured."""
    g = d.g
    if not decided(g).any():
        return []
    played = ~g.forfeited
    broken = {g.labels[c] for c in forfeiters(g)}
    kept = g.select(played) if g.forfeited.any() else g  # no copy of a run without forfeits
    order = [s for s in _order(kept) if s not in broken]
    if len(order) < 2:
        return []
    sums = decided_sums(d)
    out = []
    spread = paired_measure(d, sums, "skill_spread", -1, (order[0], order[-1]))
    out += [spread] if spread is not None else []
    top = next((s for s in order if s != RANDOM), None)
    if RANDOM in order and top is not None:
        got, pairs = _ahead(d, g.labels.index(top), g.labels.index(RANDOM), played)
        detail = f"{top} ahead of {RANDOM}{PER_SEAT_PAIR if pairs else ''}"
        m = measure(d, "best_vs_random", "all", got, True, detail=detail)
        out += [m] if m is not None else []
    return out


def _order(g: Games) -> list[str]:
    """The strategies that sat at ``g``'s games, strongest first (the summary's order)."""
    summ = summary(g)
    return summ.loc[summ["games"] > 0, "strategy"].tolist()


def _ahead(d: Design, a: int, b: int, won: np.ndarray) -> tuple[Any, bool]:
    """How often ``a`` finishes strictly ahead of ``b`` over the seat pairs they share in the
    games ``won`` (not forfeited; the head-to-head table's ``ahead_rate``), as a ratio over
    duplicate sets; and whether those are more than the games (a table seats one of them
    twice: the share is then no share of games)."""
    g = d.g
    key = g.ranks_key()
    seats = g.seats.astype(np.int64)
    rows, x = [], []
    for i in range(seats.shape[1]):
        for j in range(seats.shape[1]):
            pair = won & (seats[:, i] == a) & (seats[:, j] == b) & (i != j)
            rows.append(d.of_game[pair])
            x.append((key[pair, i] < key[pair, j]).astype(float))
    rows_, x_ = np.concatenate(rows), np.concatenate(x)
    met = np.bincount(rows_, minlength=d.key.size) > 0  # the sets where they sat together
    per_game = ((seats == a).sum(axis=1) * (seats == b).sum(axis=1))[won]
    return ratio(d, rows_, x_, np.ones(x_.size, bool), met), bool((per_game > 1).any())


def _match_measures(d: Design, run: Run) -> list[Measure]:
    """Expert runs: the share of matches won by tied players (a shared win) and the mean
    match length in games."""
    g = d.g
    if g.match is None:
        return []
    seats, totals, games, _ = match_arrays(run)
    shared = (match_winners(run, seats, totals)[0].sum(axis=1) > 1).astype(float)
    rows = d.of_game[np.unique(g.match, return_index=True)[1]]
    every, sets = np.ones(shared.size, bool), np.ones(d.key.size, bool)
    out = [
        measure(d, "shared_wins", "all", ratio(d, rows, shared, every, sets), True),
        measure(d, "match_games", "all", ratio(d, rows, games.astype(float), every, sets),
                 False),
    ]  # fmt: skip
    return [m for m in out if m is not None]


def measures(run: Run, ladder: list[str] | None = None) -> list[Measure]:
    """Every measure of a run: game length (turns, rounds), the runner-up's cards left,
    unfinished games (overall, and per table size when the run mixes sizes), the seats'
    edges over their fair share per table size, the skill spread and the best strategy
    against random, for expert runs shared wins and match length; the designers' measures
    of a replayed sample where the run's folder has one (``reports.designer_measures``), and
    with ``ladder`` (strategies, strongest first) the skill ladder's steps."""
    d = design(run.games)
    sizes = sorted(set(d.size.tolist()))
    by = ["all"] + ([str(n) for n in sizes] if len(sizes) > 1 else [])
    steps = ladder_measures(d, ladder) if ladder else []
    return [*_game_measures(d, by), *_seat_measures(d), *_skill_measures(d),
            *_match_measures(d, run), *file_measures(run), *steps]  # fmt: skip


def estimate(m: Measure) -> Estimates:
    """The measure's estimate, standard error and degrees of freedom (``reports.clusters``)."""
    return _sum_estimate(m.value, m.key, m.stratum, m.u, m.pooled)


def _sum_estimate(value: float, key: np.ndarray, stratum: np.ndarray, u: np.ndarray,
                  pooled: bool) -> Estimates:  # fmt: skip
    """The stratified error of a sum of per-set contributions ``u`` (one per set ``key``)."""
    cl = given(key, stratum)
    n = u.size
    est = mean_estimates(u * n, np.zeros(n, np.int64), np.arange(n), 1, cl)
    return Estimates(np.array([value]), est.se, est.df, est.units, pooled or est.conservative)


def stack(ests: list[Estimates]) -> Estimates:
    """Several one-measure estimates as one (their intervals computed in one pass), with
    their sets' ``signs`` where every one has them."""
    cat = np.concatenate
    signs = None
    if ests and all(e.signs is not None for e in ests):
        signs = (cat([e.signs[0] for e in ests]), cat([e.signs[1] for e in ests]))
    return Estimates(cat([e.value for e in ests]), cat([e.se for e in ests]),
                     cat([e.df for e in ests]), cat([e.units for e in ests]),
                     any(e.conservative for e in ests), signs)  # fmt: skip


def intervals(ms: list[Measure], est: Estimates) -> tuple[np.ndarray, np.ndarray]:
    """The 95% intervals of the values shown (less ``fair``) of measures ``ms`` (``est``
    their stacked estimates): Wilson's on the t quantile for a share, value +- t * se
    otherwise; NaN where the run is too small."""
    if not ms:
        return np.zeros(0), np.zeros(0)
    rate = np.array([m.rate for m in ms])
    fair = np.array([m.fair for m in ms])
    w_lo, w_hi = wilson_t(est)
    t_lo, t_hi = est.interval()
    low, high = _bounds([m.bounds for m in ms])
    lo = np.where(rate, w_lo, np.maximum(t_lo, low))  # NaN (too small a run) stays NaN
    hi = np.where(rate, w_hi, np.minimum(t_hi, high))
    return lo - fair, hi - fair


def _bounds(bounds: list[tuple[float, float] | None]) -> tuple[np.ndarray, np.ndarray]:
    """Each measure's range as two arrays (-inf, inf where it has none)."""
    low = np.array([-np.inf if b is None else b[0] for b in bounds], np.float64)
    high = np.array([np.inf if b is None else b[1] for b in bounds], np.float64)
    return low, high


def interval(m: Measure, est: Estimates | None = None) -> tuple[float, float]:
    """The 95% interval of one measure's value shown (``intervals``)."""
    lo, hi = intervals([m], estimate(m) if est is None else est)
    return float(lo[0]), float(hi[0])


def paired_design(spec_a: dict | None, spec_b: dict | None) -> bool:
    """True when two runs dealt the same deal seeds at the same tables: the same seed and
    design (``reports.compare``'s keys), whatever their rules (``game_config``, and the match
    target, which is the rules' ``expert_target``)."""
    if not spec_a or not spec_b or "seed" not in spec_a:
        return False
    keys = [k for k in PAIRING_KEYS if k not in ("game_config", "target")]  # the rules' own
    return all(spec_a.get(k) == spec_b.get(k) for k in keys)


def difference(base: Measure, other: Measure, paired: bool) -> Estimates:
    """other - base with its standard error and degrees of freedom: set by set over the
    union of their duplicate sets when ``paired`` (a set only one counts contributes its
    side alone), else the two variances added (Welch)."""
    value = other.value - base.value
    if not paired:
        diff = _unpaired(estimate(base), estimate(other))
        return Estimates(np.array([value]), diff.se, diff.df, diff.units, diff.conservative)
    key = np.concatenate([base.key, other.key])
    stratum = np.concatenate([base.stratum, other.stratum])
    u = np.concatenate([-base.u, other.u])
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    total = np.bincount(inv.ravel(), weights=u, minlength=uniq.size)
    return _sum_estimate(value, uniq, stratum[first], total, base.pooled or other.pooled)


def difference_intervals(pairs: list[tuple[Measure, Measure]], est: Estimates
                         ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The 95% intervals of ``other - base`` for each pair (``est``: their stacked
    ``difference`` estimates; ``difference_tests``)."""
    lo, hi, _ = difference_tests(pairs, est)
    return lo, hi


def difference_tests(pairs: list[tuple[Measure, Measure]], est: Estimates
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The 95% intervals of ``other - base`` for each pair (``est``: their stacked
    ``difference`` estimates) and their p-values: value +- t * se with the t test's p. Where
    one of two shares has no spread to measure (100% ahead in every duplicate set, say) that
    interval would collapse to a point, or carry the other share's error alone, so interval
    and p-value are Newcombe's from the two shares' own Wilson intervals (``wilson_t``, which
    counts such a share's sets once), the two taken as uncorrelated, and the p-value the one
    that inverts that interval (``reports.newcombe``): the calibration benchmark's
    ``--variants`` lines measure its coverage."""
    lo, hi = est.interval()
    p = est.p_value()
    low, high = _bounds([(0.0, 1.0) if b.rate else b.bounds for b, _ in pairs])
    lo, hi = np.maximum(lo, low - high), np.minimum(hi, high - low)  # a difference's range
    shares = [i for i, (base, _) in enumerate(pairs) if base.rate]
    if not shares:
        return lo, hi, p
    base = stack([estimate(pairs[i][0]) for i in shares])
    other = stack([estimate(pairs[i][1]) for i in shares])
    n_lo, n_hi, n_p = newcombe(base, other)
    use = np.isfinite(n_p)
    at = np.asarray(shares)[use]
    lo[at], hi[at], p[at] = n_lo[use], n_hi[use], n_p[use]
    return lo, hi, p
