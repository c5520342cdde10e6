"""What a seat's view tells of the deal behind a position of ``python_13_leaves``
(``interop.openspiel``), which a world drawn for that view is dealt and played out from."""

from __future__ import annotations

from typing import Any

import leaves
from leaves import PlayerView

__all__ = ["since_deal"]


def since_deal(world: leaves.State, view: PlayerView) -> tuple[list, int, list]:
    """What the deal and the moves since gave ``world`` (a state ``view`` cannot tell from its
    own): its hands as dealt, its first player, and its moves as (seat, action id) pairs (none
    known for a position built from its dict form, which keeps no moves)."""
    history = view.history
    first = history[0][0] if history else view.current_player
    return _as_dealt(world.hands, history), first, [(seat, a.id) for seat, a in history]


def _as_dealt(hands: Any, history: Any) -> list[list[int]]:
    """The hands as they were dealt: ``hands`` now with the public moves of ``history``
    ((seat, action) pairs) undone; only plays and takes change a hand."""
    dealt = [list(h) for h in hands]
    for seat, action in history:
        if action.is_play:
            dealt[seat][action.value - 1] += action.count
        elif action.taken is not None:
            dealt[seat][action.taken - 1] -= 1
    return dealt
