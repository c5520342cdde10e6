"""Charts of a comparison of rule variants, in the style of ``reports.charts``: per measure
the value under each rule set with its 95% interval (the default rules first, their value
a dashed line), the seats' edges per rule set, and the distribution of game length."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .charts import (
    LINESTYLES,
    OKABE_ITO,
    OUTSIDE,
    _axes,
    _fit,
    _height,
    _percent,
    _share_axis,
    style,
)
from .numbers import PERCENTAGE_POINTS, fixed
from .variants_display import ordinal, shown

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["CHARTS", "measure", "restricted", "seats", "turns"]


CHARTS = {
    "turns": ("Game length: mean turns per game", "mean turns per game"),
    "rounds": ("Game length: mean rounds per game", "mean rounds per game"),
    "skill_spread": ("How much skill matters: best minus worst strategy",
                     f"win rate of the best less the worst, in {PERCENTAGE_POINTS} (paired by deal)"),
    "best_vs_random": ("The best strategy against random play",
                       "share of shared seat pairs the best finishes ahead of random"),
    "runner_up": ("How close games are: the runner-up's cards left",
                  "mean cards left by the runner-up (finished games)"),
    "unfinished": ("Unfinished games (turn limit)", "share of games unfinished"),
    "shared_wins": ("Expert matches won by tied players", "share of matches with a shared win"),
    "match_games": ("Expert match length", "mean games per match"),
    "lead_changes": ("Lead changes per game (who alone holds the fewest cards)",
                     "mean lead changes per finished game"),
    "drama": ("Drama: how long the eventual winner trails",
              "mean share of the turns after which the winner is behind"),
    "comeback": ("Wins from behind", "share of games whose winner trailed at half-time"),
    "decided_at": ("When the game is decided",
                   "share of the game played when the winner takes the lead for good"),
}  # fmt: skip
"""Per measure: the chart's title and its value axis (the unit: ``reports.variants_display``)."""


def measure(metrics: pd.DataFrame, metric: str, ax: Axes | None = None) -> Figure:
    """One measure (overall) under each rule set, with its 95% interval; the default rules'
    value (the first row) as a dashed line. A share reads in percent, a difference of win
    rates in points."""
    title, label = CHARTS[metric]
    s = shown(metric)
    d = metrics[(metrics["metric"] == metric) & (metrics["n_players"] == "all")]
    fig, ax = _axes(ax, (8.5, _height(len(d))))
    y = np.arange(len(d))[::-1]
    v = s.scale * d["value"].to_numpy(float)
    err = _err(v, s.scale * d["ci_low"].to_numpy(float), s.scale * d["ci_high"].to_numpy(float))
    has = np.isfinite(err).all(axis=0)
    colours = [OKABE_ITO[0]] + [OKABE_ITO[1]] * (len(d) - 1)
    ax.barh(y, v, color=colours, alpha=0.85, height=0.6)
    ax.errorbar(v[has], y[has], xerr=err[:, has], fmt="none", ecolor="black", capsize=3, lw=1,
                label="95% interval" if has.any() else None)  # fmt: skip
    if len(v):
        ax.axvline(v[0], color=OKABE_ITO[3], ls="--", lw=1, label="default rules")
    rows = [r for _, r in d.iterrows()]
    ax.set_yticks(y, [_tick(r) + ("" if ok else " (no interval)")
                      for r, ok in zip(rows, has, strict=True)])  # fmt: skip
    ax.set_xlabel(label)
    if s.unit.startswith("%"):
        ax.xaxis.set_major_formatter(_percent(of=100.0))
    ax.set_title(title)
    ax.legend(**OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)


def restricted(metrics: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Restricted play: per rule set the win rate each restriction costs the restricted
    strategy (unrestricted less restricted, same seats and deals), in percentage points, with 95%
    intervals; a marker per restriction."""
    d = metrics[metrics["metric"].astype(str).str.startswith("restricted_")]
    rules = list(dict.fromkeys(d["rules"]))
    kinds = list(dict.fromkeys(d["metric"]))
    fig, ax = _axes(ax, (8.5, _height(len(rules) * max(len(kinds), 1) / 1.5)))
    step = 0.7 / max(len(kinds), 1)
    for j, metric in enumerate(kinds):
        g = d[d["metric"] == metric].set_index("rules").reindex(rules)
        y = np.arange(len(rules))[::-1] + ((len(kinds) - 1) / 2 - j) * step  # first on top
        v, lo, hi = (100 * g[c].to_numpy(float) for c in ("value", "ci_low", "ci_high"))
        err = _err(v, lo, hi)
        c, marker, _ = style(j)
        words = str(g["detail"].dropna().iloc[0]) if g["detail"].notna().any() else metric
        ax.errorbar(v, y, xerr=err, fmt=marker, color=c, ms=6, capsize=3, lw=1.2, label=words)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(np.arange(len(rules))[::-1], rules)
    ax.set_xlabel(
        f"win rate lost to the restriction, in {PERCENTAGE_POINTS} (same seats and deals)"
    )
    ax.set_title("Restricted play: what each restriction costs")
    ax.legend(**OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)


def _err(v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The error bars of values ``v`` with intervals [lo, hi]: NaN where a run had too few
    deals for an interval (no bar: a bar of width 0 would read as an exact figure)."""
    return np.clip(np.vstack([v - lo, hi - v]), 0, None)


def _tick(r: pd.Series) -> str:
    detail = str(r.get("detail", "") or "")
    return f"{r['rules']} ({detail})" if detail and r["metric"] == "skill_spread" else r["rules"]


def seats(metrics: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Each seat's win rate less its fair share, by position after the first player, one
    series per rule set (and table size), with 95% intervals; 0 is a fair seat. A seat with
    no interval has no bar (one drawn to 0 read as an interval), its series' legend says so."""
    d = metrics[metrics["metric"] == "seat"]
    fig, ax = _axes(ax, (8.5, 4.2))
    groups = list(d.groupby(["rules", "n_players"], sort=False))
    width = 0.8 / max(len(groups), 1)
    sizes = d["n_players"].nunique()
    for i, ((rules, n), grp) in enumerate(groups):
        x = grp["position"].to_numpy() + (i - (len(groups) - 1) / 2) * width
        v = grp["value"].to_numpy(float)
        err = _err(v, grp["ci_low"].to_numpy(float), grp["ci_high"].to_numpy(float))
        c, marker, _ = style(i)
        name = f"{rules}, {n} players" if sizes > 1 else str(rules)
        name += "" if np.isfinite(err).all() else " (no bar: no interval)"
        ax.errorbar(x, v, yerr=err, fmt=marker, color=c, capsize=3, lw=1.2, ms=5, label=name)
    maxpos = int(d["position"].max()) if len(d) else 0
    ax.set_xticks(range(maxpos + 1), [ordinal(p) for p in range(maxpos + 1)])
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("seat: first, second, ... player to move (clockwise from the first player)")
    ax.set_ylabel(f"win rate less the fair share, {PERCENTAGE_POINTS}")
    from matplotlib.ticker import FuncFormatter  # start-up: matplotlib loads to draw

    ax.yaxis.set_major_formatter(FuncFormatter(_edge_tick))
    ax.set_title("Seat and first-player advantage by rule set")
    ax.legend(**OUTSIDE)
    ax.grid(axis="y", alpha=0.3)
    return _fit(fig, ax)


def _edge_tick(v: float, _pos: int | None = None) -> str:
    """A seat's edge on the axis, in percentage points: signed ('+2', '-2'), its zero unsigned ('0')."""
    text = fixed(100 * v, 0, "+")
    return "0" if text == "+0" else text


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
    bins = np.arange(lower // binw * binw, upper + 2 * binw, binw) - 0.5  # centred
    for i, (rules, grp) in enumerate(groups):
        v, w = grp["value"].to_numpy(float), grp["games"].to_numpy(float)
        h, edges = np.histogram(v, bins=bins, weights=w)
        c, _, _ = style(i)
        ax.stairs(h / w.sum(), edges, color=c, ls=LINESTYLES[i % len(LINESTYLES)], lw=1.6,
                  label=f"{rules} (mean {np.average(v, weights=w):.1f})")  # fmt: skip
    ax.set_xlabel("turns per game" + (f" (bins of {binw})" if binw > 1 else ""))
    ax.set_ylabel("share of games")
    _share_axis(ax.yaxis)
    ax.set_title("Game length by rule set: turns")
    ax.legend(**OUTSIDE)
    ax.grid(alpha=0.3)
    return _fit(fig, ax)
