"""Who plays whom, on which deal, in which seat: the round-robin as pure index arithmetic.

A *table* is a tuple of entrant indices (one per seat, at the base rotation). Every table
plays the same number of *deals*; each deal is replayed under every rotation of the seats
("duplicate" play), so seat and deal luck cancel. Game ``g`` of the tournament is

    g = table_offset[t] + deal * k_t + rotation

so one duplicate set is ``k_t`` consecutive games. A *chunk* is a run of deals of one table
(all their rotations): the unit of work, of storage and of resume. Nothing here knows the game
being played; nothing is materialized per game.
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
    n_entrants: int, sizes: Sequence[int], repeats: bool = False
) -> list[tuple[int, ...]]:
    """Every combination of ``k`` entrants for each table size ``k``.

    Combinations are without repeats unless ``repeats`` is asked for or there are fewer
    entrants than seats (then combinations with replacement, so every entrant still plays).
    """
    tables: list[tuple[int, ...]] = []
    for k in sizes:
        if repeats or n_entrants < k:
            tables.extend(itertools.combinations_with_replacement(range(n_entrants), k))
        else:
            tables.extend(itertools.combinations(range(n_entrants), k))
    return tables


def seat_entrants(table: Sequence[int], rotation: int) -> tuple[int, ...]:
    """Entrant in each seat under ``rotation``: seat ``s`` holds ``table[(s + rotation) % k]``."""
    k = len(table)
    return tuple(table[(s + rotation) % k] for s in range(k))


@dataclass(frozen=True)
class Chunk:
    """Deals ``deal_start .. deal_stop - 1`` of table ``table`` under every rotation."""

    id: int
    table: int
    n_players: int
    deal_start: int
    deal_stop: int
    game_start: int  # tournament index of the chunk's first game

    @property
    def n_deals(self) -> int:
        return self.deal_stop - self.deal_start

    @property
    def n_games(self) -> int:
        return self.n_deals * self.n_players

    def game_indices(self) -> np.ndarray:
        """Tournament game index of every game in the chunk, in order (deal-major)."""
        return np.arange(self.game_start, self.game_start + self.n_games, dtype=np.int64)

    def deal_indices(self) -> np.ndarray:
        """Deal index of every game in the chunk (each repeated over the rotations)."""
        return np.repeat(np.arange(self.deal_start, self.deal_stop, dtype=np.int64), self.n_players)

    def rotations(self) -> np.ndarray:
        """Rotation of every game in the chunk."""
        return np.tile(np.arange(self.n_players, dtype=np.int8), self.n_deals)


class Schedule:
    """Tables, deals per table and chunks of a tournament asking for ``games`` games in all."""

    def __init__(
        self,
        tables: Sequence[tuple[int, ...]],
        games: int,
        chunk_games: int | None = None,
    ):
        if not tables:
            raise ValueError("a tournament needs at least one table")
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        self.tables = [tuple(t) for t in tables]
        self.seats_per_set = sum(len(t) for t in self.tables)
        self.deals = math.ceil(games / self.seats_per_set)
        """Deals per table: the asked games rounded up to whole duplicate sets on every table."""
        self.n_games = self.deals * self.seats_per_set
        if chunk_games is None:
            chunk_games = min(MAX_CHUNK_GAMES, max(2_000, math.ceil(self.n_games / 64)))
        if chunk_games < 1:
            raise ValueError(f"chunk size must be at least 1 game, got {chunk_games}")
        self.chunk_games = int(chunk_games)
        self.offsets = np.concatenate(
            [[0], np.cumsum([self.deals * len(t) for t in self.tables])]
        ).astype(np.int64)
        self._chunk_starts: list[tuple[int, int, int]] = []  # (table, deal_start, deal_stop)
        for t, table in enumerate(self.tables):
            per = max(1, self.chunk_games // len(table))
            for d0 in range(0, self.deals, per):
                self._chunk_starts.append((t, d0, min(self.deals, d0 + per)))

    @property
    def n_chunks(self) -> int:
        return len(self._chunk_starts)

    def chunk(self, chunk_id: int) -> Chunk:
        t, d0, d1 = self._chunk_starts[chunk_id]
        k = len(self.tables[t])
        return Chunk(chunk_id, t, k, d0, d1, int(self.offsets[t]) + d0 * k)

    def chunks(self) -> list[Chunk]:
        return [self.chunk(i) for i in range(self.n_chunks)]
