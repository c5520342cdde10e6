"""The rating's note names the order it sets the rating against: the summary's, by win rate
over the fair share (``relative``), which fair shares that differ can set apart from the win
rates themselves; it said 'the win rate the other way round' where the win rates were not."""

from __future__ import annotations

import pandas as pd

from reports.sections import order_note


def test_the_note_names_the_win_rate_over_the_fair_share():
    # a wins 30% against a fair share of 40% (0.75); b 25% against 20% (1.25): b is ahead by
    # relative, a by win rate; the rating puts a first, as the win rates do
    summary = pd.DataFrame({"strategy": ["b", "a"], "win_rate": [0.25, 0.30],
                            "fair_share": [0.20, 0.40], "relative": [1.25, 0.75]})  # fmt: skip
    note = order_note(summary, pd.DataFrame({"strategy": ["a", "b"]}))
    assert (
        "the rating puts a above b (a 2nd by win rate over the fair share, 1st by rating)" in note
    )
    assert "one that wins more often for its fair share" in note


def test_a_summary_without_relative_is_named_as_the_summary():
    summary = pd.DataFrame({"strategy": ["b", "a"]})
    note = order_note(summary, pd.DataFrame({"strategy": ["a", "b"]}))
    assert "the rating puts a above b (a 2nd in the summary, 1st by rating)" in note, note
