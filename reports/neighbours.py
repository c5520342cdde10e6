"""Neighbour effects: each strategy's win rate by the strategy seated directly before it.

In a game with a turn order (the declaration's ``turn_order``; 13 Leaves: the player after you
faces the ends you leave) "whom do you want to sit after?" is a finding in its own right.
Computed from the seat and winner columns only: the seat before seat ``s`` is
``(s - 1) % n_players`` (play goes clockwise, to the next seat).

Sitting after X is compared with sitting at a table with X anywhere else (``vs_elsewhere``),
not only with the strategy's overall win rate (``vs_overall``): with more strategies than
seats, a strategy's games with X before it are also games with X at the table, so
``vs_overall`` mixes "X before me" with "X at my table at all" (a weak X raises both).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .data import Games, as_games
from .stats import Z95, wilson
from .tables import design_effect

__all__ = ["neighbours", "neighbour_matrix"]


def _pair_code(b: Games, s: int, back: int = 1) -> np.ndarray:
    """Per game: strategy in seat ``s`` * K + strategy ``back`` seats before it (-1: no such
    pair, or ``back`` reaches round to ``s`` itself)."""
    k = b.n_strategies
    n = b.n_players.astype(np.int64)
    other = (s - back) % np.maximum(n, 1)
    me = b.seats[:, s].astype(np.int64)
    them = np.take_along_axis(b.seats.astype(np.int64), other[:, None], axis=1)[:, 0]
    ok = (s < n) & (back < n) & (me >= 0) & (them >= 0)
    return np.where(ok, me * k + them, -1)


def _elsewhere_codes(b: Games, s: int) -> np.ndarray:
    """(N, S - 2): the pair codes of seat ``s`` with every other seat but the one before it."""
    cols = [_pair_code(b, s, back) for back in range(2, b.seats.shape[1])]
    return np.stack(cols, axis=1) if cols else np.full((len(b.seats), 0), -1, np.int64)


def _counts(g: Games) -> tuple[np.ndarray, ...]:
    """Per player count: (games, wins) with the strategy before, then (games, wins) with it
    at another seat of the table, each (largest n + 1, K * K): [n, strategy * K + other]."""
    kk = g.n_strategies**2
    slots = int(g.n_players.max()) + 1 if len(g) else 1
    out = [np.zeros(slots * kk) for _ in range(4)]
    games, wins, games_else, wins_else = out
    for b in g.blocks():
        n = b.n_players.astype(np.int64)
        won = b.wins()
        for s in range(b.seats.shape[1]):
            for col, gm, wn in (
                (_pair_code(b, s), games, wins),
                *((c, games_else, wins_else) for c in _elsewhere_codes(b, s).T),
            ):
                ok = col >= 0
                key = (n * kk + col)[ok]
                gm += np.bincount(key, minlength=slots * kk)
                wn += np.bincount(key, weights=won[ok, s], minlength=slots * kk)
    return tuple(x.reshape(slots, kk) for x in out)


def _vs_elsewhere(
    games: np.ndarray, wins: np.ndarray, games_else: np.ndarray, wins_else: np.ndarray,
    deff: np.ndarray, deff_else: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(difference, half width of its 95% interval) per pair: the win rate after the other
    strategy minus the win rate with it elsewhere at the table, within each player count (a
    3-player game is easier to win, and a weak tablemate matters more there), averaged over
    player counts weighted by the smaller side's games. Both rates' clustered errors are taken
    as independent; duplicate deals correlate them positively, so the interval errs wide."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p, q = wins / games, wins_else / games_else
        both = (games > 0) & (games_else > 0)
        weight = np.where(both, np.minimum(games, games_else), 0.0)
        var = deff * p * (1 - p) / games + deff_else * q * (1 - q) / games_else
        total = weight.sum(axis=0)
        diff = np.where(both, p - q, 0.0)
        diff = (weight * diff).sum(axis=0) / total
        se = np.sqrt((weight**2 * np.where(both, var, 0.0)).sum(axis=0)) / total
    return diff, Z95 * se


def neighbours(data: Any, order: list[str] | None = None) -> pd.DataFrame:
    """Per (strategy, before): games, wins, win rate with a 95% interval (Wilson's on the
    effective games, clustered by deal as in ``summary``), fair share, relative (win rate /
    fair share), ``vs_overall`` (the win rate minus the strategy's win rate over all its
    games) and the comparison that isolates the seat: ``elsewhere_rate``, the strategy's win
    rate over its games with ``before`` at another seat of the table (each such seat counts
    once), and ``vs_elsewhere`` with a 95% interval: sitting after ``before`` against sharing
    a table with it elsewhere, compared within each player count (see ``_vs_elsewhere``).
    Rows for pairs that never met are left out; ``order`` sorts strategies (default: by
    label)."""
    g = as_games(data)
    by_n = _counts(g)
    games, wins, games_else, wins_else = (x.sum(axis=0) for x in by_n)
    n_of = np.arange(by_n[0].shape[0])[:, None]
    fair = (by_n[0] / np.maximum(n_of, 1)).sum(axis=0)
    k = g.n_strategies
    me, before = np.divmod(np.arange(k * k), k)
    deff = design_effect(g, wins, games, _pair_code)
    deff_else = design_effect(g, wins_else, games_else, _elsewhere_codes)
    diff, half = _vs_elsewhere(*by_n, deff, deff_else)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo, hi = wilson(wins / deff, games / deff)
        overall = wins.reshape(k, k).sum(axis=1) / np.maximum(games.reshape(k, k).sum(axis=1), 1)
        rate = wins / games
        df = pd.DataFrame(
            {
                "strategy": [g.labels[i] for i in me],
                "before": [g.labels[j] for j in before],
                "games": games.astype(np.int64),
                "wins": wins.astype(np.int64),
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
                "fair_share": fair / games,
                "relative": rate / (fair / games),
                "vs_overall": rate - overall[me],
                "design_effect": deff,
                "elsewhere_games": games_else.astype(np.int64),
                "elsewhere_rate": wins_else / games_else,
                "vs_elsewhere": diff,
                "vs_elsewhere_low": diff - half,
                "vs_elsewhere_high": diff + half,
            }
        )
    df = df[df["games"] > 0]
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
