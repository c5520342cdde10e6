"""What a reader sees on the charts and pages: every text inside its figure and clear of the
others, the rows of a chart clear of its frame, each mark a chart draws named in its legend,
a zero written as zero, and the charts of a page readable at a phone's width."""

from __future__ import annotations

import itertools
import re
import struct

import numpy as np
import pandas as pd
import pytest

import reports
from reports import charts, variants_charts, variants_forest
from reports.page import CSS, Section, render_html
from reports.report import _make_charts
from reports.synthetic import synthetic_games


def _texts(fig):
    """The texts a reader sees once ``fig`` is drawn, with their extents in pixels: ticks
    inside the axes' limits, axis labels, titles, annotations, legends, figure texts."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    r = fig.canvas.get_renderer()
    found = list(fig.texts)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():
                if lo - 1e-9 <= tick.get_loc() <= hi + 1e-9:
                    found += [tick.label1, tick.label2]
            found.append(axis.label)
        found += [*ax.texts, ax.title]
        if ax.get_legend() is not None:
            found += ax.get_legend().get_texts()
    for legend in fig.legends:
        found += legend.get_texts()
    shown = [t for t in found if t.get_visible() and t.get_text().strip()]
    return [(t, t.get_window_extent(r)) for t in shown], r


def _outside(fig) -> list[str]:
    texts, _ = _texts(fig)
    f = fig.bbox
    return [t.get_text() for t, b in texts
            if b.x0 < f.x0 - 1 or b.x1 > f.x1 + 1 or b.y0 < f.y0 - 1 or b.y1 > f.y1 + 1]  # fmt: skip


def _overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of texts drawn over each other: boxes that meet, or for two texts slanted alike
    (whose boxes are wider than the texts) centres closer across the slant than a line."""
    texts, _ = _texts(fig)
    out = []
    for (t1, b1), (t2, b2) in itertools.combinations(texts, 2):
        w = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
        h = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
        if w <= 1 or h <= 1:
            continue
        angle = t1.get_rotation()
        if angle % 90 and angle == t2.get_rotation():
            a = np.radians(angle)
            dx, dy = (b1.x0 + b1.x1 - b2.x0 - b2.x1) / 2, (b1.y0 + b1.y1 - b2.y0 - b2.y1) / 2
            across = abs(-dx * np.sin(a) + dy * np.cos(a))
            if across >= 0.9 * max(t1.get_size(), t2.get_size()) * fig.dpi / 72:
                continue
        elif (angle % 90 or t2.get_rotation() % 90) and min(w, h) < 6:
            continue
        out.append((t1.get_text(), t2.get_text()))
    return out


def _ladder(names: list[str]) -> pd.DataFrame:
    rows = []
    for k, rules in enumerate(names):
        for i in range(4):
            rows.append(dict(rules=rules, step=i, upper=f"s{i}", lower=f"s{i + 1}",
                             diff=0.05 + 0.02 * k, ci_low=0.0, ci_high=0.1 + 0.02 * k,
                             significant=i % 2 == 0, levels=3, rungs=5))  # fmt: skip
    return pd.DataFrame(rows)


def test_the_ladder_legend_stays_inside_its_chart():
    """The legend's labels ('take=ends (at least 7 of 10 levels)') were cut at the right edge
    of the picture: a fixed margin, whatever their length."""
    fig = variants_forest.ladder(_ladder(["default", "take=ends", "hand_size=10,take=ends"]))
    assert _outside(fig) == []
    assert _overlaps(fig) == []


def _restricted() -> pd.DataFrame:
    rows = []
    for rules in ("default", "take=ends"):
        for name, words in (
            ("no_pass", "weighted: never passes while it can play"),
            ("single", "weighted: never plays more than one card at a time"),
        ):
            rows.append(dict(rules=rules, metric=f"restricted_{name}", n_players="all",
                             position=-1, value=0.2, ci_low=0.1, ci_high=0.3,
                             detail=words))  # fmt: skip
    return pd.DataFrame(rows)


def test_a_long_legend_leaves_the_chart_room_and_stays_inside():
    """Restricted play's legend of whole sentences squeezed its chart to a third of the width;
    a long legend label is wrapped instead, the words kept."""
    fig = variants_charts.restricted(_restricted())
    ax = fig.axes[0]
    assert _outside(fig) == [] and _overlaps(fig) == []
    assert ax.get_position().width >= 0.45  # of the figure's width
    words = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    assert words == [
        "weighted: never passes while it can play",
        "weighted: never plays more than one card at a time",
    ]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_rating_rows_keep_clear_of_the_frame(n):
    """With few strategies the first and last rating sat on the chart's frame, their figures
    crossing it: every row keeps half a row's room inside the axes."""
    r = np.linspace(0.3, -0.3, n)
    table = pd.DataFrame({"rank": range(1, n + 1), "strategy": [f"s{i}" for i in range(n)],
                          "rating": r, "ci_low": r - 0.05, "ci_high": r + 0.05})  # fmt: skip
    fig = charts.rating(table)
    ax = fig.axes[0]
    lo, hi = sorted(ax.get_ylim())
    assert lo <= -0.5 and hi >= n - 0.5
    texts, rend = _texts(fig)
    frame = ax.get_window_extent(rend)
    for t in ax.texts:
        b = t.get_window_extent(rend)
        assert frame.y0 <= b.y0 and b.y1 <= frame.y1 and b.x1 <= frame.x1, t.get_text()


def test_the_box_plot_legend_says_what_the_box_and_whiskers_are():
    """The match totals' box plot named its median and mean but not its box (the middle half)
    or its whiskers (5th to 95th percentile, not matplotlib's usual 1.5 box lengths)."""
    scores = pd.DataFrame({"strategy": ["a"] * 20 + ["b"] * 20,
                           "total": list(range(20)) * 2, "matches": [1] * 40})  # fmt: skip
    fig = charts.expert_scores(scores)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("box" in x and "25th" in x and "75th" in x for x in labels), labels
    assert any("whiskers" in x and "5th" in x and "95th" in x for x in labels), labels
    assert _outside(fig) == [] and _overlaps(fig) == []


def test_the_seat_edge_axis_writes_zero_without_a_sign():
    """The variants' seat chart labelled its zero line '+0'."""
    rows = [dict(rules=r, metric="seat", n_players=4, position=p, value=v, ci_low=v - 0.02,
                 ci_high=v + 0.02) for r in ("default", "x=1")
            for p, v in enumerate((0.04, -0.01, -0.01, -0.02))]  # fmt: skip
    fig = variants_charts.seats(pd.DataFrame(rows))
    ax = fig.axes[0]
    fmt = ax.yaxis.get_major_formatter()
    assert fmt(0.0, 0) == "0" and fmt(0.02, 0) == "+2" and fmt(-0.02, 0) in ("-2", "\u22122")


@pytest.fixture(scope="module")
def run_figures():
    games = synthetic_games({f"strategy_{i}": 0.1 * i - 0.4 for i in range(3)}, players=(3,),
                            deals=30, seed=5, seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, _ = reports.compute_tables(run)
    return _make_charts(tables, run.declaration)


@pytest.mark.slow
def test_every_chart_of_a_small_run_keeps_its_texts_inside_and_apart(run_figures):
    for name, fig in run_figures.items():
        assert _outside(fig) == [], name
        assert _overlaps(fig) == [], name


def _png_header(width: int) -> bytes:
    """The start of a PNG of ``width`` pixels: what the page reads of a chart."""
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", width, 400)


def test_every_chart_on_the_page_is_readable_at_a_phone_width():
    """On a phone the charts shrank with the page to 40% of their size, their labels a few
    pixels high; each chart now sits in its own scrolling box (as a wide table does) and
    keeps a width its labels read at, a narrower picture never enlarged."""
    sec = Section("Summary", charts=["wide", "narrow"])
    page = render_html("t", [], [sec], {"wide": _png_header(850), "narrow": _png_header(530)})
    boxes = dict(
        (stem, cls.split())
        for cls, stem in re.findall(r'<div class="([^"]*)"><img id="chart-(\w+)"', page)
    )
    assert boxes == {"wide": ["tw", "cw"], "narrow": ["tw"]}, page
    width = re.search(r"\.cw img\{[^}]*min-width:\s*(\d+)px", CSS)
    assert width and 560 <= int(width.group(1)) <= 850  # 10-point labels at 9 pixels or more
    assert re.search(r"\.tw\{[^}]*overflow-x:auto", CSS)


def _marker_y(ax) -> list[float]:
    """The height of each series' first marker, in the order the series were drawn."""
    from matplotlib.lines import Line2D

    return [float(ln.get_ydata()[0]) for ln in ax.get_lines()
            if isinstance(ln, Line2D) and ln.get_marker() not in (None, "None", "", "|")
            and len(ln.get_ydata())]  # fmt: skip


def test_the_series_of_a_row_read_top_down_in_their_legend_order():
    """Within a row of the ladder, the restricted-play chart and the forest plot the first
    rule set's marker sat lowest, the legend's order read bottom-up: now the first is on
    top, as the legend lists it."""
    names = ["default", "take=ends", "hand_size=10"]
    ladder = variants_forest.ladder(_ladder(names)).axes[0]
    ys = _marker_y(ladder)  # per rule set: its significant steps, then the others
    first = [y for y in ys if round(y) == 3]  # the first step's row
    assert first == sorted(first, reverse=True) and len(first) == 3
    restricted = variants_charts.restricted(_restricted()).axes[0]
    top = [y for y in _marker_y(restricted) if y > 0.5]
    assert top == sorted(top, reverse=True) and len(top) == 2
    diffs = pd.DataFrame([dict(rules=r, metric="turns", n_players="all", position=-1,
                               diff=0.1 * k, ci_low=0.0, ci_high=0.2 * k + 0.1,
                               significant=False, detail="")
                          for k, r in enumerate(names[1:])])  # fmt: skip
    panel = variants_forest.forest(diffs).axes[0]
    ys = _marker_y(panel)
    assert ys == sorted(ys, reverse=True) and len(ys) == 2


def test_the_variant_charts_spell_their_units_out():
    """A chart stands alone (charts/*.png, no note beside it): the forest plot's unit beside
    a panel and a sweep panel's axis wrote the short 'pp' the tables define, undefined there."""
    diffs = pd.DataFrame([dict(rules="x=1", metric=m, n_players="all", position=-1, diff=0.01,
                               ci_low=0.0, ci_high=0.02, significant=False, detail="")
                          for m in ("skill_spread", "turns")])  # fmt: skip
    fig = variants_forest.forest(diffs)
    units = [t.get_text() for ax in fig.axes for t in ax.texts if t.get_position()[0] > 1]
    assert units == ["percentage\npoints", "turns"] or units == ["turns", "percentage\npoints"]
    rows = [dict(key="k", value=str(v), x=float(v), rules=f"k={v}", metric="skill_spread",
                 n_players="all", position=-1, detail="", estimate=0.5, ci_low=0.4,
                 ci_high=0.6, default=v == 1) for v in (1, 2)]  # fmt: skip
    ax = variants_forest.sweep(pd.DataFrame(rows)).axes[0]
    assert ax.get_ylabel() == "percentage points"
    everything = [t.get_text() for t, _ in _texts(fig)[0]] + [ax.get_ylabel()]
    assert not any(re.search(r"\bpp\b", t) for t in everything)


@pytest.fixture(scope="module")
def long_names():
    names = ["taker(harm_weight=0.5)", "taker(harm_weight=2.0)", "low", "greedy"]
    games = synthetic_games({n: 0.1 * i for i, n in enumerate(names)}, players=(4,), deals=12,
                            seed=4, seating="balanced")  # fmt: skip
    tables, _ = reports.compute_tables(reports.as_run(games))
    return tables


@pytest.mark.parametrize("chart", ["head_to_head", "neighbours"])
def test_a_heatmap_of_long_names_keeps_its_cells_and_its_colour_scale_label(long_names, chart):
    """Strategies with parameters ('taker(harm_weight=0.5)') shrank the heatmap to cells a
    third of an inch wide and cut the colour scale's label at the top of the picture: the
    picture grows with its labels instead, the cells keep their size, the label wraps to
    its scale's length."""
    fig = getattr(charts, chart)(long_names[chart])
    assert _outside(fig) == []
    assert _overlaps(fig) == []
    _, r = _texts(fig)
    ax = fig.axes[0]
    cells = ax.get_images()[0].get_window_extent(r).width / 4 / fig.dpi
    assert cells >= 0.45  # inches a cell, as with short names
    scale = fig.axes[1]
    label = scale.yaxis.label.get_window_extent(r)
    assert label.height <= scale.get_window_extent(r).height + 2
