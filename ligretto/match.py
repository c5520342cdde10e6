"""Games of several rounds: to a target total (the source's 100) or a fixed number of rounds.

The highest total wins; players tied for it share the win (Interpretation L4). A round's
winners are decided the same way, from its scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from gamekit.matches import MAX_GAMES

from .rules import CENTRE_POINTS, MATCH_TARGET, SET_SIZE, check_players, whole_number

__all__ = ["winners", "Match", "MAX_ROUNDS_PER_GAME", "MAX_GAME_POINTS", "OUT_OF_REACH"]

MAX_ROUNDS_PER_GAME = MAX_GAMES
"""A game to a target stops after this many rounds (``gamekit.matches.MAX_GAMES``; the highest
total then wins): targets of 100 take ~10-20 rounds."""

MAX_ROUND_POINTS = CENTRE_POINTS * SET_SIZE
"""The most a round scores a player: all of its cards in the centre (``rules.score``'s best)."""

MAX_GAME_POINTS = MAX_ROUNDS_PER_GAME * MAX_ROUND_POINTS
"""The most a game scores a player: that in every one of its most rounds. A higher target no
game reaches (every game would stop at the cap on rounds): ``Match`` and ``--target`` refuse it."""

OUT_OF_REACH = (f"a game plays at most {MAX_ROUNDS_PER_GAME} rounds, which score at most "
                f"{MAX_GAME_POINTS:,} ({MAX_ROUND_POINTS} a round)")  # fmt: skip
"""Why a target above ``MAX_GAME_POINTS`` is out of reach, in words."""


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
        if self.target is not None and self.target > MAX_GAME_POINTS:
            raise ValueError(f"the target {self.target:,} is out of reach: {OUT_OF_REACH}")
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
