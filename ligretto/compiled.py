"""Whole rounds of Ligretto compiled, for tournaments: the C engine, else the numba kernels.

Same rules, same real-time model and same random streams as the Python path
(``ligretto.engine``); a differential test plays many rounds through both and compares every
event. A table's players are rows of a policy matrix (``ligretto.policy``). Per-seat bit masks
of accessible cards and one mask of wanted cards make the blockade test O(players).

The rounds are played by the C engine (``ligretto.cengine``: built by the install, no compile
at first use, numba not imported) when it can be had, else by the numba round loop
(``ligretto.round_loop``, imported only then); both play identical rounds
(``tests/test_ligretto_c.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamekit.jit import needs_compile

from . import cengine
from .policy import N_PARAMS
from .rng import check_seed, check_seeds
from .rules import (
    ENDED_BLOCKADE,
    ENDED_UNFINISHED,
    MAX_ACTIONS,
    MAX_ROUND_MS,
    check_players,
    row_size,
)

__all__ = [
    "RoundBatch",
    "play_rounds",
    "MAX_ACTIONS",
    "MAX_ROUND_MS",
    "ENDED_BLOCKADE",
    "ENDED_UNFINISHED",
]


_C_KERNELS = {"nb_batch": cengine.batch, "nb_round": cengine.round_}
"""The C engine's stand-in for each numba kernel of ``round_loop`` played here."""


@functools.cache
def numba_cold(name: str) -> Callable[[], bool | None]:
    """The question whether numba's kernel ``name`` of ``round_loop`` compiles at its first
    call (None: cannot tell): one function a kernel, which ``Engine.note_fallback`` asks
    once."""

    def cold() -> bool | None:
        from . import round_loop  # start-up: numba, asked only where it plays

        return needs_compile(getattr(round_loop, name))

    return cold


def _kernel(name: str) -> Callable[..., Any]:
    """``round_loop``'s kernel ``name`` (``nb_batch`` or ``nb_round``) as the C engine plays
    it when it is available, else numba's, said once on stderr when it plays for want of the
    C engine and compiles first (``gamekit.cbuild.Engine.note_fallback``)."""
    if cengine.available():
        return _C_KERNELS[name]
    cengine.ENGINE.note_fallback(numba_cold(name))
    from . import round_loop  # start-up: numba, compiled at first use

    return getattr(round_loop, name)


@dataclass
class RoundBatch:
    """Outcomes of G rounds at one table (n seats)."""

    scores: np.ndarray  # int16 (G, n)
    stack_left: np.ndarray  # int8 (G, n)
    centre_cards: np.ndarray  # int8 (G, n)
    ended_by: np.ndarray  # int8 (G,): seat whose stack emptied, -1 blockade, -2 unfinished
    # (-3 forfeited: ``players.play_batch``'s Python path only)
    time_ms: np.ndarray  # int32 (G,): when the round ended
    plays: np.ndarray  # int16 (G,)
    flips: np.ndarray  # int32 (G,)
    fails: np.ndarray  # int16 (G,)


def play_rounds(params: np.ndarray, deal_seeds: np.ndarray, play_seeds: np.ndarray) -> RoundBatch:
    """Play one round per seed pair; ``params`` (n, N_PARAMS) holds one policy per seat."""
    params = np.ascontiguousarray(params, dtype=np.float64)
    if params.ndim != 2:
        raise ValueError(f"params must be a matrix, one policy a row, got shape {params.shape}")
    n = params.shape[0]
    check_players(n)
    if params.shape[1] != N_PARAMS:
        raise ValueError(f"a policy has {N_PARAMS} parameters, got {params.shape[1]}")
    deal = np.ascontiguousarray(check_seeds(deal_seeds, "deal_seeds"))
    play = np.ascontiguousarray(check_seeds(play_seeds, "play_seeds"))
    if deal.shape != play.shape:
        raise ValueError(f"deal_seeds and play_seeds differ in length: {len(deal)} != {len(play)}")
    out = np.zeros((deal.shape[0], 3 * n + 6), np.int64)
    batch = _kernel("nb_batch")
    batch(params, n, row_size(n), deal, play, out)
    return RoundBatch(
        scores=out[:, :n].astype(np.int16),
        stack_left=out[:, n : 2 * n].astype(np.int8),
        centre_cards=out[:, 2 * n : 3 * n].astype(np.int8),
        ended_by=out[:, 3 * n].astype(np.int8),
        time_ms=out[:, 3 * n + 1].astype(np.int32),
        plays=out[:, 3 * n + 2].astype(np.int16),
        flips=out[:, 3 * n + 3].astype(np.int32),
        fails=out[:, 3 * n + 4].astype(np.int16),
    )


def round_events(params: np.ndarray, deal_seed: int, play_seed: int, cap: int = 100_000):
    """(events (E, 5) int64, out row) of one compiled round: for tests and checks."""
    params = np.ascontiguousarray(params, dtype=np.float64)
    n = params.shape[0]
    ev = np.zeros((cap, 5), np.int64)
    out = np.zeros(3 * n + 6, np.int64)
    play_round = _kernel("nb_round")
    deal, play = check_seed(deal_seed, "deal_seed"), check_seed(play_seed, "play_seed")
    play_round(params, n, row_size(n), np.uint64(deal), np.uint64(play), ev, True, out)
    return ev[: min(int(out[3 * n + 5]), cap)], out
