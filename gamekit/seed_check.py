"""What a seed of the project's kernels is, checked in one place: a whole number 0 to
2**64 - 1 (Python's or numpy's integer, never a bool or a float). The kernels keep a seed's
low 64 bits, so a seed outside that range (-1, 2**64) would be silently another seed, and
``int()`` would truncate 1.5 to seed 1: every game's public API refuses both in one line.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from .errors import shown

__all__ = ["MAX_SEED", "check_seed"]

MAX_SEED = (1 << 64) - 1
"""The largest seed: the kernels' seeds are uint64."""


def check_seed(value: Any, name: str) -> int:
    """``value`` as an int when it is a seed; else a TypeError (not a whole number) or a
    ValueError (outside 0 to 2**64 - 1) naming ``name``."""
    if type(value) is int and 0 <= value <= MAX_SEED:  # the common case, cheaply
        return value
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a whole number 0 to 2**64 - 1, got {shown(value)}")
    number = int(value)
    if not 0 <= number <= MAX_SEED:
        raise ValueError(f"{name} must be 0 to 2**64 - 1, got {_number_text(number)}")
    return number


def _number_text(number: int) -> str:
    """``number`` as digits, or its size where it has too many to show (Python refuses to
    write more than 4,300 digits)."""
    if number.bit_length() <= 256:
        return str(number)
    digits = int(number.bit_length() * 0.30103) + 1
    return f"a {'negative ' if number < 0 else ''}number of about {digits:,} digits"
