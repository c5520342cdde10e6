"""A sequential gauntlet whose duplicate sets all gave the same difference (no spread) is
weighed by the sign bound on both sides of the midpoint of 0 and the margin. Above it the LLR
was N/2 for N sets (all one way, the most they give against 0); below it the LLR was -inf, so a
strategy against a copy of itself was "not better by the margin" at once however few its sets,
said to be wrong "at most 5% of the time (beta)", a bound -inf does not give. Below the
midpoint the LLR is now -N/2 (all N sets one way against the margin), the mirror bound: the
test decides once N/2 reaches its lower bound, and the words say why."""

from __future__ import annotations

import math

import pytest

from leaves_cli.sequential import batch_line, run_sequential, weighable
from reports.gauntlet import sequential_sentence
from tournaments import Gauntlet
from tournaments.sequential import BETTER, NOT_BETTER, Sequential, llr

NAN = math.nan


def _flat(diff: float, sets: int = 50) -> dict[str, float]:
    """A paired estimate whose ``sets`` duplicate sets all gave ``diff`` (as ``paired``
    gives one: no interval, the sign test's p)."""
    p = 1.0 if diff == 0 else 2 * 0.5**sets
    return {"diff": diff, "se": 0.0, "ci_low": NAN, "ci_high": NAN, "p_value": p,
            "units": sets, "df": sets - 1.0}  # fmt: skip


def _row(rec: dict, diff: float, sets: int = 50) -> dict:
    return {"strategy": "a", "baseline": "a (baseline)", "games": 4 * sets, "diff": diff,
            "diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": _flat(diff, sets)["p_value"],
            "deals": sets, **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip


@pytest.mark.parametrize("sets", [2, 5, 6, 50])
@pytest.mark.parametrize("diff", [0.0, -1.0, 0.004])  # tied; behind in every set; below half
def test_sets_with_no_spread_below_the_midpoint_give_minus_n_over_2(diff, sets):
    assert llr(diff, 0.0, 0.0, 0.01, sets - 1.0) == -sets / 2
    assert llr(diff, 0.0, 0.0, 0.01) == -math.inf  # a variance taken as known: no bound


def test_the_two_sides_mirror_each_other():
    for sets in (3, 10, 40):
        assert llr(0.02, 0.0, 0.0, 0.01, sets - 1.0) == -llr(-0.01, 0.0, 0.0, 0.01, sets - 1.0)
    assert llr(0.005, 0.0, 0.0, 0.01, 9.0) == 0.0  # on the midpoint: neither way


def test_few_sets_with_no_spread_decide_nothing_yet():
    """Five sets give -2.5, short of the defaults' lower bound (-2.94): play on."""
    test = Sequential(0.01)
    w = weighable(_flat(0.0, 5))
    assert test.update(w["diff"], w["se"], w["df"]) is None and test.llr == -2.5
    line = batch_line(test, 20, w)
    assert "LLR -2.50, -N/2 for N = 5 duplicate sets with no spread" in line, line


def test_enough_sets_with_no_spread_decide_not_better_with_the_reason():
    test = Sequential(0.01)
    w = weighable(_flat(0.0, 50))
    assert test.update(w["diff"], w["se"], w["df"]) == NOT_BETTER and test.llr == -25.0
    line = batch_line(test, 200, w)
    assert "LLR -25.00, -N/2 for N = 50 duplicate sets with no spread" in line, line
    said = sequential_sentence(_row(test.record(200), 0.0))
    assert said.startswith("a is not 1 percentage point better than a (baseline)"), said
    assert "at most 5% of the time (beta)" in said and "-inf" not in said


def test_sets_with_no_spread_above_half_the_margin_are_still_weighed_by_n_over_2():
    """All N sets one way above half the margin: the sign bound N/2 holds, so 'better'."""
    test = Sequential(0.01)
    w = weighable(_flat(1.0, 8))
    assert test.update(w["diff"], w["se"], w["df"]) == BETTER and test.llr == 4.0


@pytest.mark.slow
def test_a_strategy_against_itself_is_not_better_on_the_sign_bound(tmp_path):
    """greedy against its copy: every set +0; 'not better' on LLR -25 for 50 sets."""
    g = Gauntlet("greedy", ["taker"], "greedy", games=200, seed=0, allow_same=True)
    logged: list[str] = []

    def play(t, out, grow):
        return t.run(n_jobs=1, out=out, resume=grow)

    _, rec, r = run_sequential(g, tmp_path / "s", play, Sequential(0.01), 200_000, logged.append)
    assert rec["decision"] == NOT_BETTER and rec["batches"] == 1 and r["diff"] == 0
    assert logged[0].startswith("batch 1: 200 games per side, difference +0.00 percentage "
                                "points over 50 duplicate sets, LLR -25.00, -N/2 for N = 50 "
                                "duplicate sets with no spread (stop at -2.94 or 2.94)")  # fmt: skip


def test_an_earlier_versions_not_better_on_minus_inf_is_said_as_that():
    """A manifest of an earlier version: 'not better' at LLR -inf on sets with no spread.
    The report does not vouch for it with beta."""
    test = Sequential(0.01)
    test.update(0.0, 0.0, math.inf)  # a variance taken as known: -inf, as the old rule gave
    assert test.decision == NOT_BETTER and test.llr == -math.inf
    said = sequential_sentence(_row(test.record(200), 0.0))
    assert "by an earlier version's rule, an LLR of -inf from sets with no spread" in said, said
    assert "beta" not in said
