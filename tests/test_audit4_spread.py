"""A comparison whose duplicate sets show no spread: every set gave the same difference.

A standard error of zero there is no evidence that the difference cannot vary, so no interval
is stated (a zero-width one claimed certainty: '40.0 points [40.0, 40.0], p < 1e-16'), and the
p-value is the exact sign test's: with N sets all of one sign, 2 * 0.5**N two-sided.
The runs are small enough to count by hand: one 3-seat table of a, b and c, each deal played
under the three rotations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import reports
from reports.clusters import Estimates, clusters, ratio_estimates, seat_sums, wilson_t
from reports.neighbours import neighbours
from reports.significance import method, significance
from reports.tables import summary

from .test_boundaries_clusters import games
from .test_boundaries_significance import run

ALWAYS_A = [(0, 0, 0)] * 7  # a wins every game of 7 deals: a - b = +100 points in every set


def test_a_constant_difference_has_no_interval_and_the_sign_test_p():
    sig = significance(run(ALWAYS_A), top=3, order=["a", "b", "c"]).set_index(["a", "b"])
    ab = sig.loc[("a", "b")]
    assert ab["diff"] == 1.0 and ab["se"] == 0.0 and ab["units"] == 7
    assert np.isnan(ab["ci_low"]) and np.isnan(ab["ci_high"])  # was [1.0, 1.0]
    assert ab["p_value"] == pytest.approx(2 * 0.5**7)  # was 0: 'p < 1e-16'
    assert np.isnan(ab["t"])  # was 0.0, as if no difference at all
    bc = sig.loc[("b", "c")]  # both never win: the same 0 in every set
    assert np.isnan(bc["ci_low"]) and np.isnan(bc["ci_high"])  # was [0.0, 0.0]
    assert bc["p_value"] == 1.0


def test_the_sign_test_counts_the_sets_of_each_sign():
    """Sets that differ in sign across tables, each table without spread: the exact two-sided
    binomial sign test of 7 sets positive and 2 negative, sum C(9, i), i <= 2, / 2**8."""
    est = Estimates(np.array([0.5]), np.array([0.0]), np.array([7.0]), np.array([9.0]),
                    signs=(np.array([7.0]), np.array([2.0])))  # fmt: skip
    assert est.p_value()[0] == pytest.approx((1 + 9 + 36) / 2**8)
    assert np.isnan(est.interval()[0][0]) and np.isnan(est.interval()[1][0])
    unknown = Estimates(np.array([0.5]), np.array([0.0]), np.array([7.0]), np.array([9.0]))
    assert np.isnan(unknown.p_value()[0])  # no signs to test: no p-value, never 0
    assert unknown.p_value(null=0.5)[0] == 1.0  # the value is the null's: no evidence


def test_a_spread_leaves_the_interval_and_p_as_they_were():
    est = Estimates(np.array([0.5]), np.array([0.1]), np.array([7.0]), np.array([8.0]))
    lo, hi = est.interval()
    from scipy import stats

    assert hi[0] - 0.5 == pytest.approx(stats.t.ppf(0.975, 7) * 0.1, rel=1e-10)
    assert est.p_value()[0] == pytest.approx(2 * stats.t.sf(5.0, 7), rel=1e-9)


def test_a_rate_with_no_spread_counts_each_set_once():
    """A strategy that wins exactly one game of each set's three: 1/3 in every set. Its rate
    has no spread, yet a per-set rate in [0, 1] with mean p varies at most p(1 - p): the
    Wilson interval on one trial per set, as a rate of 0 or 1 has it (was [33.3, 33.3])."""
    g = run([(0, 1, 2)] * 7)
    est = ratio_estimates(seat_sums(g, 3), clusters(g))
    assert est.value[0] == pytest.approx(1 / 3) and est.se[0] == 0.0
    lo, hi = wilson_t(est)
    want = Estimates(np.array([1 / 3]), np.array([np.sqrt(2 / 9 / 7)]), np.array([6.0]),
                     np.array([7.0]))  # fmt: skip
    assert lo[0] == pytest.approx(wilson_t(want)[0][0]) and hi[0] > lo[0] + 0.3


def _findings(winners) -> str:
    g = run(winners)
    tables = {"summary": summary(g), "significance": significance(g, top=3)}
    return " ".join(f.text for f in reports.key_findings(tables, method(g)))


def test_the_best_strategy_sentence_says_there_is_no_spread():
    text = _findings(ALWAYS_A)
    assert "[100.0, 100.0]" not in text and "p < 1e-16" not in text, text
    assert (
        "beats the runner-up, b (tied with c), by 100.0 percentage points (every one of the 7 "
        "duplicate "
        "sets gave the same difference: no spread to give an interval from)" in text
    ), text
    assert "p = 0.02" in text, text  # 2 * 0.5**7 = 0.016


def test_a_tie_with_no_spread_states_no_certainty():
    text = _findings([(0, 1, 2)] * 7)
    assert "[0.0, 0.0]" not in text and "[33.3, 33.3]" not in text, text
    assert (
        "a - b = +0.0 percentage points (every one of the 7 duplicate sets gave the same "
        "difference: "
        "no spread to give an interval from; paired, p = 1.00)" in text
    ), text


def _seat_decides():
    """Seven deals at one table of a, b and c, each played under all six seatings; the first
    seat wins, or the second where c sits first: whoever sits after b wins exactly when b is
    first, in every set, so each neighbour effect is the same in all seven sets."""
    seats, winner, deal = [], [], []
    for d in range(7):
        for p in itertools.permutations(range(3)):
            seats.append(p)
            deal.append(d)
            winner.append(0 if p[0] != 2 else 1)
    return games(seats, winner, deal=deal, table=[0] * len(seats))


def test_a_neighbour_effect_with_no_spread_says_so():
    g = _seat_decides()
    nb = neighbours(g).set_index(["strategy", "before"])
    ab = nb.loc[("a", "b")]  # a after b: -33.3 points in each of the 7 sets
    assert ab["vs_elsewhere"] == pytest.approx(-1 / 3) and ab["vs_elsewhere_sets"] == 7
    assert np.isnan(ab["vs_elsewhere_low"]) and np.isnan(ab["vs_elsewhere_high"])
    assert ab["vs_elsewhere_p"] == pytest.approx(2 * 0.5**7)  # was 0
    tables = {"summary": summary(g), "significance": significance(g, top=3), "neighbours": nb}
    tables["neighbours"] = nb.reset_index()
    text = " ".join(f.text for f in reports.key_findings(tables, method(g)))
    assert (
        "(-33.3 percentage points within the same deals; within each table every duplicate "
        "set gave the same difference, 7 duplicate sets in all: no spread to give an interval "
        "from; p = 0.02)" in text
    ), text
    assert "not significant after correction over the 6 pairs" in text, text


def test_the_page_does_not_call_a_run_with_no_spread_too_small():
    from reports.data import default_declaration
    from reports.page import Section
    from reports.sections import _lead

    g = run(ALWAYS_A)
    tables = {"summary": summary(g), "significance": significance(g, top=3)}
    sec = Section("Differences that matter", tables=[("significance", tables["significance"])])
    lead = _lead(sec, tables, default_declaration())
    assert "too few deals" not in lead, lead
