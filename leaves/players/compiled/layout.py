"""The games loop's arguments as named structures.

The batch loop (``loops._batch``, and the C engine's over the same arrays) takes four: ``Seats`` (each seating's policy
kinds and parameters), ``Games`` (the seeds and seating of each game, the turn limit, whether
to record), ``Results`` (what it writes, one entry per game) and ``Buffers`` (the scratch it
reuses game after game: it allocates nothing, which keeps its first compile short). numba
passes a NamedTuple of arrays as its arrays, at no cost, and ``engine.play_games`` hands
the same arrays to C, so the classes below are the one list of fields.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from leaves.board import BOARD_ROWS, SEAT_SLOTS
from leaves.deal_kernels import Setup
from leaves.rules import MAX_DECK, N_VALUES

from ..policy.counting import WORK_SIZE

__all__ = ["Buffers", "Games", "Results", "Seats"]


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
