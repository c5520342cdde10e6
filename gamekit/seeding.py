"""Where every seed comes from: splitmix64, the salts that separate streams, and a vectorised
port of numpy's ``SeedSequence``, each defined once for every caller.

* ``splitmix64_at(state, i)`` is output ``i`` (0-based) of Vigna's splitmix64 generator started
  at ``state``: ``mix64(state + (i + 1) * GAMMA)``. It expands one seed into the kernels'
  xoshiro256** state (``gamekit.rng.rng_new``) and derives the deal and play seeds of game
  ``i`` of an expert match (``match_deal_seeds``, ``match_play_seeds``), so a game depends
  only on its match seed and its number, never on how earlier games went.
* Salts: a stream that must be independent of another one derived from the same seed is
  derived from ``seed ^ SALT`` (``PLAY_SALT``: a match's play seeds apart from its deal seeds;
  ``MODEL_SALT``: ``ismcts``' model selection apart from its search).
* ``derive_seeds(seed, key, indices)`` equals ``SeedSequence(seed, spawn_key=(*key, i))
  .generate_state(1, uint64)[0]`` for each index, bit for bit, over whole arrays: the seeds of
  every tournament game are a pure function of (tournament seed, key, game index).

The arithmetic is written once, as numba functions (uint64 arithmetic wraps); the Python
entry points (``splitmix64``, ``match_deal_seeds``, ``match_play_seeds``) run their source
through numpy on whole arrays.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from .jit import njit

__all__ = [
    "GAMMA",
    "MODEL_SALT",
    "PLAY_SALT",
    "derive_seeds",
    "entropy_words",
    "match_deal_seeds",
    "match_play_seeds",
    "mix64",
    "reference_seed",
    "splitmix64",
    "splitmix64_at",
    "uint64s",
]


def uint64s(*values: int) -> tuple[np.uint64, ...]:
    """The constants of 64-bit generator code as ``np.uint64``: numba would type a plain int
    as int64, and uint64 mixed with int64 arithmetic is promoted to float64, silently."""
    return tuple(np.uint64(v) for v in values)


GAMMA = np.uint64(0x9E3779B97F4A7C15)
"""splitmix64's increment (the golden ratio in 64 bits)."""
_M1, _M2 = uint64s(0xBF58476D1CE4E5B9, 0x94D049BB133111EB)
_U27, _U30, _U31 = uint64s(27, 30, 31)

PLAY_SALT = np.uint64(0x6A09E667F3BCC908)
"""XORed into a match's play seed before its per-game play seeds are derived."""
MODEL_SALT = np.uint64(0x3C6EF372FE94F82B)
"""XORed into an ``ismcts`` decision's kernel seed for its model-selection stream."""


# ----------------------------------------------------------------------------- splitmix64
@njit(cache=True, inline="always")
def mix64(z):
    """splitmix64's output function (a bijective finaliser) of one uint64."""
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@njit(cache=True, inline="always")
def splitmix64_at(state, index):
    """Output ``index`` (0-based) of the splitmix64 generator started at uint64 ``state``."""
    return mix64(np.uint64(state) + np.uint64(index + 1) * GAMMA)


def splitmix64(states: np.ndarray | int, index: np.ndarray | int = 0) -> np.ndarray:
    """``splitmix64_at`` over arrays of uint64 states and output indices, broadcast (scalars
    give a 0-d result): ``splitmix64(seed, np.arange(4))`` is a kernel RNG's state in one
    array operation, which the Python path of a compiled policy needs at every decision.

    numpy runs ``mix64``'s own source over the whole array (its uint64 arithmetic wraps as
    the kernel's does), so seeding an expert match's games needs no compiled code: a run
    through the C engine never loads numba for it.
    """
    a = np.asarray(states, dtype=np.uint64)
    step = np.asarray(index, dtype=np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        z = a + step * GAMMA  # splitmix64_at's state, for every entry
        mix = getattr(mix64, "py_func", mix64)  # a plain function when numba's JIT is off
        return np.asarray(mix(z), dtype=np.uint64)


def match_deal_seeds(match_seeds: np.ndarray, game: int) -> np.ndarray:
    """Deal seed of game ``game`` (0-based) of each expert match: ``splitmix64_at(seed, game)``.

    It depends only on the match seed and ``game``, never on how earlier games went, so
    rotated tables replay the same deals.
    """
    return splitmix64(np.asarray(match_seeds, dtype=np.uint64), game)


def match_play_seeds(play_seeds: np.ndarray, game: int) -> np.ndarray:
    """Play seed of game ``game`` of each match: the same on ``seed ^ PLAY_SALT``, a stream
    apart from the deal seeds."""
    return splitmix64(np.asarray(play_seeds, dtype=np.uint64) ^ PLAY_SALT, game)


# ----------------------------------------------------------------------------- SeedSequence
# numpy's SeedSequence hash (O'Neill's ``seed_seq_fe``, pool size 4), ported to whole arrays
# of indices: building one SeedSequence per game costs microseconds in Python.
_MASK32 = 0xFFFFFFFF
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_POOL_SIZE = 4


def entropy_words(value: int) -> list[int]:
    """A non-negative int as numpy's SeedSequence sees it: little-endian 32-bit words."""
    if value < 0:
        raise ValueError(f"seeds must be non-negative integers, got {value}")
    words = []
    while True:
        words.append(value & _MASK32)
        value >>= 32
        if value == 0:
            return words


def reference_seed(seed: int, key: Sequence[int], index: int) -> int:
    """The same value as ``derive_seeds`` for one index, straight from numpy (for tests)."""
    ss = np.random.SeedSequence(seed, spawn_key=(*key, index))
    return int(ss.generate_state(1, np.uint64)[0])


# The hash's steps, written once for Python ints and numpy uint32 arrays alike (the masks
# keep Python ints to 32 bits; uint32 arrays wrap by themselves).
def _hashmix(value: Any, hash_const: int) -> tuple[Any, int]:
    """One word through the entropy hash: (the hashed word, the next hash constant)."""
    value = value ^ hash_const
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _XSHIFT), hash_const


def _mix(x: Any, y: Any) -> Any:
    """Pool entry ``x`` with hashed word ``y`` mixed in."""
    result = (((x * _MIX_MULT_L) & _MASK32) - ((y * _MIX_MULT_R) & _MASK32)) & _MASK32
    return result ^ (result >> _XSHIFT)


def _output(entry: Any, i: int) -> Any:
    """Pool entry ``i`` as word ``i`` of ``generate_state``'s output."""
    hash_b = (_INIT_B * pow(_MULT_B, i, 1 << 32)) & _MASK32
    data = ((entry ^ hash_b) * ((hash_b * _MULT_B) & _MASK32)) & _MASK32
    return data ^ (data >> _XSHIFT)


@functools.lru_cache(maxsize=256)
def _prefix(seed: int, key: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The hash of every word before a spawn key's last one, which the index fills: (the
    pool, the hash constant), the same for every index.

    The seed's words come first, padded to the pool size because a spawn key follows, so
    the index word is never one of the pool's first four and enters only the last mixing
    step: the rest is computed once, in Python ints.
    """
    words = entropy_words(seed)
    words += [0] * max(0, _POOL_SIZE - len(words))
    for k in key:
        words += entropy_words(k)
    hash_const = _INIT_A
    pool = []
    for w in words[:_POOL_SIZE]:
        hashed, hash_const = _hashmix(w, hash_const)
        pool.append(hashed)
    for i_src in range(_POOL_SIZE):
        for i_dst in range(_POOL_SIZE):
            if i_src != i_dst:
                hashed, hash_const = _hashmix(pool[i_src], hash_const)
                pool[i_dst] = _mix(pool[i_dst], hashed)
    for w in words[_POOL_SIZE:]:
        for i_dst in range(_POOL_SIZE):
            hashed, hash_const = _hashmix(w, hash_const)
            pool[i_dst] = _mix(pool[i_dst], hashed)
    return tuple(pool), hash_const


def derive_seeds(seed: int, key: Sequence[int], indices: np.ndarray) -> np.ndarray:
    """uint64 seeds ``SeedSequence(seed, spawn_key=(*key, i)).generate_state(1, uint64)[0]``.

    ``indices`` are non-negative integers below 2**32 (the hash only reads them as one word).
    Only the index word's last mixing step and the two output words (the first two pool
    entries) depend on the index: a few array operations however long the key.
    """
    idx = np.asarray(indices, dtype=np.int64)
    if idx.size and (idx.min() < 0 or idx.max() > _MASK32):
        raise ValueError("seed indices must lie in 0 .. 2**32 - 1")
    pool, hash_const = _prefix(int(seed), tuple(int(k) for k in key))
    word = idx.astype(np.uint32)
    halves = []
    for i_dst in range(2):  # entries 2 and 3 take the index too, but no output reads them
        hashed, hash_const = _hashmix(word, hash_const)
        halves.append(_output(_mix(pool[i_dst], hashed), i_dst).astype(np.uint64))
    return halves[0] | (halves[1] << np.uint64(32))
