"""The plug-in contract between the tournament runner and a game.

The runner (chunks, seeds, workers, storage, resume, aggregates) knows nothing about the game.
A game plug-in turns entrant specs into labels, and plays a batch of games (or matches) at one
seating from arrays of seeds. It *declares* what the runner, aggregates, matches and reports
need: its per-seat and per-game result columns, which per-seat column ranks the players and
whether higher or lower is better, whether games have a first player, whether tied players
share a win, the default match target and seating design. Nothing else is assumed.

Games register through the entry-point group ``leaves.games`` (``tournaments.games``): each
game's package registers its plug-in there, and a third party's game installs the same way.
The tests carry a toy game that differs from the installed games on purpose.

A plug-in object must be picklable (it travels to worker processes and Dask workers).
Optional: ``plays_without_gil(payloads, expert)`` true when its play of these entrants
releases the GIL for (nearly) all of its time, so that a local run's players can be threads
of one process (``tournaments.local``); ``warm_up``, ``chunk_games``, ``play_seatings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gamekit.batches import PerGame

__all__ = ["GamePlugin", "SeatedBatch", "SeatedMatches", "Seats", "Seeds"]

Seeds = np.ndarray
Seats = Sequence[Any]


@dataclass
class SeatedBatch(PerGame):
    """Outcome of G games played at one seating (seat ``s`` holds ``labels[s]``).

    ``seat_values`` holds the game's declared per-seat columns, shape (G, n), among them the
    *rank value*; ``game_values`` the per-game columns, shape (G,), among them the *length*
    that the runner histograms. ``first_player`` is None for a game without one. ``winners``
    (G, n) marks every winner when tied players share a win; ``winner_seat`` is then the
    single winner or -1 for a shared win. Batches of games played in slices, waves or
    seatings become one with ``SeatedBatch.concat`` and ``SeatedBatch.scatter`` (``PerGame``).
    """

    first_player: np.ndarray | None  # int8 (G,)
    winner_seat: np.ndarray  # int8 (G,), -1: no (single) winner
    forfeit_seat: np.ndarray  # int8 (G,), -1: no forfeit
    seat_values: dict[str, np.ndarray]
    game_values: dict[str, np.ndarray]
    errors: list[str | None]
    records: list[str] | None = None  # one JSON line per game when asked to record
    winners: np.ndarray | None = None  # bool (G, n) for games with shared wins

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
    max_players: int  # also the number of seat_i / <column>_i columns in the rows
    seat_columns: tuple[str, ...]  # per-seat result columns (rows hold <name>_0 .. _max-1)
    game_columns: tuple[str, ...]  # per-game result columns
    rank_value: str  # the per-seat column that orders the players at a table
    higher_is_better: bool  # direction of rank_value (and of match totals)
    length_value: str  # name of the per-game length column ("turns")
    max_length: int  # length histogram size - 1 (a turn limit)
    has_first_player: bool  # games have a first player (rows get first_player, seat offsets)
    shared_wins: bool  # tied players share a win (SeatedBatch.winners)
    match_score: str  # the per-seat column a match adds up
    match_target: int  # the default target of a match
    default_seating: str  # seating design when none is asked for (tournaments.seating)
    # and the rest of ``Declaration`` (how reports show it): ``GameBase`` has defaults

    def config(self) -> dict[str, Any]:
        """Options that change results (e.g. a turn limit): part of the tournament spec."""
        ...

    def versions(self) -> dict[str, str]:
        """Versions of the packages the results depend on (for the manifest); a resume refuses
        a run that recorded another of any. Where it holds a package's play version too (under
        ``game.play_key``, as ``GameBase.versions`` gives a rules core's ``PLAY_VERSION``), that
        is compared instead of the package's own version."""
        ...

    def resolve(self, spec: Any) -> tuple[str, Any]:
        """(label, payload) for an entrant spec; payload is what ``play`` receives (picklable).

        Raises ValueError with a one-line message for an unknown or malformed spec.
        """
        ...

    def play(self, seats: Seats, deal_seeds: Seeds, play_seeds: Seeds,
             record: bool = False) -> SeatedBatch:  # fmt: skip
        """Play one game per seed pair with payload ``seats[s]`` in seat ``s``."""
        ...

    def play_matches(self, seats: Seats, match_seeds: Seeds, play_seeds: Seeds, target: int,
                     rounds: int | None = None) -> SeatedMatches:  # fmt: skip
        """Play one match per seed pair: to ``target`` points, or ``rounds`` games when given
        (games that support it; ``tournaments.matches.play_matches`` is the generic way)."""
        ...
