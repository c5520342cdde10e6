"""The built-in Ligretto players: what they attend to, and how fast they are.

Each is a policy vector (``ligretto.policy``) run by the compiled round loop and, through the
same compiled function, by the Python path. They differ in *attention* (which of their own
face-up cards they look at first, whether they hold back a 1 that mostly helps others) and
all share the timing parameters, so ``stack:speed=1.1`` against ``scanner`` asks whether being
10% faster beats playing smarter. Looking at a card costs ``look_ms``: a player that looks at
its whole row before its stack is thorough but slower.
"""

from __future__ import annotations

import numpy as np

from ligretto.policy import N_PARAMS, ORDERS

from .base import LigrettoStrategy

__all__ = ["StackFirst", "RowMover", "HandCycler", "Cautious", "Scanner"]


class _Policy(LigrettoStrategy, register=False):
    order = "stack"
    cautious = False
    classifier = {"compiled": True}

    def _vector(self, patience: int = 0) -> np.ndarray:
        p = self._params
        v = np.zeros(N_PARAMS)
        v[:5] = [p["speed"], p["think_ms"], p["look_ms"], p["flip_ms"], p["spread_ms"]]
        v[5] = ORDERS[self.order]
        v[6] = 1.0 if self.cautious else 0.0
        v[7] = patience
        return v

    def _check(self) -> None:
        self.reaction  # noqa: B018 - validates the timing parameters

    def policy(self) -> np.ndarray:
        return self._vector()


class StackFirst(_Policy):
    name = "stack"
    description = "empties the Ligretto stack first: looks at its stack top, then row, then hand"
    order = "stack"

    def __init__(
        self,
        speed: float = 1.0,
        think_ms: int = 300,
        look_ms: int = 60,
        flip_ms: int = 250,
        spread_ms: int = 100,
    ):
        self._check()


class RowMover(_Policy):
    name = "row"
    description = "keeps the row moving: looks along its row first (each refill drains the stack)"
    order = "row"

    def __init__(
        self,
        speed: float = 1.0,
        think_ms: int = 300,
        look_ms: int = 60,
        flip_ms: int = 250,
        spread_ms: int = 100,
    ):
        self._check()


class HandCycler(_Policy):
    name = "cycler"
    description = "cycles the hand fast: looks at its hand-pile top first, then stack, then row"
    order = "hand"

    def __init__(
        self,
        speed: float = 1.0,
        think_ms: int = 300,
        look_ms: int = 60,
        flip_ms: int = 250,
        spread_ms: int = 100,
    ):
        self._check()


class Cautious(_Policy):
    name = "cautious"
    description = (
        "never starts a pile that mostly helps others: holds a 1 back unless it shows the 2 "
        "of that colour, for up to `patience` actions without a play"
    )
    order = "stack"
    cautious = True

    def __init__(
        self,
        speed: float = 1.0,
        think_ms: int = 300,
        look_ms: int = 60,
        flip_ms: int = 250,
        spread_ms: int = 100,
        patience: int = 6,
    ):
        if patience < 0:
            raise ValueError(f"patience must be at least 0, got {patience}")
        self._check()

    def policy(self) -> np.ndarray:
        return self._vector(self._params["patience"])


class Scanner(_Policy):
    name = "scanner"
    description = "looks at every own face-up card each time and plays one that fits at random"
    order = "scan"
    classifier = {"stochastic": True}

    def __init__(
        self,
        speed: float = 1.0,
        think_ms: int = 300,
        look_ms: int = 60,
        flip_ms: int = 250,
        spread_ms: int = 100,
    ):
        self._check()
