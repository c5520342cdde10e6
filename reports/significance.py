"""Is A really better than B? Paired tests over duplicate deals for the top strategies.

A tournament plays each deal under a set of seatings, so within one deal the same cards pass
through every strategy's hands: the deal's luck cancels when A's and B's win rates are compared
on the same cards. The pairing unit is one table on one deal (rows sharing ``n_players``,
``deal`` and the strategies seated): per unit where both sit, d = (A's win rate over its seats
there) - (B's), so A and B are compared against the same opponents on the same cards, never
A's tables against B's. The tables of one size share their deals, so units of one deal are
not independent: d is averaged per deal and the t-test runs over deals. Without a ``deal``
column each game is its own unit (no pairing across seatings: an unpaired comparison of the
two strategies' per-game results in the games they shared), and the table says so in
``method``. p-values are Holm-corrected over all pairs shown.

A gauntlet pairs across tables by design (the baseline takes the strategy's seat at a copy of
its table): :func:`per_unit` with the default ``by_table=False`` pairs by deal alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import special  # scipy.stats' t distribution is these, without its 1 s import

from .data import BLOCK, Games, as_games
from .stats import holm
from .tables import strength_order

PAIRED = "paired by deal"
UNPAIRED = "unpaired (per game, no deal column)"


def _table_codes(g: Games) -> np.ndarray:
    """Per game, which strategies sit at its table (a multiset, whatever the seating) as one
    integer."""
    seated = np.sort(g.seats.astype(np.int64) + 1, axis=1)  # empty seats (-1) become 0
    base = g.n_strategies + 1
    if base ** seated.shape[1] >= 2**62:  # pragma: no cover - thousands of strategies
        return np.unique(seated, axis=0, return_inverse=True)[1].ravel().astype(np.int64)
    key = np.zeros(len(g), dtype=np.int64)
    for col in seated.T:
        key = key * base + col
    return key


def _deal_codes(g: Games) -> np.ndarray:
    """Per game, its deal: the deal index within its table size (sizes deal different cards)."""
    return g.n_players.astype(np.int64) * (int(g.deal.max()) + 1) + g.deal.astype(np.int64)


def units(g: Games, by_table: bool = True) -> tuple[np.ndarray, np.ndarray, str]:
    """(unit per game, deal cluster per unit, method). Units are (table, deal) with
    ``by_table``, else deals; each game is its own unit and cluster without a deal column."""
    if g.deal is None or len(g) == 0:
        unit = np.arange(len(g))
        return unit, unit, UNPAIRED
    deal = _deal_codes(g)
    key = deal
    if by_table:
        tables, _ = pd.factorize(_table_codes(g))
        key = deal * (int(tables.max()) + 1) + tables
    unit, _ = pd.factorize(key)
    first = np.unique(unit, return_index=True)[1]  # a game of each unit, in unit order
    return unit.astype(np.int64), deal[first], PAIRED


def _count(
    g: Games, codes: list[int], unit: np.ndarray
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """(wins, seats) per unit for each strategy code: seats it took and seats of it that won
    (every seat tied for the best value wins in a game with shared wins)."""
    n_units = int(unit.max()) + 1 if len(unit) else 0
    wins = {c: np.zeros(n_units) for c in codes}
    seats = {c: np.zeros(n_units) for c in codes}
    for start, b in zip(range(0, len(g), BLOCK), g.blocks(BLOCK), strict=False):
        u = unit[start : start + len(b)]
        won = b.wins()
        for c in codes:
            mine = b.seats == c
            seats[c] += np.bincount(u, weights=mine.sum(axis=1), minlength=n_units)
            wins[c] += np.bincount(u, weights=(mine & won).sum(axis=1), minlength=n_units)
    return wins, seats


def per_unit(
    g: Games, codes: list[int], by_table: bool = False
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray], str]:
    """(wins, seats) per pairing unit for each strategy code, and the pairing method: the unit
    is the deal (``by_table``: the table on that deal) when the games have a deal column
    (paired), else the game (unpaired)."""
    unit, _, method = units(g, by_table)
    wins, seats = _count(g, codes, unit)
    return wins, seats, method


def paired_difference(
    wins_a, seats_a, wins_b, seats_b, cluster: np.ndarray | None = None
) -> dict[str, float] | None:
    """A - B in win rate over the units where both played: per unit d = A's win rate there -
    B's, averaged per ``cluster`` (by default each unit is its own), then a t-test on the mean
    over clusters with a 95% t interval; ``units`` counts those clusters. None with fewer than
    2 clusters."""
    both = (seats_a > 0) & (seats_b > 0)
    d = wins_a[both] / seats_a[both] - wins_b[both] / seats_b[both]
    if cluster is not None:
        c, _ = pd.factorize(cluster[both])
        d = np.bincount(c, weights=d) / np.bincount(c) if len(c) else d
    m = len(d)
    if m < 2:
        return None
    mean = d.mean()
    se = d.std(ddof=1) / np.sqrt(m)
    if se > 0:
        t = mean / se
        p = 2 * special.stdtr(m - 1, -abs(t))  # t.sf(|t|, m - 1)
    else:
        t, p = (0.0, 1.0) if mean == 0 else (np.inf * np.sign(mean), 0.0)
    half = special.stdtrit(m - 1, 0.975) * se  # t.ppf(0.975, m - 1)
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
    significant pair. ``units`` counts deals (or games) where both sat at one table."""
    g = as_games(data)
    order = (order or strength_order(g))[:top]
    codes = [g.labels.index(s) for s in order]
    unit, cluster, method = units(g, by_table=True)
    wins, seats = _count(g, codes, unit)
    rows = []
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            r = paired_difference(wins[a], seats[a], wins[b], seats[b], cluster)
            if r is not None:
                rows.append({"a": g.labels[a], "b": g.labels[b], "method": method, **r})
    cols = ["a", "b", "method", "units", "win_rate_a", "win_rate_b", "diff", "ci_low",
            "ci_high", "t", "p_value"]  # fmt: skip
    df = pd.DataFrame(rows, columns=cols)
    df["p_holm"] = holm(df["p_value"].to_numpy())
    df["significant"] = df["p_holm"] < alpha
    df["better"] = np.where(df["significant"], np.where(df["diff"] > 0, df["a"], df["b"]), "")
    return df
