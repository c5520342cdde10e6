"""``weighted``: a linear scorer whose weights tournaments can tune."""

from __future__ import annotations

from .. import compiled as C
from ._base import CompiledBuiltin, as_float

PLAY_FEATURES = ("shed", "keep", "end", "extreme", "threat", "near_win")
TAKE_FEATURES = ("pass", "take_group", "take_harm", "take_extreme")


class WeightedStrategy(CompiledBuiltin):
    """Scores every legal action as a feature vector dotted with a weight vector (the
    constructor parameters) and plays the best (ties to the lowest action id; a play that
    empties the hand is always chosen). Play (v, k) features: ``shed`` = k; ``keep`` = cards of
    v left in hand; ``end`` = size of the end stack it makes; ``extreme`` = |v - 7|; ``threat``
    = values that could answer the new ends, by counting unseen and known cards (as
    ``counter``); ``near_win`` = 1 if an end would be small enough for the shortest hand still
    in the round to go out. Pass-taking-t features: ``pass`` = 1 (a bias: how willing it is to
    pass while it could play); ``take_group`` = cards of t held; ``take_harm`` = change of the
    smaller end size (as ``taker``); ``take_extreme`` = |t - 7|. Weights are named ``w_<feature>``.
    """

    name = "weighted"
    description = "linear score of action features with tunable weights"
    kind = C.WEIGHTED
    classifier = {"uses_card_counting": True}

    def __init__(
        self,
        w_shed: float = -0.5,
        w_keep: float = -4.0,
        w_end: float = -0.8,
        w_extreme: float = -0.4,
        w_threat: float = -0.15,
        w_near_win: float = -2.0,
        w_pass: float = -13.0,
        w_take_group: float = 1.2,
        w_take_harm: float = 0.0,
        w_take_extreme: float = 0.2,
    ) -> None:
        given = locals()
        self.weights = [
            as_float(self.name, f"w_{f}", given[f"w_{f}"]) for f in PLAY_FEATURES + TAKE_FEATURES
        ]

    def _vector(self) -> list[float]:
        return self.weights
