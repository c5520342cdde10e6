"""Review of the sentences and charts that read a difference with no spread (every duplicate
set gave the same difference: no interval, the exact sign test's p-value): the page says why
its cells are empty, and the neighbours' chart stars such an effect as its findings weigh it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli, forget_loaded_files  # noqa: F401 - a fixture
from tests.test_audit4_nospread import NEVER

# users' files loaded here are forgotten after each test: another file's 'never' would clash
pytestmark = pytest.mark.usefixtures("forget_loaded_files")

NEVER_HERE = NEVER.replace('"never"', '"never_58b"').replace('"nobody"', '"nobody_58b"')
"""The same strategies under names of their own: a process that ran the other file's tests
holds 'never' and 'nobody' registered from another path (a second file may not take them)."""

NAN = float("nan")


def _stars(fig) -> dict[str, bool]:
    """Each annotated cell's text of the neighbours heatmap: whether it carries a star."""
    (ax, *_) = fig.axes
    return {t.get_text().rstrip("*"): t.get_text().endswith("*") for t in ax.texts}


def test_the_neighbours_chart_stars_a_seat_effect_with_no_spread_that_the_sign_test_finds():
    """a after b: +100 points in every one of 20 sets (no interval, p = 2e-06 by the sign
    test), which the findings call an effect; the chart starred only an interval clear of 0,
    so this cell had no star. A t interval clear of 0 is starred as before, one across 0 not."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.charts import neighbours

    table = pd.DataFrame({
        "strategy": ["a", "b", "c"], "before": ["b", "c", "a"], "wins": [20, 6, 3],
        "games": [20, 20, 20], "win_rate": [1.0, 0.3, 0.15],
        "vs_elsewhere": [1.0, 0.2, 0.05], "vs_elsewhere_low": [NAN, 0.1, -0.1],
        "vs_elsewhere_high": [NAN, 0.3, 0.2], "vs_elsewhere_p": [2 * 0.5**20, 0.001, 0.5],
    })  # fmt: skip
    fig = neighbours(table)
    try:
        assert _stars(fig) == {"+100.0": True, "+20.0": True, "+5.0": False}
        assert "p < 0.05" in fig.axes[0].get_title()
    finally:
        plt.close(fig)


def test_a_flat_neighbour_effect_of_p_one_has_no_star():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.charts import neighbours

    table = pd.DataFrame({
        "strategy": ["a", "b"], "before": ["b", "a"], "wins": [0, 10], "games": [20, 20],
        "win_rate": [0.0, 0.5], "vs_elsewhere": [0.0, 0.1], "vs_elsewhere_low": [NAN, NAN],
        "vs_elsewhere_high": [NAN, NAN], "vs_elsewhere_p": [1.0, NAN],
    })  # fmt: skip
    fig = neighbours(table)
    try:
        assert not any(_stars(fig).values())
    finally:
        plt.close(fig)


def _section(md: str, title: str) -> str:
    """The text of the page's section ``title`` up to the next section of its level."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", md, re.S | re.M)
    assert m, title
    return m.group(1)


@pytest.mark.slow
def test_the_page_says_why_a_gauntlet_with_no_spread_shows_no_interval(tmp_path, capsys):
    """greedy beats nobody by 100 points in every one of 20 sets: the gauntlet's table shows
    empty diff_ci_low/diff_ci_high beside p = 2e-06, and its section said only '95% t
    interval' (the differences' section explained the empty cells, the gauntlet's not)."""
    spec = tmp_path / "never.py"
    spec.write_text(NEVER_HERE)
    out = tmp_path / "g"
    args = ["greedy", "--against", f"{spec}:Never", "--baseline", f"{spec}:Nobody", "--players",
            "3", "--games", "60", "--jobs", "1", "--out", str(out)]  # fmt: skip
    assert cli(capsys, "gauntlet", *args)[0] == 0
    assert cli(capsys, "report", str(out), "--format", "md")[0] == 0
    md = (out / "report" / "report.md").read_text()
    row = pd.read_csv(out / "report" / "gauntlet.csv").iloc[0]
    assert np.isnan(row["diff_ci_low"]) and row["p_value"] < 1e-5  # the flat case
    for title in (
        "Gauntlet",
        "Differences that matter",
        "Neighbours: whom do you want to sit after?",
    ):
        text = _section(md, title)
        assert "no spread to give an interval from" in text and "sign test" in text, title


def test_the_pages_key_table_of_means_shows_figures_not_their_no_spread_counts():
    """The means table's first columns on the page were strategy, seats, score_mean, its
    interval and 'score_no_spread' (a column of 0s: the sets where every one gave the same
    mean), which pushed the next mean's interval off: a count that reads as a figure. The
    count stays in means.csv; the key table shows the means with their intervals."""
    from reports.page import key_rows

    cols = {"strategy": ["a", "b"], "seats": [60, 60]}
    for m in ("score", "stack_left", "centre_cards"):
        cols |= {f"{m}_mean": [2.0, 1.0], f"{m}_ci_low": [1.5, 0.5], f"{m}_ci_high": [2.5, 1.5],
                 f"{m}_no_spread": [0, 0]}  # fmt: skip
    top, _ = key_rows("means", pd.DataFrame(cols))
    assert not any(c.endswith("no_spread") for c in top.columns), list(top.columns)
    assert list(top.columns)[:5] == ["strategy", "seats", "score_mean", "score_ci_low",
                                     "score_ci_high"]  # fmt: skip
    assert "stack_left_mean" in top.columns
