"""The search space: a strategy's tunable parameters mapped onto the unit cube.

CMA-ES works best when every coordinate has a similar scale, so each parameter's declared
range becomes [0, 1]; decoding rounds to a thousandth of the range (integers to integers),
which keeps spec strings readable and loses nothing a tournament could measure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from strategies import Tunable

__all__ = ["Space", "RESOLUTION"]

RESOLUTION = 1000
"""Decoded values are rounded to (high - low) / RESOLUTION, at least."""


def _decimals(low: float, high: float) -> int:
    step = (high - low) / RESOLUTION
    return max(0, -math.floor(math.log10(step)))


class Space:
    """Unit-cube coordinates <-> parameter values for ``params`` (from ``strategies.tunables``)."""

    def __init__(self, params: Sequence[Tunable]):
        if not params:
            raise ValueError("nothing to tune: the strategy declares no tunable parameters")
        self.params = tuple(params)
        self.names = tuple(p.name for p in self.params)
        self.low = np.array([p.low for p in self.params])
        self.high = np.array([p.high for p in self.params])

    @property
    def dim(self) -> int:
        return len(self.params)

    def units(self) -> dict[str, float]:
        """Each parameter's rounding unit: what ``decode`` rounds it to (1 for integers)."""
        return {
            p.name: 1.0 if p.integer else 10.0 ** -_decimals(p.low, p.high) for p in self.params
        }

    def start(self) -> np.ndarray:
        """The starting values (those of the spec being tuned) as unit-cube coordinates."""
        return self.encode({p.name: p.value for p in self.params})

    def encode(self, values: dict[str, Any]) -> np.ndarray:
        """Parameter values -> coordinates in [0, 1]."""
        x = np.array([float(values[n]) for n in self.names])
        return (x - self.low) / (self.high - self.low)

    def decode(self, x: Sequence[float]) -> dict[str, float | int]:
        """Coordinates -> parameter values, clipped to their ranges and rounded."""
        arr = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
        values = self.low + arr * (self.high - self.low)
        out: dict[str, float | int] = {}
        for p, v in zip(self.params, values, strict=True):
            if p.integer:
                out[p.name] = p.clip(v)
            else:
                out[p.name] = float(p.clip(round(float(v), _decimals(p.low, p.high))))
        return out
