"""The edges of the sequential test's arithmetic (``tournaments.sequential``): Wald's bounds and
their own values, decisions on a bound, a zero or negative variance, the growth of stages at
the cap and by one, and the record's numbers. Expectations are Wald's formulas worked by hand
(docs/tournaments.md), not the module's output."""

from __future__ import annotations

import math

import pytest

from tournaments.sequential import (
    BETTER,
    GROWTH,
    NOT_BETTER,
    PRECISION_MIN_GROWTH,
    PRECISION_SAFETY,
    UNDECIDED,
    Sequential,
    bounds,
    decide,
    llr,
    next_precision_stage,
    next_stage,
)


def test_the_constants():
    assert GROWTH == 1.25 and PRECISION_SAFETY == 1.1 and PRECISION_MIN_GROWTH == 1.25


def test_llr_by_hand():
    # (mu1 - mu0) (2 dbar - mu0 - mu1) / (2 V): 0.01 * (0.02 - 0.01) / (2 * 1e-4) = 0.5
    assert llr(0.01, 1e-4, 0.0, 0.01) == pytest.approx(0.5, rel=1e-12)
    # mu0 = 0.01, mu1 = 0.03, dbar = 0: 0.02 * (0 - 0.04) / (2 * 0.01) = -0.04
    assert llr(0.0, 0.01, 0.01, 0.03) == pytest.approx(-0.04, rel=1e-12)
    # H1 below H0 turns the sign: -0.02 * (0.02 - 0.04) / 0.02 = 0.02
    assert llr(0.01, 0.01, 0.03, 0.01) == pytest.approx(0.02, rel=1e-12)


def test_llr_with_no_spread_or_a_bad_variance():
    assert llr(0.005, 0.0, 0.0, 0.01) == 0.0  # on the midpoint
    assert llr(0.006, 0.0, 0.0, 0.01) == math.inf
    assert math.isnan(llr(0.004, 0.0, 0.0, 0.01))  # below it: no bound against the margin
    assert math.isnan(llr(0.01, -1e-12, 0.0, 0.01))  # a negative variance: no decision
    assert llr(0.01, 1e-300, 0.0, 0.01) > 0  # the least positive variance is a variance
    for dbar, v in ((math.inf, 1.0), (-math.inf, 1.0), (math.nan, 1.0), (0.0, math.inf)):
        assert math.isnan(llr(dbar, v, 0.0, 0.01))


def test_wald_bounds_by_hand():
    lo, hi = bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.9444389791664403) and hi == pytest.approx(2.9444389791664403)
    lo, hi = bounds(0.1, 0.2)
    assert lo == pytest.approx(math.log(0.2 / 0.9)) and hi == pytest.approx(math.log(0.8 / 0.1))
    assert bounds(0.4, 0.5) == pytest.approx((math.log(0.5 / 0.6), math.log(0.5 / 0.4)))


@pytest.mark.parametrize("alpha, beta", [(0.0, 0.1), (1.0, 0.1), (0.1, 0.0), (0.1, 1.0),
                                         (0.5, 0.5), (0.6, 0.45), (-0.1, 0.1), (0.1, 1.5)])  # fmt: skip
def test_bounds_refuse_rates_outside_the_open_simplex(alpha, beta):
    with pytest.raises(ValueError, match=f"got {alpha} and {beta}"):
        bounds(alpha, beta)


def test_decisions_on_and_beside_the_bounds():
    lo, hi = -2.0, 3.0
    assert decide(3.0, lo, hi) == BETTER and decide(math.inf, lo, hi) == BETTER
    assert decide(-2.0, lo, hi) == NOT_BETTER and decide(-math.inf, lo, hi) == NOT_BETTER
    assert decide(2.999, lo, hi) is None and decide(-1.999, lo, hi) is None
    assert decide(0.0, lo, hi) is None and decide(math.nan, lo, hi) is None


def test_next_stage_at_and_below_the_cap():
    assert next_stage(100, 100) is None and next_stage(101, 100) is None
    assert next_stage(99, 100) == 100  # capped
    assert next_stage(100, 1000) == 125  # x1.25 exactly
    assert next_stage(4, 1000) == 5 and next_stage(5, 1000) == 7  # ceil(6.25)
    assert next_stage(1, 1000) == 2 and next_stage(0, 1000) == 1  # at least one more
    assert next_stage(10, 1000, growth=2.0) == 20
    assert next_stage(10, 1000, growth=1.0) == 11


def test_next_precision_stage_by_the_square_root_law():
    # 7 * (2 / 1)^2 * 1.1 = 30.8 -> 31 deals
    assert next_precision_stage(7, 2.0, 1.0, 10**6) == 31
    # (1.1 / 1)^2 * 1.1 = 1.331 -> 134 (ceil of 133.1)
    assert next_precision_stage(100, 1.1, 1.0, 10**6) == 134
    # below x1.25 the minimum growth: 125
    assert next_precision_stage(100, 1.0, 1.0, 10**6) == 125
    assert next_precision_stage(100, 0.1, 1.0, 10**6) == 125
    # an unknown width, or no target, doubles
    assert next_precision_stage(100, math.nan, 1.0, 10**6) == 200
    assert next_precision_stage(100, math.inf, 1.0, 10**6) == 200
    assert next_precision_stage(100, 2.0, 0.0, 10**6) == 200
    assert next_precision_stage(100, 2.0, -1.0, 10**6) == 200
    # the cap, and at least one more deal
    assert next_precision_stage(100, 2.0, 1.0, 300) == 300
    assert next_precision_stage(300, 2.0, 1.0, 300) is None
    assert next_precision_stage(301, 2.0, 1.0, 300) is None
    assert next_precision_stage(299, 2.0, 1.0, 300) == 300
    assert next_precision_stage(0, 2.0, 1.0, 300) == 1
    assert next_precision_stage(1, 0.1, 1.0, 300) == 2


def test_sequential_defaults_and_its_bounds():
    t = Sequential(0.01)
    assert t.alpha == 0.05 and t.beta == 0.05 and t.batches == 0 and t.decision is None
    assert math.isnan(t.llr)
    assert (t.lower, t.upper) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))


@pytest.mark.parametrize("margin, said", [(0.0, "0"), (-0.01, "-0.01"), (math.inf, "inf"),
                                          (math.nan, "nan")])  # fmt: skip
def test_a_margin_must_be_positive_and_finite(margin, said):
    """The library takes the margin as a rate and says it as given (the command line takes it
    in percentage points and says it so: ``test_words_pp60``)."""
    with pytest.raises(
        ValueError, match=f"^margin must be a positive difference of win rates, got {said}$"
    ):
        Sequential(margin)


def test_update_uses_the_square_of_the_standard_error():
    t = Sequential(0.02)
    # llr(0.03, 0.01^2, 0, 0.02) = 0.02 * (0.06 - 0.02) / (2e-4) = 4 > log 19
    assert t.update(0.03, 0.01) == BETTER
    assert t.llr == pytest.approx(4.0) and t.batches == 1 and t.decision == BETTER
    t = Sequential(0.02)
    # 0.02 * (0.02 - 0.02) / ... = 0: go on; then 0.02 * (-0.04) / (2e-4) = -4: not better
    assert t.update(0.01, 0.01) is None and t.llr == 0.0
    assert t.update(-0.01, 0.01) == NOT_BETTER and t.batches == 2


def test_the_record_of_a_test():
    t = Sequential(0.015, alpha=0.1, beta=0.2)
    rec = t.record(4000)
    assert rec == {
        "decision": UNDECIDED, "games_per_side": 4000, "llr": None,
        "lower": pytest.approx(math.log(0.2 / 0.9)), "upper": pytest.approx(math.log(8.0)),
        "margin": 1.5, "alpha": 0.1, "beta": 0.2, "batches": 0,
    }  # fmt: skip
    t.update(1.0, 0.0)  # no spread, far above: +inf
    rec = t.record(5000)
    assert rec["llr"] == "inf" and rec["decision"] == BETTER and rec["batches"] == 1
    t.update(-1.0, 0.0)  # no spread, below: no LLR, no decision
    assert t.record(6000)["llr"] is None and t.record(6000)["decision"] == UNDECIDED
    t.update(-1.0, 0.01)
    assert t.record(6000)["decision"] == NOT_BETTER
    t.update(0.5, 0.1)  # 0.015 * (1.0 - 0.015) / 0.02 = 0.73875
    assert t.record(7000)["llr"] == pytest.approx(0.73875)


def test_the_recorded_margin_keeps_twelve_significant_digits_of_a_point():
    # 0.012345678901234 is 1.2345678901234 points: kept as 1.23456789012; a tiny margin keeps
    # its digits too (ten decimals kept 1e-07 points as 0.0, said '+0')
    assert Sequential(0.012345678901234).record(1)["margin"] == 1.23456789012
    assert Sequential(1.2345678901234e-9).record(1)["margin"] == 1.23456789012e-07


def test_the_loop_of_batches_until_a_decision():
    from tournaments.sequential import run_batches

    t = Sequential(0.02)
    answers = iter([(0.01, 0.01), (0.01, 0.01), (0.03, 0.01)])  # llr 0, 0, then 4: better
    heard = []

    def estimate(stages):
        diff, se = next(answers)
        return {"diff": diff, "se": se, "deals": stages[-1]}

    first = [100]
    stages, est = run_batches(first, 1000, estimate, t,
                              lambda s, e, final: heard.append((list(s), e["deals"], final)))  # fmt: skip
    assert first == [100]  # the caller's list is left alone
    assert stages == [100, 125, 157] and est["deals"] == 157  # x1.25, ceil(156.25)
    assert heard == [([100], 100, False), ([100, 125], 125, False), ([100, 125, 157], 157, True)]
    assert t.decision == BETTER and t.batches == 3


def test_the_loop_of_batches_stops_at_the_cap():
    from tournaments.sequential import run_batches

    t = Sequential(0.02)
    stages, est = run_batches([100], 200, lambda s: {"diff": 0.01, "se": 0.01}, t)
    # 125, ceil(156.25) = 157, ceil(196.25) = 197, then the cap 200, then nothing more
    assert stages == [100, 125, 157, 197, 200] and t.decision is None and t.batches == 5
    assert t.record(1)["decision"] == UNDECIDED
    t = Sequential(0.02)
    assert run_batches([200], 200, lambda s: {"diff": 0.01, "se": 0.01}, t)[0] == [200]
