"""``Strategy``, the player of 13 Leaves: ``choose`` over a ``PlayerView`` and the legal
actions, hooks at the start and end of a game, an optional compiled policy (which chooses too,
where a class has no ``choose`` of its own). A class with neither cannot play: its
``cannot_play`` says why, and it is refused when it registers or is used in a game or a run.
It is the shared ``strategies.Player`` with this game's protocol; ``strategies.Strategy`` names
it too (the default game's players' base class).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from leaves.actions import Action
from strategies.base import (
    DEFAULT_CLASSIFIER,
    Player,
    decides_below_its_policy,
    play_own_code,
    refuse_unplayable,
)

if TYPE_CHECKING:
    from leaves import PlayerView

__all__ = ["Strategy"]

HOOKS = ("choose", "start_game", "end_game")
"""The methods the plain-Python path plays by: one defined below the class whose ``compiled``
policy a class inherits makes it play by its own code (``strategies.base.play_own_code``)."""


class Strategy(Player):
    """Base class of a 13 Leaves player: implement ``choose`` (or ``compiled``, whose policy
    then chooses); the classifier has the keys ``stochastic``, ``uses_card_counting``,
    ``search`` and ``compiled`` (default False)."""

    game: ClassVar[str] = "leaves"
    classifier: ClassVar[dict[str, Any]] = dict(DEFAULT_CLASSIFIER)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "name" in cls.__dict__ and kwargs.get("register", True):
            refuse_unplayable(cls)  # before play_own_code takes a policy away
        super().__init_subclass__(**kwargs)
        play_own_code(cls, Strategy, "compiled", HOOKS)

    @classmethod
    def cannot_play(cls) -> str | None:
        """Why the class cannot play, in words: it implements neither ``choose`` nor a
        ``compiled`` policy (or gives up the one it inherits by a hook of its own), so the
        base's ``choose`` raises at its first move and it forfeits every game; None when it
        plays. Its registration is refused, and so is its use in a game or a run
        (``leaves.players.play.playing``), before any game is played."""
        if not callable(getattr(cls, "choose", None)):
            return "its choose is no method"
        if cls.choose is not Strategy.choose:
            return None
        gave_up = _gives_up_its_policy(cls)
        if cls.compiled is not Strategy.compiled and not gave_up:
            return None
        why = "it implements no choose(view, legal, rng), nor a compiled policy"
        if gave_up:
            return f"{why} (its own start_game or end_game gives up the one it inherits)"
        return why

    # ------------------------------------------------------------------ the protocol
    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        """Pick one of ``legal`` (never empty) for the position ``view`` describes.

        ``rng`` is the only source of randomness a strategy may use, so games replay exactly.
        Here: the move of the ``compiled`` policy, so that a class with a policy and no
        ``choose`` plays at a table with a plain-Python seat (every seat plays by ``choose``
        there) as it plays in the compiled loop; a stochastic one seeds the kernel from ``rng``.
        """
        policy = self.compiled()
        if policy is None:
            raise NotImplementedError(f"{type(self).__qualname__} must implement choose()")
        from leaves.players.compiled.bridge import decide_view  # start-up: numba or the C engine

        kind, params = policy
        seed = int(rng.integers(2**63)) if self.classifier["stochastic"] else 0
        return Action.from_id(decide_view(int(kind), params, view, seed))

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


def _gives_up_its_policy(cls: type[Strategy]) -> bool:
    """Does ``cls`` inherit a ``compiled`` policy that a hook of its own takes away, before
    ``play_own_code`` does (a hook below the policy) or after (the base's put back)?"""
    own = [k for k in cls.__mro__[: cls.__mro__.index(Strategy)] if "compiled" in vars(k)]
    if not own:
        return False
    return own[0].__dict__["compiled"] is Strategy.compiled or decides_below_its_policy(
        cls, "compiled", HOOKS
    )
