"""The compiled game loops: whole batches of games between built-in policies, no Python call
per decision.

``play_to_end`` is the one loop that plays a dealt board out (the batch loop and the search's
playouts, cut after some turns or not, both use it); ``play_batch_compiled`` deals game ``g``
from ``deal_seeds[g]`` (``kernels.board_deal``, as the Python path does) and plays it with a
kernel RNG from ``play_seeds[g]``, at one table or under per-game seatings (a tournament
chunk in one call). Both loops are written once, in ``loop_template`` (this module's
``play_to_end`` and ``_batch`` are its functions, over every kind), and take their arrays
as the NamedTuples of ``layout``.

A batch runs the ahead-of-time compiled copy of the loop (``aot``) when one is built, else
numba's JIT: a copy of the loop for just the kinds a run uses (``specialize``) when one was
compiled, else ``_batch`` over every kind.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit
from leaves.deal_kernels import setup_for
from leaves.rules import MAX_COPIES, PASS_ID, TAKE_BASE
from leaves.ruleset import DEFAULT_RULES, Rules

from ..policy.params import N_PARAMS
from . import aot, engine, specialize
from .dispatch import N_KINDS
from .layout import Buffers, Games, Results, Seats
from .loop_template import play_games as _batch
from .loop_template import play_to_end

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


def _run(
    kinds, params, deal_seeds, play_seeds, turn_limit, record, seating=None, loop=None, *,
    rules: Rules = DEFAULT_RULES,
) -> Results:  # fmt: skip
    """Check the arguments, allocate the loop's results and scratch and run ``loop``
    (default: the ahead-of-time module, else a loop compiled for these kinds, else
    ``_batch``) under ``rules`` with ``turn_limit``. ``actions`` is one dummy row unless
    ``record``."""
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
    limit = int(turn_limit)
    if limit < 1:
        raise ValueError("turn_limit must be >= 1")
    n = kinds.shape[1]
    if limit != rules.turn_limit:
        rules = rules.replace(turn_limit=limit)
    games = Games(seating, d, p, bool(record), setup_for(rules, n))
    out = Results.empty(d.shape[0], n, limit, bool(record))
    if loop is None and engine.available():
        loop = engine.play_games  # the loop in C, built by the install
    if loop is None:
        loop = aot.loop()  # the same loop compiled ahead of time, when built
    if loop is None:  # else one compiled for the run's kinds, when there is one
        loop = specialize.covering(kinds.ravel().tolist()) or _batch
    loop(Seats(kinds, params), games, out, Buffers.new())
    return out


def play_batch_compiled(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
    seating: np.ndarray | None = None,
    rules: Rules = DEFAULT_RULES,
) -> tuple[np.ndarray, ...]:
    """Play one game per seed pair, seat ``i`` run by policy ``kinds[i]`` with ``params[i]``.

    With ``seating`` (one index per game), ``kinds`` (R, n) and ``params`` (R, n, N_PARAMS)
    hold R seatings and game ``g`` is played under seating ``seating[g]``: many seatings in
    one call. Games are dealt and played under ``rules`` (today's by default) with
    ``turn_limit``. Returns (first_player int8 (G,), cards_left int16 (G, n), winner_seat int8
    (G,), turns int32 (G,), rounds int32 (G,), unfinished bool (G,)).
    """
    return _run(kinds, params, deal_seeds, play_seeds, turn_limit, False, seating, rules=rules)[:6]


def play_batch_compiled_records(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
    seating: np.ndarray | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Results:
    """``play_batch_compiled`` plus the action ids: a ``layout.Results``, whose ``actions`` is
    int8 (G, turn_limit), row g valid to turns[g]."""
    return _run(kinds, params, deal_seeds, play_seeds, turn_limit, True, seating, rules=rules)
