"""``counter``: the card-counting heuristic."""

from __future__ import annotations

from .. import compiled as C
from ._base import CompiledBuiltin, as_float


class CounterStrategy(CompiledBuiltin):
    """Counts cards: it tracks every card it has seen (own hand, table, cards removed at round
    ends, cards opponents are known to hold from their takes) and so knows the unseen remainder
    (``PlayerView.unseen()``). For each legal play it computes the ends the table would have
    and the threat: how many values could still answer them, a value counting when the unseen
    copies plus what an opponent in the round is known to hold reach the end's size (the
    rulebook's "only one 6 is left" reasoning). Score = cards shed - ``threat_weight`` x threat
    - ``keep_weight`` x cards of that value kept + ``safe_bonus`` if nothing can answer -
    ``near_win_penalty`` if an end would be small enough for the shortest hand in the round to
    go out. Best score wins (ties to the lowest id); a play that empties its hand always wins;
    a forced pass takes the value it holds most of.
    """

    name = "counter"
    description = "counts unseen cards and plays ends opponents are unlikely to answer"
    kind = C.COUNTER
    classifier = {"uses_card_counting": True}

    def __init__(
        self,
        threat_weight: float = 0.3,
        keep_weight: float = 6.0,
        safe_bonus: float = 2.8,
        near_win_penalty: float = 5.9,
        shed_weight: float = -1.8,
    ) -> None:
        n = self.name
        self.weights = [
            as_float(n, "threat_weight", threat_weight),
            as_float(n, "keep_weight", keep_weight),
            as_float(n, "safe_bonus", safe_bonus),
            as_float(n, "near_win_penalty", near_win_penalty),
            as_float(n, "shed_weight", shed_weight),
        ]

    def _vector(self) -> list[float]:
        return self.weights
