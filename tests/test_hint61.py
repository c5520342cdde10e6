"""The hint is read for the player to move, and a replay shows it for a seat the viewer is
not: where the best move wins, the hint says so without calling the hand "your" hand."""

from __future__ import annotations

import io
import random

import numpy as np
from rich.console import Console

import strategies
from leaves import new_game
from leaves.commands.hint import hint
from leaves.players.builtin import BEST_HEURISTIC


def _a_winning_position():
    """The first position of random games where the mover's best move empties its hand."""
    best = strategies.get(BEST_HEURISTIC)
    for seed in range(50):
        state, rng = new_game(4, seed=seed), random.Random(seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            if best.explain(view)[0].wins:
                return view
            state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no position with a winning play in 50 random games")


def test_a_winning_hint_says_the_move_wins_in_words_true_for_any_viewer():
    view = _a_winning_position()
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(hint(view, np.random.default_rng(0)))
    text = out.getvalue()
    assert "plays the last cards of the hand and wins" in text, text
    assert "your" not in text, text
