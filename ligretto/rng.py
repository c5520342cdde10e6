"""The round's random streams, identical in Python, in the numba kernels and in the C engine.

A round draws everything (deals, reaction times, tie-breaks, reshuffles, policy choices) from
streams derived from its two seeds, one stream per seat and purpose, so a seat's draws never
depend on what other seats did, and the Python path and the compiled path draw the very same
numbers. A stream is Vigna's splitmix64 as ``gamekit.seeding`` defines it for the whole project
(one source of the arithmetic): the stream of (seat, purpose) under ``seed`` starts at
``splitmix64_at(seed, seat + 16 * purpose)``, and each draw adds ``GAMMA`` to the state and
mixes it (``mix64``). Only integer arithmetic is used, so both paths agree bit for bit.

The Python path's draws (``SplitMix``, ``stream_seed``) run that arithmetic in numpy
(``gamekit.seeding.splitmix64``): nothing compiles at first use. The numba twins are lazy
kernels (``gamekit.jit``): importing this module loads no numba.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit
from gamekit.seed_check import check_seed
from gamekit.seeding import GAMMA, mix64, splitmix64, splitmix64_at

from .rules import whole_number

MASK64 = (1 << 64) - 1
_GAMMA = int(GAMMA)
PURPOSES = 16
"""Streams per seat that the numbering leaves room for (seat + PURPOSES * purpose)."""

# stream purposes
DEAL, TIME, RECYCLE, POLICY = 0, 1, 2, 3


def check_seeds(seeds: object, name: str) -> np.ndarray:
    """A 1-d array of seeds as uint64 (each checked as ``check_seed`` does: an array of
    integers in one operation, a list item by item)."""
    if not isinstance(seeds, np.ndarray):
        try:
            values = [check_seed(v, name) for v in seeds]  # type: ignore[attr-defined]
        except TypeError:
            if isinstance(seeds, list | tuple):
                raise
            raise TypeError(f"{name} must be a 1-d array of seeds, got {seeds!r}") from None
        return np.array(values, dtype=np.uint64)
    if seeds.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of seeds, got shape {seeds.shape}")
    if seeds.dtype == np.uint64:  # the tournament's own seeds: nothing to check
        return seeds
    if seeds.dtype == np.bool_ or not np.issubdtype(seeds.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got dtype {seeds.dtype}")
    if seeds.size and seeds.min() < 0:
        raise ValueError(f"{name} must be 0 to 2**64 - 1, got {seeds.min()}")
    return seeds.astype(np.uint64)


def stream_seed(seed: int, seat: int, purpose: int) -> int:
    """The start state of seat ``seat``'s stream for ``purpose`` under ``seed``."""
    return int(splitmix64(np.uint64(int(seed) & MASK64), seat + PURPOSES * purpose))


class SplitMix:
    """One stream: ``next()`` gives 64 random bits, ``below(n)`` an int in 0..n-1."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = int(state) & MASK64

    def next(self) -> int:
        # mix64 of the new state: splitmix64's output one GAMMA on from the state before
        before = self.state
        self.state = (before + _GAMMA) & MASK64
        return int(splitmix64(np.uint64(before)))

    def below(self, n: int) -> int:
        """An int in 0..n-1: ``n`` must be a whole number of at least 1 (a strategy's own
        call of 0 or -3 is said as such, never Python's modulo by zero nor a negative draw)."""
        if type(n) is not int:
            n = whole_number(n, "n")
        if n < 1:
            raise ValueError(f"below(n) draws 0 to n - 1: n must be at least 1, got {n}")
        return self.next() % n


def shuffled(cards: list[int], rng: SplitMix) -> list[int]:
    """Fisher-Yates with ``rng`` (the same steps as ``nb_shuffle``)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------- numba twins
@njit(cache=True)
def nb_stream_seed(seed, seat, purpose):
    return splitmix64_at(np.uint64(seed), seat + PURPOSES * purpose)


@njit(cache=True, inline="always")
def nb_next(states, i):
    """Advance stream ``states[i]`` and return 64 random bits."""
    states[i] = states[i] + GAMMA
    return mix64(states[i])


@njit(cache=True, inline="always")
def nb_below(states, i, n):
    return np.int64(nb_next(states, i) % np.uint64(n))


@njit(cache=True)
def nb_shuffle(cards, length, states, i):
    """Fisher-Yates of ``cards[:length]`` in place with stream ``states[i]``."""
    for k in range(length - 1, 0, -1):
        j = nb_below(states, i, k + 1)
        tmp = cards[k]
        cards[k] = cards[j]
        cards[j] = tmp
