"""Charts of a comparison of rule variants, in the style of ``reports.charts``: per measure
the value under each rule set with its 95% interval (the default rules first, their value
a dashed line), the seats' edges per rule set, and the distribution of game length."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .charts import LINESTYLES, OKABE_ITO, OUTSIDE, _axes, _fit, _height, _percent, style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["CHARTS", "measure", "seats", "turns"]

CHARTS = {
    "turns": ("Game length: mean turns per game", "mean turns per game", False),
    "rounds": ("Game length: mean rounds per game", "mean rounds per game", False),
    "skill_spread": ("How much skill matters: best minus worst strategy",
                     "win rate of the best less the worst (paired by deal)", True),
    "best_vs_random": ("The best strategy against random play",
                       "share of shared games the best finishes ahead of random", True),
    "runner_up": ("How close games are: the runner-up's cards left",
                  "mean cards left by the runner-up (finished games)", False),
    "unfinished": ("Unfinished games (turn limit)", "share of games unfinished", True),
    "shared_wins": ("Expert matches won by tied players", "share of matches with a shared win",
                    True),
    "match_games": ("Expert match length", "mean games per match", False),
}  # fmt: skip
"""Per measure: the chart's title, its value axis and whether the value is a share."""


def measure(metrics: pd.DataFrame, metric: str, ax: Axes | None = None) -> Figure:
    """One measure (overall) under each rule set, with its 95% interval; the default rules'
    value (the first row) as a dashed line."""
    title, label, share = CHARTS[metric]
    d = metrics[(metrics["metric"] == metric) & (metrics["n_players"] == "all")]
    fig, ax = _axes(ax, (8.5, _height(len(d))))
    y = np.arange(len(d))[::-1]
    v = d["value"].to_numpy(float)
    lo, hi = d["ci_low"].to_numpy(float), d["ci_high"].to_numpy(float)
    err = np.clip(np.vstack([v - np.nan_to_num(lo, nan=v), np.nan_to_num(hi, nan=v) - v]), 0,
                  None)  # fmt: skip
    colours = [OKABE_ITO[0]] + [OKABE_ITO[1]] * (len(d) - 1)
    ax.barh(y, v, color=colours, alpha=0.85, height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1,
                label="95% interval")  # fmt: skip
    if len(v):
        ax.axvline(v[0], color=OKABE_ITO[3], ls="--", lw=1, label="default rules")
    ax.set_yticks(y, [_tick(r) for _, r in d.iterrows()])
    ax.set_xlabel(label)
    if share:
        ax.xaxis.set_major_formatter(_percent())
    ax.set_title(title)
    ax.legend(**OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)


def _tick(r: pd.Series) -> str:
    detail = str(r.get("detail", "") or "")
    return f"{r['rules']} ({detail})" if detail and r["metric"] == "skill_spread" else r["rules"]


def seats(metrics: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Each seat's win rate less its fair share, by position after the first player, one
    series per rule set (and table size), with 95% intervals; 0 is a fair seat."""
    d = metrics[metrics["metric"] == "seat"]
    fig, ax = _axes(ax, (8.5, 4.2))
    groups = list(d.groupby(["rules", "n_players"], sort=False))
    width = 0.8 / max(len(groups), 1)
    sizes = d["n_players"].nunique()
    for i, ((rules, n), grp) in enumerate(groups):
        x = grp["position"].to_numpy() + (i - (len(groups) - 1) / 2) * width
        v = grp["value"].to_numpy(float)
        lo = np.nan_to_num(grp["ci_low"].to_numpy(float), nan=0.0)
        hi = np.nan_to_num(grp["ci_high"].to_numpy(float), nan=0.0)
        err = np.clip(np.vstack([v - lo, hi - v]), 0, None)
        c, marker, _ = style(i)
        name = f"{rules}, {n} players" if sizes > 1 else str(rules)
        ax.errorbar(x, v, yerr=err, fmt=marker, color=c, capsize=3, lw=1.2, ms=5, label=name)
    maxpos = int(d["position"].max()) if len(d) else 0
    ax.set_xticks(range(maxpos + 1), ["first"] + [f"+{p}" for p in range(1, maxpos + 1)])
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("seat position after the first player (clockwise)")
    ax.set_ylabel("win rate less the fair share")
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Seat and first-player advantage by rule set")
    ax.legend(**OUTSIDE)
    ax.grid(axis="y", alpha=0.3)
    return _fit(fig, ax)


def turns(hist: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """The distribution of turns per game under each rule set (share of games, step
    histograms; the tail past every rule set's 99.5th percentile is left out of the
    picture, not the means)."""
    fig, ax = _axes(ax, (8.5, 4.0))
    groups = list(hist.groupby("rules", sort=False))
    upper = lower = None
    for _, grp in groups:
        v, w = grp["value"].to_numpy(float), grp["games"].to_numpy(float)
        cum = np.cumsum(w) / w.sum()
        top = float(v[min(int(np.searchsorted(cum, 0.995)), len(v) - 1)])
        upper = top if upper is None else max(upper, top)
        lower = float(v.min()) if lower is None else min(lower, float(v.min()))
    if upper is None:
        return _fit(fig, ax)
    binw = max(1, int(np.ceil(max(upper - lower, 1.0) / 60)))
    bins = np.arange(lower // binw * binw, upper + 2 * binw, binw)
    for i, (rules, grp) in enumerate(groups):
        v, w = grp["value"].to_numpy(float), grp["games"].to_numpy(float)
        h, edges = np.histogram(v, bins=bins, weights=w)
        c, _, _ = style(i)
        ax.stairs(h / w.sum(), edges, color=c, ls=LINESTYLES[i % len(LINESTYLES)], lw=1.6,
                  label=f"{rules} (mean {np.average(v, weights=w):.1f})")  # fmt: skip
    ax.set_xlabel("turns per game" + (f" (bins of {binw})" if binw > 1 else ""))
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Game length by rule set: turns")
    ax.legend(**OUTSIDE)
    ax.grid(alpha=0.3)
    return _fit(fig, ax)
