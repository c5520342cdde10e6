"""The plug-in contract between the tournament runner and a game.

The runner (chunks, seeds, workers, storage, resume, aggregates) knows nothing about the game.
A game plug-in turns entrant specs into labels, and plays a batch of games (or matches) at one
seating from arrays of seeds. ``tournaments.leaves_game.LeavesGame`` is the 13 Leaves plug-in;
``tournaments.toygame.ToyGame`` is a tiny stand-in used to test the runner.

A plug-in object must be picklable (it travels to worker processes and Dask workers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["GamePlugin", "SeatedBatch", "SeatedMatches"]


@dataclass
class SeatedBatch:
    """Outcome of G games played at one seating (seat ``s`` holds ``labels[s]``).

    ``seat_values`` holds per-seat numbers, shape (G, n); the first one is the *rank value*
    (lower finishes ahead: cards left in 13 Leaves). ``game_values`` holds per-game numbers,
    shape (G,); the first one is the *length* (turns) that the runner histograms.
    """

    first_player: np.ndarray  # int8 (G,)
    winner_seat: np.ndarray  # int8 (G,), -1: no winner
    forfeit_seat: np.ndarray  # int8 (G,), -1: no forfeit
    seat_values: dict[str, np.ndarray]
    game_values: dict[str, np.ndarray]
    errors: list[str | None]
    records: list[str] | None = None  # one JSON line per game when asked to record

    def __len__(self) -> int:
        return int(self.winner_seat.shape[0])


@dataclass
class SeatedMatches:
    """Outcome of M matches at one seating: per-match totals and every game they contained.

    ``games`` holds all games of all matches, match by match; ``game_match`` gives each game's
    match (0 .. M-1 within this batch), ``game_scores`` (Gtot, n) each game's points.
    """

    games: SeatedBatch
    game_match: np.ndarray  # int32 (Gtot,)
    game_scores: np.ndarray  # int16 (Gtot, n)
    match_games: np.ndarray  # int16 (M,)
    match_totals: np.ndarray  # int16 (M, n)
    match_winners: np.ndarray  # bool (M, n); ties share the win
    game_deal_seeds: np.ndarray | None = None  # uint64 (Gtot,): replays game j with play()
    game_play_seeds: np.ndarray | None = None  # uint64 (Gtot,)


@runtime_checkable
class GamePlugin(Protocol):
    """What the runner needs from a game."""

    name: str  # e.g. "13leaves": stored in the manifest
    min_players: int
    max_players: int
    rank_value: str  # name of the per-seat column where lower finishes ahead ("cards_left")
    length_value: str  # name of the per-game length column ("turns")
    max_length: int  # length histogram size - 1 (a turn limit)

    def config(self) -> dict[str, Any]:
        """Options that change results (e.g. a turn limit): part of the tournament spec."""
        ...

    def versions(self) -> dict[str, str]:
        """Versions of the packages the results depend on (for the manifest)."""
        ...

    def resolve(self, spec: Any) -> tuple[str, Any]:
        """(label, payload) for an entrant spec; payload is what ``play`` receives (picklable).

        Raises ValueError with a one-line message for an unknown or malformed spec.
        """
        ...

    def play(
        self,
        seats: Sequence[Any],
        deal_seeds: np.ndarray,
        play_seeds: np.ndarray,
        record: bool = False,
    ) -> SeatedBatch:
        """Play one game per seed pair with payload ``seats[s]`` in seat ``s``."""
        ...

    def play_matches(
        self,
        seats: Sequence[Any],
        match_seeds: np.ndarray,
        play_seeds: np.ndarray,
        target: int,
    ) -> SeatedMatches:
        """Play one match to ``target`` points per seed pair."""
        ...
