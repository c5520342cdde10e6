"""The charts a designer reads first: every variant's difference to the default rules on every
measure at one look (a forest plot: a panel per measure in its own unit, a marker per variant
with its 95% interval, filled where the difference is clear: Holm, its interval clear of 0), each
measure of a sweep against the swept value with its 95% band, and the skill ladder's steps."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .charts import OUTSIDE, _axes, _fit, style
from .numbers import PERCENTAGE_POINTS, PP
from .variants_display import label, shown

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

__all__ = ["LADDER_KINDS", "ORDER", "along_axis", "forest", "forest_rows", "ladder",
           "ladder_kinds", "sweep"]  # fmt: skip

ORDER = ("turns", "rounds", "seat", "skill_spread", "best_vs_random", "runner_up",
         "unfinished", "shared_wins", "match_games", "lead_changes", "drama", "comeback",
         "decided_at", "restricted")  # fmt: skip
"""The measures in reading order (``restricted`` stands for every ``restricted_<name>``)."""


def chart_unit(unit: str) -> str:
    """A unit as a chart writes it: the short ``PP`` of a table cell spelled out (a chart
    stands alone, with no note beside it to define it), any other as it is."""
    return PERCENTAGE_POINTS if unit == PP else unit


def _offsets(k: int) -> np.ndarray:
    """Where ``k`` series sit within a row: the first on top, as the legend lists them."""
    return ((k - 1) / 2 - np.arange(k)) * (0.7 / max(k, 1))


def _rank(metric: str) -> int:
    key = "restricted" if metric.startswith("restricted_") else metric
    return ORDER.index(key) if key in ORDER else len(ORDER)


def forest_rows(diffs: pd.DataFrame) -> list[tuple[str, str, int, str]]:
    """The measures the forest plot draws, in reading order: (metric, table size, position,
    words). Every measure over all table sizes and every seat per size; the skill ladder's
    steps have a chart of their own."""
    d = diffs[(diffs["metric"] != "ladder_step")
              & ((diffs["n_players"] == "all") | (diffs["metric"] == "seat"))]  # fmt: skip
    seen: dict[tuple[str, str, int], str] = {}
    for _, r in d.iterrows():
        key = (str(r["metric"]), str(r["n_players"]), int(r["position"]))
        if key not in seen:
            detail = str(r.get("detail", "") or "") if key[0].startswith("restricted_") else ""
            seen[key] = label(*key, detail=detail)
    keys = sorted(seen, key=lambda k: (_rank(k[0]), k[0], k[1], k[2]))
    return [(*k, seen[k]) for k in keys]


def _figure(rows: int, width: float = 8.5, per: float = 0.42, extra: float = 1.3):
    from matplotlib.figure import Figure  # start-up: matplotlib loads to draw

    fig = Figure(figsize=(width, per * rows + extra), dpi=100)
    return fig, fig.subplots(rows, 1, squeeze=False)[:, 0]


def forest(diffs: pd.DataFrame) -> Figure:
    """Every variant's difference to the default rules on every measure (``forest_rows``),
    a panel per measure in its unit (a share's difference in percentage points), 95%
    intervals, filled markers where the difference is clear (``significant``), hollow where it is not; 0
    is no change."""
    d = diffs
    rows = forest_rows(d)
    variants = list(dict.fromkeys(d["rules"]))
    fig, axes = _figure(max(len(rows), 1), extra=1.1 + 0.22 * -(-(len(variants) + 2) // 6))
    k = len(variants)
    offsets = _offsets(k)
    for ax, (metric, n, pos, words) in zip(axes, rows, strict=False):
        s = shown(metric)
        sub = d[(d["metric"] == metric) & (d["n_players"] == n) & (d["position"] == pos)]
        for j, rules in enumerate(variants):
            r = sub[sub["rules"] == rules]
            if not len(r):
                continue
            r = r.iloc[0]
            v, lo, hi = (s.scale * float(r[c]) for c in ("diff", "ci_low", "ci_high"))
            err = np.array([[max(v - lo, 0)], [max(hi - v, 0)]]) if np.isfinite([lo, hi]).all() \
                else None  # fmt: skip
            c, marker, _ = style(j)
            ax.errorbar([v], [offsets[j]], xerr=err, fmt=marker, color=c, ms=6, capsize=2,
                        lw=1.2, mfc=c if bool(r["significant"]) else "white", mew=1.3)  # fmt: skip
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_ylim(-0.5, 0.5)
        ax.set_yticks([])
        ax.tick_params(axis="x", labelsize=7, pad=1)
        ax.grid(axis="x", alpha=0.3)
        ax.text(-0.01, 0.5, words, transform=ax.transAxes, ha="right", va="center", fontsize=8)
        ax.text(1.01, 0.5, chart_unit(s.diff_unit).replace(" ", "\n"), transform=ax.transAxes,
                ha="left", va="center", fontsize=7, color="#555")  # fmt: skip
    _forest_legend(fig, variants)
    h = fig.get_size_inches()[1]
    left = min(0.5, (0.3 + max((len(w) for *_, w in rows), default=10) * 8 * 0.55 / 72) / 8.5)
    legend_rows = -(-(len(variants) + 2) // 6)
    top = 1 - (0.6 + 0.22 * legend_rows) / h
    fig.subplots_adjust(left=left, right=0.9, top=top, bottom=0.25 / h, hspace=0.9)
    return fig


def _forest_legend(fig, variants: list[str]) -> None:
    from matplotlib.lines import Line2D  # start-up: matplotlib loads to draw

    handles = [Line2D([], [], color=style(j)[0], marker=style(j)[1], ls="none", label=v)
               for j, v in enumerate(variants)]  # fmt: skip
    handles += [Line2D([], [], color="black", marker="o", ls="none", label="clear (Holm)"),
                Line2D([], [], color="black", marker="o", mfc="white", ls="none",
                       label="not clear")]  # fmt: skip
    fig.suptitle("Each variant less the default rules, with 95% intervals", fontsize=11,
                 x=0.02, ha="left", y=1 - 0.12 / fig.get_size_inches()[1])  # fmt: skip
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.02, 1 - 0.4 /
               fig.get_size_inches()[1]), ncol=min(len(handles), 6), fontsize=8,
               frameon=False)  # fmt: skip


def _sweep_panels(table: pd.DataFrame) -> list[tuple[str, int]]:
    keep = table[(table["metric"] != "ladder_step")
                 & ((table["metric"] != "seat") | (table["position"] == 0))]  # fmt: skip
    nothing = keep.groupby(["metric", "position"])["estimate"].apply(lambda v: (v == 0).all())
    keys = [k for k in dict.fromkeys(zip(keep["metric"], keep["position"], strict=True))
            if not nothing.get(k, False)]  # e.g. no game unfinished at any value  # fmt: skip
    return sorted(keys, key=lambda k: (_rank(k[0]), k[0], k[1]))


def sweep(table: pd.DataFrame) -> Figure:
    """Each measure of a sweep (``reports.variants_sweep.sweep_table``) against the swept
    value, a line per table size where a run mixes them, with its 95% band (a panel without
    one says so in its title, and the chart's title then promises bands only where a run
    gives one); the ring marks the value that plays as the default rules."""
    panels = _sweep_panels(table)
    cols = 3
    nrows = max(1, -(-len(panels) // cols))
    from matplotlib.figure import Figure  # start-up: matplotlib loads to draw

    fig = Figure(figsize=(8.5, 2.3 * nrows + 0.8), dpi=100)
    axes = fig.subplots(nrows, cols, squeeze=False).ravel()
    numeric = bool(np.isfinite(table["x"]).all()) if len(table) else False
    values = list(dict.fromkeys(along_axis(table)["value"]))  # a line, never a zig-zag
    whole = [_sweep_panel(ax, table, metric, pos, values, numeric)
             for ax, (metric, pos) in zip(axes, panels, strict=False)]  # fmt: skip
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    key = str(table["key"].iloc[0]) if len(table) else ""
    where = "" if all(whole) else f" where a run gives one\n({NO_BAND}: too few deals or no spread)"
    title = f"Every measure against {key}, with 95% bands{where}"  # two lines: one is too wide
    more = 0.2 * title.count("\n")  # the figure grows to hold the second
    h = fig.get_size_inches()[1] + more
    fig.set_size_inches(8.5, h)
    fig.suptitle(title, fontsize=11, y=1 - 0.15 / h)
    fig.subplots_adjust(left=0.08, right=0.98, top=1 - (0.75 + more) / h, bottom=0.5 / h,
                        hspace=0.95, wspace=0.35)  # fmt: skip
    return fig


def along_axis(table: pd.DataFrame) -> pd.DataFrame:
    """A sweep's table (``reports.variants_sweep.sweep_table``) from the smallest value up
    where every value is a number, however the sweep gave them (``10,8,9``: 8, 9, 10); other
    values in the sweep's order. The chart and the page read it so."""
    if not len(table) or not np.isfinite(table["x"].to_numpy(float)).all():
        return table
    return table.sort_values("x", kind="stable")


NO_BAND = "no interval"
"""What a sweep panel's title says where a value's measure has no 95% interval to draw."""


def _sweep_panel(ax, table: pd.DataFrame, metric: str, pos: int, values: list[str],
                 numeric: bool) -> bool:  # fmt: skip
    """Draw one measure against the value; True when every value has its band, else the
    title names the values without one."""
    s = shown(metric)
    sub = table[(table["metric"] == metric) & (table["position"] == pos)]
    sizes = sorted({n for n in sub["n_players"] if n != "all"})
    groups = sizes if (sizes and (metric == "seat" or len(sizes) > 1)) else ["all"]
    for i, n in enumerate(groups):
        g = sub[sub["n_players"] == n]
        g = g.set_index("value").reindex([v for v in values if v in set(g["value"])])
        x = g["x"].to_numpy(float) if numeric else np.array([values.index(v) for v in g.index])
        v, lo, hi = (s.scale * g[c].to_numpy(float) for c in ("estimate", "ci_low", "ci_high"))
        c, marker, ls = style(i)
        name = f"{n} players" if n != "all" else "all tables"
        ax.fill_between(x, lo, hi, color=c, alpha=0.18, lw=0)
        ax.plot(x, v, color=c, marker=marker, ls=ls, ms=4, lw=1.4, label=name)
        base = g["default"].to_numpy(bool)
        ax.plot(x[base], v[base], "o", ms=9, mfc="none", mec="black", mew=1.2)
    if not numeric:
        ax.set_xticks(range(len(values)), values, fontsize=7, rotation=20 if len(values) > 4 else 0)
    elif all(float(v).is_integer() for v in values):
        ax.set_xticks([float(v) for v in values], values)
    ax.tick_params(labelsize=7)
    detail = str(sub["detail"].iloc[0]) if metric.startswith("restricted_") and len(sub) else ""
    words = label(metric, "all", pos, detail) if metric != "seat" else "first player's edge"

    finite = np.isfinite(sub[["ci_low", "ci_high"]].to_numpy(float)).all(axis=1)
    bare = list(dict.fromkeys(sub.loc[~finite, "value"].astype(str)))
    if bare:  # no band drawn there: the title says so rather than the chart's promise
        at = "" if len(bare) == len(set(sub["value"].astype(str))) else f" at {', '.join(bare)}"
        words = f"{words} ({NO_BAND}{at})"
    ax.set_title(textwrap.fill(words, 38), fontsize=8)
    ax.set_ylabel(chart_unit(s.unit), fontsize=7)
    ax.set_xlabel(str(sub["key"].iloc[0]) if len(sub) else "", fontsize=7, labelpad=1)
    ax.grid(alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=6, frameon=False)
    return not bare


def ladder(steps: pd.DataFrame) -> Figure:
    """The skill ladder: per step (a strategy over the next weaker one, in the default rules'
    order) its win-rate difference in percentage points with its 95% interval, a marker per
    rule set, filled where the step is a level, half-filled where it is significant the other
    way and hollow where it is neither (``ladder_kinds``); the legend names each kind drawn."""
    names = list(dict.fromkeys(f"{r.upper} over {r.lower}" for r in steps.itertuples()))
    rules = list(dict.fromkeys(steps["rules"]))
    fig, ax = _axes(None, (8.5, max(2.6, 0.9 + 0.42 * len(names))))
    offsets = _offsets(len(rules))
    y_of = {n: len(names) - 1 - i for i, n in enumerate(names)}
    handles: list[Line2D] = []
    drawn: set[str] = set()
    for j, rs in enumerate(rules):
        g = steps[steps["rules"] == rs]
        y = np.array([y_of[f"{a} over {b}"] for a, b in zip(g["upper"], g["lower"], strict=True)])
        v, lo, hi = (100 * g[c].to_numpy(float) for c in ("diff", "ci_low", "ci_high"))
        err = np.clip(np.vstack([v - np.nan_to_num(lo, nan=v), np.nan_to_num(hi, nan=v) - v]), 0,
                      None)  # fmt: skip
        c, marker, _ = style(j)
        kinds = ladder_kinds(g)
        for kind in LADDER_KINDS:
            m = kinds == kind
            if m.any():
                drawn.add(kind)
                ax.errorbar(v[m], y[m] + offsets[j], xerr=err[:, m], fmt=marker, color=c, ms=6,
                            capsize=2, lw=1.1, **_fill(kind, c))  # fmt: skip
        levels = f"at least {int(g['levels'].iloc[0])} of {int(g['rungs'].iloc[0])}"
        handles.append(_mark(c, marker, "level", f"{rs} ({levels} levels)"))
    handles += [_mark("black", "o", kind, words) for kind, words in LADDER_KINDS.items()
                if kind in drawn]  # fmt: skip
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(list(y_of.values()), list(y_of))
    ax.set_xlabel(f"win rate of the stronger less the weaker, in {PERCENTAGE_POINTS}")
    ax.set_title("The skill ladder: steps between strategies adjacent in strength")
    ax.legend(handles=handles, **OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)  # the margins from the labels' lengths, the legend's wrapped


LADDER_KINDS = {
    "level": "filled: a level (significant, up)",
    "reversed": "half-filled: significant the other way",
    "other": "hollow: no level",
}
"""How the ladder chart draws a step (``ladder_kinds``), in its legend's words."""


def ladder_kinds(steps: pd.DataFrame) -> np.ndarray:
    """Per step of the ladder table (``designer_measures.ladder_table``): 'level' (it counts
    as a level), 'reversed' (significant the other way: the rule set orders that pair the
    other way round) or 'other' (not significant, or up but not counted). A table without the
    ``level`` and ``reversed`` columns (written before them) reads them from its significance
    and interval."""
    sig = steps["significant"].to_numpy(bool)
    lo, hi = (steps[c].to_numpy(float) for c in ("ci_low", "ci_high"))
    level = steps["level"].to_numpy(bool) if "level" in steps else sig & (lo > 0)
    turned = steps["reversed"].to_numpy(bool) if "reversed" in steps else sig & (hi < 0)
    return np.where(level, "level", np.where(turned, "reversed", "other"))


def _fill(kind: str, colour: str) -> dict[str, str]:
    """A step's marker fill by its kind (``LADDER_KINDS``)."""
    if kind == "level":
        return {"mfc": colour}
    if kind == "reversed":
        return {"mfc": colour, "fillstyle": "left", "markerfacecoloralt": "white"}
    return {"mfc": "white"}


def _mark(colour: str, marker: str, kind: str, words: str) -> Line2D:
    """A legend entry: a marker of the chart's, no line."""
    from matplotlib.lines import Line2D  # start-up: matplotlib loads to draw

    return Line2D(
        [], [], color=colour, marker=marker, ls="none", label=words, **_fill(kind, colour)
    )
