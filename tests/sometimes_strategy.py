"""A tests-only Ligretto strategy that forfeits a round when a 6 tops its stack: a forfeit to
replay, by the Python API and from a file spec alike."""

from __future__ import annotations

from typing import Any

import ligretto
from ligretto.players import LigrettoStrategy


class Sometimes(LigrettoStrategy, register=False):
    """Plays its stack top when it fits, else turns hand cards; raises on a 6 on top."""

    def __init__(self, speed: float = 1.0):
        pass

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        if ligretto.value_of(view.stack_top) == 6:
            raise KeyError("a 6")
        pile = view.target(view.stack_top)
        if pile is not None:
            return ligretto.Decision("stack", 0, view.stack_top, pile, 1)
        return ligretto.Decision("flip" if view.can_flip else "wait", looked=1)
