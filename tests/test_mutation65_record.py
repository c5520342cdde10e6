"""What a game record makes plain and what it keeps as given, at the edge its other tests let
live (``benchmarks/bench_mutation.py leaves/record.py``): only numpy's values are read through
their ``tolist``; any other value that is no sequence is kept for replay to name."""

from __future__ import annotations

import pytest

from leaves import GameRecord
from leaves.players.play import play_game
from leaves.record import replay


class _Listed:
    """No numpy value and no sequence, but with a ``tolist`` as numpy's values have."""

    def __init__(self, items: list[int]) -> None:
        self.items = items

    def tolist(self) -> list[int]:
        return list(self.items)

    def __repr__(self) -> str:
        return "<listed>"


def test_a_value_with_a_tolist_that_is_not_numpys_is_kept_and_named_by_replay():
    record = play_game(["random", "low", "high"], seed=3, record=True).record
    d = record.to_dict()
    listed = _Listed(d["actions"])
    kept = GameRecord(**{**d, "actions": listed})
    assert kept.actions is listed  # read as a list of the game's actions, it would replay
    with pytest.raises(
        ValueError, match="^bad record: actions must be a list of action ids, got <listed>$"
    ):
        replay(kept)
    assert replay(GameRecord(**d))[-1].winner == record.winner
