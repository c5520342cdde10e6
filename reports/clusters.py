"""Which games are independent, and intervals that count them honestly.

A run deals each table its own cards and replays every deal under the table's seatings
(``tournaments.schedule``): the games of one deal at one table, a *duplicate set*, share their
cards and are correlated; different deals are independent (a gauntlet's two copies of a table,
dealt alike, are two sets of one cluster: ``duplicate_sets``). The tables are fixed by the design
(not drawn at random), so they are *strata*: a rate over many tables varies from run to run only
through the deals within each table. Every interval of the reports is computed the same way:

* a statistic is a sum over duplicate sets (*clusters*) of per-set contributions (a rate is
  linearised: ``(wins - rate * games) / all games``);
* its variance is the sum over tables of the within-table variance of those contributions,
  ``D / (D - 1)`` times the squared deviations from the table's mean (``D`` sets at the table);
* the interval takes Student's t with the design's degrees of freedom, the duplicate sets less the
  tables (each table's mean costs one), so a run of few deals gets the wide interval it has earned
  instead of a normal one it has not. (Satterthwaite's estimate of the degrees of freedom, computed
  from the tables' own noisy variances, came out too small where tables have two deals each: those
  intervals covered 97% in ``bench_calibration.py``, the design's 95%.)

A table dealt once cannot tell its deal's luck from its mean. Tables with a single deal are pooled
per table size into one stratum: that overstates the variance by the spread between those tables,
so such intervals are conservative, and say so (``Estimates.conservative``). A group (a strategy,
a measure) with a set alone in its stratum (one table of a size dealt once) takes all its sets
as one stratum (``reports.strata``): a lone set's luck would otherwise count as no variance at
all. Where the degrees of freedom fall below ``MIN_DF`` no interval is stated (NaN): the reports
say in words that the run is too small to tell (``too_small``). Where every duplicate set of a
table gave the same contribution (a standard error of zero on deals enough, ``Estimates.flat``)
no t interval is stated either: no spread is no evidence that the value cannot vary. Such a
difference is tested by the exact sign test over its sets instead (``sign_test``: 2 * 0.5**N
two-sided where all N sets differ one way), and a rate's interval counts each set as one trial
(``wilson_t``).

``benchmarks/bench_calibration.py`` measures the coverage of these intervals over many
independent runs for a grid of designs; ``tests/test_clusters.py`` checks them on synthetic
data with a known truth.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .data import BLOCK, Games
from .strata import stratified
from .student_t import t_ppf, t_sf

__all__ = [
    "MIN_DF",
    "Accumulator",
    "Clusters",
    "Estimates",
    "Sums",
    "clustered_rate",
    "clusters",
    "duplicate_sets",
    "given",
    "mean_estimates",
    "ratio_estimates",
    "rate_differences",
    "seat_sums",
    "sign_test",
    "standardised",
    "table_sums",
    "t_quantile",
    "too_small",
    "wilson_at",
    "wilson_t",
]

MIN_DF = 5.0
"""Fewest degrees of freedom an interval is stated with. Below it the variance rests on so few
independent deals that no interval would keep its 95% (``bench_calibration.py``)."""

DENSE_CELLS = 1 << 22
"""Group x cluster tables up to this many cells are summed densely, larger ones sparsely."""


@dataclass(frozen=True)
class Clusters:
    """The independent units of a run: each game's duplicate set and each set's stratum.

    ``of_game[i]`` numbers game ``i``'s cluster (0 .. ``n - 1``); ``stratum[c]`` is cluster
    ``c``'s table (its deal stream) or, where tables were pooled, its table size; ``first[c]``
    is the first game of cluster ``c`` (what a cluster's games share: table, deal, size).
    """

    of_game: np.ndarray
    stratum: np.ndarray
    n_strata: int
    pooled: bool
    first: np.ndarray

    @property
    def n(self) -> int:
        return int(self.stratum.size)


def first_of(of_game: np.ndarray) -> np.ndarray:
    """For cluster numbers 0 .. n - 1 per row, the first row of each cluster."""
    first = np.zeros(int(of_game.max(initial=-1)) + 1, dtype=np.int64)
    first[of_game[::-1]] = np.arange(of_game.size, dtype=np.int64)[::-1]  # the last write wins
    return first


def _table_codes(g: Games) -> np.ndarray:
    """Per game, a code for who sits at its table (a multiset, whatever the seating) and how
    many seats it has: the table of rows that carry no ``table`` column, and the duplicate set
    of rows that do (``duplicate_sets``). Equal codes for equal tables, nothing more."""
    seated = np.sort(g.seats, axis=1)  # the seats' own small type: no (N, S) int64 copy
    base = g.n_strategies + 2
    if (seated.shape[1] + 1) * float(base) ** seated.shape[1] >= 2.0**62:  # too big for one
        keys = np.column_stack([g.n_players.astype(np.int64), seated.astype(np.int64)])
        return np.unique(keys, axis=0, return_inverse=True)[1].ravel().astype(np.int64)
    code = g.n_players.astype(np.int64)
    for col in seated.T:
        code = code * base + (col.astype(np.int64) + 1)  # empty seats (-1) become 0
    return code


def clusters(g: Games) -> Clusters:
    """The clusters of ``g`` (cached on it). With a ``deal`` column a cluster is one deal of
    one table (``table``: its deal stream; rows without it name the table by who sits there);
    without one each game is its own cluster, stratified by its table."""
    cached = g.cache.get("clusters")
    if cached is not None:
        return cached
    table = g.table if g.table is not None else _table_codes(g)
    table = pd.factorize(table)[0].astype(np.int64)
    if g.deal is None:
        of_game = np.arange(len(g), dtype=np.int64)
    else:
        key = table * (int(g.deal.max(initial=0)) + 1) + g.deal.astype(np.int64)
        of_game = pd.factorize(key)[0].astype(np.int64)
    first = first_of(of_game)
    stratum, size = table[first], g.n_players[first].astype(np.int64)
    per = np.bincount(stratum)
    single = per[stratum] == 1
    pooled = bool(single.any())
    if pooled:  # a table dealt once: pooled with the other such tables of its size
        top = int(stratum.max(initial=-1)) + 1
        stratum = np.where(single, top + size, stratum)
    stratum = pd.factorize(stratum)[0].astype(np.int64)
    out = Clusters(of_game, stratum, int(stratum.max(initial=-1)) + 1, pooled, first)
    g.cache["clusters"] = out
    return out


def duplicate_sets(g: Games) -> tuple[np.ndarray, np.ndarray]:
    """(per game its duplicate set, per set its cluster), cached: a set is one deal at one
    table, a cluster's games with the same strategies seated. A cluster holds several only
    where tables share a deal stream (a gauntlet's two sides are dealt the same cards): two
    strategies are compared within the sets both sat in, and the cluster, whose sets share
    their cards, stays the independent unit of every interval."""
    cached = g.cache.get("duplicate_sets")
    if cached is not None:
        return cached
    cl = clusters(g)
    of_set = cl.of_game
    if g.table is not None and len(g):  # else the clusters' tables are their lineups already
        lineup = pd.factorize(_table_codes(g))[0].astype(np.int64)
        if (lineup != lineup[cl.first[cl.of_game]]).any():
            of_set = pd.factorize(cl.of_game * (int(lineup.max()) + 1) + lineup)[0].astype(np.int64)
    out = (of_set, cl.of_game[first_of(of_set)])
    g.cache["duplicate_sets"] = out
    return out


@dataclass(frozen=True)
class Sums:
    """Per (group, cluster) where the group is present: the sum of its outcomes ``w`` and its
    count ``n`` (unique pairs, sorted by group then cluster); ``unit``, where the rows are
    duplicate sets (``seat_sums(sets=True)``, ``cluster`` numbering them), each row's cluster."""

    group: np.ndarray
    cluster: np.ndarray
    w: np.ndarray
    n: np.ndarray
    n_groups: int
    unit: np.ndarray | None = None

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """(sum of w, sum of n) per group."""
        return (
            np.bincount(self.group, weights=self.w, minlength=self.n_groups),
            np.bincount(self.group, weights=self.n, minlength=self.n_groups),
        )


class Accumulator:
    """Sums of (group, cluster) keys over blocks: counted in one pass at the end when the
    table of cells is small (a bincount per block would clear and add the whole table each
    time), else reduced per block to its distinct keys (memory bounded by the keys seen)."""

    def __init__(self, n_groups: int, n_clusters: int):
        self.g, self.c = n_groups, max(n_clusters, 1)
        self.dense = n_groups * self.c <= DENSE_CELLS
        self.parts: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, key: np.ndarray, won: np.ndarray) -> None:
        if self.dense:
            self.parts.append((key, won))
            return
        uniq, inv = np.unique(key, return_inverse=True)
        self.parts.append((uniq, np.stack([np.bincount(inv, weights=won), np.bincount(inv)])))

    def result(self) -> Sums:
        if not self.parts:
            key, w, n = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0))
        elif self.dense:
            keys = np.concatenate([k for k, _ in self.parts])
            won = np.concatenate([v for _, v in self.parts])
            cells = self.g * self.c
            n = np.bincount(keys, minlength=cells)
            if ((won == 0) | (won == 1)).all():  # yes/no outcomes: count the yeses (faster)
                w = np.bincount(keys[won == 1], minlength=cells).astype(np.float64)
            else:
                w = np.bincount(keys, weights=won, minlength=cells)
            key = np.flatnonzero(n)
            w, n = w[key], n[key].astype(np.float64)
        else:
            keys = np.concatenate([k for k, _ in self.parts])
            vals = np.concatenate([v for _, v in self.parts], axis=1)
            key, inv = np.unique(keys, return_inverse=True)
            w = np.bincount(inv, weights=vals[0])
            n = np.bincount(inv, weights=vals[1])
        return Sums(key // self.c, key % self.c, w, n, self.g)


def seat_sums(
    g: Games,
    n_groups: int,
    code: Callable[[Games, int], np.ndarray] | None = None,
    outcome: Callable[[Games], np.ndarray] | None = None,
    sets: bool = False,
) -> Sums:
    """Per (group, cluster): the outcomes (default: wins) and seats of every group; with
    ``sets``, per (group, duplicate set) and each row's cluster (``duplicate_sets``). Groups are strategies by default; ``code(block, seat)`` may give another code per seat
    (-1: not counted) or several (an (N, m) array: the seat counts once in each).
    ``outcome(block)`` is an (N, S) array of each seat's outcome (default: ``block.wins()``).
    """
    of_game, of_set = duplicate_sets(g) if sets else (clusters(g).of_game, None)
    acc = Accumulator(n_groups, int(of_game.max(initial=-1)) + 1)
    for start, b in zip(range(0, max(len(g), 1), BLOCK), g.blocks(BLOCK), strict=False):
        if not len(b):  # no game (every one forfeited): nothing to add, nor to reshape
            continue
        cluster = of_game[start : start + len(b)]
        won = (b.wins() if outcome is None else outcome(b)).astype(np.float64)
        for s in range(b.seats.shape[1]):
            c = b.seats[:, s].astype(np.int64) if code is None else code(b, s)
            for col in c.reshape(len(c), -1).T:  # a group may give several codes a seat
                ok = col >= 0
                acc.add(col[ok] * acc.c + cluster[ok], won[ok, s])
    sums = acc.result()
    return sums if of_set is None else replace(sums, unit=of_set[sums.cluster])


def table_sums(
    codes: np.ndarray, outcome: np.ndarray, cluster: np.ndarray, n_groups: int, n_clusters: int
) -> Sums:
    """Per (group, cluster): the sums of ``outcome`` and the counts over the cells of
    ``codes`` (rows x columns of group codes, -1: not counted; ``outcome`` the same shape),
    row ``i`` belonging to cluster ``cluster[i]``. For rows that are not games (matches, or
    one value per game: pass a single column)."""
    acc = Accumulator(n_groups, n_clusters)
    codes = np.asarray(codes, dtype=np.int64).reshape(len(cluster), -1)
    outcome = np.asarray(outcome, dtype=np.float64).reshape(codes.shape)
    for s in range(codes.shape[1]):
        ok = codes[:, s] >= 0
        acc.add(codes[ok, s] * acc.c + cluster[ok], outcome[ok, s])
    return acc.result()


@dataclass(frozen=True)
class Estimates:
    """Per group: an estimate, its standard error and degrees of freedom, the independent
    clusters it rests on, and whether strata were pooled (a conservative standard error);
    ``signs``, where known, the clusters whose own value is above and below 0 (a paired
    difference's sets), for the sign test of an estimate with no spread."""

    value: np.ndarray
    se: np.ndarray
    df: np.ndarray
    units: np.ndarray
    conservative: bool = False
    signs: tuple[np.ndarray, np.ndarray] | None = None

    def no_spread(self) -> np.ndarray:
        """Per group: True where the standard error is zero but for rounding (every duplicate
        set of a table gave the same value), the one test of that for every figure."""
        scale = np.maximum(1.0, np.abs(np.nan_to_num(self.value)))
        return np.abs(self.se) <= 1e-12 * scale

    def flat(self) -> np.ndarray:
        """Per group: True where the clusters show no spread on deals enough for an interval:
        no evidence that the value cannot vary, so no t interval is stated on it."""
        return (np.asarray(self.df) >= MIN_DF) & self.no_spread()

    def design_effect(self, n: np.ndarray) -> np.ndarray:
        """A rate's variance over the binomial one, p(1-p)/n for ``n`` trials (with no
        spread, ``wilson_t``'s: one trial a cluster): one independent trial's worth, inverted."""
        p = self.value
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.no_spread(), n / self.units, self.se**2 / (p * (1 - p) / n))

    def take(self, index: np.ndarray | list[int]) -> Estimates:
        """The estimates of the groups ``index``, in that order."""
        i = np.asarray(index, dtype=np.int64)
        signs = None if self.signs is None else (self.signs[0][i], self.signs[1][i])
        return Estimates(self.value[i], self.se[i], self.df[i], self.units[i], self.conservative,
                         signs)  # fmt: skip

    def half_width(self, level: float = 0.95) -> np.ndarray:
        """Half the width of the two-sided t interval (NaN where the run is too small or its
        clusters show no spread, ``flat``)."""
        return np.where(self.flat(), np.nan, t_quantile(self.df, level) * self.se)

    def interval(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        half = self.half_width(level)
        return self.value - half, self.value + half

    def p_value(self, null: float = 0.0) -> np.ndarray:
        """Two-sided p-value of ``value == null``: the t test; where the clusters show no
        spread (``flat``) the exact sign test over their ``signs`` (null 0), else 1 where the
        value is the null's and NaN otherwise (a zero error is no certainty). NaN where the run
        is too small."""
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (self.value - null) / self.se
            p = t_sf(np.where(np.isfinite(self.df), self.df, 1.0), t)
        flat = self.flat()
        if flat.any():
            p = np.where(flat, np.where(self.value == null, 1.0, np.nan), p)
            if self.signs is not None and null == 0:
                p = np.where(flat, sign_test(*self.signs), p)
        return np.where(self.df >= MIN_DF, p, np.nan)


def sign_test(above, below) -> np.ndarray:
    """The exact two-sided sign test's p-value per group, from the clusters above and below
    the null (ties left out): ``2 * P(Binomial(n, 1/2) <= min)``, at most 1; 2 * 0.5**N where
    all N clusters lie one way, and 1 where none differs. Valid whatever the clusters' spread,
    for independent clusters each as likely above the null as below it."""
    above, below = np.asarray(above, dtype=np.int64), np.asarray(below, dtype=np.int64)
    out = np.ones(above.shape)
    for i, (a, b) in enumerate(zip(above.ravel(), below.ravel(), strict=True)):
        n, k = int(a + b), int(min(a, b))
        if n:
            out.flat[i] = min(1.0, 2 * sum(math.comb(n, j) for j in range(k + 1)) / 2**n)
    return out


def t_quantile(df, level: float = 0.95) -> np.ndarray:
    """Student's t quantile for a two-sided ``level`` interval; NaN below ``MIN_DF``."""
    df = np.asarray(df, dtype=float)
    ok = np.isfinite(df) & (df >= MIN_DF)
    q = t_ppf(np.where(ok, df, MIN_DF), 0.5 + level / 2)
    return np.where(ok, q, np.nan)


def too_small(est: Estimates) -> np.ndarray:
    """Per group: True where the run is too small for an interval."""
    return ~(np.asarray(est.df) >= MIN_DF)


def ratio_estimates(sums: Sums, cl: Clusters) -> Estimates:
    """Per group: the rate sum(w) / sum(n) with its stratified cluster-robust error."""
    w_tot, n_tot = sums.totals()
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = w_tot / n_tot
        u = (sums.w - rate[sums.group] * sums.n) / n_tot[sums.group]
    var, df, units, lone = stratified(
        u, sums.group, cl.stratum[sums.cluster], sums.n_groups, cl.n_strata
    )
    return Estimates(rate, np.sqrt(var), df, units, cl.pooled or bool(lone.any()))


def rate_differences(
    a: tuple[np.ndarray, np.ndarray],
    b: tuple[np.ndarray, np.ndarray],
    group: np.ndarray,
    cluster: np.ndarray,
    n_groups: int,
    cl: Clusters,
) -> Estimates:
    """Per group: A's win rate less B's within the same clusters, from ``a = (wins, seats)``
    and ``b`` of one row per (group, cluster) where both happen (or per duplicate set,
    ``cluster`` then its cluster: the sets of one cluster add up to one unit). Each cluster's difference of
    rates weighs as A's seats there, so the estimate is A's rate over those clusters
    (``sum(wins) / sum(seats)``, as a report shows it) less B's rate taken at A's weights
    (``standardised``: B's own rate wherever B has as many seats as A, or proportionally
    many). A comparison within each cluster, never A's tables against B's, so a mix of table
    sizes or seat counts cannot tilt it; linearised cluster by cluster as every report rate
    is, with its stratified error."""
    (wa, na), (wb, nb) = a, b
    with np.errstate(invalid="ignore", divide="ignore"):
        d = wa / na - wb / nb
        tot = np.bincount(group, weights=na, minlength=n_groups)
        diff = np.bincount(group, weights=na * d, minlength=n_groups) / tot
        u = na * (d - diff[group]) / tot[group]
    (u, ad), group, cluster = _per_cluster([u, na * d], group, cluster)
    var, df, units, lone = stratified(u, group, cl.stratum[cluster], n_groups, cl.n_strata)
    signs = (np.bincount(group, weights=ad > 0, minlength=n_groups),
             np.bincount(group, weights=ad < 0, minlength=n_groups))  # fmt: skip
    return Estimates(diff, np.sqrt(var), df, units, cl.pooled or bool(lone.any()), signs)


def _per_cluster(values: list, group: np.ndarray, cluster: np.ndarray) -> tuple[list, Any, Any]:
    """Rows of one group and cluster (a deal's sets: a gauntlet's two sides) summed into one."""
    c = int(cluster.max(initial=-1)) + 1
    uniq, inv = np.unique(group * c + cluster, return_inverse=True)
    if uniq.size == cluster.size:
        return values, group, cluster
    return [np.bincount(inv, weights=v) for v in values], uniq // c, uniq % c


def standardised(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> float:
    """B's win rate at A's weights over the same clusters (``rate_differences``' B side):
    each cluster's rate of B weighs as A's seats there. B's own rate when its seats are
    proportional to A's."""
    (_, na), (wb, nb) = a, b
    return float((na * wb / nb).sum() / na.sum()) if na.sum() else float("nan")


def mean_estimates(
    values: np.ndarray, group: np.ndarray, cluster: np.ndarray, n_groups: int, cl: Clusters
) -> Estimates:
    """Per group: the mean of one value per cluster (``values[i]`` of cluster ``cluster[i]``
    in group ``group[i]``), each cluster weighing the same, with its stratified error."""
    count = np.bincount(group, minlength=n_groups).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=values, minlength=n_groups) / count
        u = values / count[group]
    var, df, units, lone = stratified(u, group, cl.stratum[cluster], n_groups, cl.n_strata)
    return Estimates(mean, np.sqrt(var), df, units, cl.pooled or bool(lone.any()))


def wilson_t(est: Estimates, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """A rate's interval that stays inside [0, 1]: Wilson's score interval on the effective
    number of games ``rate (1 - rate) / variance`` with the t quantile of the estimate's
    degrees of freedom. Where the clusters show no spread (a rate of exactly 0 or 1, or the
    same rate in every duplicate set) it counts each cluster once: a cluster's rate lies in
    [0, 1], so with mean ``p`` its variance is at most ``p (1 - p)`` (Bhatia and Davis), the
    variance of one trial. NaN where the run is too small."""
    return wilson_at(est, t_quantile(est.df, level))


def wilson_at(est: Estimates, z: Any) -> tuple[np.ndarray, np.ndarray]:
    """``wilson_t``'s interval at the quantile ``z`` (per group, or one for all): the one
    formula, for a caller that sets the level another way (``reports.newcombe``)."""
    p = np.asarray(est.value, dtype=float)
    z = np.broadcast_to(np.asarray(z, dtype=float), p.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.where(est.no_spread(), est.units, p * (1 - p) / est.se**2)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.where(p <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        hi = np.where(p >= 1, 1.0, np.clip(centre + half, 0.0, 1.0))
    bad = ~np.isfinite(z) | ~np.isfinite(p)
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def given(cluster: np.ndarray, stratum: np.ndarray | None = None) -> Clusters:
    """Clusters from labels: ``cluster`` per trial, ``stratum`` per trial (default: one
    stratum; a cluster takes its first trial's)."""
    of = pd.factorize(np.asarray(cluster))[0].astype(np.int64)
    first = first_of(of)
    strata = np.zeros(first.size, np.int64)
    if stratum is not None:
        strata = pd.factorize(np.asarray(stratum))[0].astype(np.int64)[first]
    return Clusters(of, strata, int(strata.max(initial=-1)) + 1, False, first)


def clustered_rate(
    hits: np.ndarray, cluster: np.ndarray, stratum: np.ndarray | None = None
) -> tuple[float, float]:
    """95% interval of the rate of ``hits`` (one 0/1 per trial), the trials clustered by
    ``cluster`` and the clusters stratified by ``stratum`` (one label per trial; default: one
    stratum), computed as every report interval is (``wilson_t``)."""
    hits = np.asarray(hits, dtype=float)
    cl = given(cluster, stratum)
    n, of = cl.n, cl.of_game
    sums = Sums(
        np.zeros(n, np.int64), np.arange(n), np.bincount(of, weights=hits, minlength=n),
        np.bincount(of, minlength=n).astype(float), 1,
    )  # fmt: skip
    lo, hi = wilson_t(ratio_estimates(sums, cl))
    return float(lo[0]), float(hi[0])
