"""leaves: the rules core of 13 Leaves, fast immutable states and compiled kernels.

The names below are imported on first use (PEP 562): a command that needs only the compiled
loop, such as a tournament among built-ins, never loads the ``State`` machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekit.lazy_exports import by_module, lazy_exports

__version__ = "0.1.0"

_EXPORTS = by_module({
    ".actions": ("ALL_ACTIONS", "Action", "IllegalActionError"),
    ".expert": ("ExpertMatch", "game_scores"),
    ".record": ("GameRecord", "read_records", "replay"),
    ".rules": ("DECK", "EXPERT_TARGET", "HAND_SIZES", "MAX_PLAYERS", "MIN_PLAYERS", "N_ACTIONS",
               "N_VALUES", "PLAY_VERSION", "TURN_LIMIT"),
    ".ruleset": ("DEFAULT_RULES", "Rules"),
    ".state": ("State", "new_game"),
    ".view": ("PlayerView",),
})  # fmt: skip

__all__ = [*_EXPORTS, "__version__"]


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
        PLAY_VERSION,
        TURN_LIMIT,
    )
    from .ruleset import DEFAULT_RULES, Rules
    from .state import State, new_game
    from .view import PlayerView
