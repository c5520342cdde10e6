"""Matches: games at one table until some total reaches a target (or for a number of games),
played in waves (game ``i`` of every unfinished match at once), each game from seeds derived
from its match's seeds and its number, so any game replays on its own.

``play_waves`` is the one match loop, for any game: a game's own compiled matches and
every tournament game's matches (``tournaments.matches``) play through it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from .batches import PerGame
from .seeding import match_deal_seeds, match_play_seeds

__all__ = ["MAX_GAMES", "Waves", "play_waves"]

MAX_GAMES = 64
"""The most games a match plays (every game's rows number a match's games ``match * 64 +
game``): a match to a target nobody has reached by then is won by the best total. Far more
than a match to a game's own target takes."""

B = TypeVar("B", bound=PerGame)


@dataclass
class Waves(Generic[B]):
    """M matches played by ``play_waves``: every game, ordered by match then by game number,
    and each match's outcome."""

    games: B  # every game (one batch)
    game_match: np.ndarray  # int32 (Gtot,): the match of each game
    game_index: np.ndarray  # int16 (Gtot,): its number within its match
    game_scores: np.ndarray  # int64 (Gtot, n): the points each seat scored in it
    deal_seeds: np.ndarray  # uint64 (Gtot,): game j replays from these two seeds
    play_seeds: np.ndarray  # uint64 (Gtot,)
    match_games: np.ndarray  # int16 (M,): games played in each match
    match_totals: np.ndarray  # int64 (M, n)
    match_winners: np.ndarray  # bool (M, n): the best total; ties share; none if forfeited
    match_forfeited: np.ndarray  # bool (M,): a game of the match ended by a forfeit


def play_waves(
    play: Callable[[np.ndarray, np.ndarray], B],
    score: Callable[[B], np.ndarray],
    match_seeds: np.ndarray,
    play_seeds: np.ndarray,
    n: int,
    *,
    target: int | None = None,
    rounds: int | None = None,
    higher_is_better: bool = False,
    max_games: int | None = None,
    forfeits: Callable[[B], np.ndarray] | None = None,
) -> Waves[B]:
    """One match per seed pair at ``n`` seats: ``play(deal_seeds, play_seeds)`` plays a wave of
    games (one per unfinished match), ``score(batch)`` gives each seat's points (G, n).

    A match ends once some total reaches ``target``, or after ``rounds`` games (exactly one
    of them is given), or after ``max_games``. Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m],
    i)``. The best total (``higher_is_better`` says which) wins; tied seats share the win. A
    match in which ``forfeits(batch)`` marks a game has no winner, as a forfeited game has none
    (its games are played all the same, so the games a match holds never depend on it). The
    first wave is played even for no match, so the batch of no game has the game's columns.
    """
    if (target is None) == (rounds is None):
        raise ValueError("a match runs either to a target or for a number of games")
    limit = rounds if rounds is not None else max_games
    m = len(match_seeds)
    totals = np.zeros((m, n), np.int64)
    games = np.zeros(m, np.int16)
    void = np.zeros(m, bool)
    live = np.arange(m)
    waves: list[tuple[B, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    while True:
        j = len(waves)  # game j's seeds depend only on the match's seeds and j
        deal = match_deal_seeds(match_seeds[live], j)
        seeds = match_play_seeds(play_seeds[live], j)
        batch = play(deal, seeds)
        points = np.asarray(score(batch), np.int64)
        totals[live] += points
        games[live] += 1
        if forfeits is not None:
            void[live] |= np.asarray(forfeits(batch), bool)
        waves.append((batch, live, points, deal, seeds))
        if target is not None:
            live = live[totals[live].max(axis=1) < target]
        if not live.size or (limit is not None and len(waves) >= limit):
            break
    return _collect(waves, games, totals, void, 1 if higher_is_better else -1)


def _collect(
    waves: list, games: np.ndarray, totals: np.ndarray, void: np.ndarray, sign: int
) -> Waves:
    """The waves' games in match-then-game order, and each match's winners."""
    match = np.concatenate([w[1] for w in waves]).astype(np.int32)
    index = np.concatenate([np.full(len(w[1]), j, np.int16) for j, w in enumerate(waves)])
    order = np.argsort(match, kind="stable")  # waves come in game order

    def cat(k: int) -> np.ndarray:
        return np.concatenate([w[k] for w in waves])[order]

    best = (sign * totals).max(axis=1, keepdims=True)
    return Waves(
        games=type(waves[0][0]).concat([w[0] for w in waves], order),
        game_match=match[order],
        game_index=index[order],
        game_scores=cat(2),
        deal_seeds=cat(3),
        play_seeds=cat(4),
        match_games=games,
        match_totals=totals,
        match_winners=(sign * totals == best) & ~void[:, None],
        match_forfeited=void,
    )
