"""The edges of ``leaves.deal`` (the only place a game's cards are drawn from a seed) and
``leaves.packed`` (13 counts in one int, a hand per 64-bit lane): the seed forms taken and
refused, a deal against a plain reference of the rule in docs/rules.md ("Setup": shuffle, then
each seat's hand in turn, the rest undealt), the caches a deal keeps, and the packing's layout
(value 1 in the lowest nibble), each worked out by hand."""

from __future__ import annotations

import re

import numpy as np
import pytest

from leaves import Rules
from leaves import packed as P
from leaves.deal import as_generator, check_seed, deal_packed
from leaves.rules import DECK, N_VALUES

FORMS = "a whole number >= 0 (or a numpy Generator/SeedSequence, or None)"


# ---------------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", [None, 0, 1, 2**70, np.int64(5), np.uint8(0), [1, 2], (3,)])
def test_a_seed_numpy_takes_is_kept_as_it_is(seed):
    assert check_seed(seed) is seed


def test_numpy_s_own_seed_objects_are_kept_only_where_numpy_forms_are_taken():
    for seed in (np.random.default_rng(1), np.random.SeedSequence(2), np.random.PCG64(3)):
        assert check_seed(seed) is seed
        with pytest.raises(TypeError, match=r"seed must be a whole number >= 0 \(or None\), got"):
            check_seed(seed, numpy_forms=False)
    assert check_seed(7, numpy_forms=False) == 7 and check_seed(None, numpy_forms=False) is None


@pytest.mark.parametrize("seed", [-1, np.int64(-3)])
def test_a_negative_seed_is_refused_in_one_line(seed):
    with pytest.raises(ValueError, match=rf"^seed must be {re.escape(FORMS)}, got -\d$"):
        check_seed(seed)
    with pytest.raises(
        ValueError, match=r"^deal seed must be a whole number >= 0 \(or None\), got"
    ):
        check_seed(seed, "deal seed", numpy_forms=False)


@pytest.mark.parametrize("seed", [True, False, 1.0, "3", b"3", {1: 2}])
def test_what_is_no_seed_is_refused_with_its_forms(seed):
    with pytest.raises(TypeError, match=r"^seed must be a whole number >= 0 \(or a numpy"):
        check_seed(seed)


@pytest.mark.parametrize("seed", [[1, -2], (0.5,), np.array([-1]), ["a"]])
def test_a_sequence_must_hold_whole_numbers_at_least_0(seed):
    with pytest.raises(ValueError, match=r"^s must be a list of whole numbers >= 0, got"):
        check_seed(seed, "s")


@pytest.mark.parametrize(
    ("seed", "said"),
    [([1, -2], "[1, -2]"), ([-1] * 100, "[" + "-1, " * 14 + "..."),
     ([-(10**5000)], "a list that Python cannot write out")],
    ids=["short", "long", "huge"],
)  # fmt: skip
def test_a_bad_sequence_is_shown_on_one_short_line(seed, said):
    """A long list was written out whole; one holding a number past the 4,300 digits Python
    writes out raised Python's own "Exceeds the limit" error instead."""
    with pytest.raises(ValueError) as info:
        check_seed(seed, "s")
    assert str(info.value) == f"s must be a list of whole numbers >= 0, got {said}"


def test_a_huge_negative_seed_is_said_by_its_digits():
    with pytest.raises(ValueError) as info:
        check_seed(-(10**5000))
    assert (
        str(info.value)
        == f"seed must be {FORMS}, got a negative whole number of about 5,001 digits"
    )


def test_a_generator_is_used_as_it_is_and_a_number_seeds_numpy_s_default():
    g = np.random.default_rng(4)
    assert as_generator(g) is g
    assert as_generator(11).integers(1 << 60) == np.random.default_rng(11).integers(1 << 60)
    assert isinstance(as_generator(None), np.random.Generator)
    with pytest.raises(ValueError, match=r"seed must be"):
        as_generator(-1)


# ---------------------------------------------------------------------- the deal
def _reference(n: int, seed: int, hand: int, deck: tuple[int, ...]) -> tuple[list, list]:
    """The rule written plainly: one permutation of the sorted deck, seat i the shuffled cards
    i*hand onwards, the rest undealt; counts per value."""
    cards = [v for v in range(N_VALUES) for _ in range(deck[v])]
    order = np.random.default_rng(seed).permutation(len(cards))
    shuffled = [cards[i] for i in order]
    hands = [[0] * N_VALUES for _ in range(n)]
    undealt = [0] * N_VALUES
    for at, v in enumerate(shuffled):
        (hands[at // hand] if at // hand < n else undealt)[v] += 1
    return hands, undealt


SMALL = Rules.of("deck=1/2/3/4/5/6/7/6/5/4/3/2/1").deck


@pytest.mark.parametrize(
    ("n", "hand", "deck"),
    [(3, 12, DECK), (4, 11, DECK), (5, 10, DECK), (6, 9, DECK), (3, 11, DECK), (4, 12, DECK),
     (2, 31, DECK), (3, 12, SMALL), (4, 11, SMALL), (6, 8, SMALL)],
)  # fmt: skip
def test_a_deal_is_the_plain_rule_card_for_card(n, hand, deck):
    # the configurations run in this order, so a cache keyed on too little gives a wrong deal
    for seed in (0, 1, 2024):
        hands, undealt = deal_packed(n, np.random.default_rng(seed), hand, deck)
        want_hands, want_undealt = _reference(n, seed, hand, deck)
        assert [P.unpack(h) for h in P.lanes(hands, n)] == [tuple(h) for h in want_hands]
        assert P.unpack(undealt) == tuple(want_undealt)
        assert [P.total(h) for h in P.lanes(hands, n)] == [hand] * n
        assert P.total(undealt) == sum(deck) - n * hand


def test_today_s_deck_is_the_default_and_one_deal_draws_one_permutation():
    a, b = np.random.default_rng(8), np.random.default_rng(8)
    assert deal_packed(4, a, 11) == deal_packed(4, b, 11, DECK)
    c = np.random.default_rng(8)
    c.permutation(sum(DECK))
    assert a.integers(1 << 60) == c.integers(1 << 60)  # the generator moved by exactly that


# ---------------------------------------------------------------------- packing
def test_value_1_is_the_lowest_nibble():
    assert tuple(range(0, 52, 4)) == P.SHIFTS and P.ONES[0] == 1 and P.ONES[12] == 1 << 48
    assert P.pack([1] + [0] * 12) == 1 and P.pack([0, 1] + [0] * 11) == 16
    assert P.pack([0] * 12 + [8]) == 8 << 48
    assert P.MASK == (1 << 52) - 1 and P.LANE == 64


@pytest.mark.parametrize("counts", [[0] * 13, list(DECK), [15] * 13, list(range(13))])
def test_pack_and_unpack_give_back_the_counts(counts):
    x = P.pack(counts)
    assert P.unpack(x) == tuple(counts) and P.total(x) == sum(counts)
    assert [P.count(x, i) for i in range(13)] == counts
    assert P.lane_total(x) == sum(counts)  # every sum here is under 255, as a hand's is


def test_a_lane_s_total_reaches_every_count_of_the_deck():
    for v in range(13):
        for c in range(16):
            assert P.lane_total(c << P.SHIFTS[v]) == c
    assert P.lane_total(P.pack(DECK)) == 62
    assert P.lane_total(P.pack([15] * 13)) == 195


@pytest.mark.parametrize("n", [1, 2, 3, 6, 8])
def test_lanes_give_back_each_seat_s_vector(n):
    parts = [P.pack([(i + s) % 9 for i in range(13)]) for s in range(n)]
    joined = P.join_lanes(parts)
    assert P.lanes(joined, n) == tuple(parts)
    for s in range(n):
        assert (joined >> P.LANE * s) & P.MASK == parts[s]
    assert P.lanes(P.join_lanes(parts[:1]), 1) == (parts[0],)  # another width, its own layout
