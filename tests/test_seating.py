"""Seating designs and listing-order independence.

The designs are checked on their own (every pattern of repeats for 3..6 seats) and, as the
issue asks, from the per-game rows of complete runs: every entrant in every position relative
to the first player equally often, every ordered pair of distinct entrants adjacent clockwise
equally often, at every table and over the run; and a permuted listing gives the same games.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.toygame import ToyGame
from tournaments import Tournament
from tournaments.seating import (
    SEATINGS,
    base_positions,
    design,
    is_balanced,
    pair_counts,
    position_counts,
)


def _patterns(k: int, largest: int | None = None):
    """Every partition of k seats into repeat counts, largest first."""
    largest = k if largest is None else largest
    if k == 0:
        yield ()
        return
    for first in range(min(k, largest), 0, -1):
        for rest in _patterns(k - first, first):
            yield (first, *rest)


def _table(pattern: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(e for e, c in enumerate(pattern) for _ in range(c))


# ---------------------------------------------------------------- the designs
@pytest.mark.parametrize("k, pattern", [(k, p) for k in range(3, 7) for p in _patterns(k)], ids=str)
def test_every_pattern_of_repeats_has_a_balanced_design(k, pattern):
    table = _table(pattern)
    seatings = design(table)
    assert is_balanced(seatings)
    assert all(Counter(s) == Counter(table) for s in seatings)
    # position balance for any first player, by entrant
    for first in range(k):
        pos = position_counts(seatings, first)
        for e, c in enumerate(pattern):
            assert {pos[(e, p)] for p in range(k)} == {c * len(seatings) // k}


def test_distinct_entrants_use_short_designs():
    sizes = {k: len(design(range(k))) for k in range(3, 7)}
    assert sizes == {3: 6, 4: 24, 5: 20, 6: 60}
    # 5 seats: every ordered pair adjacent exactly once per cyclic order set; 6: twice
    assert set(pair_counts(design(range(5))).values()) == {5}
    assert set(pair_counts(design(range(6))).values()) == {12}


def test_all_orders_and_rotations():
    assert sorted(design((0, 1, 2, 3), "all")) == sorted(itertools.permutations(range(4)))
    assert len(design((0, 0, 1, 2), "all")) == 12  # distinct orders only
    rot = design((3, 1, 2), "rotations")
    assert rot == ((3, 1, 2), (1, 2, 3), (2, 3, 1))
    assert not is_balanced(design(range(4), "rotations"))  # pairs fixed by the listing
    with pytest.raises(ValueError, match="unknown seating"):
        design((0, 1, 2), "random")
    assert SEATINGS == ("balanced", "all", "rotations")


@settings(max_examples=60, deadline=None)
@given(
    table=st.lists(st.integers(0, 9), min_size=3, max_size=6),
    data=st.data(),
)
def test_a_design_depends_only_on_who_sits_not_on_the_listing(table, data):
    shuffled = data.draw(st.permutations(table))
    for kind in ("balanced", "all"):
        assert design(table, kind) == design(shuffled, kind)
    seatings = design(table)
    assert is_balanced(seatings)
    for s in seatings:  # base positions map each seat to a distinct slot of the table
        pos = base_positions(table, s)
        assert sorted(pos) == list(range(len(table)))
        assert tuple(table[p] for p in pos) == s


# ---------------------------------------------------------------- complete runs
def _check_rows_balanced(df: pd.DataFrame) -> None:
    """Both balance conditions from per-game rows, at every table and over the whole run."""
    run_pos: Counter = Counter()
    run_pair: Counter = Counter()
    for _t, group in df.groupby("table"):
        k = int(group["n_players"].iloc[0])
        seats = group[[f"seat_{s}" for s in range(k)]].astype(str).to_numpy()
        first = group["first_player"].to_numpy()
        pos: Counter = Counter()
        pair: Counter = Counter()
        for s in range(k):
            for label, off in zip(seats[:, s], (s - first) % k, strict=True):
                pos[(label, int(off))] += 1
            for a, b in zip(seats[:, s], seats[:, (s + 1) % k], strict=True):
                if a != b:
                    pair[(a, b)] += 1
        labels = sorted(set(seats.ravel()))
        for label in labels:
            assert len({pos[(label, off)] for off in range(k)}) == 1, (label, pos)
        wanted = [pair[(a, b)] for a in labels for b in labels if a != b]
        assert len(set(wanted)) <= 1 and (not wanted or wanted[0] > 0), pair
        run_pos.update({(label, k, off): n for (label, off), n in pos.items()})
        run_pair.update(pair)
    labels = sorted({label for label, _, _ in run_pos})
    for k in set(df["n_players"]):
        for label in labels:
            assert len({run_pos[(label, k, off)] for off in range(k)}) == 1
    pairs = [run_pair[(a, b)] for a in labels for b in labels if a != b]
    assert len(set(pairs)) == 1


def _toy(entrants, players, repeats, seed=3, games=1):
    return Tournament(entrants, players=players, games=games, seed=seed, repeats=repeats,
                      game=ToyGame(first_player=True))  # fmt: skip


@pytest.mark.parametrize("repeats", [False, True])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_complete_runs_are_balanced_and_ignore_the_listing_order(tmp_path, players, repeats):
    entrants = ["p1", "a", "p3", "p2", "b", "p4", "c"][: players + 1]
    if repeats:
        entrants = entrants[:3]
    one = _toy(entrants, players, repeats).run(out=tmp_path / "one")
    rows = one.games()
    _check_rows_balanced(rows)
    assert one.manifest["seating_design"]["kind"] == "balanced"
    listed = list(reversed(entrants))
    two = _toy(listed, players, repeats).run(out=tmp_path / "two")
    pd.testing.assert_frame_equal(rows, two.games())
    pd.testing.assert_frame_equal(one.summary(), two.summary())


def test_mixed_table_sizes_are_balanced(tmp_path):
    res = _toy(["a", "p1", "p2", "p3", "p4"], "3,4,5", False).run(out=tmp_path)
    _check_rows_balanced(res.games())


def test_aggregates_count_neighbours(tmp_path):
    res = _toy(["a", "p1", "p2", "p3"], 4, False, games=2000).run(out=tmp_path)
    agg = res.aggregates()
    df = res.games()
    labels = res.labels
    games = np.zeros((4, 4), np.int64)
    wins = np.zeros((4, 4), np.int64)
    for s in range(4):
        me = df[f"seat_{s}"].astype(str).map(labels.index).to_numpy()
        before = df[f"seat_{(s - 1) % 4}"].astype(str).map(labels.index).to_numpy()
        np.add.at(games, (me, before), 1)
        best = df[[f"points_{q}" for q in range(4)]].max(axis=1)
        won = (df[f"points_{s}"] == best) & ~df["forfeit"]  # shared wins count for each
        np.add.at(wins, (me, before), won.to_numpy())
    assert np.array_equal(agg["after_games"], games)
    assert np.array_equal(agg["after_wins"], wins)
    off = ~np.eye(4, dtype=bool)
    assert len(set(games[off].tolist())) == 1  # balanced: every neighbour equally often


def test_the_row_check_catches_listing_order_neighbours(tmp_path):
    res = Tournament(["a", "p1", "p2", "p3"], players=4, games=1, seed=3, game=ToyGame(first_player=True),
                     seating="rotations").run(out=tmp_path)  # fmt: skip
    with pytest.raises(AssertionError):
        _check_rows_balanced(res.games())
