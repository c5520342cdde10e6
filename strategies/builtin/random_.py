"""``random``: the uniform baseline."""

from __future__ import annotations

from .. import compiled as C
from ._base import CompiledBuiltin


class RandomStrategy(CompiledBuiltin):
    """Uniform over the legal actions: each legal action id is equally likely (every stack one
    can take from is its own pass action), exactly as RULES.md defines random play, so
    baselines compare across implementations. It is the yardstick every other strategy is
    measured against; it passes often (one take per stack on the table) and so loses badly.
    """

    name = "random"
    description = "uniform over the legal action ids (the baseline)"
    kind = C.RANDOM
    classifier = {"stochastic": True}

    def __init__(self) -> None:
        pass
