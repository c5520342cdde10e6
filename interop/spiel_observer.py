"""What a seat of ``python_13_leaves`` (``interop.openspiel``) observes, as OpenSpiel asks it
of a game: its ``Observer``, with or without perfect recall, as a tensor and as a string."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np

from leaves import N_VALUES

from .observation import SIZE, encode

if TYPE_CHECKING:  # the game's module imports this one
    from .openspiel import ThirteenLeavesGame, ThirteenLeavesState


class Observer:
    """OpenSpiel's observer of a seat. Without perfect recall: its view now, as the tensor
    and string of ``interop.observation``. With perfect recall (the information state): as a
    string its hand, the first player and every move (during the deal: its cards so far and
    how many cards have been dealt); as a tensor, in this order, ``player`` (one-hot, the seat
    observed), ``dealt_hand`` (its cards as dealt, per value 1..13; during the deal, those
    dealt to it so far), ``cards_dealt`` (how many cards have been dealt to the table so far),
    ``first_player`` (one-hot; none during the deal) and ``history`` (max_game_length x
    num_distinct_actions: row t one-hot the id of the t-th move after the deal, rows past the
    last move zero). All moves are public, and the deal's progress too, so that is all the
    seat has seen: two histories it can tell apart give different tensors and strings, and no
    other seat's cards are in them. As in OpenSpiel's card games, a hand is a set of cards:
    the order its cards were dealt in is not kept."""

    def __init__(self, perfect_recall: bool, game: ThirteenLeavesGame | None = None):
        self.perfect_recall = perfect_recall
        if not perfect_recall or game is None:
            self.tensor = np.zeros(SIZE, np.float32)
            self.dict = {"observation": self.tensor}
            return
        n, moves, ids = game.n_players, game.max_game_length(), game.num_distinct_actions()
        pieces = (("player", (n,)), ("dealt_hand", (N_VALUES,)), ("cards_dealt", (1,)),
                  ("first_player", (n,)), ("history", (moves, ids)))  # fmt: skip
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in pieces), np.float32)
        self.dict, at = {}, 0
        for name, shape in pieces:
            self.dict[name] = self.tensor[at : at + math.prod(shape)].reshape(shape)
            at += math.prod(shape)

    def set_from(self, state: ThirteenLeavesState, player: int) -> None:
        if not self.perfect_recall or "history" not in self.dict:
            self.tensor[:] = _seen(state, player)
            return
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        self.dict["dealt_hand"][:] = state.hands[player]
        self.dict["cards_dealt"][0] = state.dealt
        if state.first >= 0:
            self.dict["first_player"][state.first] = 1
        moves = np.asarray(state.moves, np.int64)
        self.dict["history"][np.arange(len(moves)), moves] = 1

    def string_from(self, state: ThirteenLeavesState, player: int) -> str:
        if not self.perfect_recall:  # the tensor's entries, as they are
            return f"p{player} " + " ".join(map(str, _seen(state, player)))
        if state.state is None:
            return f"p{player} dealt {state.hands[player]}, {state.dealt} cards dealt in all"
        hand = list(state.state.hands[player])  # with the public moves: the dealt hand
        return f"p{player} hand {hand} first {state.first} moves {state.moves}"


def _seen(state: ThirteenLeavesState, player: int) -> np.ndarray:
    """The seat's observation now (``interop.observation``): its view; during the deal, what
    it sees of the deal, the cards dealt to it so far and how many every seat has been dealt
    (nothing on the table, no turn yet)."""
    if state.state is not None:
        return encode(state.state.view(player))
    n, nothing = state.n, [0] * N_VALUES
    dealing = SimpleNamespace(n_players=n, player=player, rules=state.rules,
                              hand=state.hands[player], hand_sizes=[sum(h) for h in state.hands],
                              passed=[False] * n, known=[nothing] * n, current_player=-1,
                              is_terminal=False, table=nothing, ends=None, removed=nothing,
                              round=0, turn=0)  # fmt: skip
    return encode(dealing)
