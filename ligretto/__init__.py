"""ligretto: the rules of Ligretto, its real-time model, and a compiled round loop.

Everyone plays at once: ``State`` (immutable) and ``PlayerView`` hold a round and what one seat
sees; ``engine.play_round`` plays a round of ``Player`` objects in real time (Python path);
``compiled.play_rounds`` plays many rounds of policy vectors in numba (tournament path);
``record`` writes and replays round records; ``match`` plays games to a target.
"""

from __future__ import annotations

from .engine import Decision, Player, PlayerError, RoundOutcome, play_round
from .record import RecordError, RoundRecord, replay, timeline
from .rules import card_id, card_name, colour_of, row_size, score, value_of
from .state import IllegalMove, PlayerView, State, deal_orders
from .timing import ReactionModel

__version__ = "0.1.0"

__all__ = [
    "Decision",
    "IllegalMove",
    "Player",
    "PlayerError",
    "PlayerView",
    "ReactionModel",
    "RecordError",
    "RoundOutcome",
    "RoundRecord",
    "State",
    "card_id",
    "card_name",
    "colour_of",
    "deal_orders",
    "play_round",
    "replay",
    "row_size",
    "score",
    "timeline",
    "value_of",
]
