"""leaves: the rules core of 13 Leaves, fast immutable states and compiled kernels."""

from __future__ import annotations

from .actions import ALL_ACTIONS, Action, IllegalActionError
from .expert import ExpertMatch, game_scores
from .record import GameRecord, read_records, replay
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
    "ExpertMatch",
    "GameRecord",
    "HAND_SIZES",
    "IllegalActionError",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "N_ACTIONS",
    "N_VALUES",
    "PlayerView",
    "State",
    "TURN_LIMIT",
    "game_scores",
    "read_records",
    "replay",
    "new_game",
    "__version__",
]
