"""leaves: the rules core of 13 Leaves, fast immutable states and compiled kernels.

The names below are imported on first use (PEP 562): a command that needs only the compiled
loop, such as a tournament among built-ins, never loads the ``State`` machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekit.lazy_exports import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "ALL_ACTIONS": ".actions",
    "Action": ".actions",
    "IllegalActionError": ".actions",
    "ExpertMatch": ".expert",
    "game_scores": ".expert",
    "GameRecord": ".record",
    "read_records": ".record",
    "replay": ".record",
    "DECK": ".rules",
    "EXPERT_TARGET": ".rules",
    "HAND_SIZES": ".rules",
    "MAX_PLAYERS": ".rules",
    "MIN_PLAYERS": ".rules",
    "N_ACTIONS": ".rules",
    "N_VALUES": ".rules",
    "TURN_LIMIT": ".rules",
    "DEFAULT_RULES": ".ruleset",
    "Rules": ".ruleset",
    "State": ".state",
    "new_game": ".state",
    "PlayerView": ".view",
}

__all__ = [
    "ALL_ACTIONS",
    "Action",
    "DECK",
    "DEFAULT_RULES",
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
    "Rules",
    "State",
    "TURN_LIMIT",
    "game_scores",
    "read_records",
    "replay",
    "new_game",
    "__version__",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)


if TYPE_CHECKING:  # what type checkers and editors see
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
    from .ruleset import DEFAULT_RULES, Rules
    from .state import State, new_game
    from .view import PlayerView
