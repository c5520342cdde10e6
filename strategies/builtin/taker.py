"""``taker``: the heuristic that passes well."""

from __future__ import annotations

from .. import compiled as C
from ._base import CompiledBuiltin, as_float


class TakerStrategy(CompiledBuiltin):
    """Takes smartly: it plays its smallest whole group (ties to the value nearest 7; a play
    that empties the hand always) and never passes while it can play, but when it must pass it scores every stack it may take
    from by ``group_weight`` x cards of that value already held (the card's worth to its own
    next round: a card joining a group is worth more than a new single) + ``harm_weight`` x the
    change of the smaller end's size for the opponents still in the round (taking from a big
    end makes it easier to answer, taking a lone end card can expose a bigger stack, emptying
    the table gives the next player a free lead) + ``extreme_weight`` x the value's distance
    from 7 (extremes block later). Highest score wins, ties to the lowest value.
    """

    name = "taker"
    description = "sheds small whole groups; takes the card best for itself and worst for opponents"
    kind = C.TAKER

    def __init__(
        self, group_weight: float = 2.0, harm_weight: float = 0.25, extreme_weight: float = 0.2
    ) -> None:
        n = self.name
        self.weights = [
            as_float(n, "group_weight", group_weight),
            as_float(n, "harm_weight", harm_weight),
            as_float(n, "extreme_weight", extreme_weight),
        ]

    def _vector(self) -> list[float]:
        return self.weights
