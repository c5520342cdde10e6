"""Compiled rules of 13 Leaves over the array board (``leaves.board``), for bulk simulation.

The kernels implement exactly the rules of ``leaves.state.State`` (same legal action order,
round ends, takes moving the ends inward, P1, known-card bookkeeping, turn limit E1); a
hypothesis differential test drives both through thousands of games and compares every field.
Everything is ``@njit(cache=True)``. This module is also the one namespace of the compiled
API (``from leaves import kernels as K``): it re-exports the deal (``board_new``,
``board_deal``, ``deal_board``, ``shuffle_deck``, ... from ``leaves.deal_kernels``), the board
builders ``board_from_state``/``state_from_board`` (``leaves.board``) and the RNG
(xoshiro256** seeded through splitmix64: ``rng_new``, ``rng_seed``, ``rng_next``,
``rng_uniform``, ``rng_below``, from ``gamekit.rng``). Beyond the basic API: ``random_action``
(one uniform legal action without building the list) and ``random_games`` (deal + random
playout of many games from one seed: the benchmark loop).

* ``random_playout`` picks ``legal[rng_below(s, n_legal)]`` each turn (uniform over the
  legal action ids, docs/rules.md "random").

Every rule variant a ``Rules`` can switch (no minimum count, what a pass takes) is read here
from the board's ``M_RULES``, next to the rules it changes: one job, the rules of a turn,
which is why this module is longer than most.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit
from gamekit.rng import rng_below, rng_new, rng_next, rng_seed, rng_uniform

from .board import (
    BOARD_ROWS,
    HANDS,
    KNOWN,
    M_CUR,
    M_HI,
    M_LIMIT,
    M_LO,
    M_N,
    M_PASSED,
    M_ROUND,
    M_RULES,
    M_TURN,
    M_WINNER,
    MAX_SEATS,
    META,
    NO_MIN,
    REMOVED,
    TABLE,
    TAKE_ENDS,
    TAKE_NOTHING,
    board_from_state,
    state_from_board,
)
from .deal_kernels import (
    DECK_COPIES,
    DECK_SORTED,
    Setup,
    board_copy,
    board_deal,
    board_new,
    deal_board,
    deal_into,
    deal_setup,
    deal_unchecked,
    setup_for,
    shuffle_deck,
    shuffle_head,
)
from .rules import MAX_DECK, N_ACTION_IDS, N_VALUES, PASS_ID, TAKE_BASE

__all__ = [
    "DECK_SORTED",
    "LOWEST_CLEAR",
    "NEXT_SEAT",
    "N_PASSED",
    "Setup",
    "apply",
    "apply_sized",
    "apply_tracked",
    "board_copy",
    "board_deal",
    "board_from_state",
    "board_new",
    "deal_board",
    "deal_into",
    "deal_setup",
    "deal_unchecked",
    "hand_size",
    "is_legal",
    "is_terminal",
    "legal_actions",
    "random_action",
    "random_games",
    "random_playout",
    "rng_below",
    "rng_new",
    "rng_next",
    "rng_seed",
    "rng_uniform",
    "setup_for",
    "shuffle_deck",
    "shuffle_head",
    "state_from_board",
]


def _seat_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # NEXT_SEAT[n, passed, p]: the next seat after p, clockwise, that has not passed (p
    # itself when it is the only one); LOWEST_CLEAR[passed]: the lowest seat not passed;
    # N_PASSED[passed]: how many seats passed (the bit count of the mask).
    nxt = np.full((MAX_SEATS + 1, 1 << MAX_SEATS, MAX_SEATS), -1, dtype=np.int8)
    for n in range(1, MAX_SEATS + 1):
        for passed in range(1 << MAX_SEATS):
            for p in range(n):
                for step in range(1, n + 1):
                    q = (p + step) % n
                    if not passed >> q & 1:
                        nxt[n, passed, p] = q
                        break
    low = np.full(1 << MAX_SEATS, -1, dtype=np.int8)
    for passed in range((1 << MAX_SEATS) - 1):
        q = 0
        while passed >> q & 1:
            q += 1
        low[passed] = q
    count = np.array([bin(m).count("1") for m in range(1 << MAX_SEATS)], dtype=np.int8)
    return nxt, low, count


NEXT_SEAT, LOWEST_CLEAR, N_PASSED = _seat_tables()


# ---------------------------------------------------------------------------- rules
@njit(cache=True, inline="always")
def is_terminal(board):
    """True once a seat has emptied its hand or the turn limit (E1) is reached."""
    return board[META, M_WINNER] >= 0 or board[META, M_TURN] >= board[META, M_LIMIT]


@njit(cache=True)
def hand_size(board, seat):
    """Cards in ``seat``'s hand."""
    total = 0
    for v in range(N_VALUES):
        total += board[HANDS + seat, v]
    return total


@njit(cache=True, inline="always")
def _sides(board):
    # The play rule as three numbers: values v <= lo need >= a cards, values v >= start need
    # >= b cards, nothing between. An empty table is lo=-1, start=0, b=1 (any value, any
    # count). Every legal play list is then "per value v, counts need_v .. hand[v]". Without
    # the minimum count (rule ``min_count=off``) both needs are 1.
    lo = np.int64(board[META, M_LO])
    if lo < 0:
        return np.int64(-1), np.int64(1), np.int64(0), np.int64(1)
    hi = np.int64(board[META, M_HI])
    start = hi if hi > lo else lo + 1
    if board[META, M_RULES] & NO_MIN:
        return lo, np.int64(1), start, np.int64(1)
    return lo, np.int64(board[TABLE, lo]), start, np.int64(board[TABLE, hi])


@njit(cache=True, inline="always")
def _takes_into(board, out, n):
    # The passes after the plays, ascending: a take per stack (rule ``take=any``), per end
    # stack (``take=ends``), or the one pass taking nothing (``take=nothing``); none on an
    # empty table (P1).
    mode = board[META, M_RULES] >> 1
    if mode == 0:
        for v in range(N_VALUES):
            out[n] = TAKE_BASE + v
            n += 1 if board[TABLE, v] != 0 else 0
        return n
    lo = np.int64(board[META, M_LO])
    if lo < 0:
        return n
    if mode == TAKE_NOTHING:
        out[n] = PASS_ID
        return n + 1
    hi = np.int64(board[META, M_HI])
    out[n] = TAKE_BASE + lo
    out[n + 1] = TAKE_BASE + hi
    return n + (2 if hi != lo else 1)


@njit(cache=True, inline="always")
def _legal_into(board, out):
    # Branch-free: each value writes all 8 candidate ids and advances by its legal count, so
    # ``out`` must have room for 8 past the last play (``N_ACTION_IDS + 8``: plays <= 104).
    if board[META, M_WINNER] >= 0 or board[META, M_TURN] >= board[META, M_LIMIT]:
        return 0
    hr = HANDS + np.int64(board[META, M_CUR])
    lo, a, start, b = _sides(board)
    n = 0
    for v in range(N_VALUES):
        need = a if v <= lo else b
        c = np.int64(board[hr, v]) - need + 1
        c = c if (v <= lo or v >= start) and c > 0 else 0
        base = v * 8 + need - 1
        for j in range(8):
            out[n + j] = base + j
        n += c
    return _takes_into(board, out, n)


@njit(cache=True)
def legal_actions(board, out):
    """Write the legal action ids, ascending, into ``out`` (int64[N_ACTION_IDS + 8]); return
    how many."""
    return _legal_into(board, out)


@njit(cache=True)
def is_legal(board, aid):
    """True when action id ``aid`` is legal for the seat to act (False for a finished game)."""
    if aid < 0 or aid >= N_ACTION_IDS:
        return False
    if board[META, M_WINNER] >= 0 or board[META, M_TURN] >= board[META, M_LIMIT]:
        return False
    hr = HANDS + np.int64(board[META, M_CUR])
    lo = np.int64(board[META, M_LO])
    hi = np.int64(board[META, M_HI])
    mode = board[META, M_RULES] >> 1
    if aid == PASS_ID:
        return lo >= 0 and mode == TAKE_NOTHING
    if aid >= TAKE_BASE:
        v = aid - TAKE_BASE
        if mode == TAKE_ENDS and v != lo and v != hi:
            return False
        return lo >= 0 and mode != TAKE_NOTHING and board[TABLE, v] != 0
    v = aid >> 3
    k = (aid & 7) + 1
    if board[hr, v] < k:
        return False
    if lo < 0:
        return True
    free = board[META, M_RULES] & NO_MIN
    if v <= lo:
        return free or k >= board[TABLE, lo]
    if v >= hi:
        return free or k >= board[TABLE, hi]
    return False


@njit(cache=True, inline="always")
def _apply(board, aid):
    apply_tracked(board, aid, board[META], False)


@njit(cache=True, inline="always")
def apply_tracked(board, aid, sizes, tracked):
    """``apply``, and with ``tracked`` ``apply_sized``: ``sizes[p]`` holds the hand size of
    the seat to act; it is updated and tells a win without summing the hand row (else
    ``sizes`` is not read). The games loop calls it directly: one numba inlining fewer in
    its first compile than through ``apply_sized``."""
    p = np.int64(board[META, M_CUR])
    n = np.int64(board[META, M_N])
    lo = np.int64(board[META, M_LO])
    hi = np.int64(board[META, M_HI])
    passed = np.int64(board[META, M_PASSED])
    if aid >= TAKE_BASE:
        # Pass: take one card of value v from its stack (none for ``PASS_ID``), then sit out
        # the round.
        if aid != PASS_ID:
            v = aid - TAKE_BASE
            tc = board[TABLE, v]
            board[TABLE, v] = tc - 1
            if tc == 1:
                # The stack is gone: an emptied end moves inward to the next stack.
                if lo == hi:
                    lo = -1
                    hi = -1
                elif v == lo:
                    lo += 1
                    while board[TABLE, lo] == 0:
                        lo += 1
                elif v == hi:
                    hi -= 1
                    while board[TABLE, hi] == 0:
                        hi -= 1
            board[HANDS + p, v] += 1
            board[KNOWN + p, v] += 1
            if tracked:
                sizes[p] += 1
        passed |= np.int64(1) << p
        if N_PASSED[passed] >= n - 1:
            # Round end: the one seat left clears the table and leads on an empty table.
            q = np.int64(LOWEST_CLEAR[passed])
            for u in range(N_VALUES):
                board[REMOVED, u] += board[TABLE, u]
                board[TABLE, u] = 0
            lo = -1
            hi = -1
            passed = 0
            board[META, M_ROUND] += 1
        else:
            q = np.int64(NEXT_SEAT[n, passed, p])
        board[META, M_PASSED] = passed
    else:
        # Play k cards of value v onto an end (or as a new end).
        v = aid >> 3
        k = (aid & 7) + 1
        hr = HANDS + p
        board[hr, v] -= k
        board[TABLE, v] += k
        lo = v if (lo < 0 or v < lo) else lo
        hi = v if v > hi else hi
        kc = np.int64(board[KNOWN + p, v])
        board[KNOWN + p, v] = kc - k if kc > k else 0
        if tracked:
            size = sizes[p] - k
            sizes[p] = size
        else:
            size = 0
            for u in range(N_VALUES):
                size += np.int64(board[hr, u])
        if size == 0:
            board[META, M_WINNER] = p
            q = p
        else:
            q = np.int64(NEXT_SEAT[n, passed, p])
    board[META, M_CUR] = q
    board[META, M_LO] = lo
    board[META, M_HI] = hi
    board[META, M_TURN] += 1


@njit(cache=True, inline="always")
def apply(board, aid):
    """Apply the legal action id ``aid`` in place (unchecked: test with ``is_legal`` first).

    Inlined into compiled callers: the game loops call it every turn."""
    _apply(board, aid)


@njit(cache=True, inline="always")
def apply_sized(board, aid, sizes):
    """``apply`` that keeps ``sizes[p]`` (every seat's hand size, int64) up to date and reads
    the actor's from it instead of summing its hand: what the game loops call each turn."""
    apply_tracked(board, aid, sizes, True)


@njit(cache=True, inline="always")
def _count_plays(board, hr, v0, v1, need):
    """How many plays of ``need`` or more cards the values ``v0..v1-1`` of hand row ``hr``
    allow (a value with c cards: c - need + 1 of them)."""
    n = 0
    for v in range(v0, v1):
        c = np.int64(board[hr, v]) - need + 1
        n += c if c > 0 else 0
    return n


@njit(cache=True, inline="always")
def _nth_play(board, hr, v, need, r):
    """The action id of the ``r``-th of those plays, counting from value ``v`` up."""
    while True:
        c = np.int64(board[hr, v]) - need + 1
        if c > 0:
            if r < c:
                return v * 8 + need - 1 + r
            r -= c
        v += 1


@njit(cache=True, inline="always")
def _random_action(board, rng):
    # The same choice as ``legal[rng_below(rng, n_legal)]`` over ``legal_actions``' ascending
    # list, found by counting per value then walking to the drawn index (no enumeration).
    hr = HANDS + np.int64(board[META, M_CUR])
    lo = np.int64(board[META, M_LO])
    if lo < 0:
        size = 0
        for v in range(N_VALUES):
            size += np.int64(board[hr, v])
        r = rng_below(rng, size)
        v = 0
        while True:
            c = np.int64(board[hr, v])
            if r < c:
                return v * 8 + r
            r -= c
            v += 1
    hi = np.int64(board[META, M_HI])
    lo, a, start, b = _sides(board)
    mode = board[META, M_RULES] >> 1
    n_left = _count_plays(board, hr, 0, lo + 1, a)
    n_right = _count_plays(board, hr, start, N_VALUES, b)
    n_take = 0
    if mode == 0:
        for v in range(lo, hi + 1):
            n_take += 1 if board[TABLE, v] != 0 else 0
    else:
        n_take = 2 if mode == TAKE_ENDS and hi != lo else 1
    r = rng_below(rng, n_left + n_right + n_take)
    if r < n_left:
        return _nth_play(board, hr, 0, a, r)
    r -= n_left
    if r < n_right:
        return _nth_play(board, hr, start, b, r)
    r -= n_right
    if mode == TAKE_NOTHING:
        return PASS_ID
    if mode == TAKE_ENDS:
        return TAKE_BASE + (lo if r == 0 else hi)
    v = lo
    while True:
        if board[TABLE, v] != 0:
            if r == 0:
                return TAKE_BASE + v
            r -= 1
        v += 1


@njit(cache=True)
def random_action(board, rng):
    """A uniformly random legal action id: ``legal[rng_below(rng, n_legal)]`` without a list.

    Draws exactly one ``rng_below`` like the enumerate-then-index form, so both consume the
    stream identically. The game must not be over.
    """
    return _random_action(board, rng)


@njit(cache=True, inline="always")
def _playout(board, rng):
    while board[META, M_WINNER] < 0 and board[META, M_TURN] < board[META, M_LIMIT]:
        _apply(board, _random_action(board, rng))
    return np.int64(board[META, M_WINNER])


@njit(cache=True)
def random_playout(board, rng):
    """Play uniformly random legal actions to the end; return the winner or -1 (unfinished)."""
    return _playout(board, rng)


@njit(cache=True)
def random_games(n_players, hand_size, n_games, seed, turn_limit):
    """Deal and randomly play ``n_games`` games of today's deck from one seed, all inside
    compiled code.

    Returns (turns int64[n_games], rounds int64[n_games], winners int64[n_games]); this is the
    loop the benchmark times.
    """
    rng = rng_new(seed)
    board = np.zeros((BOARD_ROWS, N_VALUES), dtype=np.int32)
    deck = np.empty(MAX_DECK, dtype=np.int64)
    setup = Setup(n_players, hand_size, turn_limit, 0, DECK_SORTED, DECK_COPIES)
    turns = np.empty(n_games, dtype=np.int64)
    rounds = np.empty(n_games, dtype=np.int64)
    winners = np.empty(n_games, dtype=np.int64)
    for g in range(n_games):
        deal_into(board, setup, rng, -1, deck)
        winners[g] = _playout(board, rng)
        turns[g] = board[META, M_TURN]
        rounds[g] = board[META, M_ROUND]
    return turns, rounds, winners
