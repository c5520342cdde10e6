"""The games loops: whole batches of games between built-in policies, no Python call per
decision.

``play_to_end`` plays a dealt board out (the batch loop and the search's playouts, cut after
some turns or not, both use it); ``play_batch_compiled`` deals game ``g`` from
``deal_seeds[g]`` and plays it with a kernel RNG from ``play_seeds[g]``, under per-game
seatings (a tournament chunk in one call). A batch runs in the C engine (``engine``, built by
the install); these numba loops are its reference and its fallback where no C compiler was
found (or with ``LEAVES_ENGINE=numba``). Both take their arrays as ``layout``'s NamedTuples.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamekit.jit import needs_compile, njit
from leaves import kernels as K
from leaves.board import HANDS, M_CUR, M_FIRST, M_LIMIT, M_N, M_ROUND, M_TURN, M_WINNER, META
from leaves.deal_kernels import setup_for
from leaves.rules import MAX_COPIES, N_VALUES, PASS_ID, TAKE_BASE
from leaves.ruleset import DEFAULT_RULES, Rules
from strategies.policy.params import N_PARAMS

from ..policy.counting import count_action, count_start, count_stop
from . import engine
from .dispatch import COUNTS, N_KINDS, decide
from .layout import Buffers, Games, Results, Seats

__all__ = [
    "Seats",
    "play_batch_compiled",
    "play_batch_compiled_records",
    "play_to_end",
    "track_size",
]


@njit(cache=True, inline="always")
def track_size(sizes, p, aid):
    """Update the public hand size of seat ``p`` for its action ``aid``."""
    if aid >= TAKE_BASE:
        sizes[p] += 1 if aid != PASS_ID else 0
    else:
        sizes[p] -= aid % MAX_COPIES + 1


@njit(cache=True)
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
        K.apply_tracked(board, aid, sizes, True)
        if record:
            rec[t] = aid
        t += 1
    count_stop(work)
    return t


@njit(cache=True, nogil=True)
def _batch(seats, games, out, buf):
    """Play every game of ``games`` (``layout.Games``) into ``out`` (``layout.Results``),
    game ``g`` seated by ``seats.kinds[games.seating[g]]`` with ``seats.params[...]``.
    ``buf`` (``layout.Buffers``) is the scratch. Returns the number of games."""
    n = seats.kinds.shape[1]
    board, sizes, work, deck, rng = buf
    for g in range(games.deal_seeds.shape[0]):
        r = games.seating[g]
        K.rng_seed(rng, games.deal_seeds[g])
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


def _check_table(
    kinds: np.ndarray, params: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray]:
    """Kinds (R, n) and params (R, n, N_PARAMS) of R seatings, checked (1-D/2-D: one)."""
    kinds = np.ascontiguousarray(kinds, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    if kinds.ndim == 1:
        kinds, params = kinds[None, :], params[None]
    if kinds.ndim != 2 or kinds.shape[0] < 1:
        raise ValueError("kinds must hold one policy kind per seat (per seating)")
    n = kinds.shape[1]
    rules.hand_size_for(n)  # raises for a player count the rules do not allow
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


def loop_cold() -> bool | None:
    """Whether numba's games loop compiles at its first call in this process (``None``: cannot
    tell): False once its cache holds it for these sources and this machine."""
    return needs_compile(_batch)


def _numba_loop() -> Any:
    """numba's games loop, said once on stderr when it plays for want of the C engine and
    compiles first (``gamekit.cbuild.Engine.note_fallback``)."""
    engine.ENGINE.note_fallback(loop_cold)
    return _batch


def _run(
    kinds, params, deal_seeds, play_seeds, rules, record, seating=None, loop=None
) -> Results:  # fmt: skip
    """Check the arguments, allocate the loop's results and scratch and run ``loop``
    (default: the C engine's when it plays every kind, else numba's ``_batch``) under
    ``rules`` (any form ``Rules.of`` reads; their ``turn_limit`` included). ``actions`` is one
    dummy row unless ``record``."""
    rules = Rules.of(rules)
    kinds, params = _check_table(kinds, params, rules)
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
    n = kinds.shape[1]
    games = Games(seating, d, p, bool(record), setup_for(rules, n))
    out = Results.empty(d.shape[0], n, rules.turn_limit, bool(record))
    if loop is None:
        loop = engine.play_games if engine.covers(kinds) else _numba_loop()
    loop(Seats(kinds, params), games, out, Buffers.new())
    return out


def play_batch_compiled(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    rules: Any = DEFAULT_RULES,
    seating: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Play one game per seed pair, seat ``i`` run by policy ``kinds[i]`` with ``params[i]``.

    With ``seating`` (one index per game), ``kinds`` (R, n) and ``params`` (R, n, N_PARAMS)
    hold R seatings and game ``g`` is played under seating ``seating[g]``: many seatings in
    one call. Games are dealt and played under ``rules`` (any form ``Rules.of`` reads;
    today's by default). Returns (first_player int8 (G,), cards_left int16 (G, n),
    winner_seat int8 (G,), turns int32 (G,), rounds int32 (G,), unfinished bool (G,)).
    """
    return _run(kinds, params, deal_seeds, play_seeds, rules, False, seating)[:6]


def play_batch_compiled_records(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    rules: Any = DEFAULT_RULES,
    seating: np.ndarray | None = None,
) -> Results:
    """``play_batch_compiled`` plus the action ids: a ``layout.Results``, whose ``actions`` is
    int8 (G, the rules' turn limit), row g valid to turns[g]."""
    return _run(kinds, params, deal_seeds, play_seeds, rules, True, seating)
