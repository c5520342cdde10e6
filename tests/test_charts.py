"""Every chart tells every series apart: no two series share colour, marker and line style."""

from __future__ import annotations

import re

import pytest
from matplotlib.colors import to_hex

import reports
from reports import charts
from reports.report import _make_charts
from reports.synthetic import synthetic_games

TEN = {f"s{i}": 0.1 * i - 0.5 for i in range(10)}


@pytest.fixture(scope="module")
def figures():
    games = synthetic_games(TEN, players=(3, 4), deals=40, seed=3, seating="balanced")
    run = reports.as_run(games)
    tables, _ = reports.compute_tables(run)
    return _make_charts(tables, run.declaration)


def _key(artist) -> tuple:
    colour = artist.get_color() if hasattr(artist, "get_color") else artist.get_edgecolor()
    colour = to_hex(colour[0] if getattr(colour, "ndim", 1) == 2 else colour)
    marker = artist.get_marker() if hasattr(artist, "get_marker") else None
    ls = artist.get_linestyle() if hasattr(artist, "get_linestyle") else None
    return colour, str(marker), str(ls)


def test_style_is_unique_for_many_series():
    styles = [charts.style(i) for i in range(256)]
    assert len(set(styles)) == 256
    assert len({s[:2] for s in styles[:64]}) == 64  # colour and marker alone, up to 64


@pytest.mark.parametrize("name", ["seats", "lengths_turns", "win_rates", "rating"])
def test_legend_entries_look_different(figures, name):
    ax = figures[name].axes[0]
    handles = ax.get_legend().legend_handles
    keys = [_key(h) for h in handles]
    assert len(set(keys)) == len(keys), keys


def test_neighbours_is_a_heatmap_of_every_pair_with_its_win_rate(figures):
    """Ten series of markers were ten look-alike colours: one cell per (strategy, the one
    before it) instead, coloured by the seat effect (vs_elsewhere), annotated with it."""
    ax = figures["neighbours"].axes[0]
    assert ax.images[0].get_array().shape == (10, 10)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 90, texts  # 10 x 9 pairs, each its signed seat effect
    assert all(re.fullmatch(r"[+-]\d+\.\d\*?", t) for t in texts), texts


def test_by_parameter_lines_are_unique():
    import pandas as pd

    rows = [
        {"strategy": f"s{i}", "parameter": "speed", "value": v, "score_mean": i + v,
         "score_ci_low": i + v - 0.1, "score_ci_high": i + v + 0.1}
        for i in range(12) for v in (1, 2)
    ]  # fmt: skip
    fig = charts.by_parameter(pd.DataFrame(rows), "score")
    lines = [c.lines[0] for c in fig.axes[0].containers]
    assert len({_key(line) for line in lines}) == 12
