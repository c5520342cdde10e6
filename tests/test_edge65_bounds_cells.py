"""Every cell, label and sentence that writes a difference with its interval writes the bounds
through the one rule (``reports.numbers.signed_bound``, ``difference_interval``): a bound just
below 0 that its decimals write as 0 reads '-0.0', on its side of 0, never '+0.0' (which says
the interval is clear of 0 from above); and the difference beside its interval has the
interval's decimals (``apart_digits``), never '0.1 [-0.04, +0.25]'. Every expected string is
worked out by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

matplotlib.use("Agg")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HAIR = -4e-7  # a bound just below 0: even four decimals of percentage points write it as 0


def _diff(metric: str, d: float, lo: float, hi: float) -> pd.Series:
    return pd.Series({"metric": metric, "diff": d, "ci_low": lo, "ci_high": hi,
                      "significant": False})  # fmt: skip


def test_a_variants_cell_signs_each_bound_on_its_side():
    from reports.variants_display import diff_figure, diff_text, value_text

    assert diff_text(_diff("unfinished", 0.01, HAIR, 0.02)) == "+1.0 [-0.0, +2.0] pp"
    assert diff_figure(_diff("unfinished", 0.01, HAIR, 0.02)) == (
        "+1.0 percentage point [-0.0, +2.0]"
    )
    assert diff_text(_diff("unfinished", -0.01, -0.02, -HAIR)) == "-1.0 [-2.0, +0.0] pp"
    seat = pd.Series({"metric": "seat", "value": 0.01, "ci_low": HAIR, "ci_high": 0.02})
    assert value_text(seat) == "+1.0 [-0.0, +2.0] pp"  # an edge: a difference of rates


def test_a_ladder_step_signs_each_bound_on_its_side():
    from reports.variants_tables import _points

    assert _points(pd.Series({"diff": 0.01, "ci_low": HAIR, "ci_high": 0.02})) == (
        "+1.0 [-0.0, +2.0]"
    )


@pytest.mark.parametrize(("name", "columns"), [
    ("significance", ("diff", "ci_low", "ci_high")),
    ("gauntlet", ("diff", "diff_ci_low", "diff_ci_high")),
    ("neighbours", ("vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high")),
])  # fmt: skip
def test_the_page_s_bound_columns_sign_each_bound_on_its_side(name, columns):
    from reports.page import readable

    df = pd.DataFrame({c: [x] for c, x in zip(columns, (HAIR, HAIR, 0.02), strict=True)})
    out = readable(name, df)
    assert [out[c][0] for c in columns] == ["+0.0 pp", "-0.0 pp", "+2.0 pp"]  # the figure: 0


RATINGS = pd.DataFrame({"strategy": ["a", "b"], "rating": [0.2, -0.2], "ci_low": [-4e-5, -0.5],
                        "ci_high": [0.5, 4e-5]})  # fmt: skip
"""Ratings whose bounds two decimals write as 0, one just below it, one just above."""


def test_a_rating_table_signs_each_bound_on_its_side():
    from reports.rating import readable

    out = readable(RATINGS)
    assert list(out["ci_low"]) == ["-0.00", "-0.50"] and list(out["ci_high"]) == ["+0.50", "+0.00"]
    assert list(out["rating"]) == ["+0.20", "-0.20"]


def test_a_rating_chart_signs_each_bound_on_its_side():
    from reports.charts import rating

    labels = {t.get_text() for t in rating(RATINGS).axes[0].texts}
    assert labels == {"+0.20 [-0.00, +0.50]", "-0.20 [-0.50, +0.00]"}


def test_a_gain_from_a_restriction_has_its_interval_s_decimals():
    from reports.designer_text import _effect

    key = ("default", "restricted_a", "all", -1)
    row = {"value": -0.001, "ci_low": -0.0025, "ci_high": 0.0004}  # a gain of 0.1 points
    look = SimpleNamespace(m={key: row})
    assert _effect(look, key) == "raises its win rate by 0.10 percentage points [-0.04, +0.25]"
    assert _effect(look, key, bracket=False) == "raises its win rate by 0.10 percentage points"
    row.update(ci_low=-0.02, ci_high=-0.005)  # clear: one decimal
    assert _effect(look, key) == "raises its win rate by 0.1 percentage points [0.5, 2.0]"


def _rule_variants(monkeypatch: pytest.MonkeyPatch, games: int):
    """examples/rule_variants.py imported afresh at ``games`` games per rule set."""
    monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", str(games))
    spec = importlib.util.spec_from_file_location("edge65_rule_variants",
                                                  EXAMPLES / "rule_variants.py")  # fmt: skip
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rule_variants_example_writes_a_difference_with_its_interval_s_decimals(
    monkeypatch, capsys
):
    """Each variant adds a turn in 2 of 100 games: +0.02 turns, whose t-interval over the 99
    degrees of freedom, [-0.0079, +0.0479], one decimal writes '[+0.0, +0.0]'."""
    from scipy.stats import t

    mod = _rule_variants(monkeypatch, 100)
    extra = np.zeros(100)
    extra[:2] = 1.0

    def play(rules):
        turns = 40.0 + (0.0 if rules.is_default else extra)
        return {"turns": np.full(100, 1.0) * turns, "first wins": np.zeros(100),
                "unfinished": np.zeros(100)}  # fmt: skip

    monkeypatch.setattr(mod, "play", play)
    mod.main()
    out = capsys.readouterr().out
    h = t.ppf(0.975, 99) * extra.std(ddof=1) / 10.0
    assert (round(0.02 - h, 4), round(0.02 + h, 4)) == (-0.0079, 0.0479)
    lines = [line for line in out.splitlines() if line.startswith(("hand_size", "take"))]
    assert len(lines) == 2 and all("+0.02 [-0.01, +0.05]" in line for line in lines), out
    assert mod.versus(0.05, -0.04, 0.14) == "+0.05 [-0.04, +0.14]"
    assert mod.versus(0.05, np.nan, np.nan) == "+0.1"  # too few games: no interval


@given(st.floats(-0.5, 0.0, exclude_max=True), st.floats(0.0, 0.5, exclude_min=True))
def test_every_cell_writes_an_interval_across_zero_across_zero(lo, hi):
    from reports.page import readable
    from reports.variants_display import diff_text
    from reports.variants_tables import _points

    cells = [diff_text(_diff("unfinished", 0.0, lo, hi)), _points(_diff("x", 0.0, lo, hi))]
    for cell in cells:
        low, high = cell.split("[")[1].split("]")[0].split(", ")
        assert low.startswith("-") and high.startswith("+"), cell
    df = readable("significance", pd.DataFrame({"diff": [0.0], "ci_low": [lo], "ci_high": [hi]}))
    assert df["ci_low"][0].startswith("-") and df["ci_high"][0].startswith("+")
