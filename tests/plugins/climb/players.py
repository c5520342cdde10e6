"""Climb's strategies, in Climb's own strategy registry (``strategies.get("low", game="climb")``)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from strategies import Player

from .rules import PASS


class ClimbPlayer(Player, register=False):
    """A Climb strategy: ``move(hand, top, legal, rng)`` returns one of ``legal`` (0: pass)."""

    game: ClassVar[str] = "climb"
    classifier: ClassVar[dict[str, Any]] = {"stochastic": False}

    def move(self, hand: tuple[int, ...], top: int, legal: tuple[int, ...],
             rng: np.random.Generator) -> int:  # fmt: skip
        raise NotImplementedError


class Low(ClimbPlayer):
    name = "low"
    description = "plays its lowest card that is high enough; passes only when it must"

    def move(self, hand, top, legal, rng):
        cards = [c for c in legal if c != PASS]
        return cards[0] if cards else PASS


class High(ClimbPlayer):
    name = "high"
    description = "plays its highest card, to take the lead"

    def move(self, hand, top, legal, rng):
        return legal[-1]


class Patient(ClimbPlayer):
    name = "patient"
    description = "passes unless a card within reach of the top is in hand"

    def __init__(self, reach: int = 2):
        pass

    def move(self, hand, top, legal, rng):
        close = [c for c in legal if c != PASS and c - top <= self.params["reach"]]
        return close[0] if close else legal[0]


class Random(ClimbPlayer):
    name = "random"
    description = "any legal move, uniformly"
    classifier = {"stochastic": True}

    def move(self, hand, top, legal, rng):
        return int(legal[int(rng.integers(len(legal)))])


class Crash(ClimbPlayer):
    name = "crash"
    description = "plays like low, but raises on a 9 on the table (a broken strategy)"

    def move(self, hand, top, legal, rng):
        if top == 9:
            raise RuntimeError("crash on a 9")
        return Low().move(hand, top, legal, rng)
