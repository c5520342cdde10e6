"""The simple policies' branch-free kernels decide exactly as their rules written as plain
first-best loops (the form they had before their scans became key reductions)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves.board import HANDS, M_HI, M_LO, META, TABLE, public_board
from leaves.players.builtin import simple, taker
from leaves.players.policy import features
from leaves.players.testing import random_position
from leaves.rules import MAX_COPIES, TAKE_BASE

NONE = 99


# ----------------------------------------------------------------------------- the rules
def kmin(board, v, lo, hi):
    if lo < 0:
        return 1
    if v <= lo:
        return board[TABLE, lo]
    if v >= hi:
        return board[TABLE, hi]
    return NONE


def play_id(v, k):
    return v * MAX_COPIES + k - 1


def take_group(board, seat, lo, hi):
    best, bs = -1, -1
    for t in range(lo, hi + 1):
        if board[TABLE, t] > 0 and board[HANDS + seat, t] > bs:
            bs, best = board[HANDS + seat, t], t
    return TAKE_BASE + best


def winning_play(board, seat, sizes, lo, hi):
    h = sizes[seat]
    for v in range(13):
        c = board[HANDS + seat, v]
        if c == h:
            return play_id(v, c) if h <= MAX_COPIES and c >= kmin(board, v, lo, hi) else -1
        if c > 0:
            return -1
    return -1


def ref_low(board, seat, sizes, params, lo, hi):
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= kmin(board, v, lo, hi):
            return play_id(v, c)
    return take_group(board, seat, lo, hi)


def ref_high(board, seat, sizes, params, lo, hi):
    for v in range(12, -1, -1):
        c = board[HANDS + seat, v]
        if c > 0 and c >= kmin(board, v, lo, hi):
            return play_id(v, c)
    return take_group(board, seat, lo, hi)


def ref_minimal(board, seat, sizes, params, lo, hi):
    w = winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    best, bk, bl = -1, 99, 99
    for v in range(13):
        c = board[HANDS + seat, v]
        k = kmin(board, v, lo, hi)
        if c > 0 and c >= k and (k < bk or (k == bk and c - k < bl)):
            bk, bl, best = k, c - k, play_id(v, k)
    return best if best >= 0 else take_group(board, seat, lo, hi)


def ref_greedy(board, seat, sizes, params, lo, hi):
    keep_pairs = params[0] > 0.5
    best, bc, bx, pair = -1, 0, -1, -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= kmin(board, v, lo, hi):
            if c == sizes[seat]:
                return play_id(v, c)
            if keep_pairs and c == 2:
                pair = play_id(v, c) if pair < 0 else pair
                continue
            x = abs(v - 6)
            if c > bc or (c == bc and x > bx):
                bc, bx, best = c, x, play_id(v, c)
    if best >= 0:
        return best
    return pair if pair >= 0 else take_group(board, seat, lo, hi)


def ref_patient(board, seat, sizes, params, lo, hi):
    best, bc = -1, 0
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > bc and c >= kmin(board, v, lo, hi):
            bc, best = c, play_id(v, c)
    if lo < 0 or bc >= 2 or (best >= 0 and sizes[seat] < params[0]):
        return best
    t = take_group(board, seat, lo, hi)
    if best >= 0 and board[HANDS + seat, t - TAKE_BASE] == 0:
        return best
    return t


def ref_blocker(board, seat, sizes, params, lo, hi):
    best, bc, bx = -1, 0, -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= kmin(board, v, lo, hi):
            x = abs(v - 6)
            if x > bx or (x == bx and c > bc):
                bc, bx, best = c, x, play_id(v, c)
    return best if best >= 0 else take_group(board, seat, lo, hi)


def ref_taker_play(board, seat, sizes, params, lo, hi):
    best, bs = -1, -1e18
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= kmin(board, v, lo, hi):
            s = 1e9 if c == sizes[seat] else -2.0 * c - 0.1 * abs(v - 6)
            if s > bs:
                bs, best = s, play_id(v, c)
    return best  # -1: it passes, scored by the unchanged take_scored


RULES = {
    "low": (simple.policy_low, ref_low),
    "high": (simple.policy_high, ref_high),
    "minimal": (simple.policy_minimal, ref_minimal),
    "greedy": (simple.policy_greedy, ref_greedy),
    "greedy:keep_pairs=true": (simple.policy_greedy, ref_greedy),
    "patient": (simple.policy_patient, ref_patient),
    "patient:min_hand=3": (simple.policy_patient, ref_patient),
    "blocker": (simple.policy_blocker, ref_blocker),
}

positions = st.builds(
    random_position,
    st.integers(3, 6),
    st.integers(0, 2**31),
    st.sampled_from(["lead", "follow", "forced_take", "last_two", "any"]),
)


def _board(state):
    board, sizes = public_board(state.view(state.current_player))
    return board, sizes, int(board[META, M_LO]), int(board[META, M_HI])


@settings(max_examples=300)
@given(pos=positions, name=st.sampled_from(sorted(RULES)))
def test_simple_kernels_decide_as_their_rules(pos, name):
    _, state = pos
    if state.is_terminal:
        return
    kernel, rule = RULES[name]
    params = strategies.get(name).compiled()[1]
    board, sizes, lo, hi = _board(state)
    seat = state.current_player
    rng = np.zeros(4, np.uint64)
    work = np.zeros(features.WORK_SIZE, np.int64)
    expected = rule(board, seat, sizes, params, lo, hi)
    assert kernel(board, seat, sizes, params, rng, work) == expected


@settings(max_examples=200)
@given(pos=positions)
def test_taker_plays_as_its_rule(pos):
    _, state = pos
    if state.is_terminal:
        return
    board, sizes, lo, hi = _board(state)
    seat = state.current_player
    params = strategies.get("taker").compiled()[1]
    expected = ref_taker_play(board, seat, sizes, params, lo, hi)
    got = taker.policy_taker(
        board, seat, sizes, params, np.zeros(4, np.uint64), np.zeros(features.WORK_SIZE, np.int64)
    )
    if expected >= 0:
        assert got == expected
    else:
        assert got >= TAKE_BASE


@settings(max_examples=200)
@given(pos=positions)
def test_take_group_is_the_first_stack_held_most(pos):
    _, state = pos
    board, sizes, lo, hi = _board(state)
    if lo < 0:
        return
    seat = state.current_player
    assert features.take_group(board, seat, lo, hi) == take_group(board, seat, lo, hi)
