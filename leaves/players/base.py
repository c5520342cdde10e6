"""``Strategy``, the player of 13 Leaves: ``choose`` over a ``PlayerView`` and the legal
actions, hooks at the start and end of a game, an optional compiled policy. It is the shared
``strategies.Player`` with this game's protocol; ``strategies.Strategy`` names it too (the
default game's players' base class).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from strategies.base import DEFAULT_CLASSIFIER, Player, play_own_code

if TYPE_CHECKING:
    from leaves import Action, PlayerView

__all__ = ["Strategy"]


class Strategy(Player):
    """Base class of a 13 Leaves player: implement ``choose``; the classifier has the keys
    ``stochastic``, ``uses_card_counting``, ``search`` and ``compiled`` (default False)."""

    game: ClassVar[str] = "leaves"
    classifier: ClassVar[dict[str, Any]] = dict(DEFAULT_CLASSIFIER)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        play_own_code(cls, Strategy, "compiled", ("choose", "start_game", "end_game"))

    # ------------------------------------------------------------------ the protocol
    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        """Pick one of ``legal`` (never empty) for the position ``view`` describes.

        ``rng`` is the only source of randomness a strategy may use, so games replay exactly.
        """
        raise NotImplementedError(f"{type(self).__qualname__} must implement choose()")

    def start_game(self, view: PlayerView, rng: np.random.Generator) -> None:
        """Hook called once per game before the first move, with this seat's initial view.

        Batches and tournaments give every game a fresh instance (``leaves.players.play.fresh``:
        the class rebuilt from ``params``), so nothing stored on ``self`` outlives a game.
        """

    def end_game(self, view: PlayerView, result: Any) -> None:
        """Hook called once per game after the end, with this seat's final view and the
        public result (``strategies.PublicResult``: winner, cards left, turns; no hands)."""

    def compiled(self) -> tuple[int, np.ndarray] | None:
        """(policy kind id, float64 parameters) for the compiled batch loop, or None."""
        return None
