"""Our strategies' per-game hooks in the research adapters (``pettingzoo_policy``,
``StrategyBot``), kept as tournaments keep them: a fresh instance a seat a game, its
``start_game`` before its first decision and its ``end_game`` once, at the game's end.

An adapter sees a game only where it is asked to decide, so a seat's ``start_game`` gets its
view of the first position it is asked about (its first turn), and ``end_game`` comes where the
adapter sees the end; a game left before its end (a reset mid-game) gets none. The result
names the seats ``player_0`` .. ``player_{n-1}`` (``labels``): an adapter does not
know the other seats' strategies.
"""

from __future__ import annotations

import numpy as np

import leaves
from leaves import Action
from strategies import PublicResult, Strategy, fresh

__all__ = ["GameSeats", "public_result"]


def public_result(final: leaves.State, first: int, forfeit: int | None = None) -> PublicResult:
    """What every seat may know of the game ended at ``final`` (first player ``first``):
    ``forfeit`` is the seat whose illegal action ended it, as a forfeit ends a tournament's
    game (no winner)."""
    return PublicResult(
        labels=tuple(f"player_{seat}" for seat in range(final.n_players)),
        first_player=first,
        winner=None if forfeit is not None else final.winner,
        cards_left=final.hand_sizes,
        turns=final.turn,
        rounds=final.round,
        unfinished=forfeit is None and final.unfinished,
        forfeit_seat=forfeit,
    )


class GameSeats:
    """The strategies an adapter plays in one game: a fresh one a seat, started at the seat's
    first decision, every decision drawing from one generator fixed by ``seed`` (a game
    played again is the same game)."""

    def __init__(self, base: Strategy, seed: int | None):
        self._base = base
        self.rng = np.random.default_rng(seed)
        self._playing: dict[int, Strategy] = {}
        self.over = False

    def choose(self, state: leaves.State, seat: int) -> Action:
        """The seat's move at ``state`` (its strategy made and started first, if new)."""
        strategy = self._playing.get(seat)
        if strategy is None:
            strategy = self._playing[seat] = fresh(self._base)
            strategy.start_game(state.view(seat), self.rng)
        return strategy.choose(state.view(seat), tuple(state.legal_actions()), self.rng)

    def end(self, final: leaves.State, first: int, forfeit: int | None = None) -> None:
        """Every started seat's ``end_game`` with its view of ``final``, once a game."""
        if self.over or not self._playing:
            return
        self.over = True
        result = public_result(final, first, forfeit)
        for seat, strategy in self._playing.items():
            strategy.end_game(final.view(seat), result)
