"""Boundary tests of how two runs are paired (``reports.compare_deals``), written against
truths worked out here from the rows of tiny synthetic runs (per duplicate set its table, deal
seed, each game's seats, winner and forfeiting seat, chosen by hand), so that a wrong rule or
formula in it fails a test (``benchmarks/bench_mutation.py``): which seed names a set, which
sets two runs share, each sentence of the pairing on both sides of its bounds, the tables
one run forfeited whole, and B - A paired set by set with its stratified variance."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from reports import ReportError, compare
from reports.compare_deals import (
    MIN_SHARED,
    _seated,
    _Words,
    deal_seeds,
    emptied_tables,
    overlap,
    paired_difference,
)
from reports.data import MISSING, Games
from reports.loading import as_run
from tests.test_mutation_gauntlet60 import duo, frame

ADD = ": the two runs' variances add"
MATCHES = _Words("match", "match seed", True, "played")


def games(sets: list[tuple]) -> Games:
    return as_run(frame(sets)).games


def seeds(sets: list[tuple]) -> np.ndarray:
    """Per game, its set's deal seed, from the sets themselves."""
    return np.array([seed for _, seed, gs in sets for _ in gs], dtype=np.uint64)


def pair(sets_a: list[tuple], sets_b: list[tuple], words=None, seeds_a="rows", seeds_b="rows"):
    """``overlap`` of two runs given as sets, the labels as they are in each run."""
    ga, gb = games(sets_a), games(sets_b)
    sa = seeds(sets_a) if isinstance(seeds_a, str) else seeds_a
    sb = seeds(sets_b) if isinstance(seeds_b, str) else seeds_b
    return overlap(ga, gb, (sa, sb), (list(ga.labels), list(gb.labels)), words)


def xy(*seeds_: int, table: int = 0, a: str = "x", b: str = "y", wins=(0, 0), forfeit=(-1, -1)):
    return [duo(table, s, a, b, wins, forfeit) for s in seeds_]


# ------------------------------------------------------------------ which seed names a set
def test_the_seed_of_each_game_from_a_frame_match_seed_first():
    df = frame(xy(7, 9))
    run = as_run(df)
    got = deal_seeds(df, run)
    assert got.dtype == np.uint64 and got.tolist() == [7, 7, 9, 9]
    assert deal_seeds(SimpleNamespace(games=df), run).tolist() == [7, 7, 9, 9]
    assert deal_seeds(df.assign(match_seed=[3, 3, 4, 4]), run).tolist() == [3, 3, 4, 4]
    assert deal_seeds(df.drop(columns="deal_seed"), run) is None
    assert deal_seeds(df.iloc[:3], run) is None  # not one seed per game of the run
    assert deal_seeds("no frame", run) is None


def _write(folder, df: pd.DataFrame, cut: int):
    (folder / "games").mkdir(parents=True)
    df.iloc[:cut].to_parquet(folder / "games" / "part-0.parquet")
    df.iloc[cut:].to_parquet(folder / "games" / "part-1.parquet")
    return folder


def test_the_seed_of_each_game_of_a_run_on_disk_read_part_by_part(tmp_path):
    df = frame(xy(7, 9, 11))
    run_dir = _write(tmp_path / "deals", df, 3)
    run = as_run(run_dir)
    assert deal_seeds(run_dir, run).tolist() == [7, 7, 9, 9, 11, 11]
    match_dir = _write(tmp_path / "matches", df.assign(match_seed=[1, 1, 1, 2, 2, 2]), 3)
    assert deal_seeds(match_dir, as_run(match_dir)).tolist() == [1, 1, 1, 2, 2, 2]
    bare = _write(tmp_path / "bare", df.drop(columns="deal_seed"), 3)
    assert deal_seeds(bare, as_run(bare)) is None
    (run_dir / "games" / "part-1.parquet").write_bytes(b"not parquet")
    with pytest.raises(ReportError, match=r"part-1\.parquet is bad: not a Parquet part as a run"):
        deal_seeds(run_dir, run)


# ------------------------------------------------------------------ the pairing's sentences
def test_sets_named_by_deals_in_one_run_and_matches_in_the_other_never_pair():
    ov = pair(xy(1, 2), xy(1, 2), (_Words(), MATCHES))
    assert not ov.paired and ov.shared_sets == 0 and ov.b_of_a is None
    assert ov.sentence == "unpaired: A's duplicate sets are deals, B's matches" + ADD
    assert pair(xy(1, 2), xy(1, 2), (MATCHES, MATCHES)).paired  # both matches: compared


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_run_without_seeds_or_with_a_set_of_two_seeds_is_unpaired(side):
    none = {"seeds_a": None} if side == "A" else {"seeds_b": None}
    assert pair(xy(1, 2), xy(1, 2, 3), **none).sentence == (
        f"unpaired: run {side} does not record its deal seeds" + ADD)  # fmt: skip
    two = np.array([1, 2, 2, 2], dtype=np.uint64)  # set 0's games: seeds 1 and 2
    mixed = {"seeds_a": two} if side == "A" else {"seeds_b": np.r_[two, [3, 3]]}
    assert pair(xy(1, 2), xy(1, 2, 3), **mixed).sentence == (
        f"unpaired: run {side} has duplicate sets of more than one deal seed" + ADD)  # fmt: skip


def test_runs_of_no_common_seed_and_of_one():
    ov = pair(xy(1, 2), xy(3, 4, 5))
    assert ov.sentence == "unpaired: the runs share no deal seed (A dealt 2 deals, B 3)" + ADD
    ov = pair(xy(1, 2), xy(3, 4, 5), (MATCHES, MATCHES))
    assert ov.sentence == "unpaired: the runs share no match seed (A played 2 matches, B 3)" + ADD
    # one seed in common, dealt at another table: B's x sits with z
    ov = pair(xy(1), xy(1, b="z"))
    assert not ov.paired and ov.sentence == (
        "unpaired: the runs share 1 deal seed but dealt it at no table of the same strategies"
        + ADD)  # fmt: skip
    ov = pair(xy(1, 2), xy(1, 2, 3, b="z"))
    assert ov.sentence == ("unpaired: the runs share 2 deal seeds but dealt none of them at a "
                           "table of the same strategies" + ADD)  # fmt: skip


def test_common_sets_each_with_a_forfeited_game_are_not_paired():
    one = xy(1, forfeit=(0, -1))  # the set's first game forfeited
    ov = pair(one + xy(2, b="z"), xy(1, 2))
    assert ov.sentence == ("unpaired: the runs share 2 deal seeds but the one both played holds "
                           "a game ended by a forfeit" + ADD)  # fmt: skip
    ov = pair(xy(1, 2), xy(1, forfeit=(-1, 1)) + xy(2, forfeit=(1, 1)))
    assert ov.sentence == ("unpaired: the runs share 2 deal seeds but each of the 2 both played "
                           "holds a game ended by a forfeit" + ADD)  # fmt: skip


def test_a_run_paired_with_itself_and_with_the_same_seeds_under_other_rules():
    sets = xy(1, 2, 3, 4)
    ov = pair(sets, sets)
    assert ov.paired and ov.shared_sets == 4 and ov.b_of_a.tolist() == [0, 1, 2, 3]
    assert ov.sentence == ("paired: both runs dealt the same 4 deals (their deal seeds are "
                           "identical) at the same tables: B - A is paired over the 4 duplicate "
                           "sets")  # fmt: skip
    other = _Words(same_rules=False)
    assert pair(sets, sets, (other, other)).sentence == (
        "paired: both runs drew their 4 deals from the same deal seeds (under other rules a seed "
        "may deal other cards) at the same tables: B - A is paired over the 4 duplicate sets")  # fmt: skip
    assert pair(xy(1), xy(1), (other, other)).sentence == (
        "paired: both runs drew their 1 deal from the same deal seed (under other rules a seed "
        "may deal other cards) at the same tables: B - A is paired over the 1 duplicate set")  # fmt: skip
    assert pair(xy(1), xy(1)).sentence == (
        "paired: both runs dealt the same 1 deal (their deal seeds are identical) at the same "
        "tables: B - A is paired over the 1 duplicate set")  # fmt: skip


def _partial(n_a: int, void_a: int = 0):
    """A: ``n_a`` sets of x and y (seeds 1, 2, ...), then ``void_a`` more with a forfeited game
    (seeds 90, ...); B: seeds 1 and 2 at the same table, seed 3 with x and z, and three more of
    its own. Two sets are shared; the common seeds are 1, 2 and 3."""
    a = xy(*range(1, n_a + 1)) + xy(*range(90, 90 + void_a), forfeit=(0, -1))
    b = xy(1, 2) + xy(3, 50, 51, 52, b="z")
    return pair(a, b)


def test_min_shared_on_both_sides_of_its_bound():
    """Two shared sets pair runs whose smaller holds four sets without a forfeit (2 >= 0.5 * 4),
    not five (2 < 2.5); a set with a forfeited game is not counted in the smaller run's."""
    assert MIN_SHARED == 0.5
    ov = _partial(4, void_a=1)
    assert ov.paired and ov.shared_sets == 2 and ov.b_of_a.tolist() == [0, 1, -1, -1, -1]
    assert ov.sentence == (
        "paired where the deal seeds agree: A dealt 5 deals, B 6, 3 of them with the same seed; "
        "B - A is paired over the 2 duplicate sets both played at the same table (A has 5, B 6)")  # fmt: skip
    ov = _partial(5)
    assert not ov.paired and ov.shared_sets == 0 and ov.b_of_a is None
    assert ov.sentence == ("unpaired: only 2 duplicate sets (a deal seed at a table) are in both "
                           "runs (A has 5, B 6), too few to pair" + ADD)  # fmt: skip
    ov = pair(xy(1, 2, 3), xy(1, 4, 5, 6))
    assert ov.sentence == ("unpaired: only 1 duplicate set (a deal seed at a table) is in both "
                           "runs (A has 3, B 4), too few to pair" + ADD)  # fmt: skip


def test_a_shared_set_with_a_forfeited_game_on_either_side_is_left_out():
    """B's first set (seed 1) holds B's forfeit, A's seed 2 A's own; seed 9 is A's alone,
    forfeited too, and is no shared set left out."""
    a = xy(1) + xy(2, forfeit=(-1, 0)) + xy(3, 4, 5, 6) + xy(9, forfeit=(1, -1))
    b = xy(1, forfeit=(0, -1)) + xy(2, 3, 4, 5, 6)
    ov = pair(a, b)
    assert ov.b_of_a.tolist() == [-1, -1, 2, 3, 4, 5, -1] and ov.shared_sets == 4
    assert ov.sentence == (
        "paired where the deal seeds agree: A dealt 7 deals, B 6, 6 of them with the same seed; "
        "B - A is paired over the 4 duplicate sets both played at the same table (A has 7, B 6); "
        "2 more, each holding a game ended by a forfeit, are left out")  # fmt: skip
    ov = pair(xy(1, 3, 4), xy(1, forfeit=(0, -1)) + xy(3, 4, 8))
    assert ov.sentence.endswith("(A has 3, B 4); 1 more, holding a game ended by a forfeit, is "
                                "left out")  # fmt: skip


# ------------------------------------------------------------------ tables
def test_the_tables_one_run_forfeited_whole_named_in_the_first_runs_words():
    """Both runs sat (a.py:X, y), (y, z), (a.py:X, z) and (a.py:X, y, z); A forfeited every
    game at the first, B at the second and the fourth; A's one valid game at the third keeps
    it. A's (w, y) and B's (b, y), each forfeited whole, are in one run only: not counted. B's
    z2 is A's z (the labels map to one vocabulary, B's b to 'B:b', A's w to 'A:w')."""
    x = "a.py:X"
    a = [duo(0, 1, x, "y", forfeit=(0, 1)), duo(1, 2, "y", "z"), duo(2, 3, x, "z", forfeit=(0, -1)),
         (3, 5, [((x, "y", "z"), 0, -1)]), duo(4, 6, "w", "y", forfeit=(1, 0))]  # fmt: skip
    b = [duo(2, 3, x, "z2"), duo(0, 1, x, "y"), duo(1, 2, "y", "z2", forfeit=(0, 0)),
         (3, 5, [((x, "y", "z2"), 0, 2)]), duo(4, 6, "b", "y", forfeit=(0, 0))]  # fmt: skip
    ga, gb = games(a), games(b)
    names = ([{"w": "A:w"}.get(s, s) for s in ga.labels],
             [{"z2": "z", "b": "B:b"}.get(s, s) for s in gb.labels])  # fmt: skip
    at_a, at_b, empty = emptied_tables(ga, gb, names)
    assert at_a.tolist() == [True] * 4 + [False, False, True, False, False]
    assert at_b.tolist() == [False, False] + [True] * 5 + [False, False]
    assert empty == ["(a.py:X, y)", "(y, z)", "(a.py:X, y, z)"]
    _, _, none = emptied_tables(ga, ga, (names[0], names[0]))
    assert none == ["(A:w, y)", "(a.py:X, y)"]  # by their text: capitals first


def _labelled(seats: list[list[int]], n_players: list[int]) -> Games:
    seats_ = np.asarray(seats, dtype=np.int16)
    n = len(seats_)
    return Games(
        labels=tuple(f"s{i:04d}" for i in range(2048)), seats=seats_,
        values=np.where(seats_ >= 0, 0, MISSING).astype(np.int16),
        n_players=np.asarray(n_players, dtype=np.int8), first=np.zeros(n, np.int8),
        winner=np.zeros(n, np.int8), unfinished=np.zeros(n, bool), forfeited=np.zeros(n, bool),
        forfeit_seat=np.full(n, -1, np.int8), deal=np.arange(n), table=np.zeros(n, np.int64),
    )  # fmt: skip


@pytest.mark.parametrize("top", [7, 2046])
def test_a_table_is_who_sits_there_and_its_size_whatever_the_number_of_labels(top):
    """Six seat columns: a five-seat table and a six-seat one of the same five strategies (an
    empty seat at the second) are two tables, the same strategies in another order one; with
    up to 2,048 labels the seven numbers of a row no longer pack into one (7 * 11 bits)."""
    g = _labelled([[top, 1, 2, 3, 4, -1], [top, 1, 2, 3, 4, -1], [4, 3, 2, 1, top, -1]],
                  [5, 6, 5])  # fmt: skip
    names = list(g.labels)
    tables, inv = _seated(g, names)
    same = ("s0001", "s0002", "s0003", "s0004", f"s{top:04d}")
    assert tables == [(5, same), (6, same)] and inv.tolist() == [0, 1, 0]


def test_a_two_seat_row_with_a_seat_empty_is_not_a_strategy_in_both_seats():
    """Rows (size, seats sorted, 0 for an empty one): (2, 0, 3) and (2, 1, 1) are two tables;
    packed in base 4, one more than the largest number, they differ (35, 37; both 11 in base 2)."""
    g = _labelled([[2, -1], [0, 0], [-1, 2]], [2, 2, 2])
    tables, inv = _seated(g, list(g.labels))
    assert tables == [(2, ("s0002",)), (2, ("s0000", "s0000"))] and inv.tolist() == [0, 1, 0]


def test_a_set_at_several_tables_pairs_table_by_table():
    """A gauntlet's deal spans tables, and pairs table by table. A deals 100 and 300 at
    (x, y), (x, z), (y, z), 400 at (y, z) alone; B deals 100 at (x, y) and (y, z), 300 at
    (x, y) and (w, x), 400 at (x, y) and (y, z). A's sets: the five anchors', then per deal
    one a table. 100 pairs at (x, y) and (y, z), 300 at (x, y), 400 at (y, z): each of the
    three is paired in part, the deal counted once."""
    three = [(("x", "y"), 0, -1), (("x", "z"), 1, -1), (("y", "z"), 0, -1)]
    anchors = xy(1, 2, 3, 4, 5)
    a = anchors + [(0, 100, three), (0, 300, three), duo(0, 400, "y", "z")]
    b = anchors + [(0, 100, [three[0], three[2]]), (0, 300, [three[0], (("w", "x"), 0, -1)]),
                   (0, 400, [three[0], three[2]])]  # fmt: skip
    ov = pair(a, b)
    assert ov.paired and ov.b_of_a.tolist() == [0, 1, 2, 3, 4, 5, -1, 6, 7, -1, -1, 10]
    assert ov.shared_sets == 8 and ov.partial == 3
    assert ov.sentence == (
        "paired where the deal seeds agree: A dealt 8 deals, B 8, 8 of them with the same seed; "
        "B - A is paired over the 8 duplicate sets both played at the same table (A has 8, B 8); "
        "3 of them are paired at the tables both runs seated alike only: A's (x, z), (y, z) and "
        "B's (w, x), (x, y), where the other run did not deal them, are left out")  # fmt: skip
    ov = pair(a, a)
    assert ov.b_of_a.tolist() == list(range(12)) and ov.shared_sets == 8 and not ov.partial


# ------------------------------------------------------------------ B - A paired set by set
# Four strategies at two-seat tables (one table column each): P = (x, y) four deals, Q = (x, z)
# two, R = (y, z) and U = (w, y) one shared deal each (tables of one paired set: pooled into
# one stratum of two-seat tables), R a deal of A's alone, V = (w, z) A's alone and last.
# B's first set is Q's seed 10. Each duo: the winning seat of the set's two games.
P, Q, R, U, V = 0, 1, 2, 3, 4
WINS_A = {10: (Q, "x", "z", (0, 0)), 11: (Q, "x", "z", (0, 1)), 1: (P, "x", "y", (0, 1)),
          2: (P, "x", "y", (1, 0)), 3: (P, "x", "y", (1, 1)), 4: (P, "x", "y", (0, 1)),
          20: (R, "y", "z", (0, 1)), 21: (R, "y", "z", (1, 0)), 30: (U, "w", "y", (1, 0)),
          40: (V, "w", "z", (0, 0))}  # fmt: skip
WINS_B = {10: (1, 1), 11: (1, 0), 1: (0, 1), 2: (0, 1), 3: (1, 0), 4: (0, 0), 20: (1, 0),
          30: (0, 1)}  # fmt: skip
STRATUM = {P: "P", Q: "Q", R: "pool", U: "pool"}


def _run(wins: dict[int, tuple]) -> list[tuple]:
    return [duo(WINS_A[s][0], s, WINS_A[s][1], WINS_A[s][2], w) for s, w in wins.items()]


RUN_A = _run({s: v[3] for s, v in WINS_A.items()})
RUN_B = _run(WINS_B) + [duo(P, 60, "x", "y", (0, 0))]  # and a deal of B's alone


def _won(sets: list[tuple], seed: int, who: str) -> tuple[int, int]:
    """(wins, seats) of ``who`` in the set dealt ``seed``, counted from its games."""
    (games_,) = [g for _, s, g in sets if s == seed]
    return (sum(w >= 0 and seats[w] == who for seats, w, _ in games_),
            sum(who in seats for seats, _, _ in games_))  # fmt: skip


def paired_by_hand(who: str) -> tuple[float, float, float, int]:
    """(B - A, standard error, degrees of freedom, sets) of ``who`` over the sets both runs
    played: per set d = B's rate - A's, weighed by B's seats; each contribution
    n (d - diff) / N, the within-stratum variance D / (D - 1) times the squared deviations from
    the stratum's mean, D - 1 df a stratum. A stratum holding one of its sets pools them all."""
    rows = []
    for seed in WINS_B:
        wa, na = _won(RUN_A, seed, who)
        wb, nb = _won(RUN_B, seed, who)
        if na:
            rows.append((wb / nb - wa / na, nb, STRATUM[WINS_A[seed][0]]))
    total = sum(n for _, n, _ in rows)
    diff = sum(n * d for d, n, _ in rows) / total
    strata = [s for _, _, s in rows]
    if any(strata.count(s) == 1 for s in strata):
        strata = ["one"] * len(rows)
    var = df = 0.0
    for s in set(strata):
        u = [n * (d - diff) / total for (d, n, _), t in zip(rows, strata, strict=True) if t == s]
        if len(u) >= 2:
            mean = sum(u) / len(u)
            var += len(u) / (len(u) - 1) * sum((x - mean) ** 2 for x in u)
            df += len(u) - 1
    return diff, math.sqrt(var), df, len(rows)


def _paired(sets_a: list[tuple], sets_b: list[tuple], who: list[str]):
    ga, gb = games(sets_a), games(sets_b)
    ov = pair(sets_a, sets_b)
    assert ov.paired
    codes = [(ga.labels.index(s), gb.labels.index(s)) for s in who]
    return paired_difference(ga, gb, codes, ov)


def test_b_less_a_paired_per_set_with_its_strata_recomputed_from_the_rows():
    """x: strata P (4 sets) and Q (2): 3 + 1 df. y: P and the pool of R's and U's sets: 3 + 1.
    z: Q's two sets and R's, alone in the pool for z: its three sets are one stratum (2 df).
    w: U's set alone. A's deals 21 and 40 are not B's: left out; B's first set is paired."""
    who = ["w", "x", "y", "z"]
    est, identical = _paired(RUN_A, RUN_B, who)
    truth = [paired_by_hand(s) for s in who]
    assert [t[2] for t in truth] == [0.0, 4.0, 4.0, 2.0] and [t[3] for t in truth] == [1, 6, 6, 3]
    np.testing.assert_allclose(est.value, [t[0] for t in truth], rtol=0, atol=1e-12)
    np.testing.assert_allclose(est.se, [t[1] for t in truth], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(est.df, [t[2] for t in truth])
    np.testing.assert_array_equal(est.units, [t[3] for t in truth])
    assert min(t[1] for t in truth[1:]) > 0 and not identical


def test_a_run_paired_with_itself_is_identical_and_equal_wins_over_fewer_seats_are_not():
    est, identical = _paired(RUN_A, RUN_A, ["x", "y", "z"])
    assert identical and (est.value == 0).all() and (est.se == 0).all()
    # each set's two games won by nobody in A; B's copy of set 1 has one of them only
    a = xy(1, 2, wins=(-1, -1))
    b = [(0, 1, a[0][2][:1]), a[1]]
    est, identical = _paired(a, b, ["x", "y"])
    assert not identical and (est.value == 0).all()


def test_labels_holding_the_tables_separator_are_still_other_tables():
    """(a|b, c) and (a, b|c) are two tables, not one written 'a|b|c': A deals 1 to 4 at the
    first and 10 to 13 at the second, B the other way round, so the runs dealt no seed at the
    same table and are compared unpaired (each strategy over its own sets)."""
    a = [duo(0, s, "a|b", "c", (0, 1)) for s in range(1, 5)]
    a += [duo(1, s, "a", "b|c") for s in range(10, 14)]
    b = [duo(0, s, "a", "b|c", (0, 1)) for s in range(1, 5)]
    b += [duo(1, s, "a|b", "c", (1, 0)) for s in range(10, 14)]
    ov = pair(a, b)
    assert not ov.paired and ov.sentence == (
        "unpaired: the runs share 8 deal seeds but dealt none of them at a table of the same "
        "strategies" + ADD)  # fmt: skip
    c = compare(frame(a), frame(b))
    assert not c.paired and sorted(c.table["strategy"]) == ["a", "a|b", "b|c", "c"]
    assert (c.table["units"] == 4).all()
