"""Climb's plug-in (entry point ``leaves.games: climb``): what the runner, reports and command
line need to know of the game, and its play at one seating."""

from __future__ import annotations

from typing import Any

import numpy as np

import strategies
from tournaments.game import GameBase, GameOption, SeatedBatch, Seats, Seeds

from .rules import play_game, replay

strategies.declare_game("climb", "Climb", "leaves.climb_strategies", ("climb.players",))


class ClimbGame(GameBase):
    """Climb between ``climb.players`` entrants."""

    name = "climb"
    title = "Climb"
    rules_core = "climb"
    min_players = 2
    max_players = 4
    seat_columns = ("cards_left",)
    game_columns = ("turns", "unfinished")
    rank_value = "cards_left"
    higher_is_better = False
    ahead_means = "fewer cards left"
    length_value = "turns"
    has_first_player = True
    shared_wins = False
    match_score = "cards_left"
    match_target = 12
    default_seating = "rotations"
    default_baseline = "low"
    spec_example = "patient:reach=3"
    options = (GameOption("turn_limit", int, "Turns before a game stops unfinished."),)

    def __init__(self, turn_limit: int = 200):
        if int(turn_limit) < 1:
            raise ValueError(f"the turn limit must be at least 1, got {turn_limit}")
        self.turn_limit = int(turn_limit)
        self.max_length = self.turn_limit

    def config(self) -> dict[str, Any]:
        return {"turn_limit": self.turn_limit}

    def play(self, seats: Seats, deal_seeds: Seeds, play_seeds: Seeds,
             record: bool = False) -> SeatedBatch:  # fmt: skip
        players = [self.strategy(p) for p in seats]
        n, g = len(players), len(deal_seeds)
        cards = np.zeros((g, n), np.int16)
        winner = np.full(g, -1, np.int8)
        forfeit = np.full(g, -1, np.int8)
        first = np.zeros(g, np.int8)
        turns = np.zeros(g, np.int16)
        errors: list[str | None] = []
        records: list[str] = []
        for i in range(g):
            game = play_game([p.move for p in players], int(deal_seeds[i]), int(play_seeds[i]),
                             self.turn_limit)  # fmt: skip
            cards[i] = [len(h) for h in self._hands_left(game)]
            winner[i], forfeit[i], first[i] = game.winner, game.forfeit, game.first
            turns[i] = len(game.moves)
            errors.append(None if game.error is None else f"seat {game.forfeit}: {game.error}")
            if record:
                records.append(game.record(int(deal_seeds[i]), int(play_seeds[i]),
                                           [p.label for p in players]))  # fmt: skip
        return SeatedBatch(
            first_player=first,
            winner_seat=winner,
            forfeit_seat=forfeit,
            seat_values={"cards_left": cards},
            game_values={"turns": turns, "unfinished": (winner < 0) & (forfeit < 0)},
            errors=errors,
            records=records if record else None,
        )

    @staticmethod
    def _hands_left(game: Any) -> list[list[int]]:
        hands = [list(h) for h in game.hands]
        for seat, card in game.moves:
            if card:
                hands[seat].remove(card)
        return hands

    def replay_lines(self, record: str) -> list[str]:
        try:
            return replay(record)[1]
        except (KeyError, TypeError, ValueError, StopIteration) as exc:
            raise ValueError(f"bad Climb record: {exc}") from None
