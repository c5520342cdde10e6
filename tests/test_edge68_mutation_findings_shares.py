"""A declared share of one unit, worked by hand: a Ligretto run of one round and no blockade
says it of "the one round", never of "none of the 1 rounds"; one ended by a blockade is 100%."""

from __future__ import annotations

import pandas as pd

from ligretto.plugin import LigrettoGame
from reports.declared import outcomes
from reports.findings import _outcomes
from reports.loading import games_from_frame
from tournaments.declaration import Declaration

D = Declaration.of(LigrettoGame())


def _said(blockade: bool) -> str:
    """The blockade finding of a two-player run of one round of 30 seconds."""
    frame = pd.DataFrame({
        "seat_0": ["a"], "seat_1": ["b"], "score_0": [5], "score_1": [-3], "n_players": [2],
        "winner_seat": [0], "seconds": [30], "plays": [10], "time_ms": [30_000],
        "unfinished": [False], "blockade": [blockade],
    })  # fmt: skip
    (found,) = _outcomes(outcomes(games_from_frame(frame, D)), D)
    return found.text


def test_one_round_without_a_blockade_is_not_the_one_and_with_one_is_all():
    """One round is one deal: too few for an interval."""
    few = "round (too few deals for an interval)."
    assert _said(False) == "Rounds ended by blockade: not the one " + few
    assert _said(True) == "Rounds ended by blockade: 100% of 1 " + few
