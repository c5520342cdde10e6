"""Per-game seeds as a pure function of (tournament seed, key, index), vectorized.

Every seed a tournament uses is ``SeedSequence(seed, spawn_key=(*key, index))
.generate_state(1, uint64)[0]``: it never depends on run order, chunking, workers or backend.
Building one ``SeedSequence`` per game costs microseconds in Python, so this module ports
numpy's SeedSequence hash (O'Neill's ``seed_seq_fe``, pool size 4) to whole numpy arrays of
indices; ``tests/test_tournaments_seeds.py`` checks it equals numpy's own bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["derive_seeds", "reference_seed", "entropy_words"]

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


def _u32(x: int) -> np.uint32:
    return np.uint32(x & _MASK32)


def derive_seeds(seed: int, key: Sequence[int], indices: np.ndarray) -> np.ndarray:
    """uint64 seeds ``SeedSequence(seed, spawn_key=(*key, i)).generate_state(1, uint64)[0]``.

    ``indices`` are non-negative integers below 2**32 (the hash only reads them as one word).
    """
    idx = np.asarray(indices, dtype=np.int64)
    if idx.size and (idx.min() < 0 or idx.max() > _MASK32):
        raise ValueError("seed indices must lie in 0 .. 2**32 - 1")
    n = idx.shape[0]
    run = entropy_words(int(seed))
    run = run + [0] * max(0, _POOL_SIZE - len(run))  # padded because a spawn key follows
    spawn: list[int] = []
    for k in key:
        spawn.extend(entropy_words(int(k)))
    # Entropy words: constants (the same for every game) then the index word.
    const_words = run + spawn
    n_words = len(const_words) + 1

    def word(i: int) -> np.ndarray:
        if i < len(const_words):
            return np.full(n, const_words[i], dtype=np.uint32)
        return idx.astype(np.uint32)

    with np.errstate(over="ignore"):
        hash_const = _INIT_A

        def hashmix(value: np.ndarray) -> np.ndarray:
            nonlocal hash_const
            value = value ^ _u32(hash_const)
            hash_const = (hash_const * _MULT_A) & _MASK32
            value = value * _u32(hash_const)
            return value ^ (value >> np.uint32(_XSHIFT))

        def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            result = x * _u32(_MIX_MULT_L) - y * _u32(_MIX_MULT_R)
            return result ^ (result >> np.uint32(_XSHIFT))

        zeros = np.zeros(n, dtype=np.uint32)
        pool = [hashmix(word(i) if i < n_words else zeros) for i in range(_POOL_SIZE)]
        for i_src in range(_POOL_SIZE):
            for i_dst in range(_POOL_SIZE):
                if i_src != i_dst:
                    pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
        for i_src in range(_POOL_SIZE, n_words):
            w = word(i_src)
            for i_dst in range(_POOL_SIZE):
                pool[i_dst] = mix(pool[i_dst], hashmix(w))

        hash_b = _INIT_B
        out = []
        for i_dst in range(2):
            data = pool[i_dst] ^ _u32(hash_b)
            hash_b = (hash_b * _MULT_B) & _MASK32
            data = data * _u32(hash_b)
            out.append(data ^ (data >> np.uint32(_XSHIFT)))
    return out[0].astype(np.uint64) | (out[1].astype(np.uint64) << np.uint64(32))
