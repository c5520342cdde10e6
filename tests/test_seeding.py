"""``gamekit.seeding``: splitmix64 against its published definition, the salted match streams,
and every former copy now being this one."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit import seeding
from leaves import kernels as K

from .helpers import MASK64, ref_splitmix64


@given(st.integers(0, MASK64), st.integers(0, 40))
def test_splitmix64_is_the_published_generator(state, index):
    want = ref_splitmix64(state, index)
    assert int(seeding.splitmix64_at(np.uint64(state), index)) == want
    assert int(seeding.splitmix64(np.array([state, 0], np.uint64), index)[0]) == want
    assert int(seeding.splitmix64(state, index)) == want


def test_known_value():
    # splitmix64 seeded with 0: first output 0xE220A8397B1DCDAF (Vigna's reference).
    assert int(seeding.splitmix64(0)) == 0xE220A8397B1DCDAF


def test_rng_state_is_four_splitmix64_outputs():
    for seed in (0, 1, 2**63 + 5, MASK64):
        got = [int(x) for x in K.rng_new(np.uint64(seed))]
        assert got == [ref_splitmix64(seed, i) for i in range(4)]


@given(st.integers(0, MASK64), st.integers(0, 8))
def test_splitmix64_over_indices_is_its_first_outputs(state, n):
    # the Python path's kernel RNG state: the first outputs in one array operation
    got = [int(x) for x in seeding.splitmix64(state, np.arange(n))]
    assert got == [ref_splitmix64(state, i) for i in range(n)]


def test_the_c_engines_rng_state_is_the_kernels(monkeypatch):
    from leaves.players.compiled import engine

    seeds = (0, 1, 2**63 + 5, MASK64, -5, 2**64 + 3)  # any int, taken modulo 2**64
    for seed in seeds:
        assert engine.rng_new(seed).dtype == np.uint64
        assert np.array_equal(engine.rng_new(seed), K.rng_new(np.uint64(seed % 2**64)))
    monkeypatch.setattr(engine, "library", lambda: None)  # no C engine: numpy seeds it
    for seed in seeds:
        assert np.array_equal(engine.rng_new(seed), K.rng_new(np.uint64(seed % 2**64)))


def test_match_streams_are_salted_and_per_game():
    ms = np.array([0, 7, MASK64], np.uint64)
    for game in (0, 1, 9):
        deal = seeding.match_deal_seeds(ms, game)
        play = seeding.match_play_seeds(ms, game)
        assert [int(x) for x in deal] == [ref_splitmix64(int(s), game) for s in ms]
        salted = [int(s) ^ int(seeding.PLAY_SALT) for s in ms]
        assert [int(x) for x in play] == [ref_splitmix64(s, game) for s in salted]
        assert not np.array_equal(deal, play)


def test_one_splitmix64_for_every_caller():
    import gamekit.matches
    import leaves.players.matches
    import tests.toygame
    import tournaments.matches
    import tournaments.seeds

    assert tests.toygame.splitmix64 is seeding.splitmix64
    # one match loop
    assert tournaments.matches.play_waves is leaves.players.matches.play_waves
    assert tournaments.matches.play_waves is gamekit.matches.play_waves
    assert gamekit.matches.match_deal_seeds is seeding.match_deal_seeds
    assert gamekit.matches.match_play_seeds is seeding.match_play_seeds
    assert tournaments.seeds.derive_seeds is seeding.derive_seeds


def test_uint64s_keeps_generator_arithmetic_in_uint64():
    from numba import njit

    from gamekit.seeding import uint64s

    seven, fifty_seven, top = uint64s(7, 57, 2**64 - 1)
    assert type(seven) is np.uint64 and int(top) == 2**64 - 1

    @njit
    def rotl7(x):
        return (x << seven) | (x >> fifty_seven)

    @njit
    def wrap(x):
        return x * top  # multiplication modulo 2**64: -x

    assert rotl7(np.uint64(1) << np.uint64(60)) == 1 << 3  # the bit wrapped round
    out = wrap(np.uint64(5))
    assert not isinstance(out, float) and out == 2**64 - 5  # a float64 would round it


@settings(max_examples=60, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**32), st.integers(0, 2**200)),
    key=st.lists(st.one_of(st.integers(0, 8), st.integers(0, 2**70)), max_size=4),
    indices=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=40),
)
def test_derive_seeds_is_numpys_seedsequence_index_by_index(seed, key, indices):
    """The array port against the scalar definition, index by index: seeds of one word or
    of many (a spawn key then follows more than four words), keys of any length."""
    got = seeding.derive_seeds(seed, key, np.array(indices + [0, 2**32 - 1]))
    assert got.dtype == np.uint64
    want = [seeding.reference_seed(seed, key, i) for i in indices + [0, 2**32 - 1]]
    assert [int(x) for x in got] == want


def test_derive_seeds_keeps_known_tournament_seeds():
    """Deal and play seeds of tournament seed 1 (deal key (0, 4), play key (1,)) as runs
    have always written them."""
    deal = seeding.derive_seeds(1, (0, 4), np.arange(3))
    play = seeding.derive_seeds(1, (1,), np.arange(2))
    assert [hex(x) for x in deal] == [
        "0xa1fd73b329bd5c70",
        "0x323f33bbb4273ea8",
        "0xb328ba6fa5a00582",
    ]
    assert [hex(x) for x in play] == ["0x4097f6cfc427b3a6", "0x94232fbca325a20d"]
    assert seeding.derive_seeds(1, (1,), np.arange(0)).shape == (0,)
