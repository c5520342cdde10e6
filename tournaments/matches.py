"""Match play as one generic capability: games to a target total, or a fixed number of games.

A match replays fresh games between the same seating, adds up each seat's ``match_score``
column, and ends when some total reaches ``target`` (or after ``rounds`` games). The best
total wins in the game's declared direction; tied players share the win; a match holding a
forfeited game has no winner. The loop is
``gamekit.matches.play_waves`` (a game's own compiled matches may use it too); here it plays
a plug-in's ``play``. Any plug-in's ``play_matches`` may delegate here (a game whose matches
have no compiled loop does; one with compiled matches may keep them, under the same rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gamekit.matches import play_waves

from .plugin import GamePlugin, SeatedBatch, SeatedMatches
from .plugin_results import checked_play
from .work import MAX_GAMES_PER_MATCH

__all__ = ["play_matches", "MAX_GAMES"]

MAX_GAMES = MAX_GAMES_PER_MATCH
"""A match to a target stops after this many games (the best total then wins)."""


def play_matches(
    game: GamePlugin,
    seats: Sequence[Any],
    match_seeds: np.ndarray,
    play_seeds: np.ndarray,
    target: int | None,
    rounds: int | None = None,
) -> SeatedMatches:
    """Play one match per seed pair with ``game.play``; see the module docstring."""

    def score(batch: SeatedBatch) -> np.ndarray:
        return batch.seat_values[game.match_score]

    w = play_waves(
        lambda deal, play: checked_play(game, seats, deal, play),  # a plug-in's fault named
        score,
        np.asarray(match_seeds),
        np.asarray(play_seeds),
        len(seats),
        target=None if target is None else int(target),
        rounds=None if rounds is None else int(rounds),
        higher_is_better=game.higher_is_better,
        max_games=MAX_GAMES,
        forfeits=lambda batch: batch.forfeit_seat >= 0,
    )
    return SeatedMatches(
        games=w.games,
        game_match=w.game_match,
        game_scores=w.game_scores.astype(np.int16),
        match_games=w.match_games,
        match_totals=w.match_totals.astype(np.int16),
        match_winners=w.match_winners,
        game_deal_seeds=w.deal_seeds,
        game_play_seeds=w.play_seeds,
    )
