"""A batch of games as one dataclass that joins and scatters field by field, for any game.

Every layer that plays games in slices, waves or seatings (a game's batch play, the match
loop, the tournaments' ``SeatedBatch``) joins them here, whatever columns the game has.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Self

import numpy as np

__all__ = ["PerGame"]


class PerGame:
    """A batch of games: a dataclass whose every field holds one entry per game (an array by
    game first, a dict of such arrays, a list, or None where the batch lacks a column), so any
    batch joins and scatters field by field, whatever columns its game has. The one way games
    played in slices, waves or seatings become one batch (``BatchResult`` here, the
    tournaments' ``SeatedBatch``)."""

    @classmethod
    def concat(cls, batches: Sequence[Self], order: np.ndarray | None = None) -> Self:
        """The games of ``batches`` one after another; with ``order``, game ``order[i]`` of
        that is game ``i`` of the result."""
        if len(batches) == 1 and order is None:
            return batches[0]
        joined = {f.name: _join([getattr(b, f.name) for b in batches], order) for f in fields(cls)}
        return cls(**joined)

    @classmethod
    def scatter(cls, batches: Sequence[Self], positions: Sequence[np.ndarray]) -> Self:
        """One batch in which the games of ``batches[i]`` stand at ``positions[i]`` (together
        the positions 0 .. G-1, each once): e.g. per-seating batches in a chunk's game order."""
        at = np.concatenate(positions).astype(np.int64, copy=False)
        order = np.empty_like(at)
        order[at] = np.arange(at.size)
        return cls.concat(batches, order)


def _join(parts: list[Any], order: np.ndarray | None) -> Any:
    """One field of several batches joined (``PerGame.concat``)."""
    first = parts[0]
    if first is None:
        return None
    if isinstance(first, dict):
        return {k: _join([p[k] for p in parts], order) for k in first}
    if isinstance(first, list):
        items = list(itertools.chain.from_iterable(parts))
        return items if order is None else [items[i] for i in order.tolist()]
    joined = np.concatenate(parts)
    return joined if order is None else joined[order]
