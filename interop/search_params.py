"""The settings of the ``openspiel`` strategy (``interop.openspiel.OpenSpielAgent``), checked
before a search: each bad one refused in one line naming it."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from gamekit.errors import shown

from .variants import action_id

__all__ = ["check_search"]


def check_search(bot: Any, max_simulations: Any, uct_c: Any) -> None:
    """ValueError in one line for a bot other than ``ismcts`` or ``mcts``, a simulation count
    that is no whole number >= 1 (``1e9`` told how to write it) or an exploration constant
    that is no finite number >= 0 (nan would search on)."""
    if bot not in ("ismcts", "mcts"):
        raise ValueError(f"bot must be ismcts or mcts, got {shown(bot, typed=False)}")
    count = action_id(max_simulations)  # an int: int() would take 2.5 and "9"
    if count is None or count < 1:
        if _real(max_simulations) and max_simulations >= 1 and float(max_simulations).is_integer():
            raise ValueError(  # 1e9 is a float: say how to write it
                f"max_simulations must be a whole number >= 1 written as an int: "
                f"{shown(int(max_simulations), typed=False)}, "
                f"not {shown(max_simulations, typed=False)}"
            )
        raise ValueError(
            f"max_simulations must be a whole number >= 1, "
            f"got {shown(max_simulations, typed=False)}"
        )
    if not _real(uct_c) or not _finite(uct_c) or uct_c < 0:
        said = shown(uct_c, typed=False)
        raise ValueError(f"uct_c must be a number >= 0 and finite, got {said}")


def _real(value: Any) -> bool:
    """Whether ``value`` is a real number (numpy's included), not a bool or text."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def _finite(value: numbers.Real) -> bool:
    """Whether ``value`` is finite as the search's floats hold it: a whole number past a
    float's range (about 1.8e308) is not (``math.isfinite`` raised OverflowError on it)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
