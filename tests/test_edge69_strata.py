"""A duplicate set alone in its stratum is no set without variance: a group (a strategy, a
measure) with one takes all its sets as one stratum (``reports.strata``), where it counted as
nothing and a difference living in that one set (one table of a size dealt once) read as
exact: 'games are 0.08 turns shorter [0.06, 0.09]' from the five games of one deal. Groups
without a lone set keep their stratified variance, number for number."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reports import clusters as rc
from reports.strata import stratified
from reports.variants_metrics import difference, interval
from reports.variants_sets import Measure


def _clusters(strata: list[int]) -> rc.Clusters:
    s = np.asarray(strata, np.int64)
    return rc.Clusters(np.arange(s.size), s, int(s.max()) + 1, False, np.arange(s.size))


def test_a_lone_set_pools_its_groups_sets_into_one_stratum_by_hand():
    # stratum 0 holds 1, 2, 4, stratum 1 holds 3, 5, stratum 2 holds 10 alone: all six are one
    # stratum. Mean 25/6; sum of squares 155 - 6 (25/6)^2 = 305/6; u = v / 6, so 305/216,
    # times 6/5: 61/36 on 5 degrees of freedom (it was 11/36 on 3, the 10 counting nothing)
    values = np.array([1.0, 2.0, 4.0, 3.0, 5.0, 10.0])
    est = rc.mean_estimates(values, np.zeros(6, np.int64), np.arange(6), 1,
                            _clusters([0, 0, 0, 1, 1, 2]))  # fmt: skip
    assert est.se[0] ** 2 == pytest.approx(61 / 36)
    assert est.df[0] == 5.0 and est.units[0] == 6.0 and est.conservative


def test_only_the_group_with_a_lone_set_is_pooled():
    # group 0 (u = v / 4): stratum 0 (1, 3), stratum 1 (5, 7), no lone set: each stratum's
    # squares 2 / 16, times 2/1: 1/4 + 1/4 on 2 degrees of freedom; group 1 (u = v / 3):
    # stratum 0 (2, 4), stratum 1 (9) alone: one stratum of 2, 4, 9 (mean 5, squares
    # 9 + 1 + 16 = 26, / 9, times 3/2: 13/3) on 2 degrees of freedom
    values = np.array([1.0, 3.0, 5.0, 7.0, 2.0, 4.0, 9.0])
    group = np.array([0, 0, 0, 0, 1, 1, 1])
    spread = stratified(values / np.array([4, 4, 4, 4, 3, 3, 3]), group,
                        np.array([0, 0, 1, 1, 0, 0, 1]), 2, 2)  # fmt: skip
    np.testing.assert_allclose(spread.var, [1 / 2, 13 / 3])
    np.testing.assert_array_equal(spread.df, [2.0, 2.0])
    np.testing.assert_array_equal(spread.units, [4.0, 3.0])
    np.testing.assert_array_equal(spread.pooled, [False, True])


def test_strata_of_two_or_more_sets_keep_their_variance_and_are_not_conservative():
    values = np.array([1.0, 2.0, 4.0, 3.0, 5.0])
    est = rc.mean_estimates(values, np.zeros(5, np.int64), np.arange(5), 1,
                            _clusters([0, 0, 0, 1, 1]))  # fmt: skip
    # stratum 0: 42/9 / 25 * 3/2 = 7/25; stratum 1: 2 / 25 * 2 = 4/25
    assert est.se[0] ** 2 == pytest.approx(11 / 25)
    assert est.df[0] == 3.0 and not est.conservative


def test_a_group_of_one_set_has_no_degree_of_freedom_and_is_not_called_pooled():
    spread = stratified(np.array([0.5]), np.array([0]), np.array([0]), 1, 1)
    assert spread.var[0] == 0.0 and spread.df[0] == 0.0 and not spread.pooled[0]


def _measure(sets: list[tuple[int, int, float]]) -> Measure:
    """A mean over games (one game a set): (key, stratum, value) per set."""
    key = np.array([k for k, _, _ in sets], np.int64)
    x = np.array([v for _, _, v in sets])
    value = float(x.mean())
    return Measure("turns", "all", -1, value, key, np.array([s for _, s, _ in sets], np.int64),
                   (x - value) / x.size, False, x.size)  # fmt: skip


def test_a_variants_difference_from_one_lone_set_is_not_clear():
    # eight sets of 4 players (one pooled stratum) play alike under both rules, up to a turn
    # here and there; the one set of 3 players (its own stratum) is 13 turns shorter. The
    # difference rests on that set alone: its interval must cover 0, where it was a narrow
    # interval beside it
    fours = [0.0, 1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 0.0]
    base = _measure([(i, 4, 40.0 + d) for i, d in enumerate(fours)] + [(99, 3, 30.0)])
    other = _measure([(i, 4, 40.0) for i in range(8)] + [(99, 3, 17.0)])
    est = difference(base, other, paired=True)
    lo, hi = interval(other, est)
    assert est.value[0] == pytest.approx(-13 / 9)
    assert lo < 0 < hi and est.conservative
    assert est.df[0] == 8.0  # nine sets, one stratum


@st.composite
def _designs(draw):
    n = draw(st.integers(1, 14))
    group = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), np.int64)
    stratum = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), np.int64)
    u = np.array(draw(st.lists(st.floats(-5, 5), min_size=n, max_size=n)))
    return u, group, stratum


def _by_hand(u: np.ndarray, strata: np.ndarray) -> tuple[float, float]:
    """One group's variance and degrees of freedom, set by set."""
    var = df = 0.0
    for s in np.unique(strata):
        x = u[strata == s]
        if x.size >= 2:
            var += x.size / (x.size - 1) * float(((x - x.mean()) ** 2).sum())
            df += x.size - 1
    return var, df


@given(_designs())
def test_every_group_is_stratified_or_one_stratum_as_it_has_a_lone_set(design):
    u, group, stratum = design
    spread = stratified(u, group, stratum, 3, 4)
    for g in range(3):
        x, s = u[group == g], stratum[group == g]
        _, counts = np.unique(s, return_counts=True)
        lone = x.size >= 2 and bool((counts == 1).any())
        var, df = _by_hand(x, np.zeros_like(s) if lone else s)
        assert spread.pooled[g] == lone and spread.units[g] == x.size
        assert spread.var[g] == pytest.approx(var, abs=1e-9) and spread.df[g] == df
        if x.size >= 2 and np.ptp(x) > 1e-6:
            assert spread.var[g] > 0  # sets that differ never read as exact
