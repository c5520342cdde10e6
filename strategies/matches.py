"""Matches: games at one table until some total reaches a target (or for a number of games),
played in waves (game ``i`` of every unfinished match at once), each game from seeds derived
from its match's seeds and its number, so any game replays on its own.

``play_waves`` is the one match loop: 13 Leaves' expert matches (rule X1, ``play_match_batch``)
and every tournament game's matches (``tournaments.matches``) play through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from gamekit.seeding import match_deal_seeds, match_play_seeds
from leaves import GameRecord
from leaves.ruleset import Rules

from .base import Strategy
from .batch import BatchResult, PerGame, _empty_batch, _seed_array, play_batch
from .play import _seat_strategies, game_rules

__all__ = ["MatchBatchResult", "Waves", "play_match_batch", "play_waves"]

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
    match_winners: np.ndarray  # bool (M, n): the best total; ties share the win


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
) -> Waves[B]:
    """One match per seed pair at ``n`` seats: ``play(deal_seeds, play_seeds)`` plays a wave of
    games (one per unfinished match), ``score(batch)`` gives each seat's points (G, n).

    A match ends once some total reaches ``target``, or after ``rounds`` games (exactly one
    of them is given), or after ``max_games``. Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m],
    i)``. The best total (``higher_is_better`` says which) wins; tied seats share the win. The
    first wave is played even for no match, so the batch of no game has the game's columns.
    """
    if (target is None) == (rounds is None):
        raise ValueError("a match runs either to a target or for a number of games")
    limit = rounds if rounds is not None else max_games
    m = len(match_seeds)
    totals = np.zeros((m, n), np.int64)
    games = np.zeros(m, np.int16)
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
        waves.append((batch, live, points, deal, seeds))
        if target is not None:
            live = live[totals[live].max(axis=1) < target]
        if not live.size or (limit is not None and len(waves) >= limit):
            break
    return _collect(waves, games, totals, 1 if higher_is_better else -1)


def _collect(waves: list, games: np.ndarray, totals: np.ndarray, sign: int) -> Waves:
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
        match_winners=sign * totals == best,
    )


@dataclass
class MatchBatchResult:
    """Outcomes of M expert matches at one table, and of every game they played.

    Games are ordered by match, then by game number: ``game_match[j]`` and ``game_index[j]``
    say which match and which of its games row ``j`` of the per-game arrays is.
    """

    games: np.ndarray  # int16 (M,): games played in each match
    totals: np.ndarray  # int16 (M, n): expert points
    match_winners: np.ndarray  # bool (M, n): lowest total (ties share, X1)
    game_match: np.ndarray  # int32 (Gtot,)
    first_player: np.ndarray
    cards_left: np.ndarray
    winner_seat: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    unfinished: np.ndarray
    forfeit_seat: np.ndarray
    errors: list[str | None]
    records: list[GameRecord] | None = None
    game_index: np.ndarray | None = None  # int16 (Gtot,): game number within its match
    deal_seeds: np.ndarray | None = None  # uint64 (Gtot,)
    play_seeds: np.ndarray | None = None  # uint64 (Gtot,)

    def __len__(self) -> int:
        return len(self.games)

    @property
    def n_players(self) -> int:
        return int(self.totals.shape[1])

    @property
    def scores(self) -> np.ndarray:
        """Expert points of every game (G, n): cards left (the winner has none)."""
        return self.cards_left


def play_match_batch(
    table: Sequence[Strategy | str],
    match_seeds: np.ndarray,
    play_seeds: np.ndarray,
    target: int | None = None,
    turn_limit: int | None = None,
    record: bool = False,
    decision_timeout: float | None = None,
    *,
    rules: Rules | None = None,
) -> MatchBatchResult:
    """Play one expert match per seed: games until some total reaches ``target`` (the
    rules' ``expert_target`` by default), every game under ``rules`` (today's by default).

    After each game every seat scores its cards left (the winner has none, so scores 0; an
    unfinished or forfeited game scores everyone their cards). The lowest total wins the
    match; tied seats share the win. Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m], i)``,
    so ``play_batch`` (or ``play_game``) with those two seeds replays it exactly.
    Games are played in waves (game ``i`` of every unfinished match in one ``play_batch``).
    """
    rules = game_rules(rules, turn_limit)
    target = rules.expert_target if target is None else target
    strats = _seat_strategies(table, None, rules)
    mseeds = _seed_array(match_seeds, "match_seeds")
    pseeds = _seed_array(play_seeds, "play_seeds")
    if mseeds.shape != pseeds.shape:
        raise ValueError(
            f"match_seeds and play_seeds differ in length: {len(mseeds)} != {len(pseeds)}"
        )
    if not isinstance(target, int | np.integer) or target < 1:
        raise ValueError(f"target must be a positive number of points, got {target!r}")
    n = len(strats)

    def wave(deal: np.ndarray, play: np.ndarray) -> BatchResult:
        if not deal.size:  # no match at all: nothing to play
            empty = _empty_batch(0, n)
            empty.records = [] if record else None
            return empty
        return play_batch(strats, deal, play, record=record, decision_timeout=decision_timeout,
                          rules=rules)  # fmt: skip

    w = play_waves(wave, lambda res: res.cards_left, mseeds, pseeds, n, target=int(target))
    g = w.games
    return MatchBatchResult(
        games=w.match_games,
        totals=w.match_totals.astype(np.int16),
        match_winners=w.match_winners,
        game_match=w.game_match,
        first_player=g.first_player,
        cards_left=g.cards_left,
        winner_seat=g.winner_seat,
        turns=g.turns,
        rounds=g.rounds,
        unfinished=g.unfinished,
        forfeit_seat=g.forfeit_seat,
        errors=g.errors,
        records=g.records,
        game_index=w.game_index,
        deal_seeds=w.deal_seeds,
        play_seeds=w.play_seeds,
    )
