"""The games loop's arguments as named structures, and the signature they are compiled for.

The batch loop (``loop_template.play_games``) takes four: ``Seats`` (each seating's policy
kinds and parameters), ``Games`` (the seeds and seating of each game, the turn limit, whether
to record), ``Results`` (what it writes, one entry per game) and ``Buffers`` (the scratch it
reuses game after game: it allocates nothing, which keeps its first compile short). numba
passes a NamedTuple of arrays as its arrays, at no cost, and the module built ahead of time
exports the loop over these same structures (numba.pycc unboxes any tuple), so the classes
below are the one list of fields: the exported signature (``numba_signature``) and the text
hashed into the built module's key (``signature_text``) are both read off instances built
by the allocators here, which are the very ones ``loops`` passes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from leaves.board import BOARD_ROWS, SEAT_SLOTS
from leaves.deal_kernels import Setup, setup_for
from leaves.rules import MAX_DECK, N_VALUES
from leaves.ruleset import DEFAULT_RULES

from ..policy.counting import WORK_SIZE
from ..policy.params import N_PARAMS

__all__ = ["Buffers", "Games", "Results", "Seats", "example", "numba_signature", "signature_text"]


class Seats(NamedTuple):
    """Each seat's policy kind and parameter vector: int64 (n,) and float64 (n, N_PARAMS) at
    one table, (R, n) and (R, n, N_PARAMS) for the R seatings of a batch."""

    kinds: np.ndarray
    params: np.ndarray


class Games(NamedTuple):
    """Game ``g`` is dealt from ``deal_seeds[g]`` under the rules' ``setup`` (deck, hand
    size, turn limit, play and pass rules: ``leaves.deal_kernels.Setup``) and played from
    ``play_seeds[g]`` under seating ``seating[g]``, its actions written to
    ``Results.actions`` when ``record``."""

    seating: np.ndarray  # int64 (G,)
    deal_seeds: np.ndarray  # uint64 (G,)
    play_seeds: np.ndarray  # uint64 (G,)
    record: bool
    setup: Setup


class Results(NamedTuple):
    """One entry per game, written by the loop."""

    first: np.ndarray  # int8 (G,): the first player
    left: np.ndarray  # int16 (G, n): each seat's cards left
    winner: np.ndarray  # int8 (G,): the winning seat, -1 for none
    turns: np.ndarray  # int32 (G,)
    rounds: np.ndarray  # int32 (G,)
    unfinished: np.ndarray  # bool (G,): stopped by the turn limit
    actions: np.ndarray  # int8 (G, turn_limit), row g valid to turns[g]; (1, 1) unrecorded

    @classmethod
    def empty(cls, games: int, n: int, turn_limit: int, record: bool) -> Results:
        """Arrays for ``games`` games of ``n`` seats (``actions`` one dummy row unrecorded)."""
        return cls(
            np.empty(games, np.int8),
            np.empty((games, n), np.int16),
            np.empty(games, np.int8),
            np.empty(games, np.int32),
            np.empty(games, np.int32),
            np.empty(games, np.bool_),
            np.zeros((games, turn_limit) if record else (1, 1), np.int8),
        )


class Buffers(NamedTuple):
    """The loop's scratch: the board, the public hand sizes, the policies' work array, the
    deck being dealt and the kernel RNG."""

    board: np.ndarray  # int32 (BOARD_ROWS, N_VALUES)
    sizes: np.ndarray  # int64 (SEAT_SLOTS,)
    work: np.ndarray  # int64 (WORK_SIZE,)
    deck: np.ndarray  # int64 (MAX_DECK,)
    rng: np.ndarray  # uint64 (4,)

    @classmethod
    def new(cls) -> Buffers:
        return cls(
            np.zeros((BOARD_ROWS, N_VALUES), np.int32),
            np.zeros(SEAT_SLOTS, np.int64),
            np.zeros(WORK_SIZE, np.int64),
            np.zeros(MAX_DECK, np.int64),
            np.zeros(4, np.uint64),
        )


def example(n: int = 4) -> tuple[Seats, Games, Results, Buffers]:
    """Arguments of the batch loop for one game of ``n`` seats, with the types of every call."""
    seeds = np.zeros(1, np.uint64)
    seats = Seats(np.zeros((1, n), np.int64), np.zeros((1, n, N_PARAMS), np.float64))
    games = Games(np.zeros(1, np.int64), seeds, seeds.copy(), False, setup_for(DEFAULT_RULES, n))
    return seats, games, Results.empty(1, n, 1, False), Buffers.new()


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return f"{type(value).__name__}({', '.join(_text(v) for v in value)})"
    if isinstance(value, np.ndarray):
        order = "C" if value.flags.c_contiguous else "A"
        return f"{value.dtype}[{value.ndim}d,{order}]"
    return type(value).__name__


def signature_text() -> str:
    """The loop's signature in words (numba not imported): hashed into the built module's key."""
    return f"int64({', '.join(_text(a) for a in example())})"


def numba_signature() -> Any:
    """The loop's numba signature, the one the module built ahead of time exports."""
    from numba import typeof, types

    return types.int64(*map(typeof, example()))
