"""The aggregates count the games stopped unfinished at each limit a game declares apart
(``limit_columns``), by the rule the rows are read with (``reports.loading``: the first limit
whose column reached its least value, the last limit for the rest), so a run without rows can
say what a run with rows says. Checked on hand-made batches whose truth is counted below."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tournaments import aggregates
from tournaments.game import SeatedBatch

COLUMNS = {"200 turns": ("turns", 200), "20 rounds": ("rounds", 20), "a minute": None}
"""A game with three limits: the turn count, the round count, and a clock the rows do not
show (the rest)."""


def _batch(turns, rounds, unfinished, winner) -> SeatedBatch:
    g = len(turns)
    return SeatedBatch(first_player=None, winner_seat=np.asarray(winner, np.int8),
                       forfeit_seat=np.full(g, -1, np.int8),
                       seat_values={"rank": np.zeros((g, 3), np.int16)},
                       game_values={"turns": np.asarray(turns, np.int16),
                                    "rounds": np.asarray(rounds, np.int16),
                                    "unfinished": np.asarray(unfinished, bool)},
                       errors=[None] * g)  # fmt: skip


# six games at a table of three: five stopped unfinished. By hand, the first limit reached:
#   game 0 (250 turns, 25 rounds): turns; game 1 (200, 5): turns; game 2 (10, 20): rounds;
#   game 3 (10, 5): the rest; game 4 (10, 5): the rest; game 5 (300, 30) finished: none
BATCH = _batch([250, 200, 10, 10, 10, 300], [25, 5, 20, 5, 5, 30],
               [True, True, True, True, True, False], [0, -1, -1, 1, -1, 2])  # fmt: skip


def _counted(tests) -> dict[str, np.ndarray]:
    agg = aggregates.empty(3, 1, 400, max_seats=3, limits=tests)
    aggregates.add_sets(agg, 0, [[0, 1, 2]] * 6, [[0, 1, 2]] * 6, BATCH, "rank", "turns")
    return agg


def test_the_declared_tests_are_every_limit_but_the_last_in_order():
    assert aggregates.limit_tests(COLUMNS) == [("turns", 200), ("rounds", 20)]
    assert aggregates.limit_tests(None) == [] == aggregates.limit_tests({"10 turns": None})


def test_stopped_games_are_counted_at_the_first_limit_they_reached():
    tests = aggregates.limit_tests(COLUMNS)
    agg = _counted(tests)
    assert agg["size_unfinished"].tolist() == [0, 0, 0, 5]
    assert aggregates.unfinished_by_limit(agg, tests) == [2, 1, 2]


def test_the_counts_merge_save_and_load_as_the_others_do(tmp_path):
    tests = aggregates.limit_tests(COLUMNS)
    path = tmp_path / "chunk.npz"
    aggregates.save(path, aggregates.merge([_counted(tests), _counted(tests)]))
    agg, _ = aggregates.load(path)
    assert aggregates.unfinished_by_limit(agg, tests) == [4, 2, 4]


@pytest.mark.parametrize(
    "asked",
    [
        [("turns", 200)],  # fewer tests than counted
        [("turns", 100), ("rounds", 20)],  # another least value
        [("rounds", 20), ("turns", 200)],  # another order
    ],
)
def test_counts_by_other_tests_are_not_read_as_these(asked):
    assert aggregates.unfinished_by_limit(_counted(aggregates.limit_tests(COLUMNS)), asked) is None


def test_aggregates_without_the_counts_tell_no_limit_apart():
    tests = aggregates.limit_tests(COLUMNS)
    assert aggregates.unfinished_by_limit(_counted([]), tests) is None
    part = aggregates.merge([_counted(tests), _counted([])])  # a part written before
    assert aggregates.unfinished_by_limit(part, tests) is None
    assert int(part["size_unfinished"].sum()) == 10


def test_a_run_without_rows_names_each_limit_with_its_count():
    from leaves_cli.tournament_parts import _unfinished_line
    from ligretto.plugin import LigrettoGame
    from tournaments.declaration import Declaration

    declared = Declaration.of(LigrettoGame()).to_dict()
    clock, actions = list(declared["limit_columns"])
    column, least = declared["limit_columns"][clock]
    g = 4
    batch = SeatedBatch(first_player=None, winner_seat=np.full(g, -1, np.int8),
                        forfeit_seat=np.full(g, -1, np.int8),
                        seat_values={"score": np.zeros((g, 2), np.int16)},
                        game_values={column: np.asarray([least, least + 1, least - 1, 0]),
                                     "seconds": np.zeros(g, np.int16),
                                     "unfinished": np.asarray([True, True, True, False])},
                        errors=[None] * g)  # fmt: skip
    tests = aggregates.limit_tests(declared["limit_columns"])
    agg = aggregates.empty(2, 1, 10, max_seats=2, shared_wins=True, limits=tests)
    aggregates.add_sets(agg, 0, [[0, 1]] * g, [[0, 1]] * g, batch, "score", "seconds", True)
    result = SimpleNamespace(aggregates=lambda: agg, manifest={"game_declaration": declared})
    line = _unfinished_line(result, "no rows")
    assert f"(2 at {clock}, 1 at {actions} a round)" in line, line
    assert line.startswith("3 rounds (75.0%) stopped unfinished at the limits of the game")
