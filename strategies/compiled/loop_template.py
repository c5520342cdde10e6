"""The games loop, written once: ``decide``, ``play_to_end`` and the batch loop ``play_games``.

Imported as itself (``strategies.compiled.loop_template``) this module is the loop over every
built-in kind: ``dispatch.decide``, ``loops.play_to_end`` and ``loops._batch`` are its
functions. It is also the template of the loops compiled for some kinds only (``specialize``)
and of the loop built ahead of time (``aot``): ``specialize.render`` copies this file with
the lines ``KINDS = ...`` and ``INLINE = ...`` set and nothing else changed, and the copy,
run as a module of its own, binds the kernels ``decide`` calls by those two values:

* a kind outside ``KINDS`` decides through ``dispatch.absent``, so compiling that loop never
  compiles its policy (a loop is used only for batches whose kinds it holds);
* with ``INLINE`` the small policies' bodies are inlined into ``decide`` (a faster loop, a
  longer compile: only the ahead-of-time build asks for it);
* a loop none of whose kinds reads the card counts calls no-ops for them, so its first
  compile skips the counting code.

Imports are absolute and explicit: a copy runs from the cache folder as a top-level module.
The loop and its callees that are not inlined count no references (``NO_REFCOUNTS``): they
allocate nothing.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit
from gamekit.numba_internals import NO_REFCOUNTS
from leaves import kernels as K
from leaves.board import HANDS, M_CUR, M_FIRST, M_LIMIT, M_N, M_ROUND, M_TURN, M_WINNER, META
from leaves.rules import N_VALUES
from strategies.builtin.counter import policy_counter
from strategies.builtin.random_ import policy_random
from strategies.builtin.simple import (
    policy_blocker,
    policy_greedy,
    policy_high,
    policy_low,
    policy_minimal,
    policy_patient,
)
from strategies.builtin.taker import policy_taker
from strategies.builtin.weighted import policy_weighted
from strategies.compiled.dispatch import (
    ALL_KINDS,
    COUNTS,
    playable,
    skip_count_action,
    skip_count_start,
)
from strategies.compiled.layout import Seats
from strategies.policy.counting import count_action, count_start, count_stop

KINDS = ALL_KINDS
INLINE = False

policy_random = playable(policy_random, KINDS, INLINE)
policy_low = playable(policy_low, KINDS, INLINE)
policy_high = playable(policy_high, KINDS, INLINE)
policy_minimal = playable(policy_minimal, KINDS, INLINE)
policy_greedy = playable(policy_greedy, KINDS, INLINE)
policy_patient = playable(policy_patient, KINDS, INLINE)
policy_blocker = playable(policy_blocker, KINDS, INLINE)
policy_counter = playable(policy_counter, KINDS, INLINE)
policy_taker = playable(policy_taker, KINDS, INLINE)
policy_weighted = playable(policy_weighted, KINDS, INLINE)

COUNTED = any(COUNTS[k] for k in KINDS)  # a kind of this loop reads the card counts
count_start = count_start if COUNTED else skip_count_start
count_action = count_action if COUNTED else skip_count_action


@njit(cache=True, inline="always")
def decide(kind, params, board, seat, sizes, rng, work):
    """Action id chosen by policy ``kind`` for ``seat`` (the seat to act) on ``board``.

    Inlined into the loops that call it (a fifth of a heuristic's time per turn was the call
    itself); the policies stay separate functions unless ``INLINE``, which keeps the first
    compile short.

    ``params`` float64[N_PARAMS]; ``sizes`` int64[SEAT_SLOTS] public hand sizes; ``rng`` a
    kernel RNG (only stochastic policies draw from it); ``work`` int64[WORK_SIZE] scratch.
    """
    if kind == 0:
        return policy_random(board, seat, sizes, params, rng, work)
    if kind == 1:
        return policy_low(board, seat, sizes, params, rng, work)
    if kind == 2:
        return policy_high(board, seat, sizes, params, rng, work)
    if kind == 3:
        return policy_minimal(board, seat, sizes, params, rng, work)
    if kind == 4:
        return policy_greedy(board, seat, sizes, params, rng, work)
    if kind == 5:
        return policy_patient(board, seat, sizes, params, rng, work)
    if kind == 6:
        return policy_blocker(board, seat, sizes, params, rng, work)
    if kind == 7:
        return policy_counter(board, seat, sizes, params, rng, work)
    if kind == 8:
        return policy_taker(board, seat, sizes, params, rng, work)
    if kind == 9:
        return policy_weighted(board, seat, sizes, params, rng, work)
    return -1


@njit(cache=True, **NO_REFCOUNTS)
def play_to_end(board, seats, sizes, rng, work, rec, record, turns):
    """Play ``board`` (a full board) to the end, or for at most ``turns`` turns when
    ``turns > 0``, seat ``p`` by policy ``seats.kinds[p]`` with ``seats.params[p]``
    (``layout.Seats``); ``sizes`` ends as every seat's cards left. Returns the turns played,
    which are written to ``rec`` when ``record``.

    The card counts of ``counter`` and ``weighted`` (``counting``) follow the board here,
    action by action, when a seat reads them (``dispatch.COUNTS``), and are marked stale
    again on return: the board is this loop's alone only while it runs.
    """
    kinds, params = seats.kinds, seats.params
    n = board[META, M_N]
    for i in range(n):
        total = 0
        for v in range(N_VALUES):
            total += board[HANDS + i, v]
        sizes[i] = total
    counts = False  # whether a seat reads the counts: else the table skips keeping them
    for i in range(n):
        counts |= COUNTS[kinds[i]]
    if counts:
        count_start(board, work)
    t = 0
    while board[META, M_WINNER] < 0 and board[META, M_TURN] < board[META, M_LIMIT]:
        if turns > 0 and t == turns:
            break
        p = board[META, M_CUR]
        aid = decide(kinds[p], params[p], board, p, sizes, rng, work)
        if counts:
            count_action(board, aid, work)
        K.apply_tracked(board, aid, sizes, True)  # ``apply_sized``, one inlining fewer
        if record:
            rec[t] = aid
        t += 1
    count_stop(work)
    return t


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def play_games(seats, games, out, buf):
    """Play every game of ``games`` (``layout.Games``) into ``out`` (``layout.Results``),
    game ``g`` seated by ``seats.kinds[games.seating[g]]`` with ``seats.params[...]``:
    a chunk's seatings in one call. ``buf`` (``layout.Buffers``) is the scratch. Returns the
    number of games."""
    n = seats.kinds.shape[1]
    board, sizes, work, deck, rng = buf
    for g in range(games.deal_seeds.shape[0]):
        r = games.seating[g]
        K.rng_seed(rng, games.deal_seeds[g])
        # np.int64(-1), not the literal -1: the argument types ``precompile`` compiles for
        K.deal_unchecked(board, games.setup, rng, np.int64(-1), deck)
        out.first[g] = board[META, M_FIRST]
        K.rng_seed(rng, games.play_seeds[g])
        rec = out.actions[g if games.record else 0]  # a dummy row when not recording
        table = Seats(seats.kinds[r], seats.params[r])
        play_to_end(board, table, sizes, rng, work, rec, games.record, 0)
        for i in range(n):
            out.left[g, i] = sizes[i]
        out.winner[g] = board[META, M_WINNER]
        out.turns[g] = board[META, M_TURN]
        out.rounds[g] = board[META, M_ROUND]
        out.unfinished[g] = board[META, M_WINNER] < 0
    return games.deal_seeds.shape[0]
