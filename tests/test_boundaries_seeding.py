"""The edges of ``gamekit.seeding`` on the numpy paths (no kernel compiled): splitmix64 against
Vigna's published steps at the ends of the 64-bit range, the salts' values, and
``derive_seeds`` against numpy's own ``SeedSequence`` for seeds and keys of one word, of
exactly the pool's four words and of more, and for indices at 0 and 2**32 - 1 and beyond."""

from __future__ import annotations

import numpy as np
import pytest

from gamekit import seeding

from .helpers import MASK64, ref_splitmix64

MASK32 = (1 << 32) - 1


def numpy_seed(seed: int, key: tuple[int, ...], index: int) -> int:
    ss = np.random.SeedSequence(seed, spawn_key=(*key, index))
    return int(ss.generate_state(1, np.uint64)[0])


STATES = [0, 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, MASK64 - 1, MASK64]


def test_the_constants():
    assert int(seeding.GAMMA) == 0x9E3779B97F4A7C15
    assert int(seeding.PLAY_SALT) == 0x6A09E667F3BCC908
    assert int(seeding.MODEL_SALT) == 0x3C6EF372FE94F82B
    assert all(type(c) is np.uint64 for c in (seeding.GAMMA, seeding.PLAY_SALT, seeding.MODEL_SALT))


@pytest.mark.parametrize("index", [0, 1, 2, 7, 63])
def test_splitmix64_on_whole_arrays(index):
    got = seeding.splitmix64(np.array(STATES, np.uint64), index)
    assert got.dtype == np.uint64
    assert [int(x) for x in got] == [ref_splitmix64(s, index) for s in STATES]


def test_splitmix64_of_a_scalar_and_the_first_output():
    assert int(seeding.splitmix64(0)) == 0xE220A8397B1DCDAF  # Vigna's first output from 0
    assert seeding.splitmix64(5).shape == ()
    assert int(seeding.splitmix64(5, 3)) == ref_splitmix64(5, 3)


def test_the_kernel_functions_are_the_same_arithmetic(monkeypatch):
    """``mix64``'s Python function (what the numpy paths run) is splitmix64's finaliser, and
    ``splitmix64_at``'s is output ``index`` (run as Python: the compiled kernels are
    ``tests/test_seeding.py``'s)."""
    # no numba for the callee (with the JIT off, a kernel is its Python function already)
    monkeypatch.setattr(seeding, "mix64", getattr(seeding.mix64, "py_func", seeding.mix64))
    splitmix64_at = getattr(seeding.splitmix64_at, "py_func", seeding.splitmix64_at)
    z = np.array([0, 1, 0xDEADBEEF, MASK64], np.uint64)
    want = []
    for v in (0, 1, 0xDEADBEEF, MASK64):
        v = ((v ^ (v >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & MASK64
        want.append(v ^ (v >> 31))
    with np.errstate(over="ignore"):
        assert [int(x) for x in seeding.mix64(z)] == want
        at = [int(splitmix64_at(np.uint64(s), i)) for s in STATES for i in (0, 3)]
    assert at == [ref_splitmix64(s, i) for s in STATES for i in (0, 3)]


@pytest.mark.parametrize("game", [0, 1, 9])
def test_match_streams(game):
    ms = np.array([0, 7, 2**63, MASK64], np.uint64)
    deal = seeding.match_deal_seeds(ms, game)
    play = seeding.match_play_seeds(ms, game)
    assert [int(x) for x in deal] == [ref_splitmix64(int(s), game) for s in ms]
    assert [int(x) for x in play] == [ref_splitmix64(int(s) ^ 0x6A09E667F3BCC908, game) for s in ms]


def test_entropy_words():
    assert seeding.entropy_words(0) == [0]
    assert seeding.entropy_words(MASK32) == [MASK32]
    assert seeding.entropy_words(2**32) == [0, 1]
    assert seeding.entropy_words(2**64 + 5) == [5, 0, 1]
    with pytest.raises(ValueError, match="seeds must be non-negative integers, got -1"):
        seeding.entropy_words(-1)


SEEDS = [0, 1, 12345, MASK32, 2**32, 2**64 - 1, 2**96 + 7, 2**127 + 3, 2**128 + 11, 2**160 + 1]
KEYS = [(), (0,), (3,), (MASK32,), (2**32 + 1,), (1, 2), (7, 8, 9), (1, 2, 3, 4, 5)]


@pytest.mark.parametrize("seed", SEEDS)
def test_derive_seeds_is_numpys_seed_sequence(seed):
    indices = np.array([0, 1, 2, 1000, MASK32 - 1, MASK32], np.int64)
    for key in KEYS:
        got = seeding.derive_seeds(seed, key, indices)
        assert got.dtype == np.uint64
        assert [int(x) for x in got] == [numpy_seed(seed, key, int(i)) for i in indices], key
        assert seeding.reference_seed(seed, key, 5) == numpy_seed(seed, key, 5)


def test_derive_seeds_bounds_on_the_index():
    assert seeding.derive_seeds(3, (1,), np.zeros(0, np.int64)).size == 0
    with pytest.raises(ValueError, match=r"seed indices must lie in 0 .. 2\*\*32 - 1"):
        seeding.derive_seeds(3, (1,), np.array([MASK32 + 1]))
    with pytest.raises(ValueError, match=r"seed indices must lie in 0 .. 2\*\*32 - 1"):
        seeding.derive_seeds(3, (1,), np.array([5, -1]))


def test_uint64s():
    a, b = seeding.uint64s(7, MASK64)
    assert type(a) is np.uint64 and int(a) == 7 and int(b) == MASK64
