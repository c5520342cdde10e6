"""The round's random streams: splitmix64, identical in Python and in the numba kernels.

A round draws everything (deals, reaction times, tie-breaks, reshuffles, policy choices) from
streams derived from its two seeds, one stream per seat and purpose, so a seat's draws never
depend on what other seats did, and the Python path and the compiled path draw the very same
numbers. Only integer arithmetic is used, so both paths agree bit for bit.
"""

from __future__ import annotations

import numba as nb
import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

# stream purposes
DEAL, TIME, RECYCLE, POLICY = 0, 1, 2, 3


def mix(z: int) -> int:
    """The splitmix64 output function."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def stream_seed(seed: int, seat: int, purpose: int) -> int:
    """The start state of seat ``seat``'s stream for ``purpose`` under ``seed``."""
    return mix((int(seed) + GOLDEN * (1 + seat + 16 * purpose)) & MASK64)


class SplitMix:
    """One stream: ``next()`` gives 64 random bits, ``below(n)`` an int in 0..n-1."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = int(state) & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix(self.state)

    def below(self, n: int) -> int:
        return self.next() % n


def shuffled(cards: list[int], rng: SplitMix) -> list[int]:
    """Fisher-Yates with ``rng`` (the same steps as ``nb_shuffle``)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------- numba twins
_G = np.uint64(GOLDEN)


@nb.njit(cache=True, inline="always")
def nb_mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def nb_stream_seed(seed, seat, purpose):
    return nb_mix(np.uint64(seed) + _G * np.uint64(1 + seat + 16 * purpose))


@nb.njit(cache=True, inline="always")
def nb_next(states, i):
    """Advance stream ``states[i]`` and return 64 random bits."""
    states[i] = states[i] + _G
    return nb_mix(states[i])


@nb.njit(cache=True, inline="always")
def nb_below(states, i, n):
    return np.int64(nb_next(states, i) % np.uint64(n))


@nb.njit(cache=True)
def nb_shuffle(cards, length, states, i):
    """Fisher-Yates of ``cards[:length]`` in place with stream ``states[i]``."""
    for k in range(length - 1, 0, -1):
        j = nb_below(states, i, k + 1)
        tmp = cards[k]
        cards[k] = cards[j]
        cards[j] = tmp
