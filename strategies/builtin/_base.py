"""Shared plumbing of the built-in strategies: one compiled policy, two ways to call it.

A built-in is a numba policy (``strategies.compiled``) plus a parameter vector. ``compiled()``
hands both to the compiled batch loop; ``choose`` builds a board holding only what the view's
owner may see and calls the very same policy, so the Python and compiled paths decide alike.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from leaves import Action, PlayerView

from .. import compiled as C
from ..base import Strategy


def as_float(strategy: str, name: str, value: Any) -> float:
    """``value`` as a finite float, or a one-line ValueError naming the parameter."""
    try:
        if isinstance(value, bool):
            raise TypeError
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{strategy}: parameter {name} must be a number, got {value!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{strategy}: parameter {name} must be finite, got {value!r}")
    return x


class CompiledBuiltin(Strategy, register=False):
    """Base of the built-ins: subclasses set ``kind`` and return their parameters in ``_vector``.

    Deterministic built-ins draw nothing from ``rng``; stochastic ones seed the kernel RNG of
    the policy from ``rng.integers(2**63)`` once per decision.
    """

    kind: ClassVar[int]
    classifier: ClassVar[dict[str, Any]] = {
        "stochastic": False,
        "uses_card_counting": False,
        "search": False,
        "compiled": True,
    }

    def _vector(self) -> list[float]:
        """The policy's float parameters, in the order the policy reads them."""
        return []

    def compiled(self) -> tuple[int, np.ndarray]:
        vec = np.zeros(C.N_PARAMS, dtype=np.float64)
        values = self._vector()
        vec[: len(values)] = values
        return self.kind, vec

    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        kind, params = self.compiled()
        seed = int(rng.integers(2**63)) if self.classifier["stochastic"] else 0
        return Action.from_id(C.decide_view(kind, params, view, seed))
