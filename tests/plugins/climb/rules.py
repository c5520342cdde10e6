"""Climb's rules: the deal, the legal moves and one game, with its record."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

VALUES = 9  # card values 1..9, four copies each
HAND = 6
PASS = 0
Mover = Callable[[tuple[int, ...], int, tuple[int, ...], np.random.Generator], int]
"""(own hand sorted, top of the pile (0: leading), legal moves, rng) -> the move."""


def deal(seed: int, n: int) -> tuple[list[list[int]], int]:
    """Hands (sorted) and the first player, from the deal seed alone."""
    rng = np.random.default_rng([int(seed), n])
    deck = rng.permutation(np.repeat(np.arange(1, VALUES + 1), 4))
    hands = [sorted(int(c) for c in deck[i * HAND : (i + 1) * HAND]) for i in range(n)]
    return hands, int(rng.integers(n))


def legal(hand: Sequence[int], top: int) -> tuple[int, ...]:
    """Cards higher than ``top`` (each value once), and a pass unless leading (top 0)."""
    higher = tuple(sorted({c for c in hand if c > top}))
    return higher if top == 0 else (PASS, *higher)


@dataclass
class Game:
    """One game's course: the moves (seat, card; 0 a pass) and how it ended."""

    hands: list[list[int]]
    first: int
    moves: list[tuple[int, int]] = field(default_factory=list)
    winner: int = -1
    forfeit: int = -1
    error: str | None = None

    def record(self, deal_seed: int, play_seed: int, names: Sequence[str]) -> str:
        return json.dumps({"game": "climb", "deal_seed": deal_seed, "play_seed": play_seed,
                           "strategies": list(names), "hands": self.hands,
                           "first": self.first, "moves": self.moves,
                           "forfeit": self.forfeit, "error": self.error})  # fmt: skip


def play_game(movers: Sequence[Mover], deal_seed: int, play_seed: int, turn_limit: int) -> Game:
    """One game from its seeds; a mover that raises or plays an illegal card forfeits."""
    n = len(movers)
    hands, first = deal(deal_seed, n)
    game = Game([list(h) for h in hands], first)
    rng = np.random.default_rng([int(play_seed), 7])
    seat, top, last, passes = first, 0, first, 0
    for _ in range(turn_limit):
        options = legal(hands[seat], top)
        try:
            move = int(movers[seat](tuple(hands[seat]), top, options, rng))
        except Exception as exc:  # noqa: BLE001 - a broken strategy forfeits, the run goes on
            game.forfeit, game.error = seat, f"{type(exc).__name__}: {exc}"
            return game
        if move not in options:
            game.forfeit, game.error = seat, f"illegal move {move} (legal: {options})"
            return game
        game.moves.append((seat, move))
        if move == PASS:
            passes += 1
        else:
            hands[seat].remove(move)
            top, last, passes = move, seat, 0
            if not hands[seat]:
                game.winner = seat
                return game
        if passes == n - 1:  # everyone else passed: the last player to play leads
            seat, top, passes = last, 0, 0
        else:
            seat = (seat + 1) % n
    return game


def replay(record: str) -> tuple[Game, list[str]]:
    """A record's game played again move by move (each checked), and its course in words."""
    data = json.loads(record)
    names = data["strategies"]
    moves = iter(data["moves"])
    lines = [f"{len(names)} players: " + ", ".join(names)]

    def recorded(k: int) -> Mover:
        def mover(hand: tuple[int, ...], top: int, options: tuple[int, ...], rng) -> int:
            seat, card = next(moves)
            if seat != k:
                raise ValueError(f"the record has seat {seat} moving, the rules seat {k}")
            lines.append(f"{names[k]}: {'passes' if card == PASS else f'plays {card}'} on {top}")
            return card

        return mover

    game = play_game([recorded(k) for k in range(len(names))], data["deal_seed"], 0,
                     len(data["moves"]))  # fmt: skip
    if game.forfeit >= 0:
        raise ValueError(f"not a legal game of Climb: {game.error}")
    if data.get("forfeit", -1) >= 0:
        lines.append(f"{names[data['forfeit']]} forfeits: {data.get('error')}")
    else:
        lines.append(f"{names[game.winner]} wins" if game.winner >= 0 else "unfinished")
    return game, lines
