"""The real-time model (Interpretation L5): how long one action of one player takes.

Ligretto has no turns, so every player acts on its own clock. A player decides at the moment
its previous action resolved, looking at the table as it is then; the action resolves after a
reaction time drawn from the player's model and the player's own time stream. Meanwhile faster
players may take the pile it aimed at: the play then fails and its time is spent.

Reaction time of one action, in integer milliseconds::

    base   = think_ms + look_ms * cards_looked_at (+ flip_ms to turn hand cards)
    time   = max(1, int(base / speed) + jitter),  jitter triangular in [-spread_ms, spread_ms]

``speed`` 1.1 is 10% faster than 1.0. Integer draws and one IEEE division keep the Python path
and the compiled path bit-identical.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

import numpy as np

from gamekit.jit import njit

from .rng import SplitMix, nb_below
from .rules import DEFAULT_SPEED, MAX_ROUND_MS, whole_number

__all__ = ["ReactionModel", "TIMING_PARAMS", "MAX_MS", "NEVER_MS"]

TIMING_PARAMS = ("speed", "think_ms", "look_ms", "flip_ms", "spread_ms")

MAX_MS = MAX_ROUND_MS
"""The most a millisecond parameter may be: a longer action never resolves within a round,
and the bound keeps a reaction time's sum exact on every path (the compiled one's int64 would
wrap, so a player that never acts in Python would act every millisecond there)."""
NEVER_MS = 2**62
"""The reaction time of an action whose ``base / speed`` reaches it (a speed near 0): past any
round, and the same on every path (int64 would wrap, Python's ``int`` of infinity raises)."""


@dataclass(frozen=True)
class ReactionModel:
    """A player's reaction-time model: mean speed, spread and the cost of looking at cards."""

    speed: float = DEFAULT_SPEED
    think_ms: int = 300
    look_ms: int = 60
    flip_ms: int = 250
    spread_ms: int = 100

    def __post_init__(self) -> None:
        speed = self.speed
        if isinstance(speed, bool) or not isinstance(speed, Real):
            raise TypeError(f"speed must be a number, got {speed!r}")
        if not speed > 0:  # nan too
            raise ValueError(f"speed must be > 0, got {speed}")
        if not _finite(speed):  # as a built-in's parameter: an infinite speed is no pace
            got = "an integer past the float range" if isinstance(speed, int) else speed
            raise ValueError(f"speed must be finite, got {got}")
        for name in TIMING_PARAMS[1:]:  # whole milliseconds: never truncated from 1.5
            ms = whole_number(getattr(self, name), name)
            if ms < 0:
                raise ValueError(f"{name} must be >= 0, got {ms}")
            if ms > MAX_MS:
                raise ValueError(f"{name} must be at most {MAX_MS} (a round's length), got {ms}")

    def duration(self, looked: int, flip: bool, rng: SplitMix) -> int:
        """Milliseconds one action takes (draws two numbers from ``rng``)."""
        base = self.think_ms + self.look_ms * looked + (self.flip_ms if flip else 0)
        spread = int(self.spread_ms)
        jitter = rng.below(spread + 1) + rng.below(spread + 1) - spread
        slow = base / float(self.speed)
        if slow >= NEVER_MS:
            return NEVER_MS
        return max(1, int(slow) + jitter)


def _finite(speed: Real) -> bool:
    """Is ``speed`` finite as the float every path divides by? (An integer past float's
    range is not: ``float`` of it raises, mid-round, where its seat would forfeit.)"""
    try:
        return math.isfinite(speed)
    except OverflowError:
        return False


T_SPEED, T_THINK, T_LOOK, T_FLIP, T_SPREAD = range(len(TIMING_PARAMS))
"""Where a float vector holds the model for ``nb_duration`` (a policy vector starts so)."""


@njit(cache=True)
def nb_duration(model, looked, flip, states, i):
    """``ReactionModel.duration`` with the model as a float vector (``T_*`` entries: the
    compiled twin)."""
    base = np.int64(model[T_THINK]) + np.int64(model[T_LOOK]) * looked
    if flip:
        base += np.int64(model[T_FLIP])
    spread = np.int64(model[T_SPREAD])
    jitter = nb_below(states, i, spread + 1) + nb_below(states, i, spread + 1) - spread
    slow = np.float64(base) / model[T_SPEED]
    if slow >= NEVER_MS:
        return np.int64(NEVER_MS)
    return max(np.int64(1), np.int64(slow) + jitter)
