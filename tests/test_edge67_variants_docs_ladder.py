"""The skill ladder's chart draws a step significant the other way (the rule set orders that
pair the other way round: no level) apart from a level, with its own marker and legend entry:
it was filled like an upward step under "filled: significant". And docs/reports.md names the
ladder table's columns that say so."""

from __future__ import annotations

import re

import pandas as pd
from scipy import stats

from reports.designer_measures import ladder_table
from reports.variants_forest import LADDER_KINDS, ladder, ladder_kinds
from tests.helpers import doc_text

SE, DF = 0.02, 40.0


def _table(**rule_sets: list[float]) -> pd.DataFrame:
    """The ladder table of a, b, c, d per rule set, each step with its t interval."""
    half = float(stats.t.ppf(0.975, DF)) * SE
    return ladder_table(pd.DataFrame([
        {"rules": rules, "metric": "ladder_step", "position": i, "value": v, "se": SE,
         "df": DF, "deal_sets": 41, "ci_low": v - half, "ci_high": v + half,
         "detail": f"{'abcd'[i]} - {'abcd'[i + 1]}"}
        for rules, values in rule_sets.items() for i, v in enumerate(values)
    ]))  # fmt: skip


def _marks(fig) -> list[tuple[float, float, str]]:
    """Every step's marker the chart draws: (x, y, fill style)."""
    return sorted(
        (float(x), float(y), line.get_fillstyle() if line.get_markerfacecolor() != "white"
         else "none")
        for line in fig.axes[0].get_lines()
        if line.get_marker() not in (None, "None", "", "|")
        for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True)
    )  # fmt: skip


def test_a_step_significant_the_other_way_has_its_own_marker_and_legend_entry():
    t = _table(default=[0.2, 0.2, 0.01], take_ends=[0.2, -0.2, 0.2])
    assert ladder_kinds(t).tolist() == ["level", "level", "other", "level", "reversed", "level"]
    assert t["reversed"].tolist() == [False, False, False, False, True, False]  # the truth
    fig = ladder(t)
    marks = _marks(fig)
    assert len(marks) == 6
    reversed_ = [m for m in marks if m[0] < -10]  # b over c under take_ends: -20 points
    assert [m[2] for m in reversed_] == ["left"]  # half-filled, neither full nor hollow
    assert sorted(m[2] for m in marks if m[0] > -10) == ["full"] * 4 + ["none"]
    legend = [" ".join(t.get_text().split()) for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["default (at least 3 of 4 levels)", "take_ends (at least 3 of 4 levels)",
                      *LADDER_KINDS.values()]  # fmt: skip
    assert LADDER_KINDS["reversed"] == "half-filled: significant the other way"
    assert "filled: significant" not in fig.axes[0].get_xlabel()


def test_the_legend_names_only_the_kinds_drawn():
    fig = ladder(_table(default=[0.2, 0.01, 0.2]))
    legend = [" ".join(t.get_text().split()) for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["default (at least 3 of 4 levels)", "filled: a level (significant, up)",
                      "hollow: no level"]  # fmt: skip


def test_a_table_without_the_level_columns_reads_them_from_significance_and_interval():
    t = _table(default=[0.2, -0.2, 0.01])
    old = t.drop(columns=["level", "reversed"])
    assert ladder_kinds(old).tolist() == ladder_kinds(t).tolist() == ["level", "reversed", "other"]


def test_reports_md_names_the_ladder_table_s_columns():
    text = " ".join(doc_text("reports.md").split())
    said = re.search(r"`variants_ladder\.csv` \(per rule set and step of the skill ladder: (.*?)\), "
                     r"`variants_runs\.csv`", text)  # fmt: skip
    assert said, "docs/reports.md no longer describes variants_ladder.csv"
    names = set(re.findall(r"`(\w+)`", said[1]))
    columns = set(_table(default=[0.2]).columns)
    assert names <= columns and {"level", "reversed", "levels", "rungs"} <= names
