"""``reports.clusters.seat_sums`` block by block, against sums worked out by hand: a run left
with no game (every one forfeited, or a comparison's tables all left out) has one empty block,
which adds nothing and asks no code of it; a run over several blocks sums each game into its
own duplicate set, whatever the block size."""

from __future__ import annotations

import numpy as np
import pytest

from reports import clusters as rc
from tests.test_boundaries_clusters import games


def _never(*_):
    raise AssertionError("asked of a block with no game")


def by_key(s: rc.Sums) -> dict[tuple[int, int], tuple[float, float]]:
    return {(int(a), int(b)): (float(w), float(n))
            for a, b, w, n in zip(s.group, s.cluster, s.w, s.n, strict=True)}  # fmt: skip


@pytest.mark.parametrize("asked", [False, True])
def test_no_game_gives_empty_sums_and_asks_nothing_of_its_empty_block(asked):
    g = games(np.zeros((0, 3), np.int16), [], deal=[], table=[])
    kw = {"code": _never, "outcome": _never} if asked else {}
    s = rc.seat_sums(g, 3, **kw)
    assert s.n_groups == 3 and by_key(s) == {}
    for a in (s.group, s.cluster):
        assert a.size == 0 and a.dtype.kind == "i"
    w, n = s.totals()
    np.testing.assert_array_equal(w, [0, 0, 0])
    np.testing.assert_array_equal(n, [0, 0, 0])


# five games of a, b and c in three sets (deals 0, 0, 1, 2, 2 at one table); winners by seat
SEATS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2]]
WINNER = [0, 2, 1, 1, 0]
# by hand: a wins games 0 (seat 0), 1 (seat 2) and 2 (seat 1); c game 3 (seat 1); b game 4
# (seat 0). Each strategy sits once a game: 2 seats in sets 0 and 2, 1 in set 1.
TRUTH = {(0, 0): (2.0, 2.0), (0, 1): (1.0, 1.0), (0, 2): (0.0, 2.0),
         (1, 0): (0.0, 2.0), (1, 1): (0.0, 1.0), (1, 2): (1.0, 2.0),
         (2, 0): (0.0, 2.0), (2, 1): (0.0, 1.0), (2, 2): (1.0, 2.0)}  # fmt: skip


@pytest.mark.parametrize("block", [1, 2, 3, 5, 1 << 20])
def test_games_over_several_blocks_sum_into_their_own_sets(block, monkeypatch):
    """Blocks of 1, 2 (2 + 2 + 1 games), 3 (3 + 2), 5 (one) or the default size: each game's
    seats go to its own duplicate set, as worked out by hand."""
    monkeypatch.setattr(rc, "BLOCK", block)
    g = games(SEATS, WINNER, deal=[0, 0, 1, 2, 2], table=[0] * 5)
    assert by_key(rc.seat_sums(g, 3)) == TRUTH
    # a code per seat (seat 0 only, as group 0) and an outcome (the seat's cards left: 3 - w):
    # seat 0 won games 0 and 4
    code = lambda b, s: np.full(len(b), 0 if s == 0 else -1)  # noqa: E731
    left = lambda b: 3.0 - b.wins()  # noqa: E731
    got = by_key(rc.seat_sums(g, 1, code=code, outcome=left))
    assert got == {(0, 0): (5.0, 2.0), (0, 1): (3.0, 1.0), (0, 2): (5.0, 2.0)}
