"""A change between rule sets in words (``variants_words.change``) carries its direction in
the words, so its interval is of the size, unsigned: never '7.3 turns shorter [+6.8, +7.9]'
beside the table's '-7.3 [-7.9, -6.8]'; an interval across 0 keeps its signs. So too a
restriction's gain, its cost turned round (``designer_text``)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from reports.designer_text import baseline_designer, designer_parts
from reports.variants_text import _Lookup
from reports.variants_words import change


def _diff(metric: str, diff: float, lo: float, hi: float) -> pd.Series:
    return pd.Series({"metric": metric, "diff": diff, "ci_low": lo, "ci_high": hi, "se": 0.1,
                      "df": 40.0})  # fmt: skip


@pytest.mark.parametrize(
    ("metric", "diff", "lo", "hi", "less", "more", "said"),
    [
        ("turns", -7.3, -7.9, -6.8, "shorter", "longer", "7.3 turns shorter [6.8, 7.9]"),
        ("rounds", -0.95, -1.03, -0.88, "fewer", "more", "0.95 rounds fewer [0.88, 1.03]"),
        ("runner_up", -0.19, -0.26, -0.11, "fewer", "more", "0.19 cards fewer [0.11, 0.26]"),
        ("drama", -0.029, -0.047, -0.010, "less", "more",
         "2.9 percentage points less [1.0, 4.7]"),
        ("turns", 2.5, 2.1, 2.9, "shorter", "longer", "2.5 turns longer [2.1, 2.9]"),
        ("lead_changes", -0.46, -0.70, -0.22, "fewer", "more", "0.46 times fewer [0.22, 0.70]"),
    ],
)  # fmt: skip
def test_a_clear_change_says_its_size_and_an_unsigned_interval(metric, diff, lo, hi, less,
                                                               more, said):  # fmt: skip
    assert change(_diff(metric, diff, lo, hi), less, more) == said


def test_a_change_across_0_keeps_its_signs():
    # no clear change: the bounds lie on both sides of 0, each written with its own sign
    text = change(_diff("turns", -0.3, -1.1, 0.5), "shorter", "longer")
    assert text == "0.3 turns shorter [-0.5, +1.1]"


def _look(cost: float, lo: float, hi: float, base: float = 0.02) -> _Lookup:
    """The default rules and take=ends, with a restriction that costs ``base`` under the
    default rules and ``cost`` [lo, hi] under take=ends, a clear difference."""
    detail = "weighted: never passes while it can play"
    common = {"metric": "restricted_no_pass", "n_players": "all", "position": -1, "se": 0.01,
              "df": 40.0, "deal_sets": 13, "games": 312, "fair": np.nan, "detail": detail,
              "conservative": False}  # fmt: skip
    metrics = pd.DataFrame([
        {**common, "rules": "default", "value": base, "ci_low": base - 0.03,
         "ci_high": base + 0.03},
        {**common, "rules": "take=ends", "value": cost, "ci_low": lo, "ci_high": hi},
    ])  # fmt: skip
    diffs = pd.DataFrame([{**common, "rules": "take=ends", "default": base, "value": cost,
                           "diff": cost - base, "ci_low": lo - base - 0.01,
                           "ci_high": hi - base + 0.01, "p_value": 1e-4, "p_holm": 1e-3,
                           "significant": True, "method": "paired"}])  # fmt: skip
    return _Lookup(metrics, diffs)


def test_a_restriction_that_raises_the_win_rate_writes_its_gain_unsigned():
    look = _look(-0.08, -0.12, -0.04)
    text, _ = designer_parts(look, "take=ends", "default")[0]
    assert "raises its win rate by 8.0 percentage points [4.0, 12.0] (under the default " in text
    assert text.endswith(": 10.0 percentage points less [5.0, 15.0]")  # the change, unsigned
    assert not re.search(r"\[\+", text)
    own = baseline_designer(_look(0.02, 0.0, 0.04, base=-0.08), "default")
    assert own == ["restricting weighted so that it never passes while it can play raises its "
                   "win rate by 8.0 percentage points [5.0, 11.0]"]  # fmt: skip


def test_a_gain_whose_interval_crosses_0_keeps_its_signs():
    look = _look(-0.02, -0.05, 0.01)
    text, _ = designer_parts(look, "take=ends", "default")[0]
    assert "raises its win rate by 2.0 percentage points [-1.0, +5.0] (under the default " in text


def _ladder_tables(steps: list[tuple[str, float, float, float, bool]]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The default rules and take=ends with the turns measured alike and the ladder steps'
    differences ``steps`` (detail, diff, lo, hi, clear)."""
    from reports.variants import DIFF_COLUMNS, METRIC_COLUMNS

    turns = {"metric": "turns", "n_players": "all", "position": -1, "value": 40.0,
             "ci_low": 39.0, "ci_high": 41.0, "se": 0.5, "df": 40.0, "deal_sets": 40,
             "games": 960, "fair": np.nan, "detail": "", "conservative": False}  # fmt: skip
    metrics = pd.DataFrame([{**turns, "rules": r} for r in ("default", "take=ends")],
                           columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame([{"rules": "take=ends", "metric": "ladder_step", "n_players": "all",
                           "position": i, "default": 0.05, "value": 0.05 + d, "diff": d,
                           "ci_low": lo, "ci_high": hi, "se": 0.02, "df": 40.0,
                           "p_value": 1e-4 if c else 0.5, "p_holm": 1e-3 if c else 1.0,
                           "significant": c, "method": "paired", "detail": detail}
                          for i, (detail, d, lo, hi, c) in enumerate(steps)],
                         columns=DIFF_COLUMNS)  # fmt: skip
    return metrics, diffs


def test_a_ladder_step_that_changes_clearly_is_said_and_not_called_unclear():
    """Five of nine steps of take=ends changed clearly, yet the findings said 'there is no
    clear difference in ... the skill ladder's steps' and named none of them."""
    from reports.variants_text import findings

    metrics, diffs = _ladder_tables([("counter - high", -0.127, -0.167, -0.087, True),
                                     ("high - low", 0.01, -0.03, 0.05, False)])  # fmt: skip
    said = " ".join(t for t, _ in findings(metrics, diffs, ["default", "take=ends"], "Paired"))
    assert (
        "the skill ladder's steps change clearly in 1 of 2: counter over high falls by "
        "12.7 percentage points [8.7, 16.7], the other not clearly"
    ) in said, said
    assert "the skill ladder's steps." not in said and "or the skill ladder's steps" not in said
    metrics, diffs = _ladder_tables([("high - low", 0.01, -0.03, 0.05, False)])
    said = " ".join(t for t, _ in findings(metrics, diffs, ["default", "take=ends"], "Paired"))
    assert "change clearly" not in said
    assert "there is no clear difference in the skill ladder's steps" in said, said
