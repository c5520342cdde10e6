"""ligretto: the rules of Ligretto, its real-time model, and a compiled round loop.

Everyone plays at once: ``State`` (immutable) and ``PlayerView`` hold a round and what one seat
sees; ``engine.play_round`` plays a round of ``Player`` objects in real time (Python path);
``compiled.play_rounds`` plays many rounds of policy vectors compiled (tournament path: the
C engine, ``cengine``, else the numba kernels of ``round_loop``);
``record`` writes and replays round records; ``match`` plays games to a target.

The names below are imported on first use (PEP 562): reading the rules' constants
(``ligretto.rules``), as the game's plug-in does when a command lists the installed games,
loads no numba; nor does playing, where the C engine is there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekit.lazy_exports import by_module, lazy_exports

__version__ = "0.1.0"

PLAY_VERSION = "1"
"""The version of how Ligretto plays from a seed here: its rules, the deal, the reaction model,
the engines (the Python path, the numba kernels, the C engine) and the built-in strategies
(``ligretto.players``). Bump it by hand, in the change itself, when any of them makes a seed
play otherwise (another card dealt, action taken, time or score): a run's manifest records it
(``ligretto play``) and a resume refuses a run another play version played, whose new rounds
would be summed with rounds played otherwise. A release that plays alike keeps it, and so
resumes the runs of the releases before it."""

_EXPORTS = by_module({
    ".engine": ("Decision", "Player", "PlayerError", "RoundOutcome", "play_round"),
    ".record": ("RecordError", "RoundRecord", "replay", "timeline"),
    ".rules": ("card_id", "card_name", "colour_of", "row_size", "score", "value_of"),
    ".state": ("IllegalMove", "PlayerView", "State", "deal_orders"),
    ".timing": ("ReactionModel",),
})  # fmt: skip

__all__ = [*_EXPORTS, "PLAY_VERSION", "__version__"]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)


if TYPE_CHECKING:  # what type checkers and editors see
    from .engine import Decision, Player, PlayerError, RoundOutcome, play_round
    from .record import RecordError, RoundRecord, replay, timeline
    from .rules import card_id, card_name, colour_of, row_size, score, value_of
    from .state import IllegalMove, PlayerView, State, deal_orders
    from .timing import ReactionModel
