"""13 Leaves' expert matches (rule X1, ``play_match_batch``): games at one table to a target
total, through the one match loop of every game (``gamekit.matches.play_waves``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamekit.matches import MAX_GAMES, play_waves
from leaves import GameRecord
from leaves.players.base import Strategy
from leaves.ruleset import Rules
from strategies.deadline import check_timeout
from tournaments.checks import flag, optional_integer

from .batch import BatchResult, _empty_batch, _seed_array, play_batch
from .play import _seat_strategies, in_seat_order

__all__ = ["MatchBatchResult", "play_match_batch"]


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
    rules: Any = None,
    record: bool = False,
    decision_timeout: float | None = None,
) -> MatchBatchResult:
    """Play one expert match per seed: games until some total reaches ``target`` (the
    rules' ``expert_target`` by default), every game under ``rules`` (any form ``Rules.of``
    reads; today's by default).

    After each game every seat scores its cards left (the winner has none, so scores 0; an
    unfinished or forfeited game scores everyone their cards). The lowest total wins the
    match; tied seats share the win; a match holding a forfeited game has no winner (as a
    forfeited game has none). A match stops after ``gamekit.matches.MAX_GAMES`` games
    (a target nobody reaches: the lowest total then wins). Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m], i)``,
    so ``play_batch`` (or ``play_game``) with those two seeds replays it exactly.
    Games are played in waves (game ``i`` of every unfinished match in one ``play_batch``).
    """
    rules = Rules.of(rules)
    record = flag(record, "record")
    check_timeout(decision_timeout, "decision_timeout")  # also when no match is played
    target = optional_integer(target, "target", "a whole number of points")
    target = rules.expert_target if target is None else target
    strats = _seat_strategies(in_seat_order(table, "table"), None, rules)
    mseeds = _seed_array(match_seeds, "match_seeds")
    pseeds = _seed_array(play_seeds, "play_seeds")
    if mseeds.shape != pseeds.shape:
        raise ValueError(
            f"match_seeds and play_seeds differ in length: {len(mseeds)} != {len(pseeds)}"
        )
    if target < 1:
        raise ValueError(f"target must be a positive number of points, got {target!r}")
    n = len(strats)

    def wave(deal: np.ndarray, play: np.ndarray) -> BatchResult:
        if not deal.size:  # no match at all: nothing to play
            empty = _empty_batch(0, n)
            empty.records = [] if record else None
            return empty
        return play_batch(strats, deal, play, record=record, decision_timeout=decision_timeout,
                          rules=rules)  # fmt: skip

    w = play_waves(wave, lambda res: res.cards_left, mseeds, pseeds, n, target=int(target),
                   max_games=MAX_GAMES, forfeits=lambda res: res.forfeit_seat >= 0)  # fmt: skip
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
