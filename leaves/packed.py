"""13 card counts packed into one int, four bits a value (value 1 in the lowest nibble).

Every count in the game is at most 8 (the copies of a 7), so a nibble holds it and a whole
hand, table or pile is one small Python int: copying a state copies a few ints, and adding or
removing cards is one shift and one add. This is what makes the pure-Python ``State`` fast.
"""

from __future__ import annotations

import struct
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


# All seats' hands (and publicly known cards) live in one int, LANE bits a seat: seat p's
# packed hand is ``(hands >> LANE * p) & MASK``; with 64-bit lanes ``struct`` splits them all at
# once. Moving a card is one shift and one add, where a tuple of per-seat ints would be rebuilt
# on every move.
_BYTES_0F = sum(15 << (8 * i) for i in range(7))  # the even nibbles, one per byte


def lane_total(h: int) -> int:
    """Sum of one packed vector's counts: byte lanes summed by the mod-255 trick (sum < 255)."""
    return ((h & _BYTES_0F) + ((h >> 4) & _BYTES_0F)) % 255


_STRUCTS: dict[int, struct.Struct] = {}


def lanes(x: int, n: int) -> tuple[int, ...]:
    """The n per-seat values of an int with a 64-bit lane per seat."""
    st = _STRUCTS.get(n)
    if st is None:
        st = _STRUCTS[n] = struct.Struct(f"<{n}Q")
    return st.unpack(x.to_bytes(8 * n, "little"))


def join_lanes(parts: Iterable[int]) -> int:
    """One int holding ``parts`` (packed vectors, seat 0 first), a 64-bit lane each."""
    x = 0
    for i, h in enumerate(parts):
        x |= h << (LANE * i)
    return x
