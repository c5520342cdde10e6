"""Shuffling and dealing: the only place a game's cards are drawn from a seed.

``deal_packed`` shuffles the 62 cards with one permutation drawn from the generator and hands
them out in turn order; ``new_game`` then draws the first player from the same generator, so a
seed fixes the whole start of a game.
"""

from __future__ import annotations

import numpy as np

from .packed import SHIFTS, join_lanes
from .rules import DECK, DECK_SIZE, N_VALUES

SeedLike = int | np.random.SeedSequence | np.random.Generator | None


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from an int, a SeedSequence, a Generator (used as is) or None."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


_CARDS = np.repeat(np.arange(N_VALUES), DECK)


_POW16 = np.array([1 << sh for sh in SHIFTS], dtype=np.int64)
_OWNERS: dict[tuple[int, int], np.ndarray] = {}


def deal_packed(n_players: int, rng: np.random.Generator, hand_size: int) -> tuple[int, int]:
    """Shuffle the deck with ``rng`` and deal ``hand_size`` cards to each seat: seat i gets
    shuffled cards i*hand_size onwards, the cards after the last hand stay undealt. Returns
    (all hands in 64-bit lanes, the packed undealt pile)."""
    shuffled = _CARDS[rng.permutation(DECK_SIZE)]
    owner = _OWNERS.get((n_players, hand_size))
    if owner is None:
        owner = np.minimum(np.arange(DECK_SIZE) // hand_size, n_players) * N_VALUES
        _OWNERS[(n_players, hand_size)] = owner
    flat = np.bincount(owner + shuffled, minlength=(n_players + 1) * N_VALUES)
    packed = (flat.reshape(n_players + 1, N_VALUES) @ _POW16).tolist()
    undealt = packed.pop()
    return join_lanes(packed), undealt
