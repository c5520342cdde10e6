"""A tests-only strategy that raises at its first decision from turn 10: a forfeit to replay."""

from __future__ import annotations

from strategies import Strategy


class Boom(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        if view.turn >= 10:
            raise RuntimeError(f"boom at turn {view.turn}")
        return legal[0]
