"""benchmarks/bench_value.py: its logit recovers weights it was given, its features read a
board a person can check, and its self-play positions are the games' own, from the seed."""

from __future__ import annotations

import numpy as np
import pytest

from leaves.board import BOARD_ROWS, HANDS, M_CUR, M_HI, M_LO, M_PASSED, META, TABLE
from leaves.rules import N_VALUES

from .helpers import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_value")


def test_fit_recovers_known_weights(bench):
    """Winners drawn from a known conditional logit: the fit finds its weights."""
    rng = np.random.default_rng(7)
    truth = np.array([0.8, -0.5, 0.0])
    x = rng.normal(size=(40_000, 4, 3))
    s = x @ truth
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    winners = np.array([rng.choice(4, p=row) for row in p])
    w = bench.fit_logit(x, winners)
    assert np.allclose(w, truth, atol=0.04)
    # the true weights' loss is the fitted one's, a coin's is worse
    assert bench.log_loss(x @ w, winners).mean() <= bench.log_loss(x @ truth, winners).mean()
    assert bench.log_loss(x @ truth, winners).mean() < np.log(4) - 0.1


def test_features_of_a_board(bench):
    """Seat 2 to move; left end three 5s, right end one 9; seat 1 has passed."""
    b = np.zeros((1, BOARD_ROWS, N_VALUES), np.int32)
    b[0, HANDS + 0, 0] = 3  # three 1s: playable on the left (3 >= 3)
    b[0, HANDS + 0, 6] = 1  # a 7: between the ends, never
    b[0, HANDS + 1, 3] = 2  # two 4s: too few for the left end
    b[0, HANDS + 1, 10] = 1  # a J: playable on the right
    b[0, HANDS + 2, 12] = 2  # two Ks
    b[0, HANDS + 3, [1, 2, 3]] = 1
    b[0, TABLE, 4], b[0, TABLE, 8] = 3, 1
    b[0, META, M_LO], b[0, META, M_HI], b[0, META, M_CUR] = 4, 8, 2
    b[0, META, M_PASSED] = 0b10
    f = dict(zip(bench.FEATURES, np.moveaxis(bench.seat_features(b, 4)[0], 1, 0), strict=True))
    assert list(f["cards left"]) == [4, 3, 2, 3]
    assert list(f["values held"]) == [2, 2, 1, 3]
    assert list(f["largest group"]) == [3, 2, 2, 1]
    assert list(f["single cards"]) == [1, 1, 0, 3]
    assert list(f["passed"]) == [0, 1, 0, 0]
    assert list(f["playable values"]) == [1, 1, 1, 0]
    # places after the seat to move (seat 2): seat 3 second, seat 0 third, seat 1 fourth
    assert list(f["second to move"]) == [0, 0, 0, 1]
    assert list(f["third to move"]) == [1, 0, 0, 0]
    assert list(f["fourth to move"]) == [0, 1, 0, 0]
    assert list(f["values held, to move"]) == [0, 0, 1, 0]
    assert list(f["values held, fourth"]) == [0, 2, 0, 0]


def test_self_play_positions(bench):
    """Every position of a game holds its cards, the winner is the seat that empties its
    hand, turns to go count down to one, and the seed alone decides the games."""
    p = bench.self_play("weighted", 4, 6, seed=3)
    again = bench.self_play("weighted", 4, 6, seed=3)
    assert np.array_equal(p.boards, again.boards) and np.array_equal(p.winners, again.winners)
    assert not np.array_equal(bench.self_play("weighted", 4, 6, seed=4).boards[:5], p.boards[:5])
    last = np.flatnonzero(p.to_go == 1)
    assert len(last) == 6  # one last position a game
    for i in last:  # before the last turn the winner holds one group it can play
        hand = p.boards[i, HANDS + p.winners[i]]
        assert p.boards[i, META, M_CUR] == p.winners[i]
        assert np.count_nonzero(hand) == 1
    assert (np.diff(p.to_go)[np.diff(p.to_go) != -1] > 0).all()  # within a game, one a turn


def test_report_lines(bench):
    train = bench.self_play("weighted", 4, 40, seed=1)
    test = bench.self_play("weighted", 4, 10, seed=2)
    lines = bench.report(train, test, 4)
    assert lines[0].startswith("| smallest hand |") and len(lines) >= 4
    assert all(line.endswith("bits |") for line in lines[2:])
