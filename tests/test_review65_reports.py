"""The rule variants' sentences write a rate inside the values it takes, as the table beside them
does: a share's t-interval reaching past 100% is cut at 100% ('99.0% [97.0, 100.0]', never
'[97.0, 100.4]', a part larger than its whole), and so is a seat's win rate. Every expected
string is worked out by hand."""

from __future__ import annotations

import pytest

from reports.variants_tables import every_metrics
from reports.variants_text import findings
from tests.helpers import variants_diffs, variants_metrics


def _said(rows: list[tuple]) -> str:
    """The default rules' sentence of the findings on ``rows`` (the default rules' measures;
    the variant plays them alike, no difference clear)."""
    metrics = variants_metrics([*rows, *(("v", *r[1:]) for r in rows)])
    diffs = variants_diffs([("v", *r[1:4], 0.0, -0.01, 0.01, False) for r in rows])
    (said,) = [t for t, _ in findings(metrics, diffs, ["default", "v"], "paired")
               if t.startswith("Under the default rules")]  # fmt: skip
    return said


@pytest.mark.parametrize(
    ("metric", "words"),
    [
        ("unfinished", "99.0% [97.0, 100.0] of games end unfinished"),
        ("best_vs_random", "finishes ahead of random in 99.0% [97.0, 100.0] of the games"),
        ("decided_at", "the winner leads for good from 99.0% [97.0, 100.0] of the game"),
    ],
)
def test_a_share_s_interval_in_words_is_cut_at_100_percent(metric, words):
    """Was: '99.0% [97.0, 100.4]' in the sentence beside a table cell of '[97.0, 100.0]'."""
    row = ("default", metric, "all", -1, 0.99, 0.97, 1.004)
    said = _said([("default", "turns", "all", -1, 30.0, 29.0, 31.0), row])
    assert words in said, said
    assert "100.4" not in said
    (cell,) = every_metrics(variants_metrics([row]))["value"]
    assert cell == "99.0% [97.0, 100.0]"  # the table beside it writes the same


def test_a_seat_s_win_rate_in_words_is_cut_at_100_percent():
    """A seat's edge over its fair share (25%) of +74 [+72, +75.6] percentage points is a win
    rate of 99.0% [97.0, 100.6]: written '[97.0, 100.0]'."""
    said = _said([("default", "seat", "4", 0, 0.74, 0.72, 0.756)])
    assert "the first player wins 99.0% [97.0, 100.0] at 4 players" in said, said


def test_a_share_inside_its_range_is_written_as_it_is():
    row = ("default", "unfinished", "all", -1, 0.5, 0.45, 0.55)
    said = _said([("default", "turns", "all", -1, 30.0, 29.0, 31.0), row])
    assert "50.0% [45.0, 55.0] of games end unfinished" in said, said


@pytest.mark.parametrize(
    ("row", "words", "cell"),
    [
        (("default", "unfinished", "all", -1, 0.001, 0.0004, 0.003),
         "0.10% [0.04, 0.30] of games end unfinished", "0.10% [0.04, 0.30]"),
        (("default", "decided_at", "all", -1, 0.5, 0.4996, 0.5004),
         "from 50.00% [49.96, 50.04] of the game", "50.00% [49.96, 50.04]"),
    ],
)  # fmt: skip
def test_a_share_in_words_has_its_table_cell_s_decimals(row, words, cell):
    """Was: '0.1% [0.0, 0.3] of games end unfinished' (a bound of 0.04% written as 0, as if
    no game need end unfinished) beside the table's '0.10% [0.04, 0.30]', and '50.0% [50.0,
    50.0]' (bounds alike) beside '50.00% [49.96, 50.04]'."""
    said = _said([("default", "turns", "all", -1, 30.0, 29.0, 31.0), row])
    assert words in said, said
    (written,) = every_metrics(variants_metrics([row]))["value"]
    assert written == cell


def test_a_clear_change_of_a_share_writes_each_value_as_its_table_cell():
    """Was: 'fewer games end unfinished: 0.1% [0.0, 0.3] against 2.0%' (the decimals of the
    difference only), beside the table's '0.10% [0.04, 0.30]'."""
    rows = [("default", "turns", "all", -1, 30.0, 29.0, 31.0),
            ("default", "unfinished", "all", -1, 0.02, 0.015, 0.025)]  # fmt: skip
    metrics = variants_metrics([*rows, ("v", "turns", "all", -1, 30.0, 29.0, 31.0),
                                ("v", "unfinished", "all", -1, 0.001, 0.0004, 0.003)])  # fmt: skip
    diffs = variants_diffs([("v", "turns", "all", -1, 0.0, -1.0, 1.0, False),
                            ("v", "unfinished", "all", -1, -0.019, -0.024, -0.014, True)])  # fmt: skip
    said = " ".join(t for t, _ in findings(metrics, diffs, ["default", "v"], "paired"))
    assert ("fewer games end unfinished: 0.10% [0.04, 0.30] against 2.00%, 1.9 percentage "
            "points less [1.4, 2.4]") in said, said  # fmt: skip
    cells = every_metrics(metrics)["value"].tolist()
    assert cells[-1] == "0.10% [0.04, 0.30]"
