"""A tiny stand-in game for testing and demonstrating the runner (not 13 Leaves).

Entrants are labels; trailing digits give a skill (``"p3"`` has skill 3, ``"a"`` skill 0). A
deal gives each seat a number of "cards"; play adds a little noise and subtracts the skill; the
seat with the fewest wins and ends on 0. A label starting with ``crash`` forfeits about one game
in five, as a buggy strategy would. Everything is a vectorized hash of the seeds, so results
depend only on (deal seed, play seed, seating), like a real plug-in.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from leaves.seeding import splitmix64

from .game import SeatedBatch, SeatedMatches

__all__ = ["ToyGame", "splitmix64"]

_LABEL = re.compile(r"^[A-Za-z_][A-Za-z_]*\d*$")


class ToyGame:
    """A plug-in implementing ``tournaments.game.GamePlugin`` with trivial numpy rules."""

    name = "toy"
    min_players = 3
    max_players = 6
    rank_value = "cards_left"
    length_value = "turns"

    def __init__(self, max_length: int = 200, delay: float = 0.0):
        self.max_length = max_length
        self.delay = float(delay)
        """Seconds each ``play`` call sleeps: a slow game, to stop a run mid-way in tests. It
        never changes results, so it is not part of ``config``."""

    def config(self) -> dict[str, Any]:
        return {"max_length": self.max_length}

    def versions(self) -> dict[str, str]:
        return {"toygame": "1"}

    def resolve(self, spec: Any) -> tuple[str, Any]:
        if not isinstance(spec, str) or not _LABEL.match(spec):
            raise ValueError(f"unknown toy strategy {spec!r} (use a name like 'a' or 'p3')")
        return spec, spec

    @staticmethod
    def _skill(label: str) -> int:
        digits = re.search(r"\d+$", label)
        return int(digits.group()) if digits else 0

    def play(
        self,
        seats: Sequence[Any],
        deal_seeds: np.ndarray,
        play_seeds: np.ndarray,
        record: bool = False,
    ) -> SeatedBatch:
        if self.delay:
            time.sleep(self.delay)
        n = len(seats)
        g = len(deal_seeds)
        deal = np.asarray(deal_seeds, dtype=np.uint64)
        play = np.asarray(play_seeds, dtype=np.uint64)
        first = (splitmix64(deal) % np.uint64(n)).astype(np.int8)
        cards = np.empty((g, n), dtype=np.int16)
        for s in range(n):
            base = splitmix64(deal ^ np.uint64(0x1000 + s)) % np.uint64(11)
            noise = splitmix64(play + np.uint64(s)) % np.uint64(3)
            value = base.astype(np.int64) + noise.astype(np.int64) + 1 - self._skill(seats[s])
            cards[:, s] = np.clip(value, 1, 20)
        # the winner: fewest cards, ties to the first in turn order from the first player
        order = (np.arange(n)[None, :] + first[:, None].astype(np.int64)) % n
        ordered = np.take_along_axis(cards, order, axis=1)
        winner = np.take_along_axis(order, ordered.argmin(axis=1)[:, None], axis=1)[:, 0]
        winner = winner.astype(np.int8)
        forfeit = np.full(g, -1, dtype=np.int8)
        crash = (splitmix64(play ^ np.uint64(0xC0FFEE)) % np.uint64(5)) == 0
        errors: list[str | None] = [None] * g
        for s in range(n):
            if seats[s].startswith("crash"):
                hit = crash & (forfeit < 0)
                forfeit[hit] = s
        for i in np.flatnonzero(forfeit >= 0):
            errors[i] = f"toy: {seats[forfeit[i]]} crashed"
        won = winner >= 0
        cards[np.arange(g)[won], winner[won]] = 0
        winner[forfeit >= 0] = -1
        turns = (10 + cards.sum(axis=1)).astype(np.int16)
        unfinished = np.zeros(g, dtype=bool)
        records = None
        if record:
            records = [
                json.dumps(
                    {
                        "deal_seed": int(deal[i]),
                        "play_seed": int(play[i]),
                        "strategies": list(seats),
                        "winner": int(winner[i]),
                    }
                )
                for i in range(g)
            ]
        return SeatedBatch(
            first_player=first,
            winner_seat=winner,
            forfeit_seat=forfeit,
            seat_values={"cards_left": cards},
            game_values={
                "turns": turns,
                "rounds": (turns // 7 + 1).astype(np.int16),
                "unfinished": unfinished,
            },
            errors=errors,
            records=records,
        )

    def play_matches(
        self,
        seats: Sequence[Any],
        match_seeds: np.ndarray,
        play_seeds: np.ndarray,
        target: int,
    ) -> SeatedMatches:
        n = len(seats)
        m = len(match_seeds)
        batches: list[SeatedBatch] = []
        game_match: list[np.ndarray] = []
        scores: list[np.ndarray] = []
        totals = np.zeros((m, n), dtype=np.int64)
        games = np.zeros(m, dtype=np.int16)
        live = np.arange(m)
        j = 0
        while live.size:
            deal = splitmix64(np.asarray(match_seeds, np.uint64)[live] + np.uint64(j))
            play = splitmix64(np.asarray(play_seeds, np.uint64)[live] + np.uint64(j))
            batch = self.play(seats, deal, play)
            score = batch.seat_values["cards_left"].astype(np.int64)
            totals[live] += score
            games[live] += 1
            batches.append(batch)
            game_match.append(live.astype(np.int32))
            scores.append(score.astype(np.int16))
            live = live[totals[live].max(axis=1) < target]
            j += 1
        # order games match by match, game by game
        gm = np.concatenate(game_match)
        order = np.argsort(gm, kind="stable")
        merged = _concat(batches, order)
        lowest = totals.min(axis=1, keepdims=True)
        return SeatedMatches(
            games=merged,
            game_match=gm[order],
            game_scores=np.concatenate(scores)[order],
            match_games=games,
            match_totals=totals.astype(np.int16),
            match_winners=totals == lowest,
        )


def _concat(batches: list[SeatedBatch], order: np.ndarray) -> SeatedBatch:
    errors = [e for b in batches for e in b.errors]
    return SeatedBatch(
        first_player=np.concatenate([b.first_player for b in batches])[order],
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
    )
