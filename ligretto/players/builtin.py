"""The built-in Ligretto players: what they attend to, and how fast they are.

Each is a policy vector (``ligretto.policy``) run by the compiled round loop and, through the
same compiled function, by the Python path. They differ in *attention* (which of their own
face-up cards they look at first, whether they hold back a 1 that mostly helps others) and
all share the timing parameters, so ``stack:speed=1.1`` against ``scanner`` asks whether being
10% faster beats playing smarter. Looking at a card costs ``look_ms``: a player that looks at
its whole row before its stack is thorough but slower.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import fields
from typing import Any, ClassVar

import numpy as np

from ligretto import Decision, PlayerView
from ligretto.policy import N_PARAMS, ORDERS, decide_view
from ligretto.rng import SplitMix
from ligretto.timing import MAX_MS, TIMING_PARAMS, ReactionModel
from strategies.policy.params import Param, ParamSet, declare

from .base import LigrettoStrategy

__all__ = ["StackFirst", "RowMover", "HandCycler", "Cautious", "Scanner", "TIMING"]

_DEFAULTS = {f.name: f.default for f in fields(ReactionModel)}
_TIMING = (
    Param("speed", _DEFAULTS["speed"], doc="1.1 is 10% faster, > 0"),  # > 0: _keep_params
    *(Param(name, _DEFAULTS[name], integer=True, low=0, high=MAX_MS) for name in TIMING_PARAMS[1:]),
)
TIMING = declare(*_TIMING)
"""The reaction-time parameters every built-in takes (defaults from ``ReactionModel``)."""


def _keep_params(strategy: _Policy, values: dict[str, Any]) -> None:
    """The checked parameters kept, speed > 0 (a ``Param`` bound is inclusive: one statement
    of the range for 0 and -1 alike); the timing model validates the rest itself. A refusal
    names the class as typed (``_display_name``): a subclass is not the built-in it extends."""
    if not values["speed"] > 0:
        name = type(strategy)._display_name()
        raise ValueError(f"{name}: parameter speed must be > 0, got {values['speed']}")
    strategy._params = values
    strategy.reaction  # noqa: B018


class _Policy(LigrettoStrategy, register=False):
    """A built-in: its attention ``order``, whether it is ``cautious``, and its parameters
    declared once in ``PARAMS`` (constructor, validation and label come from it)."""

    order = "stack"
    cautious = False
    classifier = {"compiled": True}
    PARAMS: ClassVar[ParamSet] = TIMING

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("__init__")  # a user's subclass may declare its own defaults
        # set before Strategy reads the signature:
        cls.__init__ = _checked(_declared(cls.PARAMS) if own is None else own)
        super().__init_subclass__(**kwargs)

    def policy(self) -> np.ndarray:
        return self._vector()

    def decide(self, view: PlayerView, rng: SplitMix) -> Decision:
        """The attention policy's decision through the Python path: a subclass with a clock of
        its own (``reaction``) gives up the compiled ``policy``, never these decisions."""
        return decide_view(self._vector(), view, rng)

    def _vector(self) -> np.ndarray:
        """The policy vector (``ligretto.policy``) of this player's parameters (the declared
        defaults where a subclass's own ``__init__`` leaves one out)."""
        p = {**self.PARAMS.defaults(), **self._params}
        v = np.zeros(N_PARAMS)
        v[:5] = [p[name] for name in TIMING_PARAMS]
        v[5] = ORDERS[self.order]
        v[6] = 1.0 if self.cautious else 0.0
        v[7] = p.get("patience", 0)
        return v


def _declared(params: ParamSet) -> Callable[..., None]:
    """The ``__init__`` of a class that declares none: the signature of its ``params``, and
    nothing else to do (``_checked`` checks and keeps the values, naming the class as typed,
    where ``ParamSet.constructor`` would name the built-in a subclass inherits its name from)."""

    def __init__(strategy: _Policy, *args: Any, **kwargs: Any) -> None:
        """Nothing: ``_checked`` does the work."""

    __init__.__signature__ = params.signature()  # type: ignore[attr-defined]
    return __init__


def _checked(own: Callable[..., None]) -> Callable[..., None]:
    """A class's ``__init__`` (a subclass's own, whose signature gives the defaults it
    declares, or ``_declared``), then its values checked as the declaration says, a refusal
    naming the class as typed (``_display_name``); parameters of its own kept."""

    @functools.wraps(own)
    def __init__(strategy: _Policy, *args: Any, **kwargs: Any) -> None:
        given = dict(strategy._params)  # bound to its own signature by Strategy.__new__
        own(strategy, *args, **kwargs)
        full = strategy.PARAMS.checked(type(strategy)._display_name(), given)
        _keep_params(strategy, full)
        strategy._params = {k: full.get(k, v) for k, v in given.items()}  # its own, checked

    return __init__


class StackFirst(_Policy):
    name = "stack"
    description = "empties the Ligretto stack first: looks at its stack top, then row, then hand"
    order = "stack"


class RowMover(_Policy):
    name = "row"
    description = "keeps the row moving: looks along its row first (each refill drains the stack)"
    order = "row"


class HandCycler(_Policy):
    name = "cycler"
    description = "cycles the hand fast: looks at its hand-pile top first, then stack, then row"
    order = "hand"


MAX_PATIENCE = 2**53
"""The largest patience: the policy vector is float64, exact up to 2**53 (a 400-digit one
overflowed it mid-run). Past a round's actions (``ligretto.rules.MAX_ACTIONS``) every value
plays alike; a run made with one of them still resumes and replays."""


class Cautious(_Policy):
    name = "cautious"
    description = (
        "never starts a pile that mostly helps others: holds a 1 back unless it shows the 2 "
        "of that colour, for up to `patience` actions without a play"
    )
    order = "stack"
    cautious = True
    PARAMS = declare(
        *_TIMING,
        Param(
            "patience", 6, integer=True, low=0, high=MAX_PATIENCE, doc="actions a 1 is held back"
        ),
    )


class Scanner(_Policy):
    name = "scanner"
    description = "looks at every own face-up card each time and plays one that fits at random"
    order = "scan"
    classifier = {"stochastic": True}
