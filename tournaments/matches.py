"""Match play as one generic capability: games to a target total, or a fixed number of games.

A match replays fresh games between the same seating, adds up each seat's ``match_score``
column, and ends when some total reaches ``target`` (or after ``rounds`` games). The best
total wins in the game's declared direction; tied players share the win. Any plug-in's
``play_matches`` may delegate here (Ligretto's games to 100 do; 13 Leaves keeps its compiled
match loop, which follows the same rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from leaves.seeding import match_deal_seeds, match_play_seeds

from .game import GamePlugin, SeatedBatch, SeatedMatches
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
    if (target is None) == (rounds is None):
        raise ValueError("a match runs either to a target or for a number of games")
    limit = int(rounds) if rounds is not None else MAX_GAMES
    n = len(seats)
    m = len(match_seeds)
    sign = 1 if game.higher_is_better else -1
    totals = np.zeros((m, n), np.int64)
    games = np.zeros(m, np.int16)
    live = np.arange(m)
    parts: list[tuple[SeatedBatch, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    j = 0
    while live.size and j < limit:
        # game j's seeds depend only on the match's seeds and j (leaves.seeding)
        deal = match_deal_seeds(np.asarray(match_seeds)[live], j)
        play = match_play_seeds(np.asarray(play_seeds)[live], j)
        batch = game.play(seats, deal, play)
        score = batch.seat_values[game.match_score].astype(np.int64)
        totals[live] += score
        games[live] += 1
        parts.append((batch, live.astype(np.int32), score, deal, play))
        j += 1
        if rounds is None:
            live = live[totals[live].max(axis=1) < int(target)]
    gm = np.concatenate([p[1] for p in parts])
    order = np.argsort(gm, kind="stable")  # match by match, game by game
    best = (sign * totals).max(axis=1, keepdims=True)
    return SeatedMatches(
        games=concat_batches([p[0] for p in parts], order),
        game_match=gm[order],
        game_scores=np.concatenate([p[2] for p in parts])[order].astype(np.int16),
        match_games=games,
        match_totals=totals.astype(np.int16),
        match_winners=sign * totals == best,
        game_deal_seeds=np.concatenate([p[3] for p in parts])[order],
        game_play_seeds=np.concatenate([p[4] for p in parts])[order],
    )


def concat_batches(batches: list[SeatedBatch], order: np.ndarray) -> SeatedBatch:
    """Batches one after another, reordered by ``order``."""
    errors = [e for b in batches for e in b.errors]
    first = None
    if batches[0].first_player is not None:
        first = np.concatenate([b.first_player for b in batches])[order]
    winners = None
    if batches[0].winners is not None:
        winners = np.concatenate([b.winners for b in batches])[order]
    return SeatedBatch(
        first_player=first,
        winner_seat=np.concatenate([b.winner_seat for b in batches])[order],
        forfeit_seat=np.concatenate([b.forfeit_seat for b in batches])[order],
        seat_values={
            k: np.concatenate([b.seat_values[k] for b in batches])[order]
            for k in batches[0].seat_values
        },
        game_values={
            k: np.concatenate([b.game_values[k] for b in batches])[order]
            for k in batches[0].game_values
        },
        errors=[errors[i] for i in order],
        winners=winners,
    )
