"""The convergence chart of a tuning run, headless (a plain ``Figure``, as the reports draw)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from reports.charts import OKABE_ITO, OUTSIDE

__all__ = ["convergence"]


def convergence(
    candidates: pd.DataFrame,
    search: pd.DataFrame,
    names: Sequence[str],
    low: Sequence[float],
    high: Sequence[float],
) -> Figure:
    """Two panels over generations. Top: every candidate's win rate, the generation's best and
    median, and the starting parameters on the same deals. Bottom: where the search mean of
    each parameter lies in its range."""
    fig = Figure(figsize=(9, 7), layout="constrained", dpi=100)
    top, bottom = fig.subplots(2, 1, sharex=True)
    cand = candidates[candidates["kind"] == "candidate"]
    start = candidates[candidates["kind"] == "start"]
    top.scatter(cand["generation"], cand["win_rate"], s=8, color="0.65", label="candidate")
    by_gen = cand.groupby("generation")["win_rate"]
    best, median = by_gen.max(), by_gen.median()
    top.plot(best.index, best.to_numpy(), color=OKABE_ITO[0], label="best of generation")
    top.plot(median.index, median.to_numpy(), color=OKABE_ITO[2], label="median")
    top.plot(
        start["generation"], start["win_rate"], color=OKABE_ITO[1], ls="--",
        label="start (same deals)",
    )  # fmt: skip
    top.yaxis.set_major_formatter(PercentFormatter(1.0))
    top.set_ylabel("win rate vs the field")
    top.legend(**OUTSIDE)
    lo, hi = np.asarray(low, float), np.asarray(high, float)
    for i, name in enumerate(names):
        frac = (search[name].to_numpy(float) - lo[i]) / (hi[i] - lo[i])
        bottom.plot(search["generation"], frac, color=OKABE_ITO[i % len(OKABE_ITO)],
                    ls="-" if i < len(OKABE_ITO) else ":", label=name)  # fmt: skip
    bottom.set_ylim(-0.02, 1.02)
    bottom.set_ylabel("search mean (fraction of range)")
    bottom.set_xlabel("generation")
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))  # shared: both panels
    bottom.legend(**OUTSIDE)
    return fig
