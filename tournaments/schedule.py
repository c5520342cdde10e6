"""Who plays whom, on which deal, in which seat: the round-robin as pure index arithmetic.

A *table* is a tuple of entrant indices (a multiset: who plays). Every table plays the same
number of *deals*; each deal is replayed under every seating of the table's design
(``tournaments.seating``; "duplicate" play), so seat, neighbour and deal luck cancel. With
``n_t`` seatings at table ``t``, game ``g`` of the tournament is

    g = table_offset[t] + deal * n_t + seating

so one duplicate set is ``n_t`` consecutive games (the per-game rows call the seating index
``rotation``). A *chunk* is a run of deals of one table (all their seatings): the unit of work,
of storage and of resume. Nothing here knows the game being played; nothing is materialized
per game.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Chunk", "Schedule", "make_tables", "seat_entrants"]

MAX_CHUNK_GAMES = 50_000
"""Default chunk size ceiling: a few hundred milliseconds of compiled play, a few MB of rows."""


def make_tables(
    n_entrants: int, sizes: Sequence[int], repeats: bool = False, focus: int | None = None
) -> list[tuple[int, ...]]:
    """Every combination of ``k`` entrants for each table size ``k``.

    Combinations are without repeats unless ``repeats`` is asked for or there are fewer
    entrants than seats (then combinations with replacement, so every entrant still plays).
    With ``focus`` (an entrant index) every table seats that entrant once and the other seats
    are the combinations of the remaining entrants: one entrant measured against a field, with
    no games among the field alone.
    """
    if focus is not None:
        if not 0 <= focus < n_entrants:
            raise ValueError(f"focus entrant {focus} is not one of the {n_entrants} entrants")
        if n_entrants < 2:
            raise ValueError("a focused tournament needs at least one other entrant")
        others = [i for i in range(n_entrants) if i != focus]
        tables: list[tuple[int, ...]] = []
        for k in sizes:
            if repeats or len(others) < k - 1:
                combos = itertools.combinations_with_replacement(others, k - 1)
            else:
                combos = itertools.combinations(others, k - 1)
            tables.extend(tuple(sorted((focus, *c))) for c in combos)
        return tables
    tables = []
    for k in sizes:
        if repeats or n_entrants < k:
            tables.extend(itertools.combinations_with_replacement(range(n_entrants), k))
        else:
            tables.extend(itertools.combinations(range(n_entrants), k))
    return tables


def seat_entrants(table: Sequence[int], rotation: int) -> tuple[int, ...]:
    """Entrant in each seat under a plain rotation: seat ``s`` holds ``table[(s + r) % k]``."""
    k = len(table)
    return tuple(table[(s + rotation) % k] for s in range(k))


@dataclass(frozen=True)
class Chunk:
    """Deals ``deal_start .. deal_stop - 1`` of table ``table`` under every seating."""

    id: int
    table: int
    n_players: int
    deal_start: int
    deal_stop: int
    game_start: int  # tournament index of the chunk's first game
    set_size: int = 0  # seatings per deal (0: one per seat, plain rotations)

    @property
    def n_seatings(self) -> int:
        return self.set_size or self.n_players

    @property
    def n_deals(self) -> int:
        return self.deal_stop - self.deal_start

    @property
    def n_games(self) -> int:
        return self.n_deals * self.n_seatings

    def game_indices(self) -> np.ndarray:
        """Tournament game index of every game in the chunk, in order (deal-major)."""
        return np.arange(self.game_start, self.game_start + self.n_games, dtype=np.int64)

    def deal_indices(self) -> np.ndarray:
        """Deal index of every game in the chunk (each repeated over the seatings)."""
        return np.repeat(
            np.arange(self.deal_start, self.deal_stop, dtype=np.int64), self.n_seatings
        )

    def rotations(self) -> np.ndarray:
        """Seating index (within the deal's duplicate set) of every game in the chunk."""
        return np.tile(np.arange(self.n_seatings, dtype=np.int16), self.n_deals)


class Schedule:
    """Tables, deals per table and chunks of a tournament asking for ``games`` games in all.

    ``set_sizes[t]`` is the number of seatings each deal of table ``t`` is played under (by
    default its number of seats: plain rotations).
    """

    def __init__(
        self,
        tables: Sequence[tuple[int, ...]],
        games: int,
        chunk_games: int | None = None,
        set_sizes: Sequence[int] | None = None,
    ):
        if not tables:
            raise ValueError("a tournament needs at least one table")
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        self.tables = [tuple(t) for t in tables]
        if set_sizes is None:
            set_sizes = [len(t) for t in self.tables]
        if len(set_sizes) != len(self.tables) or min(set_sizes) < 1:
            raise ValueError("every table needs at least one seating")
        self.set_sizes = [int(n) for n in set_sizes]
        self.seats_per_set = sum(self.set_sizes)
        self.deals = math.ceil(games / self.seats_per_set)
        """Deals per table: the asked games rounded up to whole duplicate sets on every table."""
        self.n_games = self.deals * self.seats_per_set
        if chunk_games is None:
            chunk_games = min(MAX_CHUNK_GAMES, max(2_000, math.ceil(self.n_games / 64)))
        if chunk_games < 1:
            raise ValueError(f"chunk size must be at least 1 game, got {chunk_games}")
        self.chunk_games = int(chunk_games)
        self.offsets = np.concatenate(
            [[0], np.cumsum([self.deals * n for n in self.set_sizes])]
        ).astype(np.int64)
        self._chunk_starts: list[tuple[int, int, int]] = []  # (table, deal_start, deal_stop)
        for t in range(len(self.tables)):
            per = max(1, self.chunk_games // self.set_sizes[t])
            for d0 in range(0, self.deals, per):
                self._chunk_starts.append((t, d0, min(self.deals, d0 + per)))

    @property
    def n_chunks(self) -> int:
        return len(self._chunk_starts)

    def chunk(self, chunk_id: int) -> Chunk:
        t, d0, d1 = self._chunk_starts[chunk_id]
        k, n = len(self.tables[t]), self.set_sizes[t]
        return Chunk(chunk_id, t, k, d0, d1, int(self.offsets[t]) + d0 * n, n)

    def chunks(self) -> list[Chunk]:
        return [self.chunk(i) for i in range(self.n_chunks)]
