"""The Ligretto plug-in: rounds of ``strategies.ligretto`` players at one seating.

Per seat: ``score`` (the rank value, higher is better), ``stack_left``, ``centre_cards`` and
``won`` (1 for each player with the round's highest score: ties share, Interpretation L4). Per
round: ``seconds`` (game time, the length histogrammed), ``time_ms``, ``ended_by`` (seat whose
stack emptied, -1 blockade, -2 stopped unfinished), ``blockade``, ``unfinished``, ``plays``,
``flips``, ``fails``. There is no first player: everyone plays at once. Games of several
rounds (to ``--target`` 100 points, or ``--rounds N``) are the runner's generic matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ligretto.compiled import ENDED_BLOCKADE, ENDED_UNFINISHED, MAX_ROUND_MS
from ligretto.rules import MATCH_TARGET, MAX_PLAYERS, MIN_PLAYERS

from .game import SeatedBatch, SeatedMatches
from .matches import play_matches

__all__ = ["LigrettoGame"]

_CACHE: dict[str, Any] = {}


def _strategy(payload: Any) -> Any:
    from strategies.ligretto import resolve

    if isinstance(payload, str):
        if payload not in _CACHE:
            _CACHE[payload] = resolve(payload)
        return _CACHE[payload]
    return payload


class LigrettoGame:
    """Ligretto between ``strategies.ligretto`` entrants (specs, classes or instances)."""

    name = "ligretto"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    seat_columns = ("score", "stack_left", "centre_cards", "won")
    game_columns = (
        "seconds", "time_ms", "ended_by", "blockade", "unfinished", "plays", "flips", "fails",
    )  # fmt: skip
    rank_value = "score"
    higher_is_better = True
    length_value = "seconds"
    max_length = MAX_ROUND_MS // 1000
    has_first_player = False
    shared_wins = True
    match_score = "score"
    match_target = MATCH_TARGET
    default_seating = "rotations"  # no turns, so no neighbour to balance; seats still rotate
    min_unit_s = 2e-5
    """A lower bound on one round's single-core time (compiled built-ins, 2 players)."""

    def config(self) -> dict[str, Any]:
        return {}

    def versions(self) -> dict[str, str]:
        import ligretto

        return {"ligretto": ligretto.__version__}

    def resolve(self, spec: Any) -> tuple[str, Any]:
        """(label, payload): strings travel as strings (file specs made absolute)."""
        from strategies.ligretto import resolve

        strategy = resolve(spec)
        if isinstance(spec, str):
            path, sep, rest = spec.partition(":")
            if sep and path.endswith(".py"):
                spec = f"{Path(path).resolve()}:{rest}"
            return strategy.label, spec
        return strategy.label, strategy

    def play(
        self,
        seats: Sequence[Any],
        deal_seeds: np.ndarray,
        play_seeds: np.ndarray,
        record: bool = False,
    ) -> SeatedBatch:
        from strategies.ligretto import play_batch

        out = play_batch([_strategy(p) for p in seats], deal_seeds, play_seeds, record=record)
        b = out.batch
        scores = b.scores.astype(np.int16)
        winners = scores == scores.max(axis=1, keepdims=True)
        forfeit = out.forfeit_seat.astype(np.int8)
        winners[forfeit >= 0] = False
        single = winners.sum(axis=1) == 1
        winner = np.where(single, winners.argmax(axis=1), -1).astype(np.int8)
        return SeatedBatch(
            first_player=None,
            winner_seat=winner,
            forfeit_seat=forfeit,
            seat_values={
                "score": scores,
                "stack_left": b.stack_left.astype(np.int8),
                "centre_cards": b.centre_cards.astype(np.int8),
                "won": winners.astype(np.int8),
            },
            game_values={
                "seconds": (b.time_ms // 1000).astype(np.int16),
                "time_ms": b.time_ms.astype(np.int32),
                "ended_by": b.ended_by.astype(np.int8),
                "blockade": b.ended_by == ENDED_BLOCKADE,
                "unfinished": b.ended_by == ENDED_UNFINISHED,
                "plays": b.plays.astype(np.int16),
                "flips": b.flips.astype(np.int32),
                "fails": b.fails.astype(np.int16),
            },
            errors=out.errors,
            records=[r for r in out.records] if out.records is not None else None,
            winners=winners,
        )

    def play_matches(
        self,
        seats: Sequence[Any],
        match_seeds: np.ndarray,
        play_seeds: np.ndarray,
        target: int,
        rounds: int | None = None,
    ) -> SeatedMatches:
        """Games of rounds: to ``target`` total points, or ``rounds`` rounds when given."""
        return play_matches(
            self, seats, match_seeds, play_seeds, None if rounds else target, rounds
        )
