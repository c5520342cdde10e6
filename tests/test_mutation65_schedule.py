"""The schedule's index arithmetic at its edges: table sizes as each form of ``players`` gives
them, the tables of a focused run, who sits where under a rotation, a chunk's games, deals,
seatings and deal stream, the bounds of a run's size, its first chunk size and its stages.
Each figure is worked out by hand (``benchmarks/bench_mutation.py tournaments/schedule.py``
runs these tests against the module's slips of the pen)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamekit.errors import ParameterError
from tests.helpers import doc_number, doc_says
from tournaments.schedule import (
    MAX_CHUNK_GAMES,
    MAX_RUN_GAMES,
    Chunk,
    Schedule,
    check_size,
    make_tables,
    parse_players,
    seat_entrants,
)

TOO_MANY = "at most 2**32 - 1 games per tournament"


# ------------------------------------------------------------------------------ players
@pytest.mark.parametrize(
    "players, sizes",
    [(4, (4,)), (np.int64(3), (3,)), ("5, 3,3", (3, 5)), ([4, np.int32(3), 4], (3, 4))],
)
def test_every_form_of_players_gives_sorted_distinct_sizes(players, sizes):
    assert parse_players(players) == sizes


@pytest.mark.parametrize("players", [[True], [3, "4"], [3.0], b"3"])
def test_a_size_that_is_no_whole_number_is_a_type_error(players):
    with pytest.raises(TypeError, match="^players takes a table size, a list of them or a str"):
        parse_players(players)


# ------------------------------------------------------------------------------ tables
def test_a_table_as_large_as_the_field_seats_it_once_without_repeats():
    assert make_tables(4, [4]) == [(0, 1, 2, 3)]
    assert make_tables(3, [3, 4]) == [(0, 1, 2), *itertools.combinations_with_replacement(
        range(3), 4)]  # fmt: skip


def test_a_focused_run_seats_the_focus_once_at_every_table():
    assert make_tables(4, [3], focus=2) == [(0, 1, 2), (0, 2, 3), (1, 2, 3)]
    assert make_tables(4, [3], focus=0) == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    # as many others as the table's other seats: one table, no repeats
    assert make_tables(4, [4], focus=3) == [(0, 1, 2, 3)]
    assert make_tables(2, [3], focus=1) == [(0, 0, 1)]  # too few others: they repeat


def test_a_focused_run_repeats_others_when_asked_or_too_few():
    assert make_tables(3, [3], focus=0, repeats=True) == [(0, 1, 1), (0, 1, 2), (0, 2, 2)]
    # two others for three other seats: every multiset of three of them
    assert make_tables(3, [4], focus=0) == [(0, 1, 1, 1), (0, 1, 1, 2), (0, 1, 2, 2),
                                            (0, 2, 2, 2)]  # fmt: skip


@pytest.mark.parametrize("focus", [-1, 4])
def test_a_focus_outside_the_field_is_refused(focus):
    with pytest.raises(ValueError, match=f"^focus entrant {focus} is not one of the 4 entrants"):
        make_tables(4, [3], focus=focus)


def test_a_focus_alone_is_refused():
    with pytest.raises(ValueError, match="^a focused tournament needs at least one other"):
        make_tables(1, [3], focus=0)


# ------------------------------------------------------------------------------ seats
def test_a_rotation_moves_every_entrant_one_seat_back():
    assert seat_entrants((7, 8, 9), 0) == (7, 8, 9)
    assert seat_entrants((7, 8, 9), 1) == (8, 9, 7)
    assert seat_entrants((7, 8, 9), 2) == (9, 7, 8)


# ------------------------------------------------------------------------------ chunks
def test_a_chunk_by_default_is_its_tables_own_rotations_and_deal_stream():
    c = Chunk(0, table=2, n_players=3, deal_start=2, deal_stop=4, set_offset=5)
    assert (c.n_seatings, c.n_deals, c.n_games, c.deal_stream) == (3, 2, 6, 2)
    assert c.game_indices().tolist() == [11, 12, 13, 14, 15, 16]
    assert c.deal_indices().tolist() == [2, 2, 2, 3, 3, 3]
    assert c.rotations().tolist() == [0, 1, 2, 0, 1, 2]


def test_a_chunks_seatings_period_and_stream_as_given():
    c = Chunk(0, table=1, n_players=3, deal_start=1, deal_stop=3, set_offset=4, set_size=2,
              period=10, stream=0)  # fmt: skip
    assert (c.n_seatings, c.n_games, c.deal_stream) == (2, 4, 0)
    assert c.game_indices().tolist() == [14, 15, 24, 25]
    assert c.rotations().tolist() == [0, 1, 0, 1]


def test_a_table_dealt_from_another_tables_stream_keeps_it():
    s = Schedule([(0, 1), (0, 2)], 8, streams=[0, 0])
    assert [c.deal_stream for c in s.chunks()] == [0, 0]
    s = Schedule([(0, 1), (0, 2)], 8, streams=[1, 0])
    assert [c.deal_stream for c in s.chunks()] == [1, 0]


# ------------------------------------------------------------------------------ size
def test_a_run_may_hold_2_to_the_32_less_one_games_and_no_more():
    assert MAX_RUN_GAMES == 2**32 - 1
    check_size(2**32 - 1)
    with pytest.raises(ValueError, match=f"^{TOO_MANY.replace('*', '[*]')}$"):
        check_size(2**32)
    s = Schedule([(0, 1, 2)], 2**32 - 1, set_sizes=[1])
    assert s.n_games == 2**32 - 1 and s.chunk_games == MAX_CHUNK_GAMES


@pytest.mark.parametrize("games", [0, -3])
def test_a_run_of_no_game_is_refused(games):
    with pytest.raises(ParameterError, match=f"must be at least 1, got {games}$"):
        Schedule([(0, 1)], games)


def test_one_game_is_one_deal_of_every_seating():
    s = Schedule([(0, 1, 2)], 1)
    assert (s.deals, s.n_games, s.n_chunks) == (1, 3, 1)


@pytest.mark.parametrize("set_sizes", [[3], [0, 3], [3, -1]])
def test_every_table_needs_a_seating_count_of_at_least_one(set_sizes):
    with pytest.raises(ValueError, match="^every table needs at least one seating$"):
        Schedule([(0, 1), (0, 2)], 8, set_sizes=set_sizes)


def test_a_seating_of_one_is_a_set_of_one_game():
    s = Schedule([(0, 1), (0, 2)], 8, set_sizes=[1, 1])
    assert (s.deals, s.n_games) == (4, 8)


def test_every_table_needs_a_deal_stream():
    with pytest.raises(ValueError, match="^every table needs a deal stream$"):
        Schedule([(0, 1), (0, 2)], 8, streams=[0])


# ------------------------------------------------------------------------------ chunk size
def test_the_default_chunk_holds_a_64th_of_the_run_within_the_documented_bounds():
    least = doc_number(doc_says("performance.md", r"Chunks hold at least ([\d,]+) games").group(1))
    most = doc_number(doc_says("performance.md", r"at most ([\d,]+) games by default").group(1))
    assert Schedule([(0, 1, 2, 3)], 40).chunk_games == least == 2_000
    assert Schedule([(0, 1, 2, 3)], 64 * 3_000).chunk_games == 3_000
    assert Schedule([(0, 1, 2, 3)], 64 * 3_000 + 4).chunk_games == 3_001
    assert Schedule([(0, 1, 2, 3)], 64 * 60_000).chunk_games == most == MAX_CHUNK_GAMES


def test_a_chunk_size_of_one_game_is_one_deal_a_chunk():
    s = Schedule([(0, 1, 2)], 6, chunk_games=1)
    assert [(c.deal_start, c.deal_stop) for c in s.chunks()] == [(0, 1), (1, 2)]
    with pytest.raises(ParameterError, match="must be at least 1 game, got 0$"):
        Schedule([(0, 1, 2)], 6, chunk_games=0)


def test_a_chunk_smaller_than_a_duplicate_set_holds_one_deal():
    s = Schedule([(0, 1, 2), (1, 2, 3)], 6 * 30, chunk_games=30, set_sizes=[24, 6])
    assert [(c.table, c.deal_start, c.deal_stop) for c in s.chunks()] == [
        (0, 0, 1), (0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5), (0, 5, 6),
        (1, 0, 5), (1, 5, 6),
    ]  # fmt: skip
    assert [c.set_offset for c in s.chunks()] == [0] * 6 + [24] * 2
    assert s.chunk(0).game_indices().tolist() == list(range(24))


# ------------------------------------------------------------------------------ stages
def test_stages_lay_out_each_stages_chunks_after_the_last():
    s = Schedule([(0, 1, 2)], 6, chunk_games=6, stages=[2, 5, 6])
    assert (s.deals, s.n_games) == (6, 18)
    assert [(c.deal_start, c.deal_stop) for c in s.chunks()] == [(0, 2), (2, 4), (4, 5), (5, 6)]
    assert [s.stage_chunks(i) for i in range(3)] == [range(0, 1), range(1, 3), range(3, 4)]
    games = np.concatenate([c.game_indices() for c in s.chunks()])
    assert games.tolist() == list(range(18))


@pytest.mark.parametrize("stages", [[3, 4], [2, 2], [2, 4, 3], [1, 2]])
def test_stages_must_start_at_the_asked_deals_and_increase(stages):
    with pytest.raises(ValueError, match="^stages must start at the asked deals and increase$"):
        Schedule([(0, 1, 2)], 6, stages=stages)
