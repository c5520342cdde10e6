"""Expert variant scoring: matches of games to ``EXPERT_TARGET`` points (docs/rules.md).

After each game the winner scores 0 and everyone else one point per card left; the match
ends after the game in which some total reaches the target, and the lowest total wins, ties
sharing the win (Interpretation X1). An unfinished game (E1) scores every player their cards
left (a fixed choice, see ``leaves.rules``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import EXPERT_TARGET
from .state import State


def game_scores(state: State) -> tuple[int, ...]:
    """Points each seat scores for a finished game: 0 for the winner, cards left otherwise."""
    if not state.is_terminal:
        raise ValueError("the game is not over yet")
    return scores_from_cards(state.hand_sizes, state.winner)


def scores_from_cards(cards_left: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """Expert points from cards left and the winner (None: unfinished, all score their cards)."""
    return tuple(0 if i == winner else int(c) for i, c in enumerate(cards_left))


@dataclass(frozen=True)
class ExpertMatch:
    """Immutable running totals of one match; ``add`` returns the match after one more game."""

    n_players: int
    target: int = EXPERT_TARGET
    totals: tuple[int, ...] = ()
    games: int = 0

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError(f"the match target must be at least 1 point, got {self.target}")
        if not self.totals:
            object.__setattr__(self, "totals", (0,) * self.n_players)
        if len(self.totals) != self.n_players:
            raise ValueError("totals must have one entry per player")

    def add(self, scores: Sequence[int]) -> ExpertMatch:
        """The match after a game scoring ``scores`` (one entry per seat)."""
        if self.is_over:
            raise ValueError("the match is over")
        if len(scores) != self.n_players:
            raise ValueError(f"expected {self.n_players} scores, got {len(scores)}")
        if any(s < 0 for s in scores):
            raise ValueError("scores cannot be negative")
        totals = tuple(t + int(s) for t, s in zip(self.totals, scores, strict=True))
        return ExpertMatch(self.n_players, self.target, totals, self.games + 1)

    @property
    def is_over(self) -> bool:
        return bool(self.totals) and max(self.totals) >= self.target

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the lowest total (several on a tie: they share the win, X1)."""
        if not self.is_over:
            return ()
        low = min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == low)
