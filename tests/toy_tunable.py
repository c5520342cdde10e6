"""A tests-only strategy with a known best parameter, for the tuner.

``Toy(x)`` plays a compiled built-in chosen by the distance d = |x - 3|: ``low`` when d < 1,
``greedy`` when d < 2.5, else ``random``. Against random opponents these win about 94%, 84% and
25% of four-player games (docs/strength.md), so the win rate rises step by step towards x = 3
and every x in (2, 4) is best: a tuner started at the default (x = 5, ``greedy``) must end there.
"""

from __future__ import annotations

import strategies
from strategies import Strategy

BEST_X = 3.0
TOLERANCE = 1.0  # every x with |x - BEST_X| < TOLERANCE plays the best policy (low)
GREEDY_WITHIN = 2.5


class Toy(Strategy, register=False):
    classifier = {"stochastic": True, "compiled": True}
    tunable = {"x": (0.0, 10.0)}

    def __init__(self, x: float = 5.0):
        self.x = float(x)

    def _policy(self) -> Strategy:
        d = abs(self.x - BEST_X)
        if d < TOLERANCE:
            return strategies.get("low")
        return strategies.get("greedy" if d < GREEDY_WITHIN else "random")

    def compiled(self):
        return self._policy().compiled()

    def choose(self, view, legal, rng):
        return self._policy().choose(view, legal, rng)


class Inert(Strategy, register=False):
    """A tunable parameter that changes nothing: always plays the compiled ``greedy``."""

    classifier = {"stochastic": False, "compiled": True}
    tunable = {"knob": (0.0, 1.0)}

    def __init__(self, knob: float = 0.5):
        self.knob = float(knob)

    def compiled(self):
        return strategies.get("greedy").compiled()

    def choose(self, view, legal, rng):
        return strategies.get("greedy").choose(view, legal, rng)
