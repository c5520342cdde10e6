"""Batches of games join and scatter one way (``gamekit.batches.PerGame``), and matches are
played by one loop (``gamekit.matches.play_waves``) for 13 Leaves and for any game."""

from __future__ import annotations

import numpy as np
import pytest

from gamekit.matches import play_waves
from leaves.players.batch import BatchResult, _empty_batch
from tournaments.game import SeatedBatch


def _seated(start: int, g: int, first: bool = True, shared: bool = False) -> SeatedBatch:
    """G games numbered from ``start``: every column says which game it is."""
    ids = np.arange(start, start + g)
    return SeatedBatch(
        first_player=(ids % 3).astype(np.int8) if first else None,
        winner_seat=(ids % 4).astype(np.int8),
        forfeit_seat=np.full(g, -1, np.int8),
        seat_values={"score": np.stack([ids, -ids], axis=1).astype(np.int16)},
        game_values={"turns": ids.astype(np.int32)},
        errors=[f"e{i}" for i in ids],
        winners=np.stack([ids % 2 == 0, ids % 2 == 1], axis=1) if shared else None,
    )


def _ids(batch: SeatedBatch) -> list[int]:
    ids = batch.game_values["turns"].tolist()
    assert batch.seat_values["score"][:, 0].tolist() == ids
    assert batch.seat_values["score"][:, 1].tolist() == [-i for i in ids]
    assert batch.errors == [f"e{i}" for i in ids]
    assert batch.winner_seat.tolist() == [i % 4 for i in ids]
    if batch.first_player is not None:
        assert batch.first_player.tolist() == [i % 3 for i in ids]
    if batch.winners is not None:
        assert batch.winners[:, 1].tolist() == [i % 2 == 1 for i in ids]
    return ids


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("shared", [True, False])
def test_concat_joins_every_column_and_reorders(first, shared):
    parts = [_seated(0, 3, first, shared), _seated(3, 2, first, shared)]
    joined = SeatedBatch.concat(parts)
    assert _ids(joined) == [0, 1, 2, 3, 4]
    assert (joined.first_player is None) == (not first)
    assert (joined.winners is None) == (not shared)
    again = SeatedBatch.concat(parts, np.array([4, 0, 3, 1, 2]))
    assert _ids(again) == [4, 0, 3, 1, 2]
    assert again.records is None


def test_concat_of_one_batch_is_that_batch():
    one = _seated(0, 4)
    assert SeatedBatch.concat([one]) is one
    assert _ids(SeatedBatch.concat([one], np.array([3, 2, 1, 0]))) == [3, 2, 1, 0]


def test_scatter_puts_each_batch_at_its_positions():
    # two seatings' games interleaved: seating 0 plays games 0, 2, 4; seating 1 games 1, 3
    parts = [_seated(10, 3), _seated(20, 2)]
    out = SeatedBatch.scatter(parts, [np.array([0, 2, 4]), np.array([1, 3])])
    assert _ids(out) == [10, 20, 11, 21, 12]


def test_batch_results_join_with_their_records():
    a, b = _empty_batch(2, 3), _empty_batch(1, 3)
    a.turns[:] = [5, 6]
    b.turns[:] = [7]
    a.records, b.records = ["r5", "r6"], ["r7"]
    joined = BatchResult.concat([a, b], np.array([2, 0, 1]))
    assert joined.turns.tolist() == [7, 5, 6] and joined.records == ["r7", "r5", "r6"]
    assert joined.cards_left.shape == (3, 3) and joined.cards_left.dtype == np.int16
    out = BatchResult.scatter([a, b], [np.array([0, 2]), np.array([1])])
    assert out.turns.tolist() == [5, 7, 6] and out.records == ["r5", "r7", "r6"]


# ----------------------------------------------------------------------------- play_waves
@pytest.fixture
def seeds_are_matches(monkeypatch):
    """Every game of match ``m`` is dealt and played from seed ``m``: a scripted game can see
    which match it plays."""
    import gamekit.matches as matches

    monkeypatch.setattr(matches, "match_deal_seeds", lambda seeds, j: seeds.copy())
    monkeypatch.setattr(matches, "match_play_seeds", lambda seeds, j: seeds.copy())


def _scripted(points: dict[int, list[list[int]]], played: list[list[int]] | None = None):
    """(play, score) of a game whose game ``j`` of match ``m`` scores ``points[m][j]``."""
    waves = played if played is not None else []

    def play(deal: np.ndarray, seeds: np.ndarray) -> SeatedBatch:
        j = len(waves)
        waves.append(deal.tolist())
        batch = _seated(0, len(deal))
        rows = [points[m][j] for m in deal.tolist()]
        batch.seat_values = {"score": np.array(rows, np.int16).reshape(len(deal), 2)}
        return batch

    return play, lambda b: b.seat_values["score"]


def test_waves_play_until_a_total_reaches_the_target(seeds_are_matches):
    points = {0: [[5, 1], [5, 1]], 1: [[1, 2], [3, 3], [7, 7]], 2: [[10, 0]]}
    seeds = np.arange(3, dtype=np.uint64)
    played: list[list[int]] = []
    w = play_waves(*_scripted(points, played), seeds, seeds, 2, target=10)
    assert played == [[0, 1, 2], [0, 1], [1]]  # a wave: the next game of every match left
    assert w.match_games.tolist() == [2, 3, 1]
    assert w.match_totals.tolist() == [[10, 2], [11, 12], [10, 0]]
    assert w.match_winners.tolist() == [[False, True], [True, False], [False, True]]  # lowest
    assert w.game_match.tolist() == [0, 0, 1, 1, 1, 2]  # match by match
    assert w.game_index.tolist() == [0, 1, 0, 1, 2, 0]
    assert w.game_scores.tolist() == [[5, 1], [5, 1], [1, 2], [3, 3], [7, 7], [10, 0]]
    assert w.deal_seeds.tolist() == w.game_match.tolist()
    high = play_waves(*_scripted(points), seeds, seeds, 2, target=10, higher_is_better=True)
    assert high.match_winners.tolist() == [[True, False], [False, True], [True, False]]
    capped = play_waves(*_scripted(points), seeds, seeds, 2, target=10, max_games=2)
    assert capped.match_games.tolist() == [2, 2, 1]


def test_waves_of_a_number_of_rounds_and_ties(seeds_are_matches):
    points = {0: [[50, 0], [0, 50]], 1: [[1, 2], [2, 1]]}
    seeds = np.arange(2, dtype=np.uint64)
    w = play_waves(*_scripted(points), seeds, seeds, 2, rounds=2)
    assert w.match_games.tolist() == [2, 2]  # rounds: no target ends a match early
    assert w.match_winners.all()  # tied totals share the win
    with pytest.raises(ValueError, match="either"):
        play_waves(*_scripted(points), seeds, seeds, 2, target=5, rounds=2)
