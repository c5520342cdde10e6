"""``reports.clusters``' table codes, duplicate sets and per-cluster sums on tables counted by
hand: two lineups get different codes (also where one packed number would overflow), the same
lineup in another seating the same code; a duplicate set is one deal at one table, who sits
there included, and a deal's sets stay one cluster; a deal's sets of one group sum into one."""

from __future__ import annotations

import numpy as np

from reports import clusters as rc
from tests.test_boundaries_clusters import games

MANY = 65534
"""Labels enough that a table's base is 2**16: five seats pack into 2**80, past 64 bits."""


def _partition(codes: np.ndarray) -> list[list[int]]:
    """The rows grouped by equal code, in order of first appearance."""
    out: dict[int, list[int]] = {}
    for i, c in enumerate(np.asarray(codes).tolist()):
        out.setdefault(c, []).append(i)
    return list(out.values())


def test_two_seat_tables_are_told_apart_by_who_sits_there():
    # a and d against b twice: one packed number per table must keep them apart
    g = games([[0, 3], [3, 0], [1, 1], [1, 2], [2, 1]], [0] * 5)
    codes = rc._table_codes(g)
    assert codes.shape == (5,)
    assert _partition(codes) == [[0, 1], [2], [3, 4]]


def test_tables_too_big_for_one_number_keep_their_lowest_seat_apart():
    # rows 0 and 1: one lineup in two seatings; 2 differs in the lowest strategy only, 3 has
    # an empty seat where 0 has strategy 0 (four players, not five)
    seats = [[0, 5, 5, 5, 5], [5, 5, 0, 5, 5], [1, 5, 5, 5, 5], [-1, 5, 5, 5, 5]]
    labels = [f"s{i}" for i in range(MANY)]
    g = games(seats, [1] * 4, labels=labels)
    codes = rc._table_codes(g)
    assert codes.shape == (4,) and codes.dtype == np.int64
    assert _partition(codes) == [[0, 1], [2], [3]]
    two = games(seats[1:3], [1, 1], labels=labels)  # two games only: still too big
    assert _partition(rc._table_codes(two)) == [[0], [1]]


# a gauntlet's deal stream (table 0) dealt twice (deals 0 and 1), each deal at two lineups:
# the side's table (a, b) and the baseline's (c, b), each in two seatings. By hand: four sets,
# games 0-1, 2-3, 4-5, 6-7; sets 0 and 1 are deal 0 (cluster 0), sets 2 and 3 deal 1.
GAUNTLET = [[0, 1], [1, 0], [2, 1], [1, 2]] * 2
DEALS = [0, 0, 0, 0, 1, 1, 1, 1]


def test_a_deals_two_lineups_are_two_sets_of_one_cluster():
    g = games(GAUNTLET, [0] * 8, deal=DEALS, table=[0] * 8)
    of_set, cluster_of_set = rc.duplicate_sets(g)
    assert of_set.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert cluster_of_set.tolist() == [0, 0, 1, 1]
    assert rc.clusters(g).of_game.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    again = rc.duplicate_sets(g)
    assert again[0] is of_set and again[1] is cluster_of_set  # cached on the games


def test_where_each_deal_has_one_lineup_the_sets_are_the_clusters():
    # two streams (tables 0 and 1) at their own lineups, dealt twice each, games interleaved
    g = games([[0, 1], [2, 3], [1, 0], [3, 2]] * 2, [0] * 8, deal=[0, 0, 0, 0, 1, 1, 1, 1],
              table=[0, 1, 0, 1] * 2)  # fmt: skip
    of_set, cluster_of_set = rc.duplicate_sets(g)
    assert of_set.tolist() == [0, 1, 0, 1, 2, 3, 2, 3]
    assert cluster_of_set.tolist() == [0, 1, 2, 3]
    # without a table column the lineup is the table: the same sets
    plain = games([[0, 1], [2, 3], [1, 0], [3, 2]] * 2, [0] * 8, deal=[0, 0, 0, 0, 1, 1, 1, 1])
    assert rc.duplicate_sets(plain)[0].tolist() == of_set.tolist()


def test_seat_sums_per_set_carry_each_sets_cluster():
    # by hand: set 0 (games 0, 1) a wins both; set 1 (2, 3) c both; set 2 (4, 5) b one, a
    # one; set 3 (6, 7) b both. Each strategy at a set sits in both its games.
    winner = [0, 1, 0, 1, 1, 1, 1, 0]
    g = games(GAUNTLET, winner, deal=DEALS, table=[0] * 8)
    s = rc.seat_sums(g, 3, sets=True)
    got = {(int(a), int(b)): (float(w), float(n), int(u))
           for a, b, w, n, u in zip(s.group, s.cluster, s.w, s.n, s.unit, strict=True)}  # fmt: skip
    assert got == {(0, 0): (2.0, 2.0, 0), (0, 2): (1.0, 2.0, 1),
                   (1, 0): (0.0, 2.0, 0), (1, 1): (0.0, 2.0, 0),
                   (1, 2): (1.0, 2.0, 1), (1, 3): (2.0, 2.0, 1),
                   (2, 1): (2.0, 2.0, 0), (2, 3): (0.0, 2.0, 1)}  # fmt: skip


def test_a_groups_rows_of_one_cluster_sum_into_one():
    # rows (group, cluster): (0, 1), (0, 1), (1, 0), (0, 0): the first two are one deal's sets
    values = [np.array([1.0, 2.0, 4.0, 8.0]), np.array([10.0, 20.0, 40.0, 80.0])]
    (v, w), group, cluster = rc._per_cluster(values, np.array([0, 0, 1, 0]), np.array([1, 1, 0, 0]))
    assert len(group) == len(cluster) == len(v) == len(w) == 3
    got = {(int(a), int(b)): (float(x), float(y))
           for a, b, x, y in zip(group, cluster, v, w, strict=True)}  # fmt: skip
    assert got == {(0, 1): (3.0, 30.0), (1, 0): (4.0, 40.0), (0, 0): (8.0, 80.0)}


def test_rows_with_no_cluster_twice_come_back_as_they_were():
    values = [np.array([1.0, 2.0, 4.0])]
    group, cluster = np.array([1, 0, 0]), np.array([0, 1, 0])
    out, g2, c2 = rc._per_cluster(values, group, cluster)
    assert out is values and g2 is group and c2 is cluster
