"""The arithmetic of ``reports.clusters`` on data small enough to work out by hand: which games
form a duplicate set, which sets a stratum, pooled single-deal tables, the within-stratum
variance with its D / (D - 1), the degrees of freedom (sets less strata of two or more), the
t quantile and p-value at MIN_DF and beside it, and Wilson's interval at rates 0 and 1. The
quantiles come from scipy; every other number is computed in the comments."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reports import clusters as rc
from reports.data import MISSING, Games


def games(
    seats, winner, deal=None, table=None, n_players=None, labels=("a", "b", "c", "d")
) -> Games:
    seats = np.asarray(seats, dtype=np.int16)
    n = len(seats)
    return Games(
        labels=tuple(labels), seats=seats,
        values=np.where(seats >= 0, 0, MISSING).astype(np.int16),
        n_players=np.asarray(n_players if n_players is not None else (seats >= 0).sum(axis=1),
                             dtype=np.int8),
        first=np.zeros(n, np.int8), winner=np.asarray(winner, dtype=np.int8),
        unfinished=np.zeros(n, bool), forfeited=np.zeros(n, bool),
        forfeit_seat=np.full(n, -1, np.int8),
        deal=None if deal is None else np.asarray(deal, dtype=np.int64),
        table=None if table is None else np.asarray(table, dtype=np.int64),
    )  # fmt: skip


def test_min_df_and_the_first_row_of_each_cluster():
    assert rc.MIN_DF == 5.0
    np.testing.assert_array_equal(rc.first_of(np.array([2, 0, 0, 1, 2])), [1, 3, 0])
    np.testing.assert_array_equal(rc.first_of(np.array([0])), [0])
    assert rc.first_of(np.zeros(0, np.int64)).size == 0


def test_duplicate_sets_are_a_deal_at_a_table():
    # tables 0, 0, 1, 1, 1, 1 and deals 0, 1, 0, 1, 1, 0: the last deal of table 0 and the
    # first of table 1 must not share a key (table * (max deal + 1) + deal)
    g = games([[0, 1, 2]] * 6, [0] * 6, deal=[0, 1, 0, 1, 1, 0], table=[0, 0, 1, 1, 1, 1])
    cl = rc.clusters(g)
    np.testing.assert_array_equal(cl.of_game, [0, 1, 2, 3, 3, 2])
    np.testing.assert_array_equal(cl.first, [0, 1, 2, 3])
    np.testing.assert_array_equal(cl.stratum, [0, 0, 1, 1])
    assert cl.n == 4 and cl.n_strata == 2 and not cl.pooled
    assert rc.clusters(g) is cl  # cached on the games


def test_tables_dealt_once_are_pooled_by_size():
    # table 0: two deals; tables 1 and 2 (3 seats) and 3 (4 seats): one deal each
    g = games([[0, 1, 2, -1]] * 5 + [[0, 1, 2, 3]], [0] * 6, deal=[0, 1, 0, 0, 0, 0],
              table=[0, 0, 1, 1, 2, 3])  # fmt: skip
    cl = rc.clusters(g)
    np.testing.assert_array_equal(cl.of_game, [0, 1, 2, 2, 3, 4])
    # table 0 keeps its stratum; tables 1 and 2 share the 3-seat pool, table 3 the 4-seat one
    np.testing.assert_array_equal(cl.stratum, [0, 0, 1, 1, 2])
    assert cl.pooled and cl.n_strata == 3


def test_without_a_deal_column_each_game_is_its_own_cluster():
    g = games([[0, 1, 2], [0, 1, 2], [2, 1, 0]], [0, 1, 2], table=[5, 5, 7])
    cl = rc.clusters(g)
    np.testing.assert_array_equal(cl.of_game, [0, 1, 2])
    # table 7 has a single game: pooled with the other single tables of its size (3 seats)
    np.testing.assert_array_equal(cl.stratum, [0, 0, 1])
    assert cl.pooled


def test_without_a_table_column_the_table_is_who_sits_there():
    # the same multiset {0, 1, 2} in two orders is one table; {0, 1, 3} another; a 4-seat
    # table of {0, 1, 2} and an empty seat is the first again (empty seats are not entrants)
    seats = [[0, 1, 2, -1], [2, 0, 1, -1], [0, 1, 3, -1], [0, 1, 3, -1]]
    g = games(seats, [0, 0, 0, 0], deal=[0, 0, 0, 1])
    cl = rc.clusters(g)
    np.testing.assert_array_equal(cl.of_game, [0, 0, 1, 2])
    np.testing.assert_array_equal(cl.stratum, [0, 1, 1])
    assert cl.pooled  # the first table was dealt once: its own pool (size 3)
    g = games([[0, 1, 2, -1], [0, 1, 2, 3]], [0, 0], deal=[0, 0], n_players=[3, 4])
    assert rc.clusters(g).n == 2  # a different size is a different table


def test_seat_sums_count_wins_and_seats_per_strategy_and_set():
    # set 0: games 0, 1 (a, b, c; winners a then b); set 1: game 2 (a, b, a; winner seat 2)
    g = games([[0, 1, 2], [1, 0, 2], [0, 1, 0]], [0, 0, 2], deal=[0, 0, 1], table=[0, 0, 0])
    s = rc.seat_sums(g, 4)
    got = {(int(a), int(b)): (w, n) for a, b, w, n in zip(s.group, s.cluster, s.w, s.n,
                                                          strict=True)}  # fmt: skip
    assert got == {(0, 0): (1.0, 2.0), (0, 1): (1.0, 2.0), (1, 0): (1.0, 2.0), (1, 1): (0.0, 1.0),
                   (2, 0): (0.0, 2.0)}  # fmt: skip
    w, n = s.totals()
    np.testing.assert_array_equal(w, [2, 1, 0, 0])
    np.testing.assert_array_equal(n, [4, 3, 2, 0])


def test_seat_sums_over_more_games_than_seats():
    # four 2-seat games in one set: a wins 3 (games 0, 1, 3), b wins 1; each sat 4 times
    g = games([[0, 1], [1, 0], [0, 1], [1, 0]], [0, 1, 1, 1], deal=[0, 0, 0, 0], table=[0] * 4)
    s = rc.seat_sums(g, 2)
    np.testing.assert_array_equal(s.w, [3, 1])
    np.testing.assert_array_equal(s.n, [4, 4])


def test_seat_sums_with_codes_that_skip_and_repeat():
    g = games([[0, 1, 2], [1, 0, 2]], [1, 2], deal=[0, 1], table=[0, 0])
    # seat 0 counts once in group 0 and once in group 1; others are not counted
    code = lambda b, s: np.stack([np.full(len(b), 0 if s == 0 else -1),  # noqa: E731
                                  np.full(len(b), 1 if s == 0 else -1)], axis=1)  # fmt: skip
    s = rc.seat_sums(g, 2, code=code)
    np.testing.assert_array_equal(s.group, [0, 0, 1, 1])
    np.testing.assert_array_equal(s.cluster, [0, 1, 0, 1])
    np.testing.assert_array_equal(s.n, [1, 1, 1, 1])
    np.testing.assert_array_equal(s.w, [0, 0, 0, 0])  # seat 0 won neither game


@pytest.mark.parametrize("dense", [True, False])
def test_table_sums_dense_and_sparse(dense, monkeypatch):
    if not dense:
        monkeypatch.setattr(rc, "DENSE_CELLS", 0)
    codes = np.array([[0, 1], [1, -1], [0, 0], [2, 1]])
    outcome = np.array([[0.5, 1.0], [2.0, 9.0], [1.0, 0.25], [3.0, 0.0]])
    s = rc.table_sums(codes, outcome, np.array([0, 0, 1, 1]), 3, 2)
    np.testing.assert_array_equal(s.group, [0, 0, 1, 1, 2])
    np.testing.assert_array_equal(s.cluster, [0, 1, 0, 1, 1])
    np.testing.assert_allclose(s.w, [0.5, 1.25, 3.0, 0.0, 3.0])
    np.testing.assert_array_equal(s.n, [1, 2, 2, 1, 1])
    assert s.n_groups == 3
    yes_no = rc.table_sums(codes, (outcome >= 1).astype(float), np.array([0, 0, 1, 1]), 3, 2)
    np.testing.assert_allclose(yes_no.w, [0, 1, 2, 0, 1])
    empty = rc.Accumulator(3, 2).result()  # nothing added
    assert empty.group.size == empty.cluster.size == empty.w.size == empty.n.size == 0
    assert empty.n_groups == 3


@pytest.mark.parametrize("outcome, w", [([0.5, 2.0, 0.5], [2.5, 0.5]), ([0.0, 2.0, 2.0], [2.0, 2.0]),
                                        ([1.0, 1.0, 1.0], [2.0, 1.0]), ([0.0, 0.0, 0.0], [0.0, 0.0])])  # fmt: skip
def test_outcomes_other_than_yes_and_no_are_summed(outcome, w):
    s = rc.table_sums(np.array([0, 0, 1]), np.array(outcome), np.array([0, 0, 0]), 2, 1)
    np.testing.assert_array_equal(s.w, w)
    np.testing.assert_array_equal(s.n, [2, 1])


def test_the_dense_bound():
    assert rc.DENSE_CELLS == 1 << 22
    assert (
        rc.Accumulator(1 << 11, 1 << 11).dense and not rc.Accumulator((1 << 11) + 1, 1 << 11).dense
    )
    assert rc.Accumulator(3, 0).c == 1  # no clusters still makes a table of one


def _one_stratum(values, strata) -> rc.Clusters:
    strata = np.asarray(strata, np.int64)
    n = strata.size
    return rc.Clusters(np.arange(n), strata, int(strata.max()) + 1, False, np.arange(n))


def test_the_stratified_variance_and_degrees_of_freedom_by_hand():
    # one group; stratum 0 holds sets 1, 2, 4 (mean 7/3), stratum 1 holds 3, 5 (mean 4),
    # stratum 2 holds 10, 6 (mean 8). Mean of the seven: 31 / 7; each set contributes value / 7.
    # (A set alone in its stratum pools its group's sets: tests/test_edge69_strata.py.)
    values = np.array([1.0, 2.0, 4.0, 3.0, 5.0, 10.0, 6.0])
    cl = _one_stratum(values, [0, 0, 0, 1, 1, 2, 2])
    est = rc.mean_estimates(values, np.zeros(7, np.int64), np.arange(7), 1, cl)
    assert est.value[0] == pytest.approx(31 / 7)
    # u = v / 7. Stratum 0: squared deviations 42/9 / 49, times 3/2 -> 7/49;
    # stratum 1: 2 / 49, times 2/1 -> 4/49; stratum 2: 8 / 49, times 2/1 -> 16/49. Sum 27/49.
    assert est.se[0] ** 2 == pytest.approx(27 / 49)
    assert est.df[0] == 4.0  # (3 - 1) + (2 - 1) + (2 - 1)
    assert est.units[0] == 7.0 and not est.conservative


def test_a_group_absent_from_a_stratum_costs_it_no_degree_of_freedom():
    # group 0 in both strata (2 + 3 sets), group 1 in stratum 1 only (2 sets): df 3 and 1
    strata = rc.Clusters(np.arange(7), np.array([0, 0, 1, 1, 1, 1, 1]), 2, False, np.arange(7))
    values = np.array([1.0, 2.0, 1.0, 2.0, 4.0, 3.0, 5.0])
    est = rc.mean_estimates(values, np.array([0, 0, 0, 0, 0, 1, 1]), np.arange(7), 2, strata)
    np.testing.assert_array_equal(est.df, [3.0, 1.0])
    np.testing.assert_array_equal(est.units, [5.0, 2.0])


def test_a_run_of_no_games_has_no_clusters_and_no_strata():
    cl = rc.clusters(games(np.zeros((0, 3), np.int16), [], deal=[], table=[]))
    assert cl.n == 0 and cl.n_strata == 0 and not cl.pooled and cl.first.size == 0
    none = rc.given([])
    assert none.n == 0 and none.n_strata == 0


def test_two_groups_keep_apart():
    values = np.array([1.0, 3.0, 2.0, 2.0])
    cl = _one_stratum(values, [0, 0, 0, 0])
    est = rc.mean_estimates(values, np.array([0, 0, 1, 1]), np.array([0, 1, 2, 3]), 2, cl)
    np.testing.assert_allclose(est.value, [2.0, 2.0])
    # group 0: u = 0.5, 1.5, mean 1, ss 0.5, times 2 -> 1; group 1: no spread
    np.testing.assert_allclose(est.se**2, [1.0, 0.0])
    np.testing.assert_array_equal(est.df, [1.0, 1.0])


def test_a_rate_and_its_linearised_error_by_hand():
    # two sets in one stratum: 1 win of 2, 3 of 4: rate 2/3; u = (w - rate n) / 6 = -1/18,
    # 1/18; variance 2/1 * (2 / 324) = 1/81
    cl = _one_stratum(None, [0, 0])
    sums = rc.Sums(np.zeros(2, np.int64), np.arange(2), np.array([1.0, 3.0]),
                   np.array([2.0, 4.0]), 1)  # fmt: skip
    est = rc.ratio_estimates(sums, cl)
    assert est.value[0] == pytest.approx(2 / 3) and est.se[0] == pytest.approx(1 / 9)
    assert est.df[0] == 1.0 and est.units[0] == 2.0 and not est.conservative
    # the binomial variance of 6 trials at 2/3 is 1/27: this design effect is (1/81) / (1/27)
    assert est.design_effect(np.array([6.0]))[0] == pytest.approx(1 / 3)


def test_a_paired_difference_of_rates_and_its_error_by_hand():
    # two sets in one stratum. A wins 0 of 2 seats, then 3 of 4; B 0 of 2, then 1 of 4. Per
    # set d = 0 and 3/4 - 1/4 = 1/2; weighed by A's seats (2, 4): D = (2 * 0 + 4 * 1/2) / 6 =
    # 1/3, A's 3/6 less B's rate at A's weights (2 * 0 + 4 * 1/4) / 6 = 1/6.
    # u = n (d - D) / 6: 2 (-1/3) / 6 = -1/9 and 4 (1/6) / 6 = 1/9; variance 2/1 * 2/81 = 4/81
    cl = _one_stratum(None, [0, 0])
    group, ids = np.zeros(2, np.int64), np.arange(2)
    a, b = (
        (np.array([0.0, 3.0]), np.array([2.0, 4.0])),
        (np.array([0.0, 1.0]), np.array([2.0, 4.0])),
    )
    est = rc.rate_differences(a, b, group, ids, 1, cl)
    assert est.value[0] == pytest.approx(1 / 3) and est.se[0] == pytest.approx(2 / 9)
    assert est.df[0] == 1.0 and est.units[0] == 2.0
    assert rc.standardised(a, b) == pytest.approx(1 / 6)
    # the other way round: B less A at B's weights (the same seats here)
    back = rc.rate_differences(b, a, group, ids, 1, cl)
    assert back.value[0] == pytest.approx(-1 / 3) and back.se[0] == pytest.approx(2 / 9)


def test_quantiles_and_too_small_at_min_df():
    np.testing.assert_allclose(rc.t_quantile([5.0, 6.0, 40.0]), stats.t.ppf(0.975, [5, 6, 40]),
                               rtol=1e-10)  # fmt: skip
    q = rc.t_quantile([4.999, math.nan, math.inf, -1.0])
    assert np.isnan(q).all()
    assert rc.t_quantile([7.0], 0.9)[0] == pytest.approx(stats.t.ppf(0.95, 7), rel=1e-10)
    est = rc.Estimates(np.zeros(4), np.ones(4), np.array([4.999, 5.0, math.nan, 12.0]), np.ones(4))
    np.testing.assert_array_equal(rc.too_small(est), [True, False, True, False])


def test_half_width_interval_and_take():
    est = rc.Estimates(np.array([0.4, 0.1]), np.array([0.02, 0.01]), np.array([5.0, 4.0]),
                       np.array([7.0, 5.0]), conservative=True)  # fmt: skip
    half = 0.02 * stats.t.ppf(0.975, 5)
    np.testing.assert_allclose(est.half_width()[:1], [half], rtol=1e-10)
    assert math.isnan(est.half_width()[1])
    lo, hi = est.interval()
    assert lo[0] == pytest.approx(0.4 - half) and hi[0] == pytest.approx(0.4 + half)
    t = est.take([1, 0])
    np.testing.assert_array_equal(t.value, [0.1, 0.4])
    np.testing.assert_array_equal(t.df, [4.0, 5.0])
    np.testing.assert_array_equal(t.units, [5.0, 7.0])
    assert t.conservative


def test_p_values_by_t_and_the_exact_cases():
    est = rc.Estimates(np.array([0.05, 0.05, 0.0, 0.02, 0.3]), np.array([0.02, 0.02, 0.0, 0.0, 0.1]),
                       np.array([5.0, 4.0, 9.0, 9.0, 20.0]), np.ones(5))  # fmt: skip
    p = est.p_value()
    assert p[0] == pytest.approx(2 * stats.t.sf(2.5, 5), rel=1e-10)
    assert math.isnan(p[1])  # below MIN_DF
    assert p[2] == 1.0  # no spread, exactly on the null: no evidence of a difference
    assert math.isnan(p[3])  # no spread off the null, no signs to test: no certainty either
    assert p[4] == pytest.approx(2 * stats.t.sf(3.0, 20), rel=1e-10)
    assert est.p_value(null=0.1)[4] == pytest.approx(2 * stats.t.sf(2.0, 20), rel=1e-10)


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval, as printed in textbooks."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def test_wilson_on_the_effective_games():
    # rate 0.3 with se 0.05: worth 0.21 / 0.0025 = 84 independent games
    est = rc.Estimates(np.array([0.3, 0.0, 1.0, 0.5, 0.3]), np.array([0.05, 0.0, 0.0, 0.0, 0.05]),
                       np.array([20.0, 8.0, 8.0, 8.0, 4.0]), np.array([30.0, 10.0, 10.0, 10.0, 9.0]))  # fmt: skip
    lo, hi = rc.wilson_t(est)
    z20, z8 = stats.t.ppf(0.975, 20), stats.t.ppf(0.975, 8)
    assert (lo[0], hi[0]) == pytest.approx(wilson(0.3, 84.0, z20), rel=1e-10)
    # a rate of 0 or 1 counts each cluster once: 10 trials
    assert lo[1] == 0.0 and hi[1] == pytest.approx(wilson(0.0, 10.0, z8)[1], rel=1e-10)
    assert hi[2] == 1.0 and lo[2] == pytest.approx(wilson(1.0, 10.0, z8)[0], rel=1e-10)
    # no spread inside (0, 1): a cluster's rate varies at most p(1 - p), so each counts once
    assert (lo[3], hi[3]) == pytest.approx(wilson(0.5, 10.0, z8), rel=1e-10)
    assert math.isnan(lo[4]) and math.isnan(hi[4])  # below MIN_DF
    lo90, hi90 = rc.wilson_t(est, level=0.9)
    assert (lo90[0], hi90[0]) == pytest.approx(wilson(0.3, 84.0, stats.t.ppf(0.95, 20)), rel=1e-10)


def test_given_clusters_and_strata_from_labels():
    cl = rc.given(["x", "y", "x", "z"], ["s", "t", "s", "t"])
    np.testing.assert_array_equal(cl.of_game, [0, 1, 0, 2])
    np.testing.assert_array_equal(cl.first, [0, 1, 3])
    np.testing.assert_array_equal(cl.stratum, [0, 1, 1])
    assert cl.n_strata == 2 and not cl.pooled
    one = rc.given([3, 3, 4])
    np.testing.assert_array_equal(one.stratum, [0, 0]) and one.n_strata == 1


def test_a_clustered_rate_by_hand():
    # 12 trials in 6 clusters of 2, one stratum: cluster hits 2, 1, 1, 0, 2, 0 of 2
    hits = [1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0]
    cluster = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    lo, hi = rc.clustered_rate(hits, cluster)
    rate = 0.5
    u = (np.array([2, 1, 1, 0, 2, 0]) - rate * 2) / 12
    var = 6 / 5 * ((u - u.mean()) ** 2).sum()
    want = wilson(rate, rate * (1 - rate) / var, stats.t.ppf(0.975, 5))
    assert (lo, hi) == pytest.approx(want, rel=1e-10)
    # two strata of three clusters: df 6 - 2 = 4 < MIN_DF, no interval
    lo, hi = rc.clustered_rate(hits, cluster, [0] * 6 + [1] * 6)
    assert math.isnan(lo) and math.isnan(hi)


def test_the_sign_test_by_hand():
    # 2 * P(Binomial(n, 1/2) <= k) with k the smaller count, at most 1; ties left out
    p = rc.sign_test([5, 6, 3, 0, 1], [0, 1, 3, 0, 4])
    assert p[0] == pytest.approx(2 / 32)  # 5 of 5 one way: 2 * 1/32
    assert p[1] == pytest.approx(2 * (1 + 7) / 128)  # 6 and 1: n = 7, k = 1
    assert p[2] == 1.0  # 3 and 3: 2 * 42/64 = 1.3125, capped at 1
    assert p[3] == 1.0  # nothing differs
    assert p[4] == pytest.approx(2 * (1 + 5) / 32)  # 1 and 4: n = 5, k = 1
    assert rc.sign_test([0], [4])[0] == pytest.approx(2 / 16)


def test_a_paired_difference_counts_its_sets_above_and_below_zero():
    # three sets: d = +1/2, 0, -1/2 (A 1 of 2 and B 0 of 2; 1 and 1; 0 and 1): one above, one
    # below, the tie in neither
    cl = _one_stratum(None, [0, 0, 0])
    group, ids = np.zeros(3, np.int64), np.arange(3)
    a = (np.array([1.0, 1.0, 0.0]), np.array([2.0, 2.0, 2.0]))
    b = (np.array([0.0, 1.0, 1.0]), np.array([2.0, 2.0, 2.0]))
    est = rc.rate_differences(a, b, group, ids, 1, cl)
    assert est.signs[0].tolist() == [1.0] and est.signs[1].tolist() == [1.0]


def _flat(value, se, df, signs=None):
    n = len(value)
    return rc.Estimates(np.asarray(value, float), np.asarray(se, float), np.asarray(df, float),
                        np.full(n, 8.0), False, signs)  # fmt: skip


def test_no_spread_is_a_zero_error_on_deals_enough_for_an_interval():
    scale = 1e-12  # the error below which an estimate of size up to 1 counts as none
    est = _flat([0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.5],
                [scale, 1.5 * scale, 0.0, 3 * scale, 0.0, 0.1 * scale, 2 * scale],
                [5.0, 5.0, 4.999, 5.0, 5.0, 5.0, 5.0])  # fmt: skip
    # at the bound; past it; too few deals; a value of 3 scales the bound; zero; a value of 0
    # still allows 1e-12; half of 1 does not raise it
    assert est.flat().tolist() == [True, False, False, True, True, True, False]
    lo, hi = est.interval()
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and np.isfinite(lo[1])


def test_a_flat_estimate_is_tested_by_its_signs_at_null_zero_only():
    signs = (np.array([7.0, 0.0]), np.array([0.0, 0.0]))
    est = _flat([0.25, 0.0], [0.0, 0.0], [6.0, 6.0], signs)
    np.testing.assert_allclose(est.p_value(), [2 / 128, 1.0])
    for null in (0.5, 1.0, -1.0):  # the signs count against 0 only: no test, no certainty
        p = est.p_value(null)
        assert np.isnan(p).all(), (null, p)
    assert est.p_value(0.25)[0] == 1.0 and np.isnan(est.p_value(0.25)[1])
    taken = rc.Estimates(np.zeros(2), np.ones(2), np.full(2, 6.0), np.ones(2), False,
                         (np.array([3.0, 4.0]), np.array([1.0, 2.0]))).take([1, 0])  # fmt: skip
    assert taken.signs[0].tolist() == [4.0, 3.0] and taken.signs[1].tolist() == [2.0, 1.0]
