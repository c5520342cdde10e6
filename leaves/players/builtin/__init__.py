"""The built-in strategies; importing this package registers them all.

Each module holds, for each built-in, its parameter declaration, its numba policy kernel and
its class (``_base.CompiledBuiltin``): the kernel runs in the compiled batch loop
(``leaves.players.compiled``) and, through ``choose``, on the Python path with the same decisions.
``BUILTINS`` is the one list of them: a built-in's place in it is its policy kind, the number
the compiled loops dispatch on (``leaves.players.compiled.dispatch``). Adding a compiled built-in
is its module and one line here; it plays through numba until it also has a C form
(``csrc/policies.h``, docs/architecture.md).
"""

from __future__ import annotations

from ._base import in_kind_order
from .counter import CounterStrategy
from .random_ import RandomStrategy
from .simple import (
    BlockerStrategy,
    GreedyStrategy,
    HighStrategy,
    LowStrategy,
    MinimalStrategy,
    PatientStrategy,
)
from .taker import TakerStrategy
from .weighted import PLAY_FEATURES, TAKE_FEATURES, WeightedStrategy

BUILTINS = in_kind_order(
    RandomStrategy,
    LowStrategy,
    HighStrategy,
    MinimalStrategy,
    GreedyStrategy,
    PatientStrategy,
    BlockerStrategy,
    CounterStrategy,
    TakerStrategy,
    WeightedStrategy,
)
"""Every built-in class, the baseline first; a class's place is its ``kind``."""

BEST_HEURISTIC = "weighted"
"""The strongest built-in that does no search (docs/strength.md): the default baseline of a
gauntlet and the strategy whose reasons a hint explains."""

__all__ = [
    "BEST_HEURISTIC",
    "BUILTINS",
    "BlockerStrategy",
    "CounterStrategy",
    "GreedyStrategy",
    "HighStrategy",
    "LowStrategy",
    "MinimalStrategy",
    "PLAY_FEATURES",
    "PatientStrategy",
    "RandomStrategy",
    "TAKE_FEATURES",
    "TakerStrategy",
    "WeightedStrategy",
]
