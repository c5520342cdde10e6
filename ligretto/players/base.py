"""``LigrettoStrategy``: the base class of a Ligretto player, registered per game.

Same ideas as 13 Leaves strategies (a name, a one-line description, a classifier, keyword
parameters with defaults that make labelled variants, spec strings, ``file.py:Class``, entry
points), in Ligretto's own registry: ``strategies.get("stack", game="ligretto")``. Every
Ligretto strategy has a reaction-time model: ``speed`` (1.1 = 10% faster), ``think_ms``,
``look_ms`` (per card looked at), ``flip_ms``, ``spread_ms``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ligretto import Decision, PlayerView, ReactionModel
from ligretto.policy import decide_view
from ligretto.rng import SplitMix
from ligretto.timing import TIMING_PARAMS
from strategies import Player, declare_game
from strategies.base import DEFAULT_CLASSIFIER, play_own_code, refuse_unplayable

__all__ = ["LigrettoStrategy", "GAME"]

GAME = "ligretto"
declare_game(GAME, "Ligretto", "leaves.ligretto_strategies")  # before any built-in registers


class LigrettoStrategy(Player, register=False):
    """Base class of a Ligretto player: implement ``decide`` (or ``policy`` for a built-in).

    Subclasses declare ``__init__`` keyword parameters that include the timing parameters
    (``ligretto.timing.TIMING_PARAMS``) with defaults; ``reaction`` is built from them.
    """

    game: ClassVar[str] = GAME
    classifier: ClassVar[dict[str, Any]] = dict(DEFAULT_CLASSIFIER)  # every standard key

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("__init__")
        if own is not None:  # before Player reads the signature (kept by functools.wraps)
            cls.__init__ = _timed(own)
        if "name" in cls.__dict__ and kwargs.get("register", True):
            # a round: its plug-in's unit; asked before play_own_code takes a policy away
            refuse_unplayable(cls, "round")
        super().__init_subclass__(**kwargs)
        own_policy = cls.policy is not LigrettoStrategy.policy
        decides_by = cls.policy if own_policy else cls._decides_by
        play_own_code(cls, LigrettoStrategy, "policy", ("decide", "reaction"))
        cls._decides_by = decides_by  # kept where its own clock took the compiled policy

    @classmethod
    def cannot_play(cls) -> str | None:
        """Why the class cannot decide, in words: it implements neither ``decide`` nor a
        ``policy``, so the base's ``decide`` raises at its first action and it forfeits every
        round; None when it decides. Its registration is refused, and so is its use
        (``ligretto.players.resolve``, ``ligretto.play_round``), before any round is played."""
        if not callable(getattr(cls, "decide", None)):
            return "its decide is no method"
        if cls.decide is not LigrettoStrategy.decide:
            return None
        if cls.policy is not LigrettoStrategy.policy or cls._decides_by is not cls.policy:
            return None
        return "it implements no decide(view, rng), nor a policy vector"

    @property
    def reaction(self) -> ReactionModel:
        """The reaction-time model from the timing parameters (defaults where absent)."""
        p = self._params
        kw = {k: p[k] for k in TIMING_PARAMS if k in p}
        return ReactionModel(**kw)

    def decide(self, view: PlayerView, rng: SplitMix) -> Decision:
        """The next action for ``view``; randomness only from ``rng`` (the seat's stream)."""
        policy = type(self)._decides_by(self)
        if policy is None:
            raise NotImplementedError(f"{type(self).__qualname__} must implement decide()")

        return decide_view(policy, view, rng)

    def policy(self) -> np.ndarray | None:
        """The policy vector (``ligretto.policy``) the compiled loop runs, or None."""
        return None

    _decides_by: ClassVar[Callable[[Any], np.ndarray | None]] = policy
    """The policy ``decide`` plays by: ``policy``, or the one a subclass with a ``reaction``
    of its own gave up to the Python path (the compiled loop would play the parent's clock)."""


def _timed(own: Callable[..., None]) -> Callable[..., None]:
    """A subclass's own ``__init__``, then its timing parameters checked where the model is
    built from them (``LigrettoStrategy.reaction``, not a model of its own): a speed of 0 is
    bad input, refused in one line naming the strategy as a built-in's is, never a model that
    raises in every round it plays (each then forfeit)."""

    @functools.wraps(own)
    def __init__(strategy: LigrettoStrategy, *args: Any, **kwargs: Any) -> None:
        own(strategy, *args, **kwargs)
        if type(strategy).reaction is LigrettoStrategy.reaction:
            try:
                strategy.reaction  # noqa: B018 - built to be checked
            except (TypeError, ValueError) as exc:
                name = type(strategy)._display_name()
                raise type(exc)(f"{name}: parameter {exc}") from None

    return __init__
