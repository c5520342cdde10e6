"""A level's interval in the rule-variant tables stays inside the values the measure can take:
cut at 0 (a length, a count, a share) and, for a share, at 100%; an edge's, a spread's and a
difference's interval is not cut. docs/variants.md says so with these cells, worked out by
hand."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from tests.helpers import doc_text, variants_metrics

SHARES = ("unfinished", "shared_wins", "best_vs_random", "drama", "comeback", "decided_at")


def _row(metric: str, v: float, lo: float, hi: float) -> pd.Series:
    return pd.Series({"metric": metric, "value": v, "ci_low": lo, "ci_high": hi, "se": 0.01,
                      "df": 40.0})  # fmt: skip


@pytest.mark.parametrize("metric", SHARES)
def test_a_share_s_interval_is_cut_at_100_percent(metric):
    """Was: '99.0% [97.0, 100.4]', a part larger than its whole."""
    from reports.variants_display import value_text, value_words, whole

    assert whole(metric) == 100.0
    row = _row(metric, 0.99, 0.97, 1.004)
    assert value_text(row) == value_words(row) == "99.0% [97.0, 100.0]"
    assert value_text(_row(metric, 1.0, 0.95, 1.02)) == "100.0% [95.0, 100.0]"
    assert value_text(_row(metric, 0.5, 0.45, 0.55)) == "50.0% [45.0, 55.0]"  # inside: as it is


@pytest.mark.parametrize(
    ("metric", "v", "lo", "hi", "cell"),
    [
        ("turns", 104.0, 101.5, 106.5, "104.0 [101.5, 106.5] turns"),  # above 100: no share
        ("lead_changes", 1.5, 0.9, 2.1, "1.50 [0.90, 2.10] changes"),
        ("runner_up", 120.0, 99.5, 140.25, "120.00 [99.50, 140.25] cards"),
        ("seat", 0.01, -0.02, 0.04, "+1.0 [-2.0, +4.0] pp"),  # an edge: either side of 0
        ("skill_spread", 0.3, -0.01, 0.6, "+30.0 [-1.0, +60.0] pp"),  # a difference of rates
    ],
)
def test_other_measures_are_not_cut_at_100(metric, v, lo, hi, cell):
    from reports.variants_display import value_text, whole

    assert value_text(_row(metric, v, lo, hi)) == cell
    assert whole(metric) == np.inf


def test_the_tables_write_a_level_inside_its_range():
    from reports.variants_tables import every_metrics

    metrics = variants_metrics([
        ("today", "lead_changes", "all", -1, 0.0, -0.0001, 0.5),
        ("today", "unfinished", "all", -1, 0.99, 0.97, 1.004),
        ("today", "comeback", "all", -1, 0.001, -0.002, 0.01),
    ])  # fmt: skip
    cells = every_metrics(metrics)["value"].tolist()
    assert cells == ["0.00 [0.00, 0.50] changes", "99.0% [97.0, 100.0]", "0.1% [0.0, 1.0]"]


def test_docs_say_where_a_level_s_interval_is_cut_as_the_tables_write_it(monkeypatch):
    from reports import variants_display
    from reports.variants_display import value_text

    text = doc_text("variants.md")
    said = re.search(
        r"A level that is never below 0 \(a length, a count of cards or lead changes, a "
        r"share\) has its interval cut at 0 in the tables, and a share's is cut at 100% too.*?"
        r"\(`([^`]+)`, never `([^`]+)`; `([^`]+)`, never `([^`]+)`\)\. A difference's "
        r"interval, and an edge's or a spread's \(in percentage points\), is not cut at 0",
        text,
    )
    assert said, "docs/variants.md no longer says where a level's interval is cut"
    count, uncut_count, share, uncut_share = said.groups()
    assert value_text(_row("lead_changes", -0.0001, -0.0001, 0.5)) == count
    assert value_text(_row("unfinished", 0.99, 0.97, 1.004)) == share
    assert value_text(_row("seat", 0.01, -0.02, 0.04)).startswith("+1.0 [-2.0, ")
    monkeypatch.setattr(variants_display, "nonnegative", lambda metric: False)  # uncut
    assert value_text(_row("lead_changes", -0.0001, -0.0001, 0.5)) == uncut_count
    assert value_text(_row("unfinished", 0.99, 0.97, 1.004)) == uncut_share
