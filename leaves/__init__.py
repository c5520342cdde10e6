"""leaves: the rules core of 13 Leaves, fast immutable states and compiled kernels."""

from __future__ import annotations

from .actions import ALL_ACTIONS, Action, IllegalActionError
from .rules import (
    DECK,
    EXPERT_TARGET,
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_ACTIONS,
    N_VALUES,
    TURN_LIMIT,
)
from .state import State, new_game
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "ALL_ACTIONS",
    "Action",
    "DECK",
    "EXPERT_TARGET",
    "HAND_SIZES",
    "IllegalActionError",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "N_ACTIONS",
    "N_VALUES",
    "PlayerView",
    "State",
    "TURN_LIMIT",
    "new_game",
    "__version__",
]
