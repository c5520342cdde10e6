"""Who plays whom, on which deal, in which seat: the round-robin as pure index arithmetic.

A *table* is a tuple of entrant indices (a multiset: who plays). Every table plays the same
number of *deals*; each deal is replayed under every seating of the table's design
(``tournaments.seating``; "duplicate" play), so seat, neighbour and deal luck cancel. Each
table is dealt its own cards: deal ``d`` of table ``t`` comes from the table's *deal stream*
(``streams[t]``, by default ``t``; a gauntlet gives the baseline's copy of a table the
strategy's stream, so both sides see the same cards). Deals shared by every table of a size
would make the tables' results correlated and a run of 200,000 games worth a few tens of
thousands; one duplicate set per (table, deal) is the independent unit the reports count.

With ``n_t`` seatings at table ``t`` and ``S = sum(n_t)`` games per deal over all tables,
game ``g`` of the tournament is numbered deal-major:

    g = deal * S + set_offset[t] + seating

so a game's number (and every seed derived from it) does not depend on how many deals the
run has: a run grown by more deals keeps every game it played (``stages``). One duplicate set
is ``n_t`` consecutive numbers (the per-game rows call the seating index ``rotation``). A
*chunk* is a run of deals of one table (all their seatings) within one stage: the unit of
work, of storage and of resume. Nothing here knows the game being played; nothing is
materialized per game.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from gamekit.errors import ParameterError, shown
from gamekit.whole import other_spelling, read_whole

from .checks import integer

__all__ = ["Chunk", "Schedule", "make_tables", "parse_players", "seat_entrants"]

MAX_CHUNK_GAMES = 50_000
"""Default chunk size ceiling: a few hundred milliseconds of compiled play, a few MB of rows."""

MAX_RUN_GAMES = 2**32 - 1
"""Games one run may hold: the per-game rows number games in 32 bits."""


PLAYERS_TAKE = "a table size, a list of them or a string such as '3,4,5'"
"""What ``players`` takes, as its type errors say."""


def parse_players(players: int | str | Sequence[int]) -> tuple[int, ...]:
    """Table sizes from 4, "3,4,5" or [3, 4]: sorted, without duplicates."""
    if isinstance(players, str):
        sizes = _sizes(players)
    elif isinstance(players, Iterable) and not isinstance(players, bytes):
        sizes = list(players)
        for p in sizes:
            if isinstance(p, bool) or not isinstance(p, int | np.integer):
                raise TypeError(f"players takes {PLAYERS_TAKE}, got {shown(players, typed=False)}")
        sizes = [int(p) for p in sizes]
    else:
        sizes = [integer(players, "players", PLAYERS_TAKE)]
    if not sizes:
        raise ParameterError("{players} needs at least one table size", "players")
    return tuple(sorted(set(sizes)))


def _sizes(players: str) -> list[int]:
    """Table sizes as typed ("3,4,5"): each a whole number of the digits 0-9 (``read_whole``:
    of any length, refused later as too large, not as text), spaces around it let through.
    Refused: an empty item ("3,,4", "3,": a slip, as ``--against`` refuses one), a number in
    another spelling ('٤' and '4_0' are no 4 and 40 here; ``other_spelling`` says why), and
    spaces within one ("3 4" is not 34). Nothing typed is no size (said by the caller)."""
    if not players.strip():
        return []
    items = [p.strip() for p in players.split(",")]
    got = shown(players, typed=False)
    if not all(items):
        raise ParameterError(f"{{players}} {got} has an empty item (two commas in a row, or one "
                             "at an end): give a table size between every two commas",
                             "players")  # fmt: skip
    sizes = [read_whole(p) for p in items]
    for item, size in zip(items, sizes, strict=True):
        if size is None:
            why = other_spelling(item)
            raise ParameterError(f"{{players}} takes numbers like 4 or 3,4,5, got {got}"
                                 f"{', ' + why if why else ''}", "players")  # fmt: skip
    return [size for size in sizes if size is not None]


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
    set_offset: int  # number of the table's first game of deal 0 (deal-major numbering)
    set_size: int = 0  # seatings per deal (0: one per seat, plain rotations)
    period: int = 0  # games per deal over all tables (0: this table alone)
    stream: int = -1  # the table's deal stream (-1: the table's index)

    @property
    def deal_stream(self) -> int:
        return self.table if self.stream < 0 else self.stream

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
        """Tournament game index of every game in the chunk, in order (deal, then seating)."""
        deals = np.arange(self.deal_start, self.deal_stop, dtype=np.int64)
        period = self.period or self.n_seatings
        start = deals[:, None] * period + self.set_offset
        return (start + np.arange(self.n_seatings, dtype=np.int64)[None, :]).ravel()

    def deal_indices(self) -> np.ndarray:
        """Deal index of every game in the chunk (each repeated over the seatings)."""
        return np.repeat(
            np.arange(self.deal_start, self.deal_stop, dtype=np.int64), self.n_seatings
        )

    def rotations(self) -> np.ndarray:
        """Seating index (within the deal's duplicate set) of every game in the chunk."""
        return np.tile(np.arange(self.n_seatings, dtype=np.int16), self.n_deals)


def deals_for(games: int, seats_per_set: int) -> int:
    """Deals per table for ``games`` games: rounded up to whole duplicate sets on every table
    (in whole numbers: a float cannot hold a count of thousands of digits, refused later)."""
    return max(1, -(-games // seats_per_set))


def check_size(
    n_games: int, games: int | None = None, name: str = "games", *, units: str = "games"
) -> None:
    """Refuse a run of more than ``MAX_RUN_GAMES`` games, in one line, before anything of it is
    built (every entry point builds a ``Schedule``: a tournament, a gauntlet, a grown run).
    Where the ``games`` asked in all make it so (not a growth by stages), the refusal is a
    ``ParameterError`` of the argument ``name`` that asked them (``games``; ``add``, games
    more), named as the caller gave it (``--games``, a config file's key), with the games
    the run would hold (rounded up to whole duplicate sets), counted in the game's ``units``
    where the caller knows them ("rounds": a game played in rounds asks for rounds)."""
    if n_games <= MAX_RUN_GAMES:
        return
    if games is None:
        raise ValueError(f"at most 2**32 - 1 {units} per tournament")
    many = shown(n_games, typed=False)  # a number past the line's width: by its digits
    digits = many.split(" of ")[-1]  # "about 4,001 digits"
    count = f"{n_games:,} {units}" if many.isdigit() else f"a number of {units} {digits} long"
    rounded = "" if n_games == games else " (rounded up to whole duplicate sets)"
    asks = "grows the run to" if name == "add" else "asks for"  # add: games more than it has
    raise ParameterError(f"{{{name}}} {asks} {count} in all{rounded}, past 2**32 - 1 (a run's "
                         f"most {units})", name)  # fmt: skip


class Schedule:
    """Tables, deals per table and chunks of a tournament asking for ``games`` games in all.

    ``set_sizes[t]`` is the number of seatings each deal of table ``t`` is played under (by
    default its number of seats: plain rotations); ``streams[t]`` the deal stream table ``t``
    is dealt from (by default its own, ``t``). ``stages`` (increasing deals per table) grows a
    run in steps: stage ``s`` plays deals ``stages[s - 1] .. stages[s] - 1`` of every table,
    and its chunks follow the earlier stages' (a run grown stage by stage plays exactly the
    games of one asked for at once). Without ``stages``, one stage of ``games`` rounded up
    to whole duplicate sets. The chunk size comes from the first stage, so growing never
    moves a chunk already played. ``units``: what the game counts ("rounds"), which a run too
    big for one is refused in (``check_size``: GBs of chunks for a huge run otherwise).
    """

    def __init__(
        self,
        tables: Sequence[tuple[int, ...]],
        games: int,
        chunk_games: int | None = None,
        set_sizes: Sequence[int] | None = None,
        streams: Sequence[int] | None = None,
        stages: Sequence[int] | None = None,
        *,
        units: str = "games",
    ):
        if not tables:
            raise ValueError("a tournament needs at least one table")
        if games < 1:
            raise ParameterError(
                f"{{games}} must be at least 1, got {shown(games, typed=False)}", "games"
            )
        self.tables = [tuple(t) for t in tables]
        if set_sizes is None:
            set_sizes = [len(t) for t in self.tables]
        if len(set_sizes) != len(self.tables) or min(set_sizes) < 1:
            raise ValueError("every table needs at least one seating")
        self.set_sizes = [int(n) for n in set_sizes]
        self.streams = (
            list(range(len(self.tables))) if streams is None else [int(x) for x in streams]
        )
        if len(self.streams) != len(self.tables):
            raise ValueError("every table needs a deal stream")
        self.seats_per_set = sum(self.set_sizes)
        first = deals_for(games, self.seats_per_set)
        self.stages = [first] if not stages else [int(x) for x in stages]
        if self.stages[0] != first or any(b <= a for a, b in itertools.pairwise(self.stages)):
            raise ValueError("stages must start at the asked deals and increase")
        self.deals = self.stages[-1]
        """Deals per table (the last stage's)."""
        self.n_games = self.deals * self.seats_per_set
        grown = len(self.stages) > 1  # past the games asked: not theirs to name
        check_size(self.n_games, None if grown else games, units=units)  # before the chunks
        if chunk_games is None:
            chunk_games = min(
                MAX_CHUNK_GAMES, max(2_000, math.ceil(first * self.seats_per_set / 64))
            )
        if chunk_games < 1:
            raise ParameterError(  # the caller's chunk_size (a manifest's is checked on reading)
                f"{{chunk_size}} must be at least 1 game, got {shown(chunk_games, typed=False)}",
                "chunk_size",
            )
        self.chunk_games = int(chunk_games)
        self.set_offsets = np.concatenate([[0], np.cumsum(self.set_sizes)]).astype(np.int64)
        self._chunk_starts: list[tuple[int, int, int]] = []  # (table, deal_start, deal_stop)
        self._stage_starts = [0]
        for lo, hi in itertools.pairwise([0, *self.stages]):
            for t in range(len(self.tables)):
                per = max(1, self.chunk_games // self.set_sizes[t])
                for d0 in range(lo, hi, per):
                    self._chunk_starts.append((t, d0, min(hi, d0 + per)))
            self._stage_starts.append(len(self._chunk_starts))

    @property
    def n_chunks(self) -> int:
        return len(self._chunk_starts)

    def stage_chunks(self, stage: int) -> range:
        """The chunk ids of stage ``stage``."""
        return range(self._stage_starts[stage], self._stage_starts[stage + 1])

    def chunk(self, chunk_id: int) -> Chunk:
        t, d0, d1 = self._chunk_starts[chunk_id]
        k, n = len(self.tables[t]), self.set_sizes[t]
        return Chunk(
            chunk_id, t, k, d0, d1, int(self.set_offsets[t]), n, self.seats_per_set,
            self.streams[t],
        )  # fmt: skip

    def chunks(self) -> list[Chunk]:
        return [self.chunk(i) for i in range(self.n_chunks)]
