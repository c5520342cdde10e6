"""The kernels' random number generator: xoshiro256** seeded from one uint64 by splitmix64.

A seed means the same stream on every platform and in every caller, compiled or not:

* ``rng_new(seed)``: the four state words are outputs 0..3 of splitmix64 started at ``seed``
  (``gamekit.seeding.splitmix64_at``); ``rng_seed(s, seed)`` resets ``s`` to that state.
* ``rng_below(s, n)`` is Lemire's multiply-shift on the top 32 bits of one draw, with
  rejection, so it is exactly uniform for ``1 <= n < 2**32``.
* ``rng_uniform(s)`` is the top 53 bits of one draw scaled to [0, 1).
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .seeding import splitmix64_at, uint64s

_U5, _U7, _U9, _U11, _U17, _U19, _U32, _U45, _U57 = uint64s(5, 7, 9, 11, 17, 19, 32, 45, 57)
_LOW32, _TWO32 = uint64s(0xFFFFFFFF, 1 << 32)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def rng_seed(s, seed):
    """Reset the xoshiro256** state ``s`` (uint64[4]) in place to ``rng_new(seed)``'s: loops
    that start a stream per game reuse one array instead of allocating one."""
    for i in range(4):
        s[i] = splitmix64_at(seed, i)


@njit(cache=True)
def rng_new(seed):
    """A fresh xoshiro256** state (uint64[4]) from one uint64 seed, expanded by splitmix64."""
    s = np.empty(4, dtype=np.uint64)
    rng_seed(s, seed)
    return s


@njit(cache=True, inline="always")
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four uint64 scalars: (output, s0, s1, s2, s3).

    ``rng_next`` is this step on the state array; a tight loop of draws (the deck's shuffle)
    keeps the state in locals with ``below_step``, so the stores of its own array cannot make
    the compiled code reload the state after each one."""
    x = s1 * _U5
    result = ((x << _U7) | (x >> _U57)) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _U45) | (s3 >> _U19)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def rng_next(s):
    """Next uint64 of the xoshiro256** stream ``s`` (advances ``s`` in place)."""
    result, s0, s1, s2, s3 = xoshiro_step(s[0], s[1], s[2], s[3])
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return result


@njit(cache=True)
def rng_uniform(s):
    """A float64 uniform on [0, 1) from the top 53 bits of one draw."""
    return np.float64(rng_next(s) >> _U11) * _INV53


@njit(cache=True, inline="always")
def below_step(s0, s1, s2, s3, n):
    """``rng_below`` on a state held in four scalars (``xoshiro_step``): (value, s0, s1, s2, s3)."""
    nn = np.uint64(n)
    r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
    m = (r >> _U32) * nn
    low = m & _LOW32
    if low < nn:
        t = (_TWO32 - nn) % nn
        while low < t:
            r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            m = (r >> _U32) * nn
            low = m & _LOW32
    return np.int64(m >> _U32), s0, s1, s2, s3


@njit(cache=True, inline="always")
def rng_below(s, n):
    """An int64 uniform on 0..n-1 (1 <= n < 2**32): Lemire's method, exact by rejection."""
    value, s0, s1, s2, s3 = below_step(s[0], s[1], s[2], s[3], n)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return value
