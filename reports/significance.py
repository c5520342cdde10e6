"""Is A really better than B? Paired tests over duplicate sets for the top strategies.

A tournament plays each deal of a table under a set of seatings, so within one duplicate set
(a deal at a table, ``reports.clusters``) the same cards pass through every strategy's hands:
the deal's luck cancels when A's and B's win rates are compared on the same cards. Over
the duplicate sets where both sit, the difference is A's win rate there less B's, set by set,
each set weighing as A's seats there (the rates shown beside it: B's at A's weights, its own
wherever it sits as often as A; ``win_rate_b_own`` is B's wins over its seats there), so A
and B are compared against the same opponents on the same cards, never A's tables against
B's. The sets are independent, the tables strata: the stratified cluster-robust error and a t
interval with the design's degrees of freedom (``reports.clusters.rate_differences``). Rows
without a ``deal`` column make each game its own unit (an unpaired comparison of the two
strategies' per-game results in the games they shared), and the table says so in
``method``. p-values are Holm-corrected over all pairs shown.

A duplicate set is one deal at one table, who sits there included: two strategies are paired
only within the sets both sat in, at the tables both sat at (``seat_sums(..., sets=True)``).
A gauntlet deals the baseline's copy of each of the strategy's tables the same cards (the same
deal stream): the two copies are two sets of one deal, so a field strategy is compared with
the strategy at the strategy's tables only, never with its own rate at the baseline's. The
deal, whose sets share their cards, stays the independent unit of the interval. The gauntlet's
own answer pairs its strategy with its baseline across the two copies, deal by deal:
``paired`` over per-deal sums (``seat_sums`` without ``sets``, ``reports.gauntlet``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tournaments.checks import integer

from .clusters import Sums, clusters, rate_differences, seat_sums, standardised
from .data import Games
from .loading import as_games
from .stats import holm, within
from .tables import ranked, summary

PAIRED = "paired by duplicate set (a deal at a table)"
UNPAIRED = "unpaired (per game, no deal column)"
RATE_B = ("win_rate_b: b's win rate with each {unit} weighted by a's seats there, so that "
          "diff = win_rate_a - win_rate_b; b's own, its wins over its seats there, is "
          "win_rate_b_own in significance.csv")  # fmt: skip
"""What ``win_rate_b`` is, for a reader who would count it from the rows (``paired``)."""


def method(g: Games) -> str:
    """How the run's comparisons are paired, in words."""
    return PAIRED if g.deal is not None and len(g) else UNPAIRED


def _of(sums: Sums, code: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rows' clusters or sets, wins, seats, clusters) of one group, sorted by the first."""
    lo, hi = np.searchsorted(sums.group, [code, code + 1])
    unit = sums.cluster if sums.unit is None else sums.unit
    return sums.cluster[lo:hi], sums.w[lo:hi], sums.n[lo:hi], unit[lo:hi]


Side = tuple[np.ndarray, np.ndarray]
"""One strategy's (wins, seats) per row where both of a pair sat."""


def _met(sums: Sums, a: int, b: int) -> tuple[Side, Side, np.ndarray] | None:
    """A's and B's (wins, seats) over the rows of ``sums`` where both sat, row by row, and
    those rows' independent units; None where they never met."""
    ca, wa, na, ua = _of(sums, a)
    cb, wb, nb, _ = _of(sums, b)
    both, ia, ib = np.intersect1d(ca, cb, assume_unique=True, return_indices=True)
    if not both.size:
        return None
    return (wa[ia], na[ia]), (wb[ib], nb[ib]), ua[ia]


def paired(g: Games, sums: Sums, a: int, b: int) -> dict[str, float] | None:
    """A - B in win rate over the rows of ``sums`` where both sat (from ``seat_sums``: per
    strategy and duplicate set with ``sets``, at the tables both sat at; per strategy and
    cluster without, a deal's sets together: a gauntlet's two sides): ``win_rate_a -
    win_rate_b``, compared row by row, each weighing as A's seats there (B's rate at those
    weights: its own wherever it sits as often as A, else ``own_rate``), with its 95% t
    interval, t, p, the independent deals (``units``) and degrees of freedom. None where
    they never met."""
    met = _met(sums, a, b)
    if met is None:
        return None
    a_sums, b_sums, units = met
    est = rate_differences(a_sums, b_sums, np.zeros(units.size, np.int64), units, 1, clusters(g))
    lo, hi = within(*est.interval())
    with np.errstate(invalid="ignore", divide="ignore"):
        t = float("nan") if est.no_spread()[0] else float(est.value[0] / est.se[0])
    return {
        "units": int(est.units[0]),
        "df": float(est.df[0]),
        "win_rate_a": float(a_sums[0].sum() / a_sums[1].sum()),
        "win_rate_b": standardised(a_sums, b_sums),
        "diff": float(est.value[0]),
        "se": float(est.se[0]),
        "ci_low": float(lo[0]),
        "ci_high": float(hi[0]),
        "t": t,
        "p_value": float(est.p_value()[0]),
    }


def own_rate(sums: Sums, a: int, b: int) -> float:
    """B's own win rate over the rows of ``sums`` where A sat too, its wins over its seats:
    the figure a reader counting those rows finds, which differs from ``paired``'s
    ``win_rate_b`` where B's seats are not in proportion to A's from row to row. NaN where
    they never met."""
    met = _met(sums, a, b)
    return float("nan") if met is None else float(met[1][0].sum() / met[1][1].sum())


TOP_LEAST = 2
"""The fewest strategies ``top`` compares pairwise (``leaves report --top`` takes 2 to 20): one
alone makes no pair, and its report would say the best two were never compared."""


def top_count(top: Any) -> int:
    """``top`` as a count of strategies (a numpy integer too): never a slice's -1, which would
    leave the last strategy out of the paired tests, nor 1, which compares no pair."""
    top = integer(top, "top", "a whole number of strategies")
    if top < TOP_LEAST:
        raise ValueError(f"top must be at least {TOP_LEAST} (the strategies compared pairwise), "
                         f"got {top}")  # fmt: skip
    return top


def significance(data: Any, top: int = 5, alpha: float = 0.05,
                 order: list[str] | None = None) -> pd.DataFrame:  # fmt: skip
    """Pairwise tests among the ``top`` strategies of ``order`` (default: the summary's, less
    the strategies with no valid game, ``reports.tables.ranked``):
    difference in win rate (``diff`` = A - B over the duplicate sets both sat in, with a 95% t
    interval: ``win_rate_a`` less ``win_rate_b``, B's rate at A's weights; B's own rate there
    is ``win_rate_b_own``, ``own_rate``), t statistic, two-sided p-value, Holm-adjusted
    p-value, and ``significant`` at ``alpha`` after adjustment; ``better`` names the winner
    of a significant pair. Paired within the duplicate sets both sat in (``paired``): a
    gauntlet's field strategy is compared with its strategy at the strategy's tables, with its
    baseline at the baseline's, and the two, who never share a table, not at all (the
    gauntlet's own table pairs them). ``units`` counts the deals (or games) compared, ``df``
    the interval's degrees of freedom; a pair whose run is too small for an interval has NaN
    bounds and p-values, and is never significant; a pair whose duplicate sets all gave the
    same difference has NaN bounds and ``t`` (no spread to give an interval from) and the exact
    sign test's p-value (``reports.clusters.Estimates.flat``). Games ended by a forfeit are
    left out: a duplicate set of them measures nothing (every rate 0), yet would count as one
    and narrow every interval."""
    g = as_games(data).finished()  # a set of forfeited games measures nothing
    order = (ranked(summary(g)) if order is None else order)[: top_count(top)]
    codes = [g.labels.index(s) for s in order]
    sums = seat_sums(g, g.n_strategies, sets=True)
    how = method(g)
    rows = []
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            r = paired(g, sums, a, b)
            if r is not None:
                own = own_rate(sums, a, b)
                rows.append({"a": g.labels[a], "b": g.labels[b], "method": how, **r,
                             "win_rate_b_own": own})  # fmt: skip
    cols = ["a", "b", "method", "units", "df", "win_rate_a", "win_rate_b", "win_rate_b_own",
            "diff", "se", "ci_low", "ci_high", "t", "p_value"]  # fmt: skip
    df = pd.DataFrame(rows, columns=cols)
    p = df["p_value"].to_numpy(dtype=float)
    df["p_holm"] = holm(p)
    df["significant"] = df["p_holm"] < alpha
    df["better"] = np.where(df["significant"], np.where(df["diff"] > 0, df["a"], df["b"]), "")
    unit = "duplicate set" if how == PAIRED else "game"
    df.attrs["measured"] = RATE_B.format(unit=unit)  # the page's note on the table
    return df
