"""The card counts ``counter`` and ``weighted`` read, kept through a game by ``play_to_end``
(``leaves.players.policy.counting``), always equal a recount from the board."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves import kernels
from leaves.board import HANDS, KNOWN, M_CUR, M_LIMIT, M_N, M_TURN, META, REMOVED, TABLE
from leaves.players.builtin import BUILTINS
from leaves.players.compiled.dispatch import COUNTS, decide
from leaves.players.compiled.loops import Seats, play_to_end
from leaves.players.policy import counting as CT
from leaves.rules import DECK

KINDS = st.integers(0, len(BUILTINS) - 1)
TABLES = {
    "n": st.integers(3, 6),
    "seed": st.integers(0, 2**32 - 1),
    "kinds": st.lists(KINDS, min_size=6, max_size=6),
}
"""A table of built-ins at any player count and its deal (``kinds[:n]`` sit)."""


def _table(kinds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    vectors = [strategies.get(BUILTINS[k].name).compiled()[1] for k in kinds]
    return np.array(kinds, np.int64), np.stack(vectors)


def _recount(board: np.ndarray) -> tuple[list[int], list[int]]:
    """(PUB, KNOWN_N) from the board's rows, as the module docstring defines them."""
    n = int(board[META, M_N])
    pub = [
        DECK[u]
        - int(board[TABLE, u])
        - int(board[REMOVED, u])
        - sum(int(board[KNOWN + i, u]) for i in range(n))
        for u in range(13)
    ]
    return pub, [int(board[KNOWN + i].sum()) for i in range(n)]


def _avail(board: np.ndarray, seat: int, live: np.ndarray | None) -> list[int]:
    """``fill_avail`` from the live rows of ``live``, or recounted when ``live`` is None."""
    work = np.full(CT.WORK_SIZE, -7, np.int64) if live is None else live.copy()
    if live is None:
        work[CT.LIVE] = 0
    CT.fill_avail(board, seat, work)
    return work[CT.AVAIL : CT.AVAIL + 13].tolist()


@settings(max_examples=40, deadline=None)
@given(**TABLES)
def test_the_counts_kept_action_by_action_equal_the_recount(n, seed, kinds):
    """After every action of a game (any table of built-ins, every player count) the rows
    ``count_action`` keeps equal the recount, every seat's counts read from them equal its
    recounted counts, and every decision is the one made from a recount."""
    kinds_a, params = _table(kinds[:n])
    board = kernels.deal_board(n, seed)
    sizes = np.zeros(8, np.int64)
    sizes[:n] = board[HANDS : HANDS + n].sum(axis=1)
    work = np.zeros(CT.WORK_SIZE, np.int64)
    CT.count_start(board, work)
    rng = kernels.rng_new(np.uint64(seed))
    while not kernels.is_terminal(board):
        p = int(board[META, M_CUR])
        fresh = np.zeros(CT.WORK_SIZE, np.int64)
        twin = rng.copy()
        aid = decide(kinds_a[p], params[p], board, p, sizes, rng, work)
        assert decide(kinds_a[p], params[p], board, p, sizes, twin, fresh) == aid
        CT.count_action(board, aid, work)
        kernels.apply_sized(board, aid, sizes)
        pub, known_n = _recount(board)
        assert work[CT.PUB : CT.PUB + 13].tolist() == pub
        assert work[CT.KNOWN_N : CT.KNOWN_N + n].tolist() == known_n
        for seat in range(n):
            assert _avail(board, seat, work) == _avail(board, seat, None)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(**TABLES)
def test_play_to_end_decides_as_a_recount_and_leaves_the_counts_stale(n, seed, kinds):
    """Every action ``play_to_end`` records (counts kept through the game) is the one the
    policy picks recounting from the board; on return the counts are no longer marked live,
    so the next caller of a policy on another board recounts."""
    kinds_a, params = _table(kinds[:n])
    board = kernels.deal_board(n, seed)
    start = board.copy()
    sizes = np.zeros(8, np.int64)
    work = np.zeros(CT.WORK_SIZE, np.int64)
    rec = np.zeros(board[META, M_LIMIT], np.int8)
    rng = kernels.rng_new(np.uint64(seed))
    turns = play_to_end(board, Seats(kinds_a, params), sizes, rng, work, rec, True, 0)
    assert work[CT.LIVE] == 0
    rng = kernels.rng_new(np.uint64(seed))
    replay_sizes = np.zeros(8, np.int64)
    replay_sizes[:n] = start[HANDS : HANDS + n].sum(axis=1)
    for t in range(turns):
        p = int(start[META, M_CUR])
        fresh = np.zeros(CT.WORK_SIZE, np.int64)
        assert decide(kinds_a[p], params[p], start, p, replay_sizes, rng, fresh) == rec[t]
        kernels.apply_sized(start, int(rec[t]), replay_sizes)
    assert np.array_equal(start, board) and np.array_equal(replay_sizes, sizes)


@settings(max_examples=30, deadline=None)
@given(**TABLES, cut=st.integers(1, 60))
def test_a_game_cut_after_some_turns_and_resumed_is_the_same_game(n, seed, kinds, cut):
    """``play_to_end`` with a turn cap plays at most that many turns; resuming it (the counts
    started anew from the board) ends exactly as the uncut game."""
    kinds_a, params = _table(kinds[:n])
    whole = kernels.deal_board(n, seed)
    part = whole.copy()
    sizes = np.zeros(8, np.int64)
    work = np.zeros(CT.WORK_SIZE, np.int64)
    rec = np.zeros(1, np.int8)
    rng = kernels.rng_new(np.uint64(seed))
    total = play_to_end(whole, Seats(kinds_a, params), sizes, rng, work, rec, False, 0)
    rng = kernels.rng_new(np.uint64(seed))
    first = play_to_end(part, Seats(kinds_a, params), sizes, rng, work, rec, False, cut)
    assert first == min(cut, total)
    assert part[META, M_TURN] == first
    rest = play_to_end(part, Seats(kinds_a, params), sizes, rng, work, rec, False, 0)
    assert first + rest == total
    assert np.array_equal(part, whole)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
    turns=st.integers(0, 80),
    junk=st.integers(-9, 9),
)
def test_a_kind_outside_counts_never_reads_the_counts(n, seed, turns, junk):
    """``play_to_end`` keeps the counts only at tables with a kind in ``COUNTS``: every other
    kind decides alike whatever the counting rows hold, even marked live."""
    board = kernels.deal_board(n, seed)
    kinds_a, params = _table([0] * n)
    sizes = np.zeros(8, np.int64)
    rec = np.zeros(1, np.int8)
    work = np.zeros(CT.WORK_SIZE, np.int64)
    rng = kernels.rng_new(np.uint64(seed))
    play_to_end(board, Seats(kinds_a, params), sizes, rng, work, rec, False, turns)
    if kernels.is_terminal(board):
        return
    p = int(board[META, M_CUR])
    junk_work = np.full(CT.WORK_SIZE, junk, np.int64)
    junk_work[CT.LIVE] = 1
    for kind in np.flatnonzero(~COUNTS):
        params_k = strategies.get(BUILTINS[kind].name).compiled()[1]
        clean = np.zeros(CT.WORK_SIZE, np.int64)
        rng_a, rng_b = kernels.rng_new(np.uint64(seed)), kernels.rng_new(np.uint64(seed))
        want = decide(kind, params_k, board, p, sizes, rng_a, clean)
        assert decide(kind, params_k, board, p, sizes, rng_b, junk_work.copy()) == want


def test_stale_rows_are_never_read():
    """A policy called outside ``play_to_end`` recounts, whatever the scratch holds: rows left
    by another board give the same counts as a zeroed buffer."""
    board = kernels.deal_board(4, 11)
    other = kernels.deal_board(4, 12)
    work = np.zeros(CT.WORK_SIZE, np.int64)
    CT.count_start(other, work)
    CT.count_stop(work)
    assert _avail(board, 0, work) == _avail(board, 0, None)


@given(st.integers(0, 2**62 - 1))
def test_popcount_counts_the_set_bits(x):
    assert CT.popcount(x) == bin(x).count("1")
