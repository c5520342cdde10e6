"""Is A really better than B? Paired tests over duplicate deals for the top strategies.

A tournament plays each deal under a set of seatings, so within one deal the same cards pass
through every strategy's hands: the deal's luck cancels when A's and B's win rates are compared
deal by deal. The unit of the test is therefore the deal (rows sharing the ``deal`` column): per
deal, d = (A's win rate over its seats in that deal) - (B's), and a t-test on the mean of d.
Without a ``deal`` column each game is its own unit (no pairing across seatings: an unpaired
comparison of the two strategies' per-game results in the games they shared), and the table says
so in ``method``. p-values are Holm-corrected over all pairs shown.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from .data import BLOCK, Games, as_games
from .stats import holm
from .tables import strength_order

PAIRED = "paired by deal"
UNPAIRED = "unpaired (per game, no deal column)"


def per_unit(
    g: Games, codes: list[int]
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray], str]:
    """(wins, seats) per pairing unit for each strategy code, and the pairing method: the unit
    is the deal when the games have a deal column (paired), else the game (unpaired)."""
    if g.deal is not None:
        unit, _ = pd.factorize(g.deal)
        method = PAIRED
    else:
        unit = np.arange(len(g))
        method = UNPAIRED
    n_units = int(unit.max()) + 1 if len(unit) else 0
    wins = {c: np.zeros(n_units) for c in codes}
    seats = {c: np.zeros(n_units) for c in codes}
    for start, b in zip(range(0, len(g), BLOCK), g.blocks(BLOCK), strict=False):
        u = unit[start : start + len(b)]
        won = np.where(b.winner >= 0, b.seats[np.arange(len(b)), np.maximum(b.winner, 0)], -1)
        for c in codes:
            at = np.zeros(len(b), dtype=np.int8)
            for s in range(b.seats.shape[1]):
                at += b.seats[:, s] == c
            seats[c] += np.bincount(u, weights=at, minlength=n_units)
            wins[c] += np.bincount(u, weights=won == c, minlength=n_units)
    return wins, seats, method


def paired_difference(wins_a, seats_a, wins_b, seats_b) -> dict[str, float] | None:
    """A - B in win rate over the units where both played: per unit d = A's win rate there -
    B's, then a t-test on the mean of d with a 95% t interval. None with fewer than 2 units."""
    both = (seats_a > 0) & (seats_b > 0)
    m = int(both.sum())
    if m < 2:
        return None
    d = wins_a[both] / seats_a[both] - wins_b[both] / seats_b[both]
    mean = d.mean()
    se = d.std(ddof=1) / np.sqrt(m)
    if se > 0:
        t = mean / se
        p = 2 * sps.t.sf(abs(t), m - 1)
    else:
        t, p = (0.0, 1.0) if mean == 0 else (np.inf * np.sign(mean), 0.0)
    half = sps.t.ppf(0.975, m - 1) * se
    return {
        "units": m,
        "win_rate_a": wins_a[both].sum() / seats_a[both].sum(),
        "win_rate_b": wins_b[both].sum() / seats_b[both].sum(),
        "diff": mean,
        "ci_low": mean - half,
        "ci_high": mean + half,
        "t": t,
        "p_value": p,
    }


def significance(data: Any, top: int = 5, alpha: float = 0.05,
                 order: list[str] | None = None) -> pd.DataFrame:  # fmt: skip
    """Pairwise tests among the ``top`` strategies of ``order`` (default: the summary's): difference in win
    rate (``diff`` = A - B, with a 95% t interval), t statistic, two-sided p-value, Holm-adjusted
    p-value, and ``significant`` at ``alpha`` after adjustment; ``better`` names the winner of a
    significant pair. ``units`` counts deals (or games) where both played."""
    g = as_games(data)
    order = (order or strength_order(g))[:top]
    codes = [g.labels.index(s) for s in order]
    wins, seats, method = per_unit(g, codes)
    rows = []
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            r = paired_difference(wins[a], seats[a], wins[b], seats[b])
            if r is not None:
                rows.append({"a": g.labels[a], "b": g.labels[b], "method": method, **r})
    cols = ["a", "b", "method", "units", "win_rate_a", "win_rate_b", "diff", "ci_low",
            "ci_high", "t", "p_value"]  # fmt: skip
    df = pd.DataFrame(rows, columns=cols)
    df["p_holm"] = holm(df["p_value"].to_numpy())
    df["significant"] = df["p_holm"] < alpha
    df["better"] = np.where(df["significant"], np.where(df["diff"] > 0, df["a"], df["b"]), "")
    return df
