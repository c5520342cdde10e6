"""strategies: players of 13 Leaves, their registry, conformance checks and batch play.

``Strategy`` is the base class; ``get(spec)`` builds one from a name or spec string,
``names()``/``filtered(**classifier)`` list them, ``play_game``/``play_batch``/
``play_match_batch`` play them, ``testing.check_strategy`` checks a user's own strategy.
"""

from __future__ import annotations

import importlib

from . import builtin  # noqa: F401  (the built-ins register themselves)
from .base import Player, Strategy
from .batch import BatchResult, play_batch, play_seatings
from .matches import MatchBatchResult, play_match_batch
from .play import GameResult, PublicResult, fresh, play_game
from .registry import declare_game, defer, filtered, get, names, register
from .tunable import Tunable, spec_with, tunables

# Both load numba at import: they register on first use (a plain run never needs them).
defer("strategies.ismcts", ("ismcts",))
# Ligretto's strategies, in their own registry (the id its plug-in declares)
declare_game("ligretto", "Ligretto", "leaves.ligretto_strategies", ("strategies.ligretto",))

__all__ = [
    "BatchResult",
    "GameResult",
    "MatchBatchResult",
    "Player",
    "PublicResult",
    "Strategy",
    "Tunable",
    "filtered",
    "fresh",
    "get",
    "names",
    "play_batch",
    "play_game",
    "play_match_batch",
    "play_seatings",
    "register",
    "spec_with",
    "testing",
    "tunables",
]


def __getattr__(name: str):
    # ``strategies.testing`` imports hypothesis, ``ismcts`` and ``ligretto`` numba: each loads
    # on first use only.
    if name in ("testing", "ismcts", "ligretto"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
