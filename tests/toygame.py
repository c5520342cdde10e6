"""A tiny stand-in game for testing the runner, unlike 13 Leaves on purpose.

It proves the runner, aggregates, matches and reports read only what a game declares: higher
is better, its columns are ``points`` and ``bonus`` per seat and ``steps``/``top_ties``/
``tied`` per game, there is no first player (unless asked for, for seating tests), tied players share a
win, and tables go up to 8 seats.

Entrants are labels; trailing digits give a skill (``"p3"`` has skill 3, ``"a"`` skill 0). A
deal gives each seat some points; play adds a little noise and the skill. A label starting
with ``crash`` forfeits about one game in five, as a buggy strategy would. Everything is a
vectorized hash of the seeds, so results depend only on (deal seed, play seed, seating).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import numpy as np

from gamekit.seeding import splitmix64
from tournaments.game import GameBase, SeatedBatch, Seats, Seeds

__all__ = ["ToyGame"]

_LABEL = re.compile(r"^[A-Za-z_][A-Za-z_]*\d*$")


class ToyGame(GameBase):
    """A plug-in implementing ``tournaments.game.GamePlugin`` with trivial numpy rules."""

    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 8
    seat_columns = ("points", "bonus")
    game_columns = ("steps", "top_ties", "tied")
    rank_value = "points"
    higher_is_better = True
    ahead_means = "more points"
    length_value = "steps"
    share_columns = {"tied": "won by tied players"}
    mean_columns = ("points", "bonus")
    shared_wins = True
    match_score = "points"
    match_target = 30
    default_seating = "balanced"

    def __init__(self, max_length: int = 200, first_player: bool = False, delay: float = 0.0):
        self.max_length = max_length
        self.has_first_player = bool(first_player)
        self.delay = float(delay)
        """Seconds each ``play`` call sleeps: a slow game, to stop a run mid-way in tests. It
        never changes results, so it is not part of ``config``."""

    def config(self) -> dict[str, Any]:
        return {"max_length": self.max_length, "first_player": self.has_first_player}

    def versions(self) -> dict[str, str]:
        return {"toygame": "2"}

    def resolve(self, spec: Any) -> tuple[str, Any]:
        if not isinstance(spec, str) or not _LABEL.match(spec):
            raise ValueError(f"unknown toy strategy {spec!r} (use a name like 'a' or 'p3')")
        return spec, spec

    @staticmethod
    def _skill(label: str) -> int:
        digits = re.search(r"\d+$", label)
        return int(digits.group()) if digits else 0

    def play(self, seats: Seats, deal_seeds: Seeds, play_seeds: Seeds,
             record: bool = False) -> SeatedBatch:  # fmt: skip
        if self.delay:
            time.sleep(self.delay)
        n = len(seats)
        g = len(deal_seeds)
        deal = np.asarray(deal_seeds, dtype=np.uint64)
        play = np.asarray(play_seeds, dtype=np.uint64)
        points = np.empty((g, n), dtype=np.int16)
        bonus = np.empty((g, n), dtype=np.int8)
        for s in range(n):
            base = splitmix64(deal ^ np.uint64(0x1000 + s)) % np.uint64(11)
            noise = splitmix64(play + np.uint64(s)) % np.uint64(3)
            value = base.astype(np.int64) + noise.astype(np.int64) + self._skill(seats[s])
            points[:, s] = np.clip(value, 0, 20)
            bonus[:, s] = (noise % np.uint64(2)).astype(np.int8)
        winners = points == points.max(axis=1, keepdims=True)
        ties = winners.sum(axis=1)
        winner = np.where(ties == 1, winners.argmax(axis=1), -1).astype(np.int8)
        forfeit = np.full(g, -1, dtype=np.int8)
        crash = (splitmix64(play ^ np.uint64(0xC0FFEE)) % np.uint64(5)) == 0
        errors: list[str | None] = [None] * g
        for s in range(n):
            if seats[s].startswith("crash"):
                forfeit[crash & (forfeit < 0)] = s
        for i in np.flatnonzero(forfeit >= 0):
            errors[i] = f"toy: {seats[forfeit[i]]} crashed"
        winner[forfeit >= 0] = -1
        winners[forfeit >= 0] = False
        steps = (5 + points.sum(axis=1) // 2).astype(np.int16)
        records = None
        if record:
            records = [
                json.dumps(
                    {
                        "deal_seed": int(deal[i]),
                        "play_seed": int(play[i]),
                        "strategies": list(seats),
                        "points": points[i].tolist(),
                    }
                )
                for i in range(g)
            ]
        first = None
        if self.has_first_player:
            first = (splitmix64(deal) % np.uint64(n)).astype(np.int8)
        return SeatedBatch(
            first_player=first,
            winner_seat=winner,
            forfeit_seat=forfeit,
            seat_values={"points": points, "bonus": bonus},
            game_values={"steps": steps, "top_ties": ties.astype(np.int8), "tied": ties > 1},
            errors=errors,
            records=records,
            winners=winners,
        )
