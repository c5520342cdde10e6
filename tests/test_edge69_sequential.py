"""A sequential gauntlet whose duplicate sets all gave the same difference (no spread) is
weighed by the sign bound above the midpoint of 0 and the margin only. Below it the LLR was
-inf, so a strategy against a copy of itself was "not better by the margin" at once, said to be
wrong "at most 5% of the time (beta)": a bound nothing gives there, as under the margin no
symmetry holds and close strategies give many sets of exactly 0 (a strategy that gives up one
game in eight, against its sound self, often gives a first batch whose sets are all 0).
Below the midpoint the test now takes no decision and plays on; the words say why."""

from __future__ import annotations

import math

import pytest

from leaves_cli.sequential import batch_line, run_sequential, weighable
from reports.gauntlet import llr_words, sequential_sentence
from tournaments import Gauntlet
from tournaments.sequential import BETTER, UNDECIDED, Sequential, llr

NAN = math.nan
WHY = ("no LLR: every duplicate set gave the same difference, below half the margin, which "
       "bounds no error against the margin, so the test plays on")  # fmt: skip


def _flat(diff: float, sets: int = 50, tables: int = 1) -> dict[str, float]:
    """A paired estimate whose ``sets`` duplicate sets (at ``tables`` tables) all gave
    ``diff`` (as ``paired`` gives one: no interval, the sign test's p)."""
    p = 1.0 if diff == 0 else 2 * 0.5**sets
    return {"diff": diff, "se": 0.0, "ci_low": NAN, "ci_high": NAN, "p_value": p,
            "units": sets, "df": sets - float(tables)}  # fmt: skip


@pytest.mark.parametrize("sets", [2, 6, 50])
@pytest.mark.parametrize("diff", [0.0, -1.0, 0.004])  # tied; behind in every set; below half
def test_sets_with_no_spread_below_the_midpoint_decide_nothing(diff, sets):
    assert math.isnan(llr(diff, 0.0, 0.0, 0.01, sets - 1.0))
    test = Sequential(0.01)
    w = weighable(_flat(diff, sets))
    assert test.update(w["diff"], w["se"], w["df"]) is None  # play on
    assert f"{WHY} (stop at -2.94 or 2.94)" in batch_line(test, 4 * sets, w)


def test_on_the_midpoint_neither_way_and_above_it_the_sign_bound():
    assert llr(0.005, 0.0, 0.0, 0.01, 9.0) == 0.0
    test = Sequential(0.01)
    w = weighable(_flat(1.0, 8))
    assert test.update(w["diff"], w["se"], w["df"]) == BETTER and test.llr == 4.0
    assert llr_words(4.0, 8) == "LLR 4.00, N/2 for N = 8 duplicate sets with no spread"


def test_sets_at_several_tables_are_not_said_as_n_over_2():
    """12 sets at 3 tables: the cap is (df + 1) / 2 = 5, which 'N/2 for N = 12' misstated."""
    w = weighable(_flat(1.0, 12, tables=3))
    test = Sequential(0.01)
    test.update(w["diff"], w["se"], w["df"])
    assert test.llr == 5.0
    assert llr_words(5.0, 12) == ("LLR 5.00, the test's cap for 12 duplicate sets with no "
                                  "spread within each table, (df + 1) / 2 at df = 9 degrees of "
                                  "freedom")  # fmt: skip


@pytest.mark.slow
def test_a_strategy_against_itself_plays_on_and_ends_undecided(tmp_path):
    """greedy against its copy: every set +0; no decision, up to the cap, then undecided."""
    g = Gauntlet("greedy", ["taker"], "greedy", games=48, seed=0, allow_same=True)
    logged: list[str] = []

    def play(t, out, grow):
        return t.run(n_jobs=1, out=out, resume=grow)

    _, rec, r = run_sequential(g, tmp_path / "s", play, Sequential(0.01), 400, logged.append)
    assert rec["decision"] == UNDECIDED and rec["batches"] == len(logged) > 1 and r["diff"] == 0
    assert all(WHY in line for line in logged), logged
    said = sequential_sentence(
        {"strategy": "a", "baseline": "a (baseline)", "games": rec["games_per_side"], "diff": 0.0,
         "diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": 1.0, "deals": r["units"],
         **{f"sequential_{k}": v for k, v in rec.items()}})  # fmt: skip
    assert "reached --max-games before favouring 0 or +1" in said and "beta" not in said, said


def test_an_earlier_versions_not_better_on_minus_inf_is_said_as_that():
    """A manifest of an earlier version: 'not better' at LLR -inf on sets with no spread.
    The report does not vouch for it with beta."""
    test = Sequential(0.01)
    test.llr, test.decision, test.batches = -math.inf, "not better by the margin", 1
    row = {"strategy": "a", "baseline": "a (baseline)", "games": 200, "diff": 0.0,
           "diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": 1.0, "deals": 50,
           **{f"sequential_{k}": v for k, v in test.record(200).items()}}  # fmt: skip
    said = sequential_sentence(row)
    assert "by an earlier version's rule, an LLR of -inf from sets with no spread" in said, said
    assert "beta" not in said
