"""The compiled kernels against the reference ``State``: same rules, same RNG spec, same deals.

The differential test plays thousands of games (across its hypothesis examples) through
``State`` and the board kernels side by side and compares every field after every action.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit.jit import njit
from leaves import DECK, HAND_SIZES, N_ACTIONS, TURN_LIMIT, Rules, State, new_game
from leaves import kernels as K
from leaves.board import (
    BOARD_ROWS,
    HANDS,
    KNOWN,
    M_CUR,
    M_FIRST,
    M_HI,
    M_LIMIT,
    M_LO,
    M_N,
    M_PASSED,
    M_ROUND,
    M_TURN,
    M_WINNER,
    MAX_SEATS,
    META,
    REMOVED,
    TABLE,
    UNDEALT,
)

GAMES_PER_EXAMPLE = 20
MASK64 = (1 << 64) - 1


@njit(cache=True)
def _legal_mask(board):
    out = np.zeros(N_ACTIONS, dtype=np.bool_)
    for aid in range(N_ACTIONS):
        out[aid] = K.is_legal(board, aid)
    return out


def _legal_ids(board) -> list[int]:
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    n = K.legal_actions(board, buf)
    return buf[:n].tolist()


def _assert_same(state: State, board: np.ndarray, where: str) -> None:
    """Every field of ``state`` equals the board's, and both agree on the legal actions."""
    b = board.tolist()
    n = state.n_players
    meta = b[META]
    assert meta[M_N] == n, where
    assert [b[HANDS + p] for p in range(n)] == [list(h) for h in state.hands], where
    assert [b[KNOWN + p] for p in range(n)] == [list(k) for k in state.known], where
    for p in range(n, MAX_SEATS):
        assert not any(b[HANDS + p]) and not any(b[KNOWN + p]), where
    assert b[TABLE] == list(state.table), where
    assert b[REMOVED] == list(state.removed), where
    assert b[UNDEALT] == list(state.undealt), where
    passed = [bool(meta[M_PASSED] >> p & 1) for p in range(n)]
    assert passed == list(state.passed), where
    assert meta[M_PASSED] >> n == 0, where
    assert meta[M_CUR] == state.current_player, where
    assert meta[M_WINNER] == (-1 if state.winner is None else state.winner), where
    assert meta[M_TURN] == state.turn, where
    assert meta[M_ROUND] == state.round, where
    assert meta[M_LIMIT] == state.turn_limit, where
    ends = state.ends
    if ends is None:
        assert (meta[M_LO], meta[M_HI]) == (-1, -1), where
    else:
        assert (meta[M_LO] + 1, meta[M_HI] + 1) == (ends[0][0], ends[1][0]), where
    assert bool(K.is_terminal(board)) == state.is_terminal, where
    assert [K.hand_size(board, p) for p in range(n)] == list(state.hand_sizes), where
    legal = list(state.legal_action_ids())
    assert _legal_ids(board) == legal, where
    assert np.flatnonzero(_legal_mask(board)).tolist() == legal, where


def _choose(legal: tuple[int, ...], rng: np.random.Generator, take_bias: float) -> int:
    takes = [a for a in legal if a >= 104]
    if takes and rng.random() < take_bias:
        return takes[int(rng.integers(len(takes)))]
    return legal[int(rng.integers(len(legal)))]


@pytest.mark.slow
@given(
    n_players=st.integers(3, 6),
    seed=st.integers(0, MASK64),
    limit=st.one_of(st.just(TURN_LIMIT), st.integers(1, 60)),
    take_bias=st.sampled_from([0.0, 0.0, 0.3, 0.8]),
    from_board=st.booleans(),
)
def test_kernels_match_state_move_by_move(n_players, seed, limit, take_bias, from_board):
    rng = np.random.default_rng(seed)
    for g in range(GAMES_PER_EXAMPLE):
        if from_board:
            board = K.deal_board(
                n_players, int(rng.integers(1 << 63)), rules=Rules(turn_limit=limit)
            )
            state = K.state_from_board(board)
        else:
            state = new_game(n_players, seed=rng, rules=Rules(turn_limit=limit))
            board = K.board_from_state(state)
        _assert_same(state, board, f"game {g}, start")
        while not state.is_terminal:
            legal = state.legal_action_ids()
            aid = _choose(legal, rng, take_bias)
            state = state.apply(aid)
            K.apply(board, aid)
            _assert_same(state, board, f"game {g}, turn {state.turn}, action {aid}")
        assert state.turn <= limit
        assert _legal_ids(board) == []


@given(
    n_players=st.integers(2, 6),
    seed=st.integers(0, MASK64),
    data=st.data(),
)
def test_kernels_match_state_odd_deals(n_players, seed, data):
    """Explicit hand sizes and player counts outside 3..6 (1-card hands, 2 players, ...)."""
    hand_size = data.draw(st.integers(1, 62 // n_players), label="hand_size")
    first = data.draw(st.integers(0, n_players - 1), label="first_player")
    rng = np.random.default_rng(seed)
    for g in range(2):  # 2 games of each of the examples
        state = new_game(n_players, seed=rng, first_player=first, hand_size=hand_size)
        board = K.board_from_state(state)
        _assert_same(state, board, f"game {g}, start")
        while not state.is_terminal:
            aid = _choose(state.legal_action_ids(), rng, 0.5)
            state = state.apply(aid)
            K.apply(board, aid)
            _assert_same(state, board, f"game {g}, turn {state.turn}, action {aid}")


def test_rulebook_example_legal_actions():
    """Left end three 6s, right end two 12s: any value <= 6 with >= 3 cards, >= 12 with >= 2."""
    hand = [2, 3, 4, 5, 6, 4, 4, 7, 5, 5, 4, 1, 2]
    table = [0] * 13
    table[5], table[8], table[11] = 3, 1, 2
    rest = [DECK[v] - hand[v] - table[v] for v in range(13)]
    state = State.from_dict(
        {"hands": [hand, rest], "table": table, "current_player": 0, "undealt": [0] * 13}
    )
    board = K.board_from_state(state)
    ids = _legal_ids(board)
    assert ids == list(state.legal_action_ids())
    plays = {(a // 8 + 1, a % 8 + 1) for a in ids if a < 104}
    assert plays == {(v, k) for v in range(1, 14) for k in range(1, hand[v - 1] + 1)
                     if (v <= 6 and k >= 3) or (v >= 12 and k >= 2)}  # fmt: skip
    assert [a - 104 + 1 for a in ids if a >= 104] == [6, 9, 12]


# ---------------------------------------------------------------------------- converters
@given(n_players=st.integers(3, 6), seed=st.integers(0, MASK64), steps=st.integers(0, 120))
def test_converters_round_trip(n_players, seed, steps):
    rng = np.random.default_rng(seed)
    state = new_game(n_players, seed=rng)
    for _ in range(steps):
        if state.is_terminal:
            break
        state = state.apply(_choose(state.legal_action_ids(), rng, 0.3))
    board = K.board_from_state(state)
    assert board.dtype == np.int32 and board.shape == (BOARD_ROWS, 13)
    back = K.state_from_board(board)
    assert back == state
    assert back.to_dict() == state.to_dict()
    assert np.array_equal(K.board_from_state(back), board)
    assert board[META, M_FIRST] == (state.current_player if state.turn == 0 else -1)


def test_dealt_board_round_trips_exactly():
    board = K.deal_board(4, 123)
    assert np.array_equal(K.board_from_state(K.state_from_board(board)), board)


def test_state_from_board_rejects_bad_boards():
    board = K.deal_board(4, 1)
    board[HANDS, 0] += 1  # a card out of nowhere
    with pytest.raises(ValueError, match="add up"):
        K.state_from_board(board)
    with pytest.raises(ValueError, match="shape"):
        K.state_from_board(np.zeros((3, 13), dtype=np.int32))


# ---------------------------------------------------------------------------- RNG and deal
def _ref_rng(seed: int) -> list[int]:
    """Reference splitmix64 seeding of xoshiro256**, in plain Python ints."""
    s, x = [], seed & MASK64
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        s.append(z ^ (z >> 31))
    return s


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


def _ref_next(s: list[int]) -> int:
    result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
    t = (s[1] << 17) & MASK64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def _ref_below(s: list[int], n: int) -> int:
    m = (_ref_next(s) >> 32) * n
    low = m & 0xFFFFFFFF
    if low < n:
        t = ((1 << 32) - n) % n
        while low < t:
            m = (_ref_next(s) >> 32) * n
            low = m & 0xFFFFFFFF
    return m >> 32


@given(seed=st.integers(0, MASK64))
def test_rng_matches_reference(seed):
    s = K.rng_new(np.uint64(seed))
    ref = _ref_rng(seed)
    assert s.tolist() == ref
    assert [int(K.rng_next(s)) for _ in range(5)] == [_ref_next(ref) for _ in range(5)]
    for n in (1, 2, 3, 7, 62, 1000, (1 << 31) + 1, (1 << 32) - 1):
        got = K.rng_below(s, n)
        assert got == _ref_below(ref, n)
        assert 0 <= got < n
    u = K.rng_uniform(s)
    assert u == (_ref_next(ref) >> 11) / 2.0**53
    assert 0.0 <= u < 1.0


def test_rng_below_is_roughly_uniform():
    s = K.rng_new(np.uint64(7))
    counts = np.bincount([K.rng_below(s, 6) for _ in range(6000)], minlength=6)
    assert counts.min() > 850 and counts.max() < 1150


def _ref_deal(seed: int, n: int, hand_size: int, first_player: int):
    s = _ref_rng(seed)
    deck = [v for v in range(13) for _ in range(DECK[v])]
    for i in range(61, 0, -1):
        j = _ref_below(s, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = [[0] * 13 for _ in range(n)]
    for p in range(n):
        for card in deck[p * hand_size : (p + 1) * hand_size]:
            hands[p][card] += 1
    undealt = [0] * 13
    for card in deck[n * hand_size :]:
        undealt[card] += 1
    if first_player < 0:
        first_player = _ref_below(s, n)
    return hands, undealt, first_player, s


@given(
    n_players=st.integers(3, 6),
    seed=st.integers(0, MASK64),
    first=st.integers(-1, 2),
    limit=st.integers(1, 5000),
)
def test_board_deal(n_players, seed, first, limit):
    hs = HAND_SIZES[n_players]
    rng = K.rng_new(np.uint64(seed))
    board = K.board_new()
    board[:] = 99  # dealing overwrites everything
    K.board_deal(board, n_players, hs, rng, first, limit)
    b = board.tolist()
    assert [sum(b[HANDS + p]) for p in range(n_players)] == [hs] * n_players
    assert [sum(b[HANDS + p]) for p in range(n_players, MAX_SEATS)] == [0] * (MAX_SEATS - n_players)
    total = [sum(b[HANDS + p][v] for p in range(MAX_SEATS)) + b[UNDEALT][v] for v in range(13)]
    assert total == list(DECK)
    assert sum(b[UNDEALT]) == 62 - n_players * hs
    assert not any(b[TABLE]) and not any(b[REMOVED])
    assert all(not any(b[KNOWN + p]) for p in range(MAX_SEATS))
    meta = b[META]
    assert meta[M_N] == n_players and meta[M_LIMIT] == limit
    assert (meta[M_TURN], meta[M_ROUND], meta[M_WINNER], meta[M_LO], meta[M_HI]) == (
        0, 1, -1, -1, -1
    )  # fmt: skip
    assert meta[M_PASSED] == 0
    assert 0 <= meta[M_CUR] < n_players and meta[M_FIRST] == meta[M_CUR]
    if first >= 0:
        assert meta[M_CUR] == first
    # The documented algorithm, reimplemented in plain Python, gives the same deal and stream.
    hands, undealt, fp, ref = _ref_deal(seed, n_players, hs, first)
    assert [b[HANDS + p] for p in range(n_players)] == hands
    assert b[UNDEALT] == undealt and meta[M_CUR] == fp
    assert rng.tolist() == ref
    # Same seed, same deal; the state is valid for State.
    again = K.deal_board(n_players, seed, first_player=first, rules=Rules(turn_limit=limit))
    assert np.array_equal(again, board)
    assert K.state_from_board(board).hand_sizes == (hs,) * n_players


def test_deals_differ_and_first_player_varies():
    boards = [K.deal_board(4, seed) for seed in range(40)]
    assert len({b[:4].tobytes() for b in boards}) == 40
    assert {int(b[META, M_CUR]) for b in boards} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("n", "hs", "first", "limit"),
    [
        (7, 5, -1, 10),
        (1, 5, -1, 10),
        (4, 16, -1, 10),
        (4, 0, -1, 10),
        (4, 11, 4, 10),
        (4, 11, -2, 10),
        (4, 11, 0, 0),
    ],
)
def test_board_deal_rejects_impossible_deals(n, hs, first, limit):
    with pytest.raises(ValueError, match="board_deal"):
        K.board_deal(K.board_new(), n, hs, K.rng_new(np.uint64(1)), first, limit)


# ---------------------------------------------------------------------------- playouts
def _check_finished(board: np.ndarray, winner: int) -> None:
    b = board.tolist()
    n = b[META][M_N]
    turn, limit, rnd = b[META][M_TURN], b[META][M_LIMIT], b[META][M_ROUND]
    assert winner == b[META][M_WINNER]
    assert 1 <= turn <= limit
    assert 1 <= rnd <= turn + 1
    if winner >= 0:
        assert sum(b[HANDS + winner]) == 0
        assert b[META][M_CUR] == winner
        assert all(sum(b[HANDS + p]) > 0 for p in range(n) if p != winner)
    else:
        assert turn == limit
    total = [
        sum(b[HANDS + p][v] for p in range(n)) + b[TABLE][v] + b[REMOVED][v] + b[UNDEALT][v]
        for v in range(13)
    ]
    assert total == list(DECK)
    assert K.is_terminal(board)
    K.state_from_board(board)  # a valid terminal State


@given(
    n_players=st.integers(3, 6),
    seed=st.integers(0, MASK64),
    limit=st.one_of(st.just(TURN_LIMIT), st.integers(1, 80)),
)
def test_random_playout_terminates_consistently(n_players, seed, limit):
    board = K.deal_board(n_players, seed, rules=Rules(turn_limit=limit))
    stepped = board.copy()
    rng = K.rng_new(np.uint64(seed))
    rng2 = rng.copy()
    winner = K.random_playout(board, rng)
    _check_finished(board, winner)
    # random_playout == "pick legal[rng_below(n_legal)] each turn" through the public kernels.
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    while True:
        n = K.legal_actions(stepped, buf)
        if n == 0:
            break
        probe = rng2.copy()
        aid = buf[K.rng_below(rng2, n)]
        assert K.random_action(stepped, probe) == aid
        assert np.array_equal(probe, rng2)
        K.apply(stepped, aid)
    assert np.array_equal(stepped, board)
    assert np.array_equal(rng2, rng)


def test_random_games_is_deal_then_playout_from_one_stream():
    turns, rounds, winners = K.random_games(5, 10, 30, 99, TURN_LIMIT)
    rng = K.rng_new(np.uint64(99))
    for g in range(30):
        board = K.board_new()
        K.board_deal(board, 5, 10, rng, -1, TURN_LIMIT)
        w = K.random_playout(board, rng)
        _check_finished(board, w)
        assert (turns[g], rounds[g], winners[g]) == (board[META, M_TURN], board[META, M_ROUND], w)


@pytest.mark.slow
def test_random_games_statistics_look_like_the_rules_doc():
    """docs/rules.md: random play, 4 players, about 80 turns and 11.5 rounds per game."""
    turns, rounds, winners = K.random_games(4, 11, 20000, 5, TURN_LIMIT)
    assert 76 < turns.mean() < 84
    assert 11.0 < rounds.mean() < 12.0
    assert (winners >= 0).all()
    assert np.bincount(winners, minlength=4).min() > 4000


def test_board_copy_is_independent():
    board = K.deal_board(3, 5)
    copy = K.board_copy(board)
    K.random_playout(copy, K.rng_new(np.uint64(1)))
    assert not np.array_equal(copy, board)
    assert board[META, M_TURN] == 0


# ---------------------------------------------------------------------------- bench
@pytest.mark.slow
def test_run_bench_reports_both_paths():
    from leaves.bench import run_bench

    r = run_bench(players=3, games=300, seed=1, api_games=5, repeats=2)
    assert r["players"] == 3 and r["games"] == 300 and r["api_games"] == 5
    assert r["games_per_second"] > 0 and r["api_games_per_second"] > 0
    assert len(r["games_per_second_runs"]) == 2
    assert r["games_per_second"] == max(r["games_per_second_runs"])
    assert 1 <= r["mean_turns"] <= r["max_turns"] and r["mean_rounds"] >= 1
    assert r["numba_version"]
    with pytest.raises(ValueError, match="players"):
        run_bench(players=7, games=10)


@pytest.mark.slow
def test_bench_command_json_and_bad_values():
    import json

    from click.testing import CliRunner

    from leaves_cli.main import cli

    runner = CliRunner()
    res = runner.invoke(cli, ["bench", "--games", "200", "--api-games", "3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games_per_second"] > 0 and data["api_games_per_second"] > 0
    for bad in (["--players", "2"], ["--players", "7"], ["--games", "0"], ["--repeats", "0"]):
        res = runner.invoke(cli, ["bench", *bad])
        assert res.exit_code == 2, (bad, res.output)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(n_players=st.integers(3, 6), seed=st.integers(0, 2**64 - 1), limit=st.integers(1, 1000))
def test_bitmask_random_play_plays_the_kernels_games(n_players, seed, limit):
    """``fastplay.random_games`` (bitmask table, no lists) = ``kernels.random_games``."""
    from leaves import fastplay

    hand = HAND_SIZES[n_players]
    fast = fastplay.random_games(n_players, hand, 200, np.uint64(seed), limit)
    ref = K.random_games(n_players, hand, 200, np.uint64(seed), limit)
    for a, b in zip(fast, ref, strict=True):
        np.testing.assert_array_equal(a, b)
