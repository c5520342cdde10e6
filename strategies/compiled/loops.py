"""The compiled game loops: whole batches of games between built-in policies, no Python call
per decision.

``play_to_end`` is the one loop that plays a dealt board out (the batch loop below and the
search's playouts, cut after some turns or not, both use it); ``play_batch_compiled`` deals
game ``g`` from ``deal_seeds[g]`` (``kernels.board_deal``, as the Python path does) and plays
it with a kernel RNG from ``play_seeds[g]``, at one table or under per-game seatings (a
tournament chunk in one call). It runs the ahead-of-time compiled copy of the loop (``aot``) when one is built, else
numba's JIT: a copy of the loop for just the kinds a run uses (``specialize``) when one was
compiled, else ``_batch`` over every kind.

The loop, its callees that are not inlined (the deal, the policies) and the exported module
are compiled with numba's ``_nrt=False``: no reference counting. They allocate nothing, and
without it every array view and call in the turn loop paid an atomic ``NRT_incref`` and
``NRT_decref`` (a third of a heuristic table's time, measured with ``perf``).
"""

from __future__ import annotations

import numpy as np

from leaves import kernels as K
from leaves.board import (
    BOARD_ROWS,
    HANDS,
    M_CUR,
    M_FIRST,
    M_LIMIT,
    M_N,
    M_ROUND,
    M_TURN,
    M_WINNER,
    META,
    SEAT_SLOTS,
)
from leaves.jit import njit
from leaves.rules import DECK_SIZE, MAX_COPIES, N_VALUES, TAKE_BASE, hand_size_for

from ..policy.counting import WORK_SIZE, count_action, count_start, count_stop
from ..policy.params import N_PARAMS
from . import aot, specialize
from .dispatch import COUNTS, N_KINDS, decide


@njit(cache=True, inline="always")
def track_size(sizes, p, aid):
    """Update the public hand size of seat ``p`` for its action ``aid``."""
    if aid >= TAKE_BASE:
        sizes[p] += 1
    else:
        sizes[p] -= aid % MAX_COPIES + 1


@njit(cache=True, _nrt=False)
def play_to_end(board, kinds, params, sizes, rng, work, rec, record, turns):
    """Play ``board`` (a full board) to the end, or for at most ``turns`` turns when
    ``turns > 0``, seat ``p`` by policy ``kinds[p]`` with ``params[p]``; ``sizes`` ends as
    every seat's cards left. Returns the turns played, which are written to ``rec`` when
    ``record``.

    The card counts of ``counter`` and ``weighted`` (``counting``) follow the board here,
    action by action, when a seat reads them (``dispatch.COUNTS``), and are marked stale
    again on return: the board is this loop's alone only while it runs.
    """
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


@njit(cache=True, _nrt=False, nogil=True)
def _batch(
    kinds, params, seating, deal_seeds, play_seeds, turn_limit, record, hand_size,
    first, left, winner, turns, rounds, unfinished, actions, board, sizes, work, deck, rng,
):  # fmt: skip
    # Game g seats policies kinds[seating[g]] with params[seating[g]]: a chunk's seatings in
    # one call (``aot.SIGNATURE`` exports exactly this signature). The result arrays (first
    # .. actions) and the scratch buffers (board .. rng) come from the caller (``_buffers``):
    # the loop allocates nothing, which keeps its first compile short.
    n = kinds.shape[1]
    for g in range(deal_seeds.shape[0]):
        r = seating[g]
        K.rng_seed(rng, deal_seeds[g])
        # np.int64(-1), not the literal -1: the argument types ``precompile`` compiles for
        K.deal_unchecked(board, n, hand_size, rng, np.int64(-1), turn_limit, deck)
        first[g] = board[META, M_FIRST]
        K.rng_seed(rng, play_seeds[g])
        rec = actions[g if record else 0]  # a dummy row when not recording
        play_to_end(board, kinds[r], params[r], sizes, rng, work, rec, record, 0)
        for i in range(n):
            left[g, i] = sizes[i]
        winner[g] = board[META, M_WINNER]
        turns[g] = board[META, M_TURN]
        rounds[g] = board[META, M_ROUND]
        unfinished[g] = board[META, M_WINNER] < 0
    return deal_seeds.shape[0]


def _buffers(g_count: int, n: int, turn_limit: int, record: bool) -> tuple[np.ndarray, ...]:
    """``_batch``'s last twelve arguments: results (first, left, winner, turns, rounds, unfinished, actions:
    one dummy row when not recording) then scratch (board, sizes, work, deck, rng)."""
    return (
        np.empty(g_count, np.int8),
        np.empty((g_count, n), np.int16),
        np.empty(g_count, np.int8),
        np.empty(g_count, np.int32),
        np.empty(g_count, np.int32),
        np.empty(g_count, np.bool_),
        np.zeros((g_count, turn_limit) if record else (1, 1), np.int8),
        np.zeros((BOARD_ROWS, N_VALUES), np.int32),
        np.zeros(SEAT_SLOTS, np.int64),
        np.zeros(WORK_SIZE, np.int64),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros(4, np.uint64),
    )


def _check_table(kinds: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kinds (R, n) and params (R, n, N_PARAMS) of R seatings, checked (1-D/2-D: one)."""
    kinds = np.ascontiguousarray(kinds, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    if kinds.ndim == 1:
        kinds, params = kinds[None, :], params[None]
    if kinds.ndim != 2 or kinds.shape[0] < 1:
        raise ValueError("kinds must hold one policy kind per seat (per seating)")
    n = kinds.shape[1]
    hand_size_for(n)  # raises for a player count outside 3..6
    if params.shape != (kinds.shape[0], n, N_PARAMS):
        raise ValueError(
            f"params must have shape ({n}, {N_PARAMS}) per seating, got {params.shape}"
        )
    if kinds.min() < 0 or kinds.max() >= N_KINDS:
        raise ValueError(f"policy kinds must be 0..{N_KINDS - 1}, got {kinds.tolist()}")
    return kinds, params


def _seeds(x: np.ndarray, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of seeds")
    return np.ascontiguousarray(a.astype(np.uint64))


def _run(
    kinds, params, deal_seeds, play_seeds, turn_limit, record, seating=None, loop=None
) -> tuple[np.ndarray, ...]:
    """Check the arguments, allocate ``_batch``'s buffers and run ``loop`` (default: the
    ahead-of-time module, else a loop compiled for these kinds, else ``_batch``)."""
    kinds, params = _check_table(kinds, params)
    d, p = _seeds(deal_seeds, "deal_seeds"), _seeds(play_seeds, "play_seeds")
    if d.shape != p.shape:
        raise ValueError("deal_seeds and play_seeds must have the same length")
    if seating is None:
        seating = np.zeros(d.shape[0], np.int64)
    seating = np.ascontiguousarray(seating, dtype=np.int64)
    if seating.shape != d.shape:
        raise ValueError("seating must give one seating per game")
    if seating.size and (seating.min() < 0 or seating.max() >= kinds.shape[0]):
        raise ValueError(f"seatings must be 0..{kinds.shape[0] - 1}")
    limit = int(turn_limit)
    if limit < 1:
        raise ValueError("turn_limit must be >= 1")
    n = kinds.shape[1]
    out = _buffers(d.shape[0], n, limit, bool(record))
    if loop is None:
        loop = aot.loop()  # the same loop compiled ahead of time, when built
    if loop is None:  # else one compiled for the run's kinds, when there is one
        loop = specialize.covering(kinds.ravel().tolist()) or _batch
    loop(kinds, params, seating, d, p, limit, bool(record), hand_size_for(n), *out)
    return out[:6] if not record else out[:7]


def play_batch_compiled(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
    seating: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Play one game per seed pair, seat ``i`` run by policy ``kinds[i]`` with ``params[i]``.

    With ``seating`` (one index per game), ``kinds`` (R, n) and ``params`` (R, n, N_PARAMS)
    hold R seatings and game ``g`` is played under seating ``seating[g]``: many seatings in
    one call. Returns (first_player int8 (G,), cards_left int16 (G, n), winner_seat int8 (G,),
    turns int32 (G,), rounds int32 (G,), unfinished bool (G,)).
    """
    return _run(kinds, params, deal_seeds, play_seeds, turn_limit, False, seating)[:6]


def play_batch_compiled_records(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
    seating: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """``play_batch_compiled`` plus the action ids: int8 (G, turn_limit), row g valid to turns[g]."""
    return _run(kinds, params, deal_seeds, play_seeds, turn_limit, True, seating)
