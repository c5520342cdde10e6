"""13 card counts packed into one int, four bits a value (value 1 in the lowest nibble).

Every count in the game is at most 8 (the copies of a 7), so a nibble holds it and a whole
hand, table or pile is one small Python int: copying a state copies a few ints, and adding or
removing cards is one shift and one add. This is what makes the pure-Python ``State`` fast.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .rules import N_VALUES

SHIFTS: tuple[int, ...] = tuple(4 * i for i in range(N_VALUES))
ONES: tuple[int, ...] = tuple(1 << s for s in SHIFTS)
MASK = (1 << (4 * N_VALUES)) - 1
LANE = 64  # bits per seat where several packed vectors share one int (State's hands)


def pack(counts: Iterable[int]) -> int:
    """Pack 13 counts (each 0..15) into one int."""
    x = 0
    for i, c in enumerate(counts):
        x |= int(c) << (4 * i)
    return x


@lru_cache(maxsize=1 << 16)
def unpack(x: int) -> tuple[int, ...]:
    """The 13 counts of a packed int, value 1 first."""
    return tuple((x >> s) & 15 for s in SHIFTS)


def total(x: int) -> int:
    """Sum of the 13 counts."""
    return sum(unpack(x))


def count(x: int, index: int) -> int:
    """Count at value index ``index`` (value - 1)."""
    return (x >> (4 * index)) & 15
