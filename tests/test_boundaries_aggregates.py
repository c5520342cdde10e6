"""tournaments/aggregates.py at its boundaries, worked out by hand: a win split among 1 to 12
tied seats in whole units, a game or match without a winner, a forfeit in seat 0, a length at
and past the histogram's last bin, a rotation given as a number, one game, none; match wins
split and their merge exact on the 1/720,720 lattice whatever the grouping of the parts;
the ZIP writer byte for byte as ``zipfile`` writes the same choices
(``benchmarks/bench_mutation.py tournaments/aggregates.py``)."""

from __future__ import annotations

import io
import random
import zipfile
from fractions import Fraction

import numpy as np
import pytest

from tournaments import aggregates
from tournaments.aggregates import SHARE_UNITS
from tournaments.game import SeatedBatch, SeatedMatches


def batch(winner, *, k, forfeit=None, rank=None, length=None, first=None, winners=None):
    """G games at a table of ``k`` seats: ``winner`` seats (-1 none), the rest by default."""
    g = len(winner)
    return SeatedBatch(
        first_player=None if first is None else np.asarray(first, np.int8),
        winner_seat=np.asarray(winner, np.int8),
        forfeit_seat=np.asarray([-1] * g if forfeit is None else forfeit, np.int8),
        seat_values={"rank": np.asarray(np.zeros((g, k)) if rank is None else rank, np.int16)},
        game_values={"turns": np.asarray([1] * g if length is None else length, np.int16)},
        errors=[None] * g,
        winners=None if winners is None else np.asarray(winners, bool),
    )


def add(agg, table, entrants, positions, b):
    aggregates.add_sets(agg, table, [entrants], [positions], b, "rank", "turns")


def empty(s=3, t=1, max_length=10, max_seats=6, shared=False):
    return aggregates.empty(s, t, max_length, ("turns",), max_seats=max_seats, shared_wins=shared)


# ----------------------------------------------------------------------------- shapes
def test_arrays_indexed_by_table_size_run_from_0_to_max_seats():
    agg = aggregates.empty(5, 2, 40, ("turns",), max_seats=4)
    for key in ("size_games", "size_no_winner", "size_forfeits", "length_sum", "length_sq_sum",
                "match_games_sum", "size_matches", "value_sum:turns"):  # fmt: skip
        assert agg[key].shape == (5,), key
    assert agg["offset_games"].shape == agg["offset_wins"].shape == (5, 5, 4)
    assert agg["length_hist"].shape == (5, 41)  # lengths 0..40, the last bin for 40 and up
    assert agg["table_wins"].shape == (2, 4) and agg["ahead"].shape == (5, 5)
    add(agg, 1, [4, 0, 2, 1], [0, 1, 2, 3], batch([3], k=4, length=[40]))  # a full table
    assert agg["size_games"].tolist() == [0, 0, 0, 0, 1] and agg["table_wins"][1, 3] == 1


def test_lengths_at_and_past_the_last_bin_of_the_histogram():
    agg = empty(max_length=10)
    add(agg, 0, [0, 1, 2], [0, 1, 2], batch([0] * 5, k=3, length=[0, 9, 10, 11, 300]))
    hist = agg["length_hist"][3]
    assert hist.shape == (11,) and hist[0] == hist[9] == 1 and hist[10] == 3 and hist.sum() == 5
    assert agg["length_sum"][3] == 330 and agg["length_sq_sum"][3] == 81 + 100 + 121 + 90_000
    assert agg["value_sum:turns"][3] == 330


# ----------------------------------------------------------------------------- games
def test_one_game_is_counted_and_no_game_adds_nothing():
    agg = empty()
    add(agg, 0, [2, 0, 1], [0, 1, 2], batch([], k=3))
    assert all(not v.any() for v in agg.values())
    add(agg, 0, [2, 0, 1], [0, 1, 2], batch([1], k=3, rank=[[3, 0, 5]]))
    assert agg["games"].tolist() == [1, 1, 1] and agg["wins"].tolist() == [1, 0, 0]
    assert agg["rank_sum"].tolist() == [0, 5, 3] and agg["table_games"].tolist() == [1]
    assert agg["ahead"][0].tolist() == [0, 1, 1] and agg["met"][0].tolist() == [0, 1, 1]


def test_a_forfeit_and_a_win_in_seat_0_and_games_without_a_winner():
    agg = empty()
    add(agg, 0, [2, 0, 1], [0, 1, 2], batch([-1, 0, -1], k=3, forfeit=[0, -1, -1]))
    assert agg["forfeits"].tolist() == [0, 0, 1]  # entrant 2 sat in seat 0
    assert agg["size_forfeits"][3] == 1 and agg["size_no_winner"][3] == 2  # seat 0 won one
    assert agg["wins"].tolist() == [0, 0, 1] and agg["size_games"][3] == 3


@pytest.mark.parametrize("rotation", [1, 2, np.int64(1)])
def test_a_rotation_given_as_a_number_moves_each_seat_that_far(rotation):
    """Seat ``s`` holds base position ``(s + r) % k``: seat 0's win is position r's."""
    agg = empty(t=2)
    aggregates.add_batch(agg, 1, rotation, [0, 1, 2], batch([0, 1], k=3), "rank", "turns")
    r = int(rotation)
    expected = [0, 0, 0]
    expected[r % 3] += 1
    expected[(1 + r) % 3] += 1
    assert agg["table_wins"][1].tolist()[:3] == expected and agg["table_games"].tolist() == [0, 2]


# four games at one seating (entrants 2, 0, 1 in seats 0, 1, 2): (first player, winner seat)
FIRST, WINNER = [1, 0, 2, 2], [2, 0, -1, 1]


@pytest.mark.parametrize("shared", [False, True])
def test_games_and_wins_by_offset_from_the_first_player(shared):
    """Seat s is (s - first) % 3 places after the first player; a game without a winner adds
    no win. With shared wins a fifth game, first player 0, is won by seats 0 and 2."""
    first, winner = FIRST + [0] * shared, WINNER + [-1] * shared
    won = [[w == s for s in range(3)] for w in winner]
    if shared:
        won[4] = [True, False, True]
    agg = empty(shared=shared)
    b = batch(winner, k=3, first=first, winners=won if shared else None)
    add(agg, 0, [2, 0, 1], [0, 1, 2], b)
    games = agg["offset_games"][:, 3, :3].tolist()
    wins = agg["offset_wins"][:, 3, :3].tolist()
    if not shared:
        assert games == [[1, 1, 2], [2, 1, 1], [1, 2, 1]]  # entrants 0, 1, 2
        assert wins == [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    else:
        assert games == [[1, 2, 2], [2, 1, 2], [2, 2, 1]]
        assert wins == [[0, 0, 1], [0, 1, 1], [2, 0, 0]]
    assert agg["offset_games"].sum() == 3 * len(first) and agg["offset_wins"].sum() == sum(
        map(sum, won)
    )


def test_no_first_player_no_offsets():
    agg = empty()
    add(agg, 0, [2, 0, 1], [0, 1, 2], batch(WINNER, k=3))
    assert not agg["offset_games"].any() and not agg["offset_wins"].any()


def test_who_sat_directly_before_whom():
    """Two seatings of one game each: entrants 2, 0, 1 and then 1, 2, 0 in seats 0, 1, 2
    (seat 0's neighbour before it is seat 2); the winners are seat 1 and seat 0."""
    agg = empty()
    aggregates.add_sets(agg, 0, [[2, 0, 1], [1, 2, 0]], [[0, 1, 2], [0, 1, 2]],
                        batch([1, 0], k=3), "rank", "turns")  # fmt: skip
    before = {(int(i), int(j)) for i, j in zip(*np.nonzero(agg["after_games"]), strict=True)}
    assert before == {(2, 1), (0, 2), (1, 0)}  # both seatings: 2 after 1, 0 after 2, 1 after 0
    assert agg["after_games"].sum() == 6 and agg["after_games"][2, 1] == 2
    assert agg["after_wins"][0, 2] == 1 and agg["after_wins"][1, 0] == 1
    assert agg["after_wins"].sum() == 2


@pytest.mark.filterwarnings("error")  # a game won by nobody divides nothing by zero
@pytest.mark.parametrize("m", range(1, 13))
def test_a_win_shared_by_m_players_is_split_in_whole_units(m):
    """``SHARE_UNITS`` per game won, split evenly among 1 to 12 tied seats without a remainder;
    a game without a winner (all seats tied for nothing) gives no units."""
    agg = empty(s=12, max_seats=12, shared=True)
    won = [[s < m for s in range(12)], [False] * 12]
    add(agg, 0, list(range(12)), list(range(12)), batch([-1, -1], k=12, winners=won))
    units = agg["win_share_units"]
    assert units[:m].tolist() == [units[0]] * m and not units[m:].any()
    assert units[0] * m == SHARE_UNITS == units.sum()
    assert agg["wins"].sum() == m and agg["size_no_winner"][12] == 1


def test_counts_are_exact_past_2_to_the_53():
    """``_count`` adds exact integers: its float shortcut stops where float sums would round
    (2**53 + 1 is no float). No chunk's counts get there (32,767 x games x seats), so the
    check calls the helper itself."""
    agg = {"games": np.zeros(2, np.int64)}
    aggregates._count(agg, "games", np.array([1, 1]), np.array([2**53, 1]))
    assert agg["games"].tolist() == [0, 2**53 + 1]
    aggregates._count(agg, "games", np.array([0, 0]), np.array([2**53 - 1, -2]))
    assert agg["games"].tolist() == [2**53 - 3, 2**53 + 1]


# ----------------------------------------------------------------------------- matches
def matches(winners, totals, games):
    m, k = np.shape(winners)
    return SeatedMatches(
        games=batch([], k=k), game_match=np.zeros(0, np.int32),
        game_scores=np.zeros((0, k), np.int16), match_games=np.asarray(games, np.int16),
        match_totals=np.asarray(totals, np.int16), match_winners=np.asarray(winners, bool),
    )  # fmt: skip


@pytest.mark.filterwarnings("error")
def test_match_wins_shared_split_and_a_match_won_by_nobody():
    agg = empty()
    win_tie = [[True, False, False], [False, True, True]]
    aggregates.add_matches(agg, [0, 2, 1], matches(win_tie, [[3, 10, 12], [9, 5, 5]], [4, 3]))
    aggregates.add_matches(agg, [1, 0, 2], matches([[False] * 3], [[4, 4, 4]], [2]))  # void
    aggregates.add_matches(agg, [1, 0, 2], matches(np.zeros((0, 3)), np.zeros((0, 3)), []))
    assert agg["matches"].tolist() == [3, 3, 3]
    assert agg["match_wins"].tolist() == [1, 1, 1]
    assert agg["match_win_share"].tolist() == [1.0, 0.5, 0.5]
    assert agg["match_points"].tolist() == [3 + 9 + 4, 12 + 5 + 4, 10 + 5 + 4]
    assert agg["match_games_sum"][3] == 9 and agg["size_matches"][3] == 3
    assert agg["size_matches"].sum() == 3


def test_one_match_is_counted():
    agg = empty()
    aggregates.add_matches(agg, [2, 1, 0], matches([[False, False, True]], [[9, 8, 1]], [5]))
    assert agg["matches"].tolist() == [1, 1, 1] and agg["match_wins"].tolist() == [1, 0, 0]
    assert agg["match_win_share"].tolist() == [1.0, 0.0, 0.0] and agg["size_matches"][3] == 1


# ----------------------------------------------------------------------------- merge
def test_merging_nothing_gives_none_and_parts_without_match_wins_sum():
    assert aggregates.merge([]) is None
    a, b = {"games": np.array([1, 2])}, {"games": np.array([10, 20])}
    assert aggregates.merge([a, b])["games"].tolist() == [11, 22]
    assert a["games"].tolist() == [1, 2]  # the parts are left alone


def share_part(values):
    return {"match_win_share": np.array(values, np.float64), "games": np.ones(len(values), int)}


def test_merged_match_wins_lie_on_the_lattice_of_splits_up_to_16():
    """Ten matches each split ten ways sum to 0.9999999999999999 in floats: one match won.
    A win split 16 ways is 1/16 exactly, and so are its sums."""
    tenth = sum([0.1] * 10)
    assert tenth != 1.0
    merged = aggregates.merge([share_part([tenth, 1 / 16, 15 / 16])])
    assert merged["match_win_share"].tolist() == [1.0, 1 / 16, 15 / 16]
    merged = aggregates.merge([share_part([1 / 16, 1 / 13, 0.0]), share_part([1 / 16, 0, 1])])
    assert merged["match_win_share"].tolist() == [1 / 8, 1 / 13, 1.0]


def test_merged_split_wins_do_not_depend_on_the_grouping_of_the_parts():
    """Parts holding float sums of splits 2 to 16 ways, merged in three groupings: each gives
    the exact sum (``Fraction``) rounded once to a float."""
    rng = random.Random(5)
    parts, exact = [], [Fraction(0)] * 3
    for _ in range(30):
        shares = []
        for e in range(3):
            split = [Fraction(1, rng.randint(2, 16)) for _ in range(rng.randint(1, 9))]
            exact[e] += sum(split)
            shares.append(sum(float(x) for x in split))
        parts.append(share_part(shares))
    truth = [float(x) for x in exact]
    one_by_one = None
    for p in parts:
        one_by_one = aggregates.merge([p] if one_by_one is None else [one_by_one, p])
    halves = aggregates.merge([aggregates.merge(parts[15:]), aggregates.merge(parts[:15])])
    for merged in (aggregates.merge(parts), one_by_one, halves):
        assert merged["match_win_share"].tolist() == truth


# ----------------------------------------------------------------------------- files
def zipfile_bytes(members, level, *, as_written=True):
    """What ``zipfile`` writes for ``members``: ``as_written`` with the hand-made writer's
    choices (made on MS-DOS, each file rw-------), else with zipfile's own defaults."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, content in members.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            if as_written:
                info.create_system, info.external_attr = 0, 0o600 << 16
            z.writestr(info, content, zipfile.ZIP_DEFLATED, level)
    return buf.getvalue()


def test_zip_bytes_are_what_zipfile_writes_for_the_same_choices():
    """Every field of every header: versions, flags (UTF-8 names), method, time and date,
    offsets, sizes, and the deflate window (a repeat 20,000 bytes back needs the full 32 KiB)."""
    rng = np.random.default_rng(3)
    far = rng.integers(0, 256, 20_000, dtype=np.uint8).tobytes() * 2
    members = {"games.npy": b"\x00" * 300, "é.npy": far, "empty.npy": b"", "x": b"abc" * 50}
    for level in (1, 6, 9):  # (at level 0 zlib cuts its stored blocks where it likes)
        assert aggregates.zip_bytes(members, level) == zipfile_bytes(members, level), level
    assert aggregates.zip_bytes({}, 1) == zipfile_bytes({}, 1)


def test_a_member_at_the_zip_limit_is_left_to_zipfile(monkeypatch):
    """A 32-bit size of 0xFFFFFFFF is ZIP64's escape: members summing to the limit (set small
    here, as if 4 GiB) are zipfile's to write; one byte less, the hand-made writer's."""
    monkeypatch.setattr(aggregates, "_ZIP_LIMIT", 100)
    at, below = {"a.npy": b"a" * 60, "b.npy": b"b" * 40}, {"a.npy": b"a" * 60, "b.npy": b"b" * 39}
    assert aggregates.zip_bytes(at) == zipfile_bytes(at, 1, as_written=False)
    assert aggregates.zip_bytes(below) == zipfile_bytes(below, 1)


def test_65536_members_are_written_and_read_back():
    """The hand-made writer's member count is 16 bits: 65,536 members go to zipfile."""
    members = {f"{i}": b"" for i in range(65_536)}
    members["last.npy"] = b"z" * 10
    with zipfile.ZipFile(io.BytesIO(aggregates.zip_bytes(members))) as z:
        infos = z.infolist()
        assert len(infos) == 65_537 and z.read("last.npy") == b"z" * 10
        assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}  # no clock in files


def test_saved_aggregates_are_compressed():
    agg = aggregates.empty(200, 50, 5_000, ("turns",), max_seats=6)
    raw = sum(v.nbytes for v in agg.values())
    buf = io.BytesIO()
    aggregates.save(buf, agg, n_games=np.array(12))
    assert raw > 1_000_000 and len(buf.getvalue()) < raw / 50
    loaded, extra = aggregates.load(io.BytesIO(buf.getvalue()))
    assert extra == {"n_games": 12} and all(np.array_equal(loaded[k], v) for k, v in agg.items())


@pytest.mark.parametrize("shape", [(), (0,), (3,), (7, 7), (10, 10, 10), (1,) * 12, (100_000,)])
def test_members_are_the_npy_bytes_numpy_writes(shape):
    """Headers of every length padded so that the data starts 64-byte aligned."""
    arr = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, version=(1, 0), allow_pickle=False)
    assert aggregates.npy_bytes(arr) == buf.getvalue()
