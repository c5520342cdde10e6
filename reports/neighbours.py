"""Neighbour effects: each strategy's win rate by the strategy seated directly before it.

In a game with a turn order (the declaration's ``turn_order``: the player after you
faces what you leave) "whom do you want to sit after?" is a finding in its own right.
Computed from the seat and winner columns only: the seat before seat ``s`` is
``(s - 1) % n_players`` (play goes clockwise, to the next seat).

Sitting after X is compared with sitting at a table with X anywhere else (``vs_elsewhere``),
not only with the strategy's overall win rate (``vs_overall``): with more strategies than
seats, a strategy's games with X before it are also games with X at the table, so
``vs_overall`` mixes "X before me" with "X at my table at all" (a weak X raises both).
The two sides never share a game: "after X" is a game with a copy of X directly before the
strategy, "X elsewhere" a game with X at the table and no copy of it directly before (a table
seating X twice, one copy before the strategy and one not, is a game after X only; counted as
both it would compare that game with itself and pull the effect toward zero). A duplicate set
is compared only where it has games of both kinds. Where X sits directly before the strategy
in every game the two share, no set is left: there is no other seat to compare, and the effect
is empty (``no_other_seat``), not measured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .clusters import (
    Estimates,
    Sums,
    clusters,
    rate_differences,
    ratio_estimates,
    seat_sums,
    wilson_t,
)
from .data import BLOCK, Games, ReportError
from .loading import as_games
from .stats import within

__all__ = ["neighbours", "neighbour_matrix", "no_other_seat"]


def _pair_code(b: Games, s: int, back: int = 1) -> np.ndarray:
    """Per game: strategy in seat ``s`` * K + strategy ``back`` seats before it (-1: no such
    pair, or ``back`` reaches round to ``s`` itself)."""
    k = b.n_strategies
    n = b.n_players.astype(np.int32)
    # the seat ``back`` before ``s`` without a modulo (valid rows have back < n and s < n)
    other = np.clip(s - back + np.where(s >= back, 0, n), 0, b.seats.shape[1] - 1)
    me = b.seats[:, s].astype(np.int32)
    them = np.take_along_axis(b.seats, other[:, None], axis=1)[:, 0].astype(np.int32)
    ok = (s < n) & (back < n) & (me >= 0) & (them >= 0)
    return np.where(ok, me * k + them, -1).astype(np.int64)


def _par_share(b: Games) -> np.ndarray:
    """(N, S): each seat's par share of its game's wins (winners / players), as the
    summary's ``par`` counts it (``reports.tables.summary``): 0 in a game nobody won."""
    winners = b.wins().sum(axis=1, keepdims=True)
    share = winners / np.maximum(b.n_players, 1)[:, None]
    return np.broadcast_to(share, b.seats.shape)


def _elsewhere_codes(b: Games, s: int) -> np.ndarray:
    """(N, S - 2): per game, the pair code of seat ``s`` with each strategy at the table but
    not directly before it (-1 in the other columns): one code per strategy however many
    seats it holds (a game is one game elsewhere), and none for the strategy directly before,
    wherever else a copy of it sits (that game is one after it, never one elsewhere)."""
    after = _pair_code(b, s)
    cols = [_pair_code(b, s, back) for back in range(2, b.seats.shape[1])]
    if not cols:
        return np.full((len(b.seats), 0), -1, np.int64)
    codes = np.sort(np.stack(cols, axis=1), axis=1)
    codes[:, 1:][codes[:, 1:] == codes[:, :-1]] = -1  # a strategy seated twice elsewhere: once
    return np.where(codes == after[:, None], -1, codes)


def _games_once(g: Games, code: Callable[[Games, int], np.ndarray], n: int) -> np.ndarray:
    """Per pair code (``n`` of them), the games in which some seat gives it, each game once
    however many of a strategy's seats give it there (``code`` as ``seat_sums`` takes it);
    blocks of at most ``BLOCK`` codes (a seat may give several)."""
    out = np.zeros(n, np.int64)
    for b in g.blocks(max(1, BLOCK // g.seats.shape[1] ** 2)):
        if not len(b):  # no game (every one forfeited)
            continue
        each = [code(b, s).reshape(len(b), -1) for s in range(b.seats.shape[1])]
        codes = np.sort(np.concatenate(each, axis=1), axis=1)
        codes[:, 1:][codes[:, 1:] == codes[:, :-1]] = -1  # a game's code once
        out += np.bincount(codes[codes >= 0], minlength=n)
    return out


def no_other_seat(table: pd.DataFrame) -> pd.Series:
    """The rows of a neighbours table whose seat effect has nothing to compare: ``before``
    sits directly before the strategy at every table the two share."""
    if "no_other_seat" not in table:
        return pd.Series(False, index=table.index)
    return table["no_other_seat"].astype(bool)


def _vs_elsewhere(
    g: Games, before: Sums, elsewhere: Sums
) -> tuple[Estimates, np.ndarray, np.ndarray]:
    """Per pair (strategy * K + other): the win rate after the other strategy minus the win
    rate with it elsewhere at the table (``_elsewhere_codes``: never a game after it), within
    each duplicate set that has games of both kinds (the same table, the same cards, the same
    opponents), each set weighing as its games after the other, with the stratified
    cluster-robust error of ``reports.clusters.rate_differences``; and the two rates it is
    the difference of: after the other over those sets, and elsewhere at the same weights
    (``standardised``: a table of five counts its games with the other elsewhere as much as
    its games after it, however many more there are)."""
    c = max(clusters(g).n, 1)
    k1, k2 = before.group * c + before.cluster, elsewhere.group * c + elsewhere.cluster
    both, i1, i2 = np.intersect1d(k1, k2, assume_unique=True, return_indices=True)
    group = both // c
    wa, na = before.w[i1], before.n[i1]
    est = rate_differences((wa, na), (elsewhere.w[i2], elsewhere.n[i2]), group, both % c,
                           before.n_groups, clusters(g))  # fmt: skip
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.bincount(group, wa, before.n_groups) / np.bincount(group, na, before.n_groups)
    return est, after, after - est.value


def neighbours(data: Any, order: list[str] | None = None) -> pd.DataFrame:
    """Per (strategy, before): ``games`` (the games it sat directly after ``before``, once each),
    ``seats`` (its seats directly after ``before``: its games, unless it held two such seats at a
    table), wins, win rate (per seat: wins over seats) with a 95% interval (counted as in
    ``summary``: duplicate sets the units, tables the strata), fair share, ``par`` and ``relative``
    (win rate / fair share) by the summary's rules (``reports.tables.summary``: par, the share of
    the games' wins a seat at random would take, is a reference that the strategies' own play moves,
    so nothing is ranked by it), ``vs_overall`` (the win rate minus the strategy's win rate over all
    its games) and the comparison that isolates the seat, within each duplicate set with games of
    both kinds (``vs_elsewhere_sets``; see ``_vs_elsewhere``): ``shared_rate``, the win rate after
    ``before`` over those sets (``win_rate`` wherever every set has both), ``elsewhere_rate``, the
    strategy's win rate in its games with ``before`` at the table and no copy of it directly before
    (each such game counts once, however many seats either holds; ``elsewhere_games``), each set
    weighing as its games after ``before``, and ``vs_elsewhere`` = ``shared_rate - elsewhere_rate``
    with a 95% interval and p-value: sitting after ``before`` against sharing a table with it
    elsewhere; empty, with no set counted, where ``before`` sits directly before the strategy in
    every game the two share (``no_other_seat``: nothing to compare). Rows for pairs that never met
    are left out; ``order`` sorts strategies (default: by label). Games ended by a forfeit are left
    out, as ``significance`` leaves them. A game that declares no turn order has no seat that
    matters before another: ``ReportError`` in one line, as the page leaves it out."""
    g = as_games(data)
    if not g.declaration.turn_order:
        raise ReportError(f"no neighbour table for {g.declaration.title}: it has no turn "
                          "order, so the seat before a player does not matter")  # fmt: skip
    g = g.finished()
    k = g.n_strategies
    me, before = np.divmod(np.arange(k * k), k)
    after = seat_sums(g, k * k, _pair_code)
    elsewhere = seat_sums(g, k * k, _elsewhere_codes)
    wins, seats = after.totals()
    games, games_else = (_games_once(g, c, k * k) for c in (_pair_code, _elsewhere_codes))
    size = g.n_players[clusters(g).first[after.cluster]].astype(np.float64)
    fair = np.bincount(after.group, weights=after.n / np.maximum(size, 1), minlength=k * k)
    par = seat_sums(g, k * k, _pair_code, _par_share).totals()[0]
    est = ratio_estimates(after, clusters(g))
    effect, shared_rate, else_rate = _vs_elsewhere(g, after, elsewhere)
    same = games_else == 0  # directly before in every game the two share
    diff = effect.value
    eff_lo, eff_hi = within(*effect.interval())  # a difference of rates: within +-100 points
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = est.design_effect(seats)
        lo, hi = wilson_t(est)
        overall = wins.reshape(k, k).sum(axis=1) / np.maximum(seats.reshape(k, k).sum(axis=1), 1)
        rate = wins / seats
        df = pd.DataFrame(
            {
                "strategy": [g.labels[i] for i in me],
                "before": [g.labels[j] for j in before],
                "games": games,
                "wins": wins.astype(np.int64),
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
                "seats": seats.astype(np.int64),  # after the pinned columns, as the summary's
                "fair_share": fair / seats,
                "par": par / seats,
                "relative": rate / (fair / seats),
                "vs_overall": rate - overall[me],
                "design_effect": deff,
                "elsewhere_games": games_else,
                "shared_rate": shared_rate,
                "elsewhere_rate": else_rate,
                "vs_elsewhere": diff,
                "vs_elsewhere_low": eff_lo,
                "vs_elsewhere_high": eff_hi,
                "vs_elsewhere_sets": effect.units.astype(np.int64),
                "vs_elsewhere_p": effect.p_value(),
                "no_other_seat": same,
            }
        )
    df = df[df["seats"] > 0]
    rank = {s: i for i, s in enumerate(order or sorted(g.labels))}
    key = df["strategy"].map(rank).fillna(len(rank)) * (len(rank) + 1) + df["before"].map(
        rank
    ).fillna(len(rank))
    return (
        df.assign(_k=key).sort_values("_k", kind="stable").drop(columns="_k").reset_index(drop=True)
    )


def neighbour_matrix(table: pd.DataFrame, value: str = "win_rate") -> pd.DataFrame:
    """The neighbours table as a matrix: rows strategy, columns the strategy before it."""
    order = list(dict.fromkeys(table["strategy"]))
    cols = list(dict.fromkeys(table["before"]))
    cols = [c for c in order if c in cols] + [c for c in cols if c not in order]
    return table.pivot(index="strategy", columns="before", values=value).reindex(
        index=order, columns=cols
    )
