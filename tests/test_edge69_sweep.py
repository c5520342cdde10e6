"""``variants_sweep.csv`` in the page's order: '--sweep hand_size=10,8,11' wrote its rows 10,
8, 11 (as typed) while the page's table and the chart read 8, 10, 11. The table the CSV is
written from (``sweep_table``) now comes in that order itself."""

from __future__ import annotations

from reports.variants_forest import along_axis
from reports.variants_sweep import Sweep, sweep_table
from tests.helpers import variants_diffs, variants_metrics


def _tables(points: list[tuple[str, str]]) -> tuple:
    """Metrics (two measures a rule set) and differences for the sweep's ``points``."""
    metrics = variants_metrics([(rules, metric, "all", pos, 0.5, 0.4, 0.6)
                                for _, rules in points
                                for metric, pos in (("turns", -1), ("seat", 0))])  # fmt: skip
    diffs = variants_diffs([(rules, metric, "all", pos, 0.1, 0.05, 0.15, True)
                            for _, rules in points if rules != "default"
                            for metric, pos in (("turns", -1), ("seat", 0))])  # fmt: skip
    return metrics, diffs


def test_a_numeric_sweep_is_written_from_its_smallest_value_up_as_the_page_reads_it():
    points = [("10", "hand_size=10"), ("8", "hand_size=8"), ("11", "default")]  # as typed
    t = sweep_table(*_tables(points), Sweep("hand_size", points), "default")
    assert t["value"].tolist() == ["8", "8", "10", "10", "11", "11"]
    assert t["metric"].tolist() == ["turns", "seat"] * 3  # each value's rows as they came
    assert t["value"].tolist() == along_axis(t)["value"].tolist()  # the page's and chart's
    assert t.index.tolist() == list(range(6))
    csv = t.to_csv(index=False).splitlines()  # as reports.variants writes it
    assert [line.split(",")[1] for line in csv[1:]] == ["8", "8", "10", "10", "11", "11"]


def test_a_sweep_of_words_keeps_the_order_it_was_given_in():
    points = [("nothing", "take=nothing"), ("any", "default"), ("ends", "take=ends")]
    t = sweep_table(*_tables(points), Sweep("take", points), "default")
    assert list(dict.fromkeys(t["value"])) == ["nothing", "any", "ends"]
