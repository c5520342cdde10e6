"""A run's duplicate sets, and a measure of a run as a sum over them: what the comparison of
rule variants (``variants_metrics``) and the designers' measures (``designer_measures``) both
build on. A mean or a share over games is a ratio, linearised per set as ``(sum - value *
count) / all counted``; a paired difference of two strategies is a mean over the sets where
both sat; each set's key matches it between runs of one design."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .clusters import Sums, clusters, seat_sums
from .data import Games

__all__ = ["PER_SEAT_PAIR", "Design", "Measure", "decided", "decided_sums", "design",
           "forfeiters", "measure", "paired_sets", "ratio", "shared_units"]  # fmt: skip

PER_SEAT_PAIR = ", per seat pair"
"""How the best-against-random share's ``detail`` ends where a table seats one of the two
strategies twice: a game then counts once per pair of their seats."""


def shared_units(detail: str) -> str:
    """What the best-against-random share (its ``detail``) counts: 'games', or 'seat pairs'
    where some game holds more than one pair of the two strategies' seats."""
    return "seat pairs" if detail.endswith(PER_SEAT_PAIR) else "games"


@dataclass(frozen=True)
class Measure:
    """One measure of one run: its ``value`` and, per duplicate set that counts, the set's
    ``key`` (comparable between runs of one design), ``stratum`` and linearised contribution
    ``u`` (the value's error is the stratified spread of ``u``). ``rate``: a share (its
    interval stays inside [0, 1]); ``fair`` is subtracted from the value shown (a seat's fair
    share); ``detail`` names what it compares (``weighted - random``); ``bounds``: the range
    the value can take where it is not a share (a difference of two win rates lies in
    [-1, 1]), which its interval is kept inside."""

    metric: str
    n_players: str
    position: int
    value: float
    key: np.ndarray
    stratum: np.ndarray
    u: np.ndarray
    rate: bool
    games: int
    fair: float = 0.0
    detail: str = ""
    pooled: bool = False
    bounds: tuple[float, float] | None = None

    @property
    def id(self) -> tuple[str, str, int]:
        """What a measure of another run is matched on."""
        return self.metric, self.n_players, self.position


@dataclass(frozen=True)
class Design:
    """A run's duplicate sets: per game its set, per set its key, stratum and table size."""

    g: Games
    of_game: np.ndarray
    key: np.ndarray
    stratum: np.ndarray
    size: np.ndarray
    pooled: bool
    comparable: bool  # keys are (deal stream, deal): the same numbers in a run of one design


def design(g: Games) -> Design:
    cl = clusters(g)
    first = cl.first
    size = g.n_players[first].astype(np.int64)
    if g.table is None or g.deal is None:  # no (stream, deal) to match: this run's own sets
        return Design(g, cl.of_game, np.arange(cl.n), cl.stratum.astype(np.int64), size,
                       cl.pooled, False)  # fmt: skip
    table = g.table.astype(np.int64)[first]
    key = (table << 32) + g.deal.astype(np.int64)[first]
    _, inv, count = np.unique(table, return_inverse=True, return_counts=True)
    single = count[inv.ravel()] == 1  # a table dealt once: pooled per size, as clusters() does
    stratum = np.where(single, -1 - size, table)
    return Design(g, cl.of_game, key, stratum, size, bool(single.any()), True)


def ratio(d: Design, rows: np.ndarray, x: np.ndarray, counted: np.ndarray,
           sets: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, int] | None:  # fmt: skip
    """The ratio sum(x) / count over the rows ``counted`` (row i in set ``rows[i]``) of the
    sets ``sets`` (a mask over sets): (value, the sets' indices, their contributions, rows
    counted); None where nothing counts."""
    n_sets = d.key.size
    w = np.bincount(rows, weights=np.where(counted, x, 0.0), minlength=n_sets)
    n = np.bincount(rows, weights=counted.astype(float), minlength=n_sets)
    idx = np.flatnonzero(sets)
    total = n[idx].sum()
    if total <= 0:
        return None
    value = w[idx].sum() / total
    return value, idx, (w[idx] - value * n[idx]) / total, int(total)


def measure(d: Design, metric: str, n: str, got, rate: bool, **kw) -> Measure | None:
    if got is None:
        return None
    value, idx, u, games = got
    return Measure(metric, n, kw.pop("position", -1), float(value), d.key[idx],
                   d.stratum[idx], u, rate, games, pooled=d.pooled, **kw)  # fmt: skip


def paired_sets(d: Design, sums, a: int, b: int):
    """(value, keys, strata, contributions) of the mean per-set difference a - b."""
    sel_a, sel_b = sums.group == a, sums.group == b
    both, ia, ib = np.intersect1d(sums.cluster[sel_a], sums.cluster[sel_b],
                                  assume_unique=True, return_indices=True)  # fmt: skip
    if not both.size:
        return None
    diff = sums.w[sel_a][ia] / sums.n[sel_a][ia] - sums.w[sel_b][ib] / sums.n[sel_b][ib]
    return float(diff.mean()), d.key[both], d.stratum[both], diff / both.size


def decided(g: Games) -> np.ndarray:
    """bool (N,): the games someone won, not ended by a forfeit (where none is, no win rate
    tells skill: every rate is nobody's)."""
    return g.wins().any(axis=1) & ~g.forfeited


def forfeiters(g: Games) -> np.ndarray:
    """The codes of the strategies that forfeited a game of ``g``: the games they finished
    are only those that ended before they broke, no fair sample of their skill."""
    seat = g.forfeit_seat.astype(np.int64)
    at = g.forfeited & (seat >= 0)
    return np.unique(g.seats[np.flatnonzero(at), seat[at]].astype(np.int64))


def decided_sums(d: Design) -> Sums:
    """Per (strategy, duplicate set): wins and seats over the games someone won (``decided``),
    the strategies that forfeited a game left out (``forfeiters``). A game ended by a forfeit
    says nothing of the rules; an unfinished one is nobody's win, and counted it would shrink
    every win rate and every gap between them by the share of games a turn limit stops, which
    says how often games finish, not how much skill matters: the skill measures count the
    finished games, as the seats' edges do."""
    broken = forfeiters(d.g)

    def code(b: Games, s: int) -> np.ndarray:
        c = b.seats[:, s].astype(np.int64)
        return np.where(decided(b) & ~np.isin(c, broken), c, -1)

    return seat_sums(d.g, d.g.n_strategies, code=code)
