"""Random play at C speed: the table as a bitmask, legal plays counted per value, no lists.

``random_games`` plays exactly the games of ``kernels.random_games`` (same stream, same
deals, same uniform choice over the legal ids in increasing order; a test compares every
total), on a smaller state than the board: per-seat hand counts and sizes, the table
counts and a bitmask of its non-empty stacks. The ends are the mask's lowest and highest
set bits, so a take that empties an end moves it inward for free, and the takes are its
set bits. Known cards, removed cards and the undealt row are left out: random play never
reads them.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import config
from numba.extending import intrinsic

from gamekit.kernel_cache import use_cache_of
from gamekit.rng import rng_below, rng_new

from .kernels import LOWEST_CLEAR, NEXT_SEAT, shuffle_deck
from .rules import DECK_SIZE, N_VALUES, TAKE_BASE

use_cache_of(__name__)  # numba's own njit below: its cache in this package's keyed folder

__all__ = ["random_games"]


@intrinsic
def _ctz(typingctx, x):
    """Trailing zeros of a non-zero int64 (one instruction)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@intrinsic
def _top_bit(typingctx, x):
    """Index of the highest set bit of a non-zero int64."""

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return types.int64(types.int64), codegen


@intrinsic
def _popcount(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


INTRINSICS = {"_ctz": _ctz, "_top_bit": _top_bit, "_popcount": _popcount}
"""The LLVM forms, kept by name: with the JIT off the module binds the Python forms below."""

if config.DISABLE_JIT:  # numba runs the kernels as Python: the same bits in Python arithmetic

    def _bits(x) -> int:
        """The int64 ``x`` as its 64 bits, an unsigned Python int."""
        return int(x) & ((1 << 64) - 1)

    def _ctz(x):
        u = _bits(x)
        return (u & -u).bit_length() - 1

    def _top_bit(x):
        return _bits(x).bit_length() - 1

    def _popcount(x):
        return _bits(x).bit_count()


@njit(cache=True, inline="always")
def _choose(hand, size, table, mask, cnt, rng):
    # legal[rng_below(rng, n_legal)] over the increasing legal ids, without the list
    if mask == 0:
        r = rng_below(rng, size)
        v = 0
        while r >= hand[v]:
            r -= hand[v]
            v += 1
        return v * 8 + r
    lo = _ctz(mask)
    hi = _top_bit(mask)
    a = np.int64(table[lo])
    b = np.int64(table[hi])
    start = hi if hi > lo else lo + 1
    total = np.int64(0)
    for v in range(N_VALUES):
        need = a if v <= lo else b
        c = np.int64(hand[v]) - need + 1
        c = c if (v <= lo or v >= start) and c > 0 else 0
        cnt[v] = c
        total += c
    r = rng_below(rng, total + _popcount(mask))
    for v in range(N_VALUES):
        if r < cnt[v]:
            return v * 8 + (a if v <= lo else b) - 1 + r
        r -= cnt[v]
    m = mask
    while r > 0:  # the r-th non-empty stack, lowest first
        m &= m - 1
        r -= 1
    return TAKE_BASE + _ctz(m)


@njit(cache=True)
def random_games(n_players, hand_size, n_games, seed, turn_limit):
    """Deal and randomly play ``n_games`` games from one seed: ``kernels.random_games``' games.

    Returns (turns int64[n_games], rounds int64[n_games], winners int64[n_games]).
    """
    rng = rng_new(seed)
    hands = np.zeros((n_players, N_VALUES), np.int64)
    sizes = np.zeros(n_players, np.int64)
    table = np.zeros(N_VALUES, np.int64)
    cnt = np.zeros(N_VALUES, np.int64)
    deck = np.empty(DECK_SIZE, np.int64)
    turns = np.empty(n_games, np.int64)
    rounds = np.empty(n_games, np.int64)
    winners = np.empty(n_games, np.int64)
    for g in range(n_games):
        shuffle_deck(deck, rng)
        hands[:, :] = 0
        table[:] = 0
        pos = 0
        for p in range(n_players):
            for _ in range(hand_size):
                hands[p, deck[pos]] += 1
                pos += 1
            sizes[p] = hand_size
        cur = rng_below(rng, n_players)
        mask = np.int64(0)
        passed = np.int64(0)
        npassed = 0
        turn = 0
        rnd = 1
        winner = -1
        while winner < 0 and turn < turn_limit:
            aid = _choose(hands[cur], sizes[cur], table, mask, cnt, rng)
            if aid >= TAKE_BASE:
                v = aid - TAKE_BASE
                table[v] -= 1
                if table[v] == 0:
                    mask &= ~(np.int64(1) << v)
                hands[cur, v] += 1
                sizes[cur] += 1
                passed |= np.int64(1) << cur
                npassed += 1
                if npassed >= n_players - 1:  # round end: the one left leads a fresh table
                    cur = np.int64(LOWEST_CLEAR[passed])
                    table[:] = 0
                    mask = np.int64(0)
                    passed = np.int64(0)
                    npassed = 0
                    rnd += 1
                else:
                    cur = np.int64(NEXT_SEAT[n_players, passed, cur])
            else:
                v = aid >> 3
                k = (aid & 7) + 1
                hands[cur, v] -= k
                sizes[cur] -= k
                table[v] += k
                mask |= np.int64(1) << v
                if sizes[cur] == 0:
                    winner = cur
                else:
                    cur = np.int64(NEXT_SEAT[n_players, passed, cur])
            turn += 1
        turns[g] = turn
        rounds[g] = rnd
        winners[g] = winner
    return turns, rounds, winners
