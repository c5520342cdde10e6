"""Shared plumbing of the built-in strategies: one compiled policy, two ways to call it.

A built-in module holds, side by side, the parameter declaration (``declare(Param(...))``),
the numba policy kernel that reads them by name and the ``Strategy`` class. The class gets its
constructor, validation and parameter vector from the declaration, so they cannot disagree
with the kernel. ``compiled()`` hands (kind, vector) to the compiled loops; ``choose`` builds
the board its view's owner may see (``leaves.board.public_board``) and calls the very same
kernel through ``leaves.players.compiled.dispatch``, so both paths decide alike.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from leaves import Action, PlayerView
from leaves.players.base import Strategy
from strategies.policy.params import ParamSet, declare


def _set_vector(strategy: CompiledBuiltin, values: dict[str, Any]) -> None:
    """The checked parameters as the vector the kernel reads."""
    strategy._vector = strategy.PARAMS.vector(values)


def _calling_super(cls: type[CompiledBuiltin], init: Callable[..., None]) -> Callable[..., None]:
    """A subclass's own ``__init__``, refusing in one line to build an instance it left
    without the built-in's policy vector (no ``super().__init__(...)``): every game would
    otherwise end at the first decision on a bare AttributeError. Its signature stays the
    subclass's (``inspect.signature`` follows ``__wrapped__``)."""

    @functools.wraps(init)
    def __init__(self: CompiledBuiltin, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if not hasattr(self, "_vector"):
            raise TypeError(_no_super(cls))

    return __init__


def _no_super(cls: type[CompiledBuiltin]) -> str:
    """Why an instance of ``cls`` cannot play, and the call its ``__init__`` lacks."""
    parent = next(b for b in cls.__mro__[1:] if issubclass(b, CompiledBuiltin))
    own = inspect.signature(cls.__init__).parameters
    kept = [p.name for p in parent.PARAMS if p.name in own]
    call = ", ".join(f"{k}={k}" for k in kept)
    return (
        f"{cls.__qualname__}.__init__ does not call super().__init__({call}), so the built-in "
        f"{parent._display_name()} it extends has no policy to play; add that call to it"
    )


def in_kind_order(*classes: type[CompiledBuiltin]) -> tuple[type[CompiledBuiltin], ...]:
    """``classes`` as the built-ins' list, each class's ``kind`` set to its place in it."""
    for kind, cls in enumerate(classes):
        cls.kind = kind
    return classes


class CompiledBuiltin(Strategy, register=False):
    """Base of the built-ins: subclasses set ``PARAMS`` (their ``declare(...)``) and
    ``policy`` (the kernel); ``kind``, their index in ``BUILTINS``, is set there.

    Deterministic built-ins draw nothing from ``rng``; stochastic ones seed the kernel RNG of
    the policy from ``rng.integers(2**63)`` once per decision.
    """

    kind: ClassVar[int]
    PARAMS: ClassVar[ParamSet] = declare()
    policy: ClassVar[Any]
    classifier: ClassVar[dict[str, Any]] = {
        "stochastic": False,
        "uses_card_counting": False,
        "search": False,
        "compiled": True,
    }

    _vector: np.ndarray

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "__init__" not in cls.__dict__:  # a user's subclass may write its own, which calls
            cls.__init__ = cls.PARAMS.constructor(_set_vector)  # this one; before Strategy reads it
        else:
            cls.__init__ = _calling_super(cls, cls.__dict__["__init__"])
        if "tunable" not in cls.__dict__:  # the tuner's ranges come from the same declaration
            cls.tunable = cls.PARAMS.tunable()
        super().__init_subclass__(**kwargs)

    def compiled(self) -> tuple[int, np.ndarray]:
        return self.kind, self._vector.copy()

    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        """The kernel's move, as ``Strategy.choose`` plays ``compiled()``'s, but from the
        built-in's own vector: a subclass whose own ``start_game`` or ``end_game`` gave up the
        compiled policy (``compiled()`` is then None) still chooses as its parent."""
        from ..compiled.bridge import decide_view  # circle: the bridge imports every built-in

        seed = int(rng.integers(2**63)) if self.classifier["stochastic"] else 0
        return Action.from_id(decide_view(self.kind, self._vector, view, seed))
