"""Strategies are ranked by what they win against the fair share (1/players of their tables),
never against ``par``, which a strategy's own play moves: one that leaves its games
unfinished lowers its own par. Checked on hand-made games whose truth is counted by hand."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reports.findings import key_findings
from reports.neighbours import neighbours
from reports.report import compute_tables
from reports.tables import summary
from tests.test_designer64_relative import _games

# a wins all six games of table (a, b, c); at (a, b, s) s wins one game and five stop
# unfinished. By hand: a 6/12 = 50.0%, s 1/6 = 16.7%, fair share 1/3 for both; against par
# (a: (6/3 + 1/3)/12 = 7/36, s: (1/3)/6 = 1/18) s would rank first, 3.0 to a's 2.57.
SWEEP = (["a", "b", "c"], ["a"] * 6)
STALL = (["a", "b", "s"], ["s", None, None, None, None, None])


def test_a_strategy_that_leaves_its_games_unfinished_does_not_rank_above_a_winner():
    summ = summary(_games([SWEEP, STALL]))
    assert summ["strategy"].tolist()[:2] == ["a", "s"]
    rows = summ.set_index("strategy")
    assert rows["relative"].to_dict() == pytest.approx({"a": 1.5, "s": 0.5, "b": 0.0, "c": 0.0})
    assert rows.loc["s", "par"] == pytest.approx(1 / 18)  # kept beside it, as a reference
    assert rows.loc["a", "par"] == pytest.approx(7 / 36)


def test_the_first_finding_names_the_winner_not_the_staller():
    tables = compute_tables(_games([SWEEP, STALL]))[0]
    (best,) = [f.text for f in key_findings(tables, "paired") if "highest win rate" in f.text]
    assert best.startswith(
        "a has the highest win rate: a wins 50.0% of its games (too few deals for an interval; "
        "fair share 33.3% if every game had a winner; 19.4%, 1/3 of the 58.3% of its games "
        "someone won); s is next with 16.7%"
    )
    assert not re.search(r"\bpar\b", best)


def test_the_neighbours_relative_is_the_rate_over_the_fair_share_with_par_beside_it():
    nb = neighbours(_games([SWEEP, STALL])).set_index(["strategy", "before"])
    assert nb.loc[("a", "c"), "relative"] == pytest.approx(3.0)  # 6 of 6 over 1/3
    assert nb.loc[("s", "b"), "relative"] == pytest.approx(0.5)  # 1 of 6 over 1/3, not 3.0
    assert nb.loc[("s", "b"), "par"] == pytest.approx(1 / 18)
    assert (nb["relative"] * nb["fair_share"]).to_numpy() == pytest.approx(
        (nb["wins"] / nb["games"]).to_numpy()
    )


def _row(name: str, rate: float, fair: float) -> dict:
    return {"strategy": name, "win_rate": rate, "ci_low": rate - 0.005,
            "ci_high": rate + 0.005, "fair_share": fair, "relative": rate / fair}  # fmt: skip


def _tables(fair_second: float, pair: bool = True) -> dict[str, pd.DataFrame]:
    """weighted wins 6.8% against a fair share of 20%, taker 6.9% against ``fair_second``;
    with ``pair``, a paired margin that is not significant."""
    sig = [{"a": "weighted", "b": "taker", "win_rate_a": 0.068, "win_rate_b": 0.069,
            "diff": -0.001, "ci_low": -0.01, "ci_high": 0.008, "p_value": 0.8,
            "significant": False}]  # fmt: skip
    summ = pd.DataFrame([_row("weighted", 0.068, 0.2), _row("taker", 0.069, fair_second)])
    return {"summary": summ, "significance": pd.DataFrame(sig if pair else [])}


def test_a_leader_with_the_lower_win_rate_is_said_to_lead_against_its_fair_share():
    (text,) = [f.text for f in key_findings(_tables(0.25), "paired")]
    assert text.startswith(
        "No strategy is clearly the best: weighted leads against its fair share with 6.8% "
        "[6.3, 7.3] of its games won (fair share 20.0%), but its margin over taker "
        "(6.9% [6.4, 7.4], fair share 25.0%) is -0.1 percentage points"
    )


def test_without_a_paired_comparison_the_runner_up_has_its_fair_share_beside_it():
    (text,) = [f.text for f in key_findings(_tables(0.25, pair=False), "paired")]
    assert text.startswith("weighted has the highest win rate against its fair share: weighted")
    assert "taker is next with 6.9% [6.4, 7.4] (fair share 25.0%)." in text


def test_alike_fair_shares_leave_the_sentence_as_it_was():
    tables = _tables(0.2)
    tables["summary"] = tables["summary"].iloc[::-1].reset_index(drop=True)  # taker ahead
    (text,) = [f.text for f in key_findings(tables, "paired")]
    assert text.startswith("No strategy is clearly the best: taker leads with 6.9% [6.4, 7.4] ")
    assert "its margin over weighted (6.8% [6.3, 7.3]) is +0.1 percentage points" in text
    assert "fair share" not in text
