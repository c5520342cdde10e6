"""A count of games stopped at a declared limit is named ``unfinished_at:i:column:least``;
a game column may hold ':' itself, and the name must still read back as its column and least
value (a split on every ':' took the column's tail for the least value)."""

from __future__ import annotations

import numpy as np

from tournaments import aggregates
from tournaments.game import SeatedBatch


def _batch(clock, unfinished) -> SeatedBatch:
    g = len(clock)
    return SeatedBatch(first_player=None, winner_seat=np.full(g, -1, np.int8),
                       forfeit_seat=np.full(g, -1, np.int8),
                       seat_values={"rank": np.zeros((g, 3), np.int16)},
                       game_values={"time:s": np.asarray(clock, np.int16),
                                    "turns": np.asarray([5] * g, np.int16),
                                    "unfinished": np.asarray(unfinished, bool)},
                       errors=[None] * g)  # fmt: skip


def test_a_limit_on_a_column_holding_a_colon_is_counted():
    # four games stopped unfinished: two at 60 or more on the clock, two before it (the rest)
    tests = aggregates.limit_tests({"a minute": ("time:s", 60), "the rest": None})
    assert tests == [("time:s", 60)]
    agg = aggregates.empty(3, 1, 10, max_seats=3, limits=tests)
    batch = _batch([60, 90, 10, 59, 200], [True, True, True, True, False])
    aggregates.add_sets(agg, 0, [[0, 1, 2]] * 5, [[0, 1, 2]] * 5, batch, "rank", "turns")
    assert aggregates.unfinished_by_limit(agg, tests) == [2, 2]


def test_the_name_of_a_count_is_written_as_before():
    agg = aggregates.empty(3, 1, 10, max_seats=3, limits=[("turns", 200), ("a:b", 3)])
    assert [k for k in agg if k.startswith("unfinished_at:")] == [
        "unfinished_at:0:turns:200",
        "unfinished_at:1:a:b:3",
    ]
