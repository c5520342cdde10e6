"""Shuffling and dealing: the only place a game's cards are drawn from a seed.

``deal_packed`` shuffles the 62 cards with one permutation drawn from the generator and hands
them out in turn order; ``new_game`` then draws the first player from the same generator, so a
seed fixes the whole start of a game.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .actions import shown
from .packed import SHIFTS, join_lanes
from .rules import DECK, N_VALUES

SeedLike = int | np.random.SeedSequence | np.random.Generator | None


_NUMPY_SEEDS = (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)


def check_seed(seed: object, name: str = "seed", numpy_forms: bool = True) -> object:
    """``seed`` unchanged when it is one numpy takes as a seed: None (fresh entropy), a whole
    number >= 0 (numpy's too) or a sequence of them, and, with ``numpy_forms``, a Generator,
    a SeedSequence or a BitGenerator. Otherwise one line naming ``name`` and the forms, where
    numpy would say "expected non-negative integer" or take a bool for 0 or 1."""
    forms = "a whole number >= 0"
    forms += " (or a numpy Generator/SeedSequence, or None)" if numpy_forms else " (or None)"
    if seed is None or (numpy_forms and isinstance(seed, _NUMPY_SEEDS)):
        return seed
    if isinstance(seed, Integral) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"{name} must be {forms}, got {shown(int(seed), typed=False)}")
        return seed
    if isinstance(seed, list | tuple | np.ndarray):  # numpy's entropy: whole numbers >= 0
        try:
            np.random.SeedSequence(seed)
        except (TypeError, ValueError):
            said = shown(seed, typed=False)
            raise ValueError(f"{name} must be a list of whole numbers >= 0, got {said}") from None
        return seed
    raise TypeError(f"{name} must be {forms}, got {shown(seed)}")


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from an int, a SeedSequence, a Generator (used as is) or None; any
    other seed refused in one line (``check_seed``)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(check_seed(seed))


_CARDS = {DECK: np.repeat(np.arange(N_VALUES), DECK)}  # the sorted deck, by composition


_POW16 = np.array([1 << sh for sh in SHIFTS], dtype=np.int64)
_OWNERS: dict[tuple[int, int], np.ndarray] = {}


def deal_packed(
    n_players: int, rng: np.random.Generator, hand_size: int, deck: tuple[int, ...] = DECK
) -> tuple[int, int]:
    """Shuffle ``deck`` (copies per value; today's by default) with ``rng`` and deal
    ``hand_size`` cards to each seat: seat i gets shuffled cards i*hand_size onwards, the cards
    after the last hand stay undealt. Returns (all hands in 64-bit lanes, the packed undealt
    pile)."""
    cards = _CARDS.get(deck)
    if cards is None:
        cards = _CARDS[deck] = np.repeat(np.arange(N_VALUES), deck)
    size = len(cards)
    shuffled = cards[rng.permutation(size)]
    owner = _OWNERS.get((n_players, hand_size, size))
    if owner is None:
        owner = np.minimum(np.arange(size) // hand_size, n_players) * N_VALUES
        _OWNERS[(n_players, hand_size, size)] = owner
    flat = np.bincount(owner + shuffled, minlength=(n_players + 1) * N_VALUES)
    packed = (flat.reshape(n_players + 1, N_VALUES) @ _POW16).tolist()
    undealt = packed.pop()
    return join_lanes(packed), undealt
