"""Charts of the report tables, headless (no pyplot state: plain ``matplotlib.figure.Figure``).

Each function takes a table from :mod:`reports` (and an optional ``ax`` to draw into, so users
can compose their own figures) and returns the Figure. Colours are the Okabe-Ito palette, which
stays distinguishable under the common colour-vision deficiencies; the heatmap uses the
diverging, colour-blind-safe ``PuOr`` map centred on 50%.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tournaments.declaration import plural

from .chart_layout import (
    SCALE,
    SLANT,
    _axes,
    _fit,
    _fit_panels,
    _heatmap_size,
    _height,
    _lines,
    _names,
    _percent,
    _room,
    _scale_label,
    _slanted,
    _text_width,
    wrapped,
)
from .neighbours import neighbour_matrix
from .numbers import PERCENTAGE_POINT, PERCENTAGE_POINTS, counted, fixed
from .rating import rating_digits, rating_label

if TYPE_CHECKING:  # matplotlib loads on the first chart: 'import reports' stays quick
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", ":", "-.")
# legends go outside the axes, on the right, so they never cover data
OUTSIDE = dict(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def style(i: int) -> tuple[str, str, str]:
    """(colour, marker, linestyle) of the ``i``-th series of a chart: the marker moves on by
    one each time the colours wrap around, the line style each time both do, so every series
    looks different up to 8 x 8 x 4 = 256 series (and two series never differ by colour alone,
    which colour-blind readers and grey prints would lose)."""
    c, m = len(OKABE_ITO), len(MARKERS)
    return OKABE_ITO[i % c], MARKERS[(i + i // c) % m], LINESTYLES[(i // (c * m)) % len(LINESTYLES)]


def _share_axis(axis: Axis) -> None:
    """A share axis (of a histogram): ticks in steps of 1, 2 or 5 of a power of ten (never
    2.5, which would need a second decimal: '0.25%'), labelled as :func:`_percent` does."""
    from matplotlib.ticker import MaxNLocator  # start-up: matplotlib loads to draw

    axis.set_major_locator(MaxNLocator(steps=[1, 2, 5, 10]))
    axis.set_major_formatter(_percent())


def _proxy(**style_kw) -> Artist:
    """A legend entry drawn like a series (colour, marker, line) but holding no data."""
    from matplotlib.lines import Line2D  # start-up: matplotlib loads to draw

    return Line2D([], [], **style_kw)


def win_rates(summary: pd.DataFrame, ax: Axes | None = None, unit: str = "game") -> Figure:
    """Win rate per strategy (strongest on top) with 95% intervals and the fair-share mark;
    ``unit``: what the rows are (a game, a round)."""
    df = summary.iloc[::-1]
    names = _names(df["strategy"])
    fig, ax = _axes(ax, (8.5, _height(len(df), _lines(names))))
    y = np.arange(len(df))
    rate = df["win_rate"].to_numpy()
    err = np.clip(
        np.vstack([rate - df["ci_low"].to_numpy(), df["ci_high"].to_numpy() - rate]), 0, None
    )
    ax.barh(y, rate, color=OKABE_ITO[0], alpha=0.85, height=0.6, label="win rate")
    ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1,
                label="95% interval" if np.isfinite(err).any() else None)  # fmt: skip
    if "fair_share" in df:
        ax.scatter(df["fair_share"], y, marker="|", s=250, color=OKABE_ITO[1], zorder=3,
                   label="fair share (1/players)")  # fmt: skip
    ax.set_yticks(y, names)
    ax.set_xlabel(f"win rate (share of {plural(unit)} won)")
    ax.set_xlim(0, _rate_span(df))
    ax.xaxis.set_major_formatter(_percent())
    ax.set_title("Win rate by strategy")
    ax.legend(**OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)


def _rate_span(df: pd.DataFrame) -> float:
    """The win-rate axis's end: room past every bar, interval and fair-share tick drawn (a run
    whose strategies all win less than the fair share still shows the tick its lead names)."""
    drawn = df[[c for c in ("win_rate", "ci_high", "fair_share") if c in df]].to_numpy(float)
    return min(1.0, max(float(np.nanmax(drawn, initial=0.0)) * 1.15, 0.05))


def head_to_head(h2h: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Heatmap: how often the row strategy finished ahead of the column strategy (ties count
    half, i.e. the ``score`` column), annotated with percentages."""
    order = list(dict.fromkeys(h2h["strategy"].tolist() + h2h["opponent"].tolist()))
    mat = h2h.pivot(index="strategy", columns="opponent", values="score")
    mat = mat.reindex(index=order, columns=order).to_numpy(dtype=float)
    n, names = len(order), _names(order)
    label, right = _scale_label("row finished ahead of column (ties\u00a0=\u00a0½)", names)
    fig, ax = _axes(ax, _heatmap_size(names, names, right))
    im = ax.imshow(np.ma.masked_invalid(mat), cmap="PuOr", vmin=0, vmax=1)
    ax.set_xticks(np.arange(n), names, rotation=SLANT, ha="right", va="top",
                  rotation_mode="anchor")  # fmt: skip
    ax.set_yticks(np.arange(n), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    if n <= 14:
        for i in range(n):
            for j in range(n):
                if np.isfinite(mat[i, j]):
                    v = mat[i, j]
                    ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8,
                            color="white" if abs(v - 0.5) > 0.3 else "black")  # fmt: skip
    cbar = fig.colorbar(im, ax=ax, shrink=SCALE)
    cbar.set_label(label)
    cbar.ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Head to head")
    return _fit(fig, ax, rotated=_slanted(names), extra_right=right)


def seat_advantage(seats: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Win rate by position after the first player, one line per player count, with 95%
    intervals and dashed fair-share levels."""
    fig, ax = _axes(ax, (8.5, 4.2))
    counts = sorted(seats["n_players"].unique())
    width = 0.8 / max(len(counts), 1)
    for i, n in enumerate(counts):
        d = seats[seats["n_players"] == n]
        x = d["position"].to_numpy() + (i - (len(counts) - 1) / 2) * width
        r = d["win_rate"].to_numpy()
        err = np.clip(np.vstack([r - d["ci_low"].to_numpy(), d["ci_high"].to_numpy() - r]), 0, None)
        c, marker, ls = style(i)
        ax.errorbar(x, r, yerr=err, fmt=marker, ls=ls, color=c, capsize=3, lw=1.2, ms=5,
                    label=f"{n} players")  # fmt: skip
        par = d["par"].iloc[0] if "par" in d else 1 / n  # the table's, as its words say
        ax.hlines(par, -0.4, n - 0.6, colors=c, linestyles="dashed", lw=0.9, alpha=0.8)
    maxpos = int(seats["position"].max()) if len(seats) else 0
    ax.set_xticks(range(maxpos + 1), ["0 (first)"] + [str(p) for p in range(1, maxpos + 1)])
    ax.set_xlabel("position: seats after the first player, clockwise (the table's position)")
    ax.set_ylabel("win rate")
    _percent_ticks(ax)
    ax.set_title("Seat and first-player advantage (dashed: fair share)")
    ax.legend(**OUTSIDE)
    ax.grid(axis="y", alpha=0.3)
    return _fit(fig, ax)


def _percent_ticks(ax: Axes) -> None:
    """Y ticks at whole percents, labelled so (a tick at 37.5% labelled "38%" beside one at
    32.5% labelled "32%" reads as uneven steps); a span of 4 points or less steps by tenths
    or halves of a point, labelled with one decimal."""
    from matplotlib.ticker import MultipleLocator  # start-up: matplotlib loads to draw

    lo, hi = ax.get_ylim()
    span = 100 * (hi - lo)
    step = next((s for s in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20) if span / s <= 8), 25)
    ax.yaxis.set_major_locator(MultipleLocator(step / 100))
    ax.yaxis.set_major_formatter(_percent(decimals=1 if step < 1 else 0))


def length_bins(dist: pd.DataFrame, measure: str) -> tuple[np.ndarray, list, float | None, int]:
    """What a length histogram draws: its bin edges (bins of one width, centred on the
    values, up to every player count's 99.5th percentile and a bin beyond), per player count
    (group, share of its games in each bin, mean); where games lie past those bins, a last bin
    holding them all, the least value among them (``N or more``) and how many games it holds
    (None and 0 where none do): the longest games are drawn, not left out."""
    d = dist[(dist["by"] == "n_players") & (dist["measure"] == measure)]
    groups = list(d.groupby("group", sort=False))
    upper = max(float(_weighted_quantiles(grp["value"].to_numpy(), grp["games"].to_numpy(),
                                          [0.995])[0]) for _, grp in groups)  # fmt: skip
    lower = float(d["value"].min())
    binw = max(1, int(np.ceil(max(upper - lower, 1.0) / 60)))
    edges = np.arange(lower // binw * binw, upper + 2 * binw, binw) - 0.5  # centred
    values = d["value"].to_numpy(float)
    past = values > edges[-1]
    least = float(values[past].min()) if past.any() else None
    if least is not None:  # the rest in one bin: ``least`` or more
        edges = np.append(edges, edges[-1] + binw)
    drawn = []
    for n, grp in groups:
        v, w = grp["value"].to_numpy(float), grp["games"].to_numpy(float)
        h, _ = np.histogram(np.minimum(v, edges[-1] - binw / 2), bins=edges, weights=w)
        drawn.append((n, h / w.sum(), float(np.average(v, weights=w))))
    return edges, drawn, least, int(d.loc[past, "games"].sum())


def length_distribution(dist: pd.DataFrame, measure: str | None = None,
                        ax: Axes | None = None, unit: str = "game") -> Figure:  # fmt: skip
    """Distribution of a length column (``measure``, default the table's first, e.g.
    turns or rounds) per player count, as step histograms of the share of games; the rare
    tail beyond every player count's 99.5th percentile (e.g. games stopped by the turn
    limit) in one last bin, labelled 'N+' and counted in the axis's label (``length_bins``);
    ``unit``: what the rows are (a game, a round)."""
    measure = measure or str(dist["measure"].iloc[0])
    fig, ax = _axes(ax, (8.5, 4.0))
    edges, drawn, least, beyond = length_bins(dist, measure)
    binw = int(round(edges[1] - edges[0])) if len(edges) > 1 else 1
    for i, (n, share, mean) in enumerate(drawn):
        c, _, _ = style(i)
        ax.stairs(share, edges, color=c, ls=LINESTYLES[(i // len(OKABE_ITO)) % 4], lw=1.6,
                  label=f"{n} players (mean {mean:.1f})")  # fmt: skip
    label = f"{measure} per {unit}" + (f" (bins of {binw})" if binw > 1 else "")
    if least is not None:
        _tail_bin(ax, edges, least)
        label += f"; {least:g}+: the {counted(beyond, unit)} of {least:g} {measure} or more"
    ax.set_xlabel(label)
    ax.set_ylabel(f"share of {plural(unit)}")
    _share_axis(ax.yaxis)
    ax.set_title(f"{unit.capitalize()} length: {measure}")
    ax.legend(**OUTSIDE)
    ax.grid(alpha=0.3)
    return _fit(fig, ax)


def _tail_bin(ax: Axes, edges: np.ndarray, least: float) -> None:
    """Mark a histogram's last bin as holding every value from ``least`` on: a dotted edge
    and its tick 'N+' in place of any tick that would read as a value inside it (or crowd
    it)."""
    cut, end = float(edges[-2]), float(edges[-1])
    ax.set_xlim(float(edges[0]) - (end - cut) / 2, end + (end - cut) / 2)
    ax.axvline(cut, color="grey", lw=0.8, ls=":")
    room = 0.06 * (end - float(edges[0]))
    ticks = [float(t) for t in ax.get_xticks() if edges[0] <= t <= cut - room]
    ax.set_xticks(ticks + [(cut + end) / 2], [f"{t:g}" for t in ticks] + [f"{least:g}+"])


def _weighted_quantiles(values: np.ndarray, weights: np.ndarray, qs) -> np.ndarray:
    """Quantiles of ``values`` counted ``weights`` times; where exactly a share ``q`` lies at
    or below a value (an even count's median), the midpoint with the next value, as the
    tables' medians (pandas) have it."""
    keep = weights > 0  # a value no game reached is no neighbour of a midpoint
    values, weights = values[keep], weights[keep]
    order = np.argsort(values)
    v, w = values[order], weights[order]
    cum = np.cumsum(w)  # in counts: shares lose the exact edge of a large run's median
    target = np.asarray(qs, np.float64) * cum[-1]
    slack = 1e-9 * cum[-1]  # rounding of q x total, far below one count
    at = np.minimum(np.searchsorted(cum, target - slack), len(v) - 1)
    on_edge = (np.abs(cum[at] - target) <= slack) & (at + 1 < len(v))
    return np.where(on_edge, (v[at] + v[np.minimum(at + 1, len(v) - 1)]) / 2, v[at])


def expert_scores(scores: pd.DataFrame, order: list[str] | None = None,
                  ax: Axes | None = None, better: str = "lower",
                  title: str = "Expert variant") -> Figure:  # fmt: skip
    """Final match totals per strategy as box plots (box: quartiles, line: median, whiskers:
    5th-95th percentiles, diamond: mean); ``better`` says which totals win ("lower": the lowest
    total wins), ``title`` names the matches."""
    order = order or sorted(scores["strategy"].unique())
    fig, ax = _axes(ax, (8.5, _height(len(order), _lines(_names(order)))))
    stats = []
    for s in order:
        d = scores[scores["strategy"] == s]
        v, w = d["total"].to_numpy(float), d["matches"].to_numpy(float)
        p5, q1, med, q3, p95 = _weighted_quantiles(v, w, [0.05, 0.25, 0.5, 0.75, 0.95])
        stats.append(dict(label=wrapped(s), med=med, q1=q1, q3=q3, whislo=p5, whishi=p95,
                          mean=np.average(v, weights=w), fliers=[]))  # fmt: skip
    stats = stats[::-1]
    ax.bxp(stats, orientation="horizontal", showmeans=True, patch_artist=True,
           boxprops=dict(facecolor=OKABE_ITO[5], alpha=0.7),
           medianprops=dict(color=OKABE_ITO[3], lw=2),
           meanprops=dict(marker="D", markerfacecolor="black", markeredgecolor="black", ms=4))  # fmt: skip
    ax.set_xlabel(f"final match total (points; {better} is better)")
    ax.set_title(f"{title}: final scores")
    from matplotlib.patches import Patch  # start-up: matplotlib loads to draw

    handles = [_proxy(color=OKABE_ITO[3], lw=2, label="median"),
               _proxy(marker="D", color="black", ls="", ms=4, label="mean"),
               Patch(facecolor=OKABE_ITO[5], alpha=0.7, edgecolor="black",
                     label="box: 25th-75th percentile"),
               _proxy(color="black", lw=1, marker="|", ms=8,
                      label="whiskers: 5th-95th percentile")]  # fmt: skip
    ax.legend(handles=handles, **OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    return _fit(fig, ax)


def rating(ratings: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Plackett-Luce ratings (log-worth, mean 0) with 95% intervals, strongest on top, each
    written in figures right of its interval (inside the frame: ``_room``)."""
    df = ratings.iloc[::-1]
    names = _names(df["strategy"])
    fig, ax = _axes(ax, (8.5, _height(len(df), _lines(names))))
    y = np.arange(len(df))
    r = df["rating"].to_numpy()
    err = np.clip(np.vstack([r - df["ci_low"].to_numpy(), df["ci_high"].to_numpy() - r]), 0, None)
    ax.errorbar(r, y, xerr=err, fmt="|", color=OKABE_ITO[0], ecolor=OKABE_ITO[0], capsize=5,
                ms=10, mew=2, lw=2.5, label="rating and its 95% interval")  # fmt: skip
    ax.axvline(0, color="gray", lw=0.8, ls="--")
    ax.set_yticks(y, names)
    labels, k = [], rating_digits(df)  # the table's decimals (reports.rating.readable)
    for yi, (v, lo, hi) in enumerate(zip(r, df["ci_low"], df["ci_high"], strict=True)):
        label = rating_label(v, lo, hi, k)
        labels.append(label)
        ax.annotate(label, (hi, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)  # fmt: skip
    ax.set_ylim(-0.5, len(df) - 0.5)  # half a row's room: the first and last off the frame
    ax.set_xlabel("Plackett-Luce rating (log-worth; 0 = average), with its 95% interval")
    ax.set_title("Rating from finishing orders")
    ax.legend(**OUTSIDE)
    ax.grid(axis="x", alpha=0.3)
    _fit(fig, ax)
    _room(ax, df["ci_low"], df["ci_high"], _text_width(labels, 8) + 0.15)
    return fig


NO_SEAT_GREY = "#d9d9d9"
"""A neighbours cell with no other seat to compare (``reports.neighbours.no_other_seat``)."""


def neighbour_effects(table: pd.DataFrame) -> tuple[list[str], list[str], np.ndarray, np.ndarray,
                                                      np.ndarray]:  # fmt: skip
    """What the neighbours heatmap draws (``reports.neighbours.neighbour_matrix``'s grid):
    its rows (strategies, the table's order), its columns (the strategy before), the seat
    effect of each cell in percentage points (``vs_elsewhere``: after it less with it at
    another seat of the same tables; NaN where nothing measured it), its star (p < 0.05) and
    the cells with no other seat to compare (``reports.neighbours.no_other_seat``)."""
    games = neighbour_matrix(table, "games")

    def grid(column: str) -> np.ndarray:  # NaN where the table has no such column
        if column not in table:
            return np.full(games.shape, np.nan)
        return neighbour_matrix(table, column).to_numpy(float)

    effect = 100 * grid("vs_elsewhere")
    star = grid("vs_elsewhere_p") < 0.05  # the t test's p, or with no spread the sign test's
    none = grid("no_other_seat") == 1  # NaN where the pair never met: not grey
    return list(games.index), list(games.columns), effect, star, none


def neighbours(table: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Whom do you want to sit after: each strategy (rows, the table's order) by the
    strategy seated directly before it (columns), coloured by the seat effect
    (``vs_elsewhere``: the win rate after it less the win rate with it at another seat of
    the same tables, within the same deals, in percentage points; the diverging ``PuOr``, 0
    in the middle) and written in figures; a star marks p < 0.05: its 95% interval excludes
    0, or, where every duplicate set gave the same difference (no interval), the sign test
    says so; not corrected for the many pairs (the findings correct: a star alone may be
    chance). Not the win rate less the strategy's overall, which mostly says who is at the
    table. Grey: the one before sits directly before at every table the two share (nothing to
    compare); blank: no effect measured (the pair never met, or never in one duplicate set
    both ways)."""
    order, befores, effect, star, none = neighbour_effects(table)
    rows, cols = _names(order), _names(befores)
    label, right = _scale_label(
        f"seat effect: win rate after it less with it elsewhere at the same tables, "
        f"{PERCENTAGE_POINTS}",
        rows,
    )
    title = "Whom do you want to sit after?\n(colour: the seat effect; *: p < 0.05, uncorrected)"
    blank = neighbour_matrix(table, "games").notna().to_numpy() & ~np.isfinite(effect) & ~none
    notes = ["grey: no other seat to compare"] * bool(none.any())
    notes += ["blank: no seat effect measured"] * bool(blank.any())
    title += f"\n({'; '.join(notes)})" if notes else ""
    fig, ax = _axes(ax, _heatmap_size(rows, cols, right, title_lines=title.count("\n") + 1))
    top = float(np.nanmax(np.abs(effect))) if np.isfinite(effect).any() else 1.0
    top = top or 1.0  # every effect 0: a scale around it all the same
    im = ax.imshow(np.ma.masked_invalid(effect), cmap="PuOr", vmin=-top, vmax=top)
    if none.any():
        from matplotlib.colors import ListedColormap  # start-up: matplotlib loads to draw

        grey = np.ma.masked_where(~none, np.zeros(none.shape))
        ax.imshow(grey, cmap=ListedColormap([NO_SEAT_GREY]), vmin=0, vmax=1)
    for i, j in zip(*np.nonzero(np.isfinite(effect)), strict=True):
        ax.text(j, i, fixed(effect[i, j], 1, "+") + ("*" if star[i, j] else ""), ha="center",
                va="center", fontsize=7,
                color="white" if abs(effect[i, j]) > 0.6 * top else "black")  # fmt: skip
    ax.set_xticks(np.arange(len(befores)), cols, rotation=SLANT, ha="right", va="top",
                  rotation_mode="anchor")  # fmt: skip
    ax.set_yticks(np.arange(len(order)), rows)
    ax.set_xlabel("the strategy seated directly before")
    ax.set_ylabel("strategy")
    cbar = fig.colorbar(im, ax=ax, shrink=SCALE)
    cbar.set_label(label)
    ax.set_title(title, fontsize=10)
    return _fit(fig, ax, rotated=_slanted(cols), extra_right=right)


def means(table: pd.DataFrame, column: str, better: str, unit: str = "game",
          ax: Axes | None = None) -> Figure:  # fmt: skip
    """Mean of ``column`` per seat by strategy (a ``reports.declared.means`` table, best on
    top) with 95% intervals; ``better``: "higher" or "lower" (of ``column``). On a figure of
    its own (no ``ax``), each other mean the table lists (a ``<name>_mean`` column, as the
    page does) gets a panel beside it (``_mean_panels``)."""
    df = table.iloc[::-1]
    names = _names(df["strategy"])
    cols = [column] + [c[:-5] for c in df if c.endswith("_mean") and c != f"{column}_mean"]
    if ax is None and len(cols) > 1:
        return _mean_panels(df, names, cols, better, unit)
    fig, ax = _axes(ax, (8.5, _height(len(df), _lines(names))))
    _mean_bars(ax, df, column, names)
    ax.set_xlabel(f"mean {column} per {unit} (95% interval; {better} is better)")
    ax.set_title(f"Mean {column} per {unit} by strategy")
    return _fit(fig, ax)


def _mean_bars(ax: Axes, df: pd.DataFrame, column: str, names: list[str]) -> None:
    """The mean of ``column`` per strategy as bars with 95% intervals, a row each, bottom up."""
    y = np.arange(len(df))
    mean = df[f"{column}_mean"].to_numpy()
    err = np.vstack([mean - df[f"{column}_ci_low"], df[f"{column}_ci_high"] - mean])
    ax.barh(y, mean, color=OKABE_ITO[0], alpha=0.85, height=0.6)
    ax.errorbar(mean, y, xerr=np.clip(err, 0, None), fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, names)
    ax.axvline(0, color="grey", lw=0.8)
    ax.grid(axis="x", alpha=0.3)


def _mean_panels(df: pd.DataFrame, names: list[str], columns: list[str], better: str,
                 unit: str) -> Figure:  # fmt: skip
    """The means of ``columns`` side by side, each on its own scale, the rows shared; the
    better side said of the first alone (a game declares it of its rank value only)."""
    from matplotlib.figure import Figure  # start-up: matplotlib loads to draw

    said = [c.replace("_", " ") for c in columns]
    fig = Figure(figsize=(8.5, _height(len(df), _lines(names)) + 0.3), dpi=100)
    axes = list(fig.subplots(1, len(columns), sharey=True, squeeze=False)[0])
    for i, (ax, column) in enumerate(zip(axes, columns, strict=True)):
        _mean_bars(ax, df, column, names)
        ax.set_title(said[i] + (f" ({better} is better)" if i == 0 else ""), fontsize=10)
    listed = ", ".join(said[:-1]) + f" and {said[-1]}"
    bands = np.isfinite(df[[f"{c}_ci_low" for c in columns]].to_numpy(float)).any()
    fig.suptitle(f"Mean {listed} per {unit} by strategy" + (" (95% intervals)" if bands else ""),
                 fontsize=11)  # fmt: skip
    return _fit_panels(fig, axes)


def by_parameter(table: pd.DataFrame, column: str, unit: str = "game",
                 ax: Axes | None = None) -> Figure:  # fmt: skip
    """Mean ``column`` by the value of a strategy parameter (a ``reports.declared.by_parameter``
    table, one parameter), one line per strategy, with 95% intervals."""
    param = str(table["parameter"].iloc[0])
    fig, ax = _axes(ax, (8.5, 4.5))
    for i, (name, sub) in enumerate(table.groupby("strategy")):
        sub = sub.sort_values("value")
        mean = sub[f"{column}_mean"].to_numpy()
        err = np.vstack([mean - sub[f"{column}_ci_low"], sub[f"{column}_ci_high"] - mean])
        colour, marker, ls = style(i)
        ax.errorbar(sub["value"], mean, yerr=np.clip(err, 0, None), marker=marker, ls=ls,
                    capsize=3, color=colour, label=name)  # fmt: skip
    ax.set_xlabel(param)
    ax.set_ylabel(f"mean {column} per {unit}")
    ax.set_title(f"{column.capitalize()} by strategy and {param}")
    ax.legend(**OUTSIDE)
    ax.grid(alpha=0.3)
    return _fit(fig, ax)


def metagame_trajectory(trajectory: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Each strategy's share of the population under the replicator dynamics from the uniform
    mix (a ``reports.metagame`` trajectory table: time, then a column per strategy), over time
    on a log scale; the strategies that end with the most first in the legend."""
    fig, ax = _axes(ax, (8.5, 4.0))
    t = trajectory["time"].to_numpy(float)
    later = t > 0  # the log axis starts at the first recorded time after the start
    names = [c for c in trajectory.columns if c != "time"]
    names.sort(key=lambda s: -float(trajectory[s].iloc[-1]))
    for i, s in enumerate(names):
        colour, marker, ls = style(i)
        ax.plot(t[later], trajectory[s].to_numpy(float)[later], color=colour, ls=ls, lw=1.6,
                marker=marker, markevery=(3 * i, 12), ms=4, label=s)  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlabel(f"time (log scale; a win rate one {PERCENTAGE_POINT} above the mix grows a "
                  "share 1% a unit)")  # fmt: skip
    ax.set_ylabel("share of the population")
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Replicator dynamics from the uniform mix")
    ax.legend(**OUTSIDE)
    ax.grid(alpha=0.3)
    return _fit(fig, ax)
