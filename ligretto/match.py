"""Games of several rounds: to a target total (the source's 100) or a fixed number of rounds.

The highest total wins; players tied for it share the win (Interpretation L4). A round's
winners are decided the same way, from its scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gamekit.matches import MAX_GAMES

from .rules import MATCH_TARGET, check_players, whole_number

__all__ = ["winners", "Match", "MAX_ROUNDS_PER_GAME"]

MAX_ROUNDS_PER_GAME = MAX_GAMES
"""A game to a target stops after this many rounds (``gamekit.matches.MAX_GAMES``; the highest
total then wins): targets of 100 take ~10-20 rounds."""


def winners(scores: Sequence[int] | np.ndarray) -> list[bool]:
    """Who has the highest score (all tied players share it); scores are whole points, as
    ``Match.add`` takes them (a TypeError in one line for text, never numpy's ufunc error)."""
    arr = np.asarray(scores, dtype=object)
    if arr.ndim != 1 or not arr.size:
        raise ValueError(f"scores must hold one score per seat, got {scores!r}")
    points = [whole_number(b, "a score") for b in arr.tolist()]
    best = max(points)
    return [p == best for p in points]


class _SourceTarget(int):
    """The source's target as ``Match``'s default: ``rounds`` given alone replaces it."""


_SOURCE_TARGET = _SourceTarget(MATCH_TARGET)


@dataclass(frozen=True)
class Match:
    """An immutable game of rounds: ``add(scores)`` returns the next one. It runs to
    ``target`` points or for ``rounds`` rounds; given neither, to the source's 100."""

    n_players: int
    target: int | None = _SOURCE_TARGET
    rounds: int | None = None
    totals: tuple[int, ...] = field(default=())
    played: int = 0

    def __post_init__(self) -> None:
        check_players(self.n_players)
        if self.target is _SOURCE_TARGET:  # not given: a game of ``rounds``, else to 100
            object.__setattr__(self, "target", None if self.rounds is not None else MATCH_TARGET)
        for name in ("target", "rounds"):
            if getattr(self, name) is not None:
                whole_number(getattr(self, name), name)
        if (self.target is None) == (self.rounds is None):
            raise ValueError("a game runs either to a target total or a number of rounds")
        if self.target is not None and self.target < 1:
            raise ValueError(f"the target must be at least 1 point, got {self.target}")
        if self.rounds is not None and self.rounds < 1:
            raise ValueError(f"a game has at least 1 round, got {self.rounds}")
        if not self.totals:
            object.__setattr__(self, "totals", (0,) * self.n_players)

    def add(self, scores: Sequence[int]) -> Match:
        if self.is_over:
            raise ValueError("the game is over")
        if isinstance(scores, str | bytes) or not isinstance(scores, Sequence | np.ndarray):
            raise TypeError(f"scores must hold one score per seat ({self.n_players}), got "
                            f"{scores!r}")  # fmt: skip
        if len(scores) != self.n_players:
            raise ValueError(f"scores must hold one score per seat ({self.n_players}), "
                             f"got {len(scores)}")  # fmt: skip
        points = [whole_number(b, "a score") for b in scores]  # never int("3") or int(1.7)
        totals = tuple(a + b for a, b in zip(self.totals, points, strict=True))
        return Match(self.n_players, self.target, self.rounds, totals, self.played + 1)

    @property
    def is_over(self) -> bool:
        if self.rounds is not None:
            return self.played >= self.rounds
        return max(self.totals) >= self.target or self.played >= MAX_ROUNDS_PER_GAME

    @property
    def winners(self) -> list[bool]:
        return winners(self.totals)
