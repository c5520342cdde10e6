"""Neighbour effects: each strategy's win rate by the strategy seated directly before it.

In a game with a turn order (the declaration's ``turn_order``; 13 Leaves: the player after you
faces the ends you leave) "whom do you want to sit after?" is a finding in its own right.
Computed from the seat and winner columns only: the seat before seat ``s`` is
``(s - 1) % n_players`` (play goes clockwise, to the next seat). Under the balanced seating design every strategy sits after
every other equally often, so the rows of one strategy compare like with like.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .data import Games, as_games
from .stats import wilson
from .tables import design_effect

__all__ = ["neighbours", "neighbour_matrix"]


def _pair_code(b: Games, s: int) -> np.ndarray:
    """Per game: strategy in seat ``s`` * K + strategy seated before it (-1: no such pair)."""
    k = b.n_strategies
    n = b.n_players.astype(np.int64)
    before_seat = np.where(s == 0, n - 1, s - 1)
    me = b.seats[:, s].astype(np.int64)
    before = np.take_along_axis(
        b.seats.astype(np.int64), np.clip(before_seat, 0, None)[:, None], axis=1
    )[:, 0]
    ok = (s < n) & (me >= 0) & (before >= 0)
    return np.where(ok, me * k + before, -1)


def _counts(g: Games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, wins, fair-share wins), each (K, K): [strategy, strategy seated before it]."""
    k = g.n_strategies
    games = np.zeros(k * k)
    wins = np.zeros(k * k)
    fair = np.zeros(k * k)
    for b in g.blocks():
        n = b.n_players.astype(np.int64)
        won = b.wins()
        for s in range(b.seats.shape[1]):
            code = _pair_code(b, s)
            ok = code >= 0
            key = code[ok]
            games += np.bincount(key, minlength=k * k)
            wins += np.bincount(key, weights=won[ok, s], minlength=k * k)
            fair += np.bincount(key, weights=1.0 / n[ok], minlength=k * k)
    return games.reshape(k, k), wins.reshape(k, k), fair.reshape(k, k)


def neighbours(data: Any, order: list[str] | None = None) -> pd.DataFrame:
    """Per (strategy, before): games, wins, win rate with a 95% interval (Wilson's on the
    effective games, clustered by deal as in ``summary``), fair share, relative (win rate /
    fair share), and ``vs_overall``: the win rate minus the strategy's win rate over all its
    games. Rows for pairs that never met are left out; ``order`` sorts strategies (default: by
    label)."""
    g = as_games(data)
    games, wins, fair = _counts(g)
    k = g.n_strategies
    me, before = np.divmod(np.arange(k * k), k)
    deff = design_effect(g, wins.ravel(), games.ravel(), _pair_code)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo, hi = wilson(wins.ravel() / deff, games.ravel() / deff)
    overall = wins.sum(axis=1) / np.maximum(games.sum(axis=1), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins.ravel() / games.ravel()
        df = pd.DataFrame(
            {
                "strategy": [g.labels[i] for i in me],
                "before": [g.labels[j] for j in before],
                "games": games.ravel().astype(np.int64),
                "wins": wins.ravel().astype(np.int64),
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
                "fair_share": fair.ravel() / games.ravel(),
                "relative": rate / (fair.ravel() / games.ravel()),
                "vs_overall": rate - overall[me],
                "design_effect": deff,
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
