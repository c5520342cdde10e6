"""The report page writes its figures one way: every count with a thousands separator (a
summary of 2,000 games each beside a total of 12,000, not "2000" beside "12,000"); text
columns (a strategy's name) set left and figures set right, in the HTML and the Markdown
page alike; a histogram's share axis labelled with whole or one-decimal percentages
("3.5%", "25%"), never "3.50%" or "25.0%"."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from reports.page import CSS, fmt, html_table, key_rows, md_table


def test_every_count_has_a_thousands_separator_whatever_its_size():
    assert fmt(2000) == "2,000"
    assert fmt(np.int64(5040)) == "5,040"
    assert fmt(12000) == "12,000"
    assert fmt(999) == "999"
    assert fmt(12345.0) == "12,345"  # not '1.234e+04'
    assert fmt(0.5342) == "0.5342"
    page = html_table(pd.DataFrame({"strategy": ["a", "b"], "games": [2000, 12000]}))
    assert ">2,000<" in page and ">12,000<" in page and ">2000<" not in page


def test_a_seed_is_a_name_not_a_count():
    df = pd.DataFrame({"rules": ["default"], "games": [2000], "seed": [123456],
                       "deal_seed": [4321]})  # fmt: skip
    page = html_table(df)
    assert ">123456<" in page and ">4321<" in page and ">2,000<" in page
    assert md_table(df).splitlines()[2] == "| default | 2,000 | 123456 | 4321 |"


def _cells(page: str) -> list[tuple[str, str]]:
    """(class attribute, text) of every header and body cell of an HTML table."""
    return re.findall(r"<t[hd]( class=\"[^\"]*\")?>([^<]*)</t[hd]>", page)


def test_the_rating_tables_strategy_column_is_set_left_and_its_figures_right():
    rating = pd.DataFrame({"rank": [1, 2], "strategy": ["weighted", "taker"],
                           "rating": [0.85, 0.59], "ci_low": [0.78, 0.53],
                           "ci_high": [0.91, 0.65], "worth": [0.2, 0.15]})  # fmt: skip
    top, _ = key_rows("rating", rating)
    page = html_table(top)
    cells = dict((text, cls) for cls, text in _cells(page))
    assert cells["strategy"] == "" and cells["weighted"] == ""  # text: the left default
    for figure in ("rank", "1", "rating", "0.85", "worth", "0.20"):  # one format a column
        assert cells[figure] == ' class="n"', figure
    css = CSS.replace("\n", "")
    assert re.search(r"th,td\{[^}]*text-align:left", css)
    assert re.search(r"th\.n,td\.n\{text-align:right\}", css)
    assert "first-child" not in css  # no column set by its place, a rank (a figure) included


def test_rates_intervals_and_p_values_count_as_figures_names_as_text():
    summary = pd.DataFrame({"strategy": ["weighted"], "games": [2016], "win_rate": [0.534],
                            "ci_low": [0.506], "ci_high": [0.562]})  # fmt: skip
    top, _ = key_rows("summary", summary)
    cells = dict((text, cls) for cls, text in _cells(html_table(top)))
    assert cells["weighted"] == ""
    assert cells["2,016"] == cells["53.4%"] == cells["50.6%"] == ' class="n"'
    sig = pd.DataFrame({"a": ["x"], "b": ["y"], "diff": [0.05], "ci_low": [0.01],
                        "ci_high": [0.09], "p_holm": [0.003], "better": ["x"]})  # fmt: skip
    top, _ = key_rows("significance", sig)
    cells = dict((text, cls) for cls, text in _cells(html_table(top)))
    assert cells["+5.0 pp"] == cells["0.003"] == ' class="n"'
    assert cells["x"] == cells["y"] == ""


def test_the_markdown_table_aligns_as_the_html_page():
    df = pd.DataFrame({"rank": [1], "strategy": ["weighted"], "games": [2000]})
    lines = md_table(df).splitlines()
    assert lines[1] == "|---:|:---|---:|"
    assert lines[2] == "| 1 | weighted | 2,000 |"


def _share_labels(fig) -> list[str]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    lo, hi = ax.get_ylim()
    return [t.get_text() for t, v in zip(ax.get_yticklabels(), ax.get_yticks(), strict=True)
            if lo <= v <= hi]  # fmt: skip


def _dist(peak: int, spread: float) -> pd.DataFrame:
    values = np.arange(1, 2 * peak)
    games = np.rint(1000 * np.exp(-(((values - peak) / spread) ** 2))).astype(int)
    return pd.DataFrame({"by": "n_players", "group": "4", "measure": "turns",
                         "value": values, "games": games})  # fmt: skip


@pytest.mark.parametrize("peak,spread", [(43, 12.0), (6, 2.0), (40, 4.0)])
def test_a_length_histograms_share_axis_reads_whole_or_one_decimal_percent(peak, spread):
    from reports import charts

    labels = _share_labels(charts.length_distribution(_dist(peak, spread)))
    assert len(labels) >= 3
    assert all(re.fullmatch(r"\d+(\.\d)?%", t) for t in labels), labels
    decimals = {len(t.split(".")[1]) - 1 if "." in t else 0 for t in labels}
    assert len(decimals) == 1, labels  # the same decimals on one axis
    if decimals == {1}:  # one decimal only where a tick needs it: no '25.0%' beside '20.0%'
        assert any(not t.endswith(".0%") for t in labels), labels


@pytest.mark.parametrize("peak,spread", [(43, 12.0), (60, 30.0)])
def test_the_variants_turn_histogram_reads_so_too(peak, spread):
    from reports import variants_charts

    # a flat one's ticks fall on half points: whole percents wrote '0%, 0%, 1%, 2%, 2%'
    d = _dist(peak, spread).rename(columns={"group": "rules"})
    labels = _share_labels(variants_charts.turns(d))
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels  # no '3%' twice
    assert all(re.fullmatch(r"\d+(\.\d)?%", t) for t in labels), labels
