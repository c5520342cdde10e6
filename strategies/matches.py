"""Expert matches (rule X1): games at one table until some total reaches the target, played
in waves of ``play_batch`` (game ``i`` of every unfinished match at once), each game from seeds
derived from its match's seeds and its number, so any game replays on its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leaves import GameRecord
from leaves.rules import EXPERT_TARGET, TURN_LIMIT
from leaves.seeding import match_deal_seeds, match_play_seeds

from .base import Strategy
from .batch import BatchResult, _empty_batch, _seed_array, play_batch
from .play import _seat_strategies

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
    target: int = EXPERT_TARGET,
    turn_limit: int = TURN_LIMIT,
    record: bool = False,
    decision_timeout: float | None = None,
) -> MatchBatchResult:
    """Play one expert match per seed: games until some total reaches ``target``.

    After each game every seat scores its cards left (the winner has none, so scores 0; an
    unfinished or forfeited game scores everyone their cards). The lowest total wins the
    match; tied seats share the win. Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m], i)``,
    so ``play_batch`` (or ``play_game``) with those two seeds replays it exactly.
    Games are played in waves (game ``i`` of every unfinished match in one ``play_batch``).
    """
    strats = _seat_strategies(table, None)
    mseeds = _seed_array(match_seeds, "match_seeds")
    pseeds = _seed_array(play_seeds, "play_seeds")
    if mseeds.shape != pseeds.shape:
        raise ValueError(
            f"match_seeds and play_seeds differ in length: {len(mseeds)} != {len(pseeds)}"
        )
    if not isinstance(target, int | np.integer) or target < 1:
        raise ValueError(f"target must be a positive number of points, got {target!r}")
    m, n = len(mseeds), len(strats)
    totals = np.zeros((m, n), np.int64)
    games = np.zeros(m, np.int64)
    active = np.arange(m)
    waves: list[tuple[np.ndarray, int, BatchResult, np.ndarray, np.ndarray]] = []
    wave = 0
    while active.size:
        deal = match_deal_seeds(mseeds[active], wave)
        play = match_play_seeds(pseeds[active], wave)
        res = play_batch(
            strats, deal, play, turn_limit=turn_limit, record=record,
            decision_timeout=decision_timeout,
        )  # fmt: skip
        totals[active] += res.cards_left
        games[active] += 1
        waves.append((active, wave, res, deal, play))
        active = active[totals[active].max(axis=1) < target]
        wave += 1
    low = totals.min(axis=1, keepdims=True)
    return _collect(waves, games, totals, totals == low, record, n)


def _collect(waves, games, totals, winners, record, n) -> MatchBatchResult:
    if not waves:
        waves = [(np.zeros(0, np.int64), 0, _empty_batch(0, n), np.zeros(0, np.uint64),
                  np.zeros(0, np.uint64))]  # fmt: skip
        if record:
            waves[0][2].records = []
    match = np.concatenate([w[0] for w in waves]).astype(np.int32)
    index = np.concatenate([np.full(len(w[0]), w[1]) for w in waves]).astype(np.int16)
    order = np.lexsort((index, match))

    def cat(attr: str) -> np.ndarray:
        return np.concatenate([getattr(w[2], attr) for w in waves])[order]

    errors_all = [e for w in waves for e in w[2].errors]
    records_all = [r for w in waves for r in (w[2].records or [])] if record else None
    return MatchBatchResult(
        games=games.astype(np.int16),
        totals=totals.astype(np.int16),
        match_winners=winners,
        game_match=match[order],
        first_player=cat("first_player"),
        cards_left=cat("cards_left").reshape(-1, n),
        winner_seat=cat("winner_seat"),
        turns=cat("turns"),
        rounds=cat("rounds"),
        unfinished=cat("unfinished"),
        forfeit_seat=cat("forfeit_seat"),
        errors=[errors_all[j] for j in order],
        records=None if records_all is None else [records_all[j] for j in order],
        game_index=index[order],
        deal_seeds=np.concatenate([w[3] for w in waves])[order],
        play_seeds=np.concatenate([w[4] for w in waves])[order],
    )
