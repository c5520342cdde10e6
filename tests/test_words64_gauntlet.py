"""A gauntlet's difference with no spread says why it has no interval and how it was tested
in one bracket, never two in a row, and docs/tournaments.md quotes that sentence as the
report writes it."""

from __future__ import annotations

import re

from tests.helpers import doc_says

NAN = float("nan")


def _verdict() -> str:
    """greedy against nobody, +100 points in every one of 20 duplicate sets: no interval, the
    sign test's p = 2 * 0.5**20."""
    from reports.gauntlet import fixed_verdict

    row = {"strategy": "greedy", "baseline": "nobody", "deals": 20, "df": 19.0, "diff": 1.0,
           "diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": 2 * 0.5**20}  # fmt: skip
    return fixed_verdict(row)


def test_no_spread_and_the_test_share_one_bracket():
    said = _verdict()
    assert ") (" not in said, said
    assert said.endswith("no spread to give an interval from; paired over 20 deals, p = 2e-06).")


def test_the_page_quotes_the_no_spread_sentence_as_written():
    quoted = doc_says("tournaments.md", r'\("(greedy beats nobody by [^"]*)"\)')[1]
    assert quoted == _verdict().removesuffix("."), quoted
    assert not re.search(r"\) \(", quoted)
