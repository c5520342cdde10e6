"""Expert variant scoring: matches of games to the rules' ``expert_target`` points (20
today, ``EXPERT_TARGET``; docs/rules.md).

After each game the winner scores 0 and everyone else one point per card left; the match
ends after the game in which some total reaches the target, and the lowest total wins, ties
sharing the win (Interpretation X1). An unfinished game (E1) scores every player their cards
left (a fixed choice, see ``leaves.rules``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, InitVar, dataclass
from numbers import Integral
from typing import Any

from gamekit.errors import shown

from .rules import MAX_PLAYERS
from .ruleset import Rules
from .state import State


def game_scores(state: State) -> tuple[int, ...]:
    """Points each seat scores for a finished game: 0 for the winner, cards left otherwise."""
    if not isinstance(state, State):
        raise TypeError(f"game_scores takes the final State of a game, got {shown(state)}")
    if not state.is_terminal:
        raise ValueError("the game is not over yet")
    return scores_from_cards(state.hand_sizes, state.winner)


def scores_from_cards(cards_left: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """Expert points from cards left and the winner (None: unfinished, all score their cards)."""
    return tuple(0 if i == winner else int(c) for i, c in enumerate(cards_left))


def _whole(value: object, name: str) -> int:
    """``value`` as a plain int (numpy's integers too); a bool, a float or text is refused in
    one line naming ``name`` (1.5 points would otherwise count as 1)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a whole number, got {shown(value)}")
    return int(value)


def _negative_said(totals: tuple[int, ...]) -> str:
    """``totals``, one of them negative, as an error writes them, ``(0, -2, 0)``; where the
    line cannot show that total (cut short, or a total past the digits Python writes out),
    the seat's too: ``...: seat 1's is a negative whole number of about 5,001 digits``."""
    low = min(totals)
    said, total = shown(totals, typed=False), shown(low, typed=False)
    return said if total in said else f"{said}: seat {totals.index(low)}'s is {total}"


class _RulesTarget:
    """``ExpertMatch``'s default target: its rules' ``expert_target``, read when it is made
    (None is no default: a target given as None is refused, as any other non-number)."""

    def __repr__(self) -> str:
        return "rules.expert_target"


_RULES_TARGET: Any = _RulesTarget()


@dataclass(frozen=True)
class ExpertMatch:
    """Immutable running totals of one match of 2 to 6 players (no game seats more); ``add``
    returns the match after one more game. ``rules`` (keyword only, any form ``Rules.of``
    reads; today's by default) gives the target, ``expert_target``, unless ``target`` is
    given; the match keeps the target, not the rules."""

    n_players: int
    target: int = _RULES_TARGET
    totals: tuple[int, ...] = ()
    games: int = 0
    _: KW_ONLY
    rules: InitVar[Any] = None

    def __post_init__(self, rules: Any) -> None:
        rules = Rules.of(rules)  # read even beside a target: bad rules are refused, not ignored
        if self.target is _RULES_TARGET:
            object.__setattr__(self, "target", rules.expert_target)
        n = _whole(self.n_players, "n_players")
        if n < 2:
            said = shown(n, typed=False)
            raise ValueError(f"a match is played by at least 2 players, got n_players={said}")
        if n > MAX_PLAYERS:  # no game seats more; a huge count would fill memory with totals
            said = shown(n, typed=False)
            raise ValueError(
                f"a match is played by at most {MAX_PLAYERS} players, got n_players={said}"
            )
        target = _whole(self.target, "target")
        if target < 1:
            said = shown(target, typed=False)
            raise ValueError(f"the match target must be at least 1 point, got {said}")
        object.__setattr__(self, "n_players", n)
        object.__setattr__(self, "target", target)
        totals = tuple(_whole(t, "each total") for t in self.totals) or (0,) * n
        if len(totals) != n:
            raise ValueError("totals must have one entry per player")
        if min(totals) < 0:
            raise ValueError(f"totals cannot be negative, got {_negative_said(totals)}")
        object.__setattr__(self, "totals", totals)

    def add(self, scores: Sequence[int]) -> ExpertMatch:
        """The match after a game scoring ``scores`` (one whole number >= 0 per seat)."""
        if self.is_over:
            raise ValueError("the match is over")
        if isinstance(scores, str) or not isinstance(scores, Iterable):
            raise TypeError(
                f"scores must be a list of {self.n_players} points, got {shown(scores)}"
            )
        points = tuple(_whole(s, "each score") for s in scores)
        if len(points) != self.n_players:
            raise ValueError(f"expected {self.n_players} scores, got {len(points)}")
        if any(s < 0 for s in points):
            raise ValueError("scores cannot be negative")
        totals = tuple(t + s for t, s in zip(self.totals, points, strict=True))
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
