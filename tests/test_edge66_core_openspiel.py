"""The ``openspiel`` strategy plays a position set up by hand (``State.initial`` of hands no
deal of the rules gives: an endgame): its ISMCTS bot's worlds, drawn by
``resample_from_infostate``, stood at the position (no deal leads to it, so none is played
out). It raised IndexError there, at any table size, dealing cards the hands do not hold.
Its parameters' refusals show a huge or long value on one short line."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import leaves  # noqa: E402
from interop.openspiel import GAME_NAME, OpenSpielAgent, register  # noqa: E402
from interop.variants import openspiel_text  # noqa: E402

register()


def _by_hand(n: int, moves: int = 0) -> leaves.State:
    """A position of ``n`` seats set up by hand, seat ``i`` holding two cards of value
    ``i + 1`` and one 7 (no deal of today's rules: those are 12 to 9 cards a hand), then
    ``moves`` moves, the highest legal id each."""
    hands = [[0] * 13 for _ in range(n)]
    for seat, hand in enumerate(hands):
        hand[seat], hand[6] = 2, 1
    state = leaves.State.initial(hands, first_player=n - 1)
    for _ in range(moves):
        state = state.apply(state.legal_actions()[-1])
    return state


def _standing(inner: leaves.State, seat: int):
    """A state of the OpenSpiel game standing where ``seat``'s view of ``inner`` stands."""
    game = pyspiel.load_game(
        GAME_NAME, {"players": inner.n_players, "rules": openspiel_text(inner.rules)}
    )
    state = game.new_initial_state()
    state.set_position(inner.view(seat), np.random.default_rng(0))
    return state


@pytest.mark.parametrize("bot", ["ismcts", "mcts"])
@pytest.mark.parametrize(("n", "moves"), [(3, 0), (3, 2), (6, 0), (6, 4)])
def test_the_openspiel_strategy_plays_a_position_set_up_by_hand(bot, n, moves):
    inner = _by_hand(n, moves)
    assert not inner.is_terminal
    agent = OpenSpielAgent(bot=bot, max_simulations=8)
    seat = inner.current_player
    chosen = agent.choose(inner.view(seat), inner.legal_actions(), np.random.default_rng(1))
    assert chosen in inner.legal_actions()


@pytest.mark.parametrize(("n", "moves"), [(3, 2), (6, 4)])
def test_a_world_drawn_at_a_position_set_up_by_hand_is_one_the_seat_cannot_tell_apart(n, moves):
    """The world keeps the seat's hand, every hand's size, the table and the moves (the
    seat's information state is the same), draws the hidden cards again, and plays on."""
    inner = _by_hand(n, moves)
    seat = inner.current_player
    state = _standing(inner, seat)
    drawn = [state.resample_from_infostate(seat, np.random.default_rng(k).random) for k in range(8)]
    for world in drawn:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.state.hands[seat] == inner.hands[seat]
        assert world.state.hand_sizes == inner.hand_sizes and world.state.turn == inner.turn
        assert world.state.stacks == inner.stacks and world.moves == state.moves
        assert world.current_player() == seat and world.history() == []  # no deal leads here
        world.apply_action(world.legal_actions()[0])
        assert world.state.turn == inner.turn + 1
    hidden = {w.state.hands[(seat + 1) % n] for w in drawn}
    assert len(hidden) > 1  # the other hands are drawn again, not the true ones


def test_a_dealt_position_and_one_of_a_deals_hand_sizes_are_still_played_out_from_a_deal():
    """Hands of the sizes the rules deal (set up by hand or dealt) are a deal of the game:
    their worlds are dealt card by card and played out, as before (their history)."""
    hands = [[1] * 12 + [0], [0] + [1] * 12, [1] * 6 + [0] + [1] * 6]  # 12 cards each
    for inner in (leaves.State.initial(hands, first_player=2), leaves.new_game(3, seed=4)):
        inner = inner.apply(inner.legal_actions()[-1])
        seat = inner.current_player
        world = _standing(inner, seat).resample_from_infostate(seat, lambda: 0.5)
        assert len(world.history()) == 3 * 12 + 1 + 1  # the cards, the first player, a move
        assert world.state.hands[seat] == inner.hands[seat]


HUGE = 10**5000
LONG = "x" * 300


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"max_simulations": -HUGE},
         "max_simulations must be a whole number >= 1, got a negative whole number of about "
         "5,001 digits"),
        ({"max_simulations": LONG},
         "max_simulations must be a whole number >= 1, got '" + "x" * 56 + "..."),
        ({"uct_c": HUGE},
         "uct_c must be a number >= 0 and finite, got a whole number of about 5,001 digits"),
        ({"uct_c": LONG}, "uct_c must be a number >= 0 and finite, got '" + "x" * 56 + "..."),
        ({"bot": LONG}, "bot must be ismcts or mcts, got '" + "x" * 56 + "..."),
        ({"max_simulations": 1e9},
         "max_simulations must be a whole number >= 1 written as an int: 1000000000, not "
         "1000000000.0"),
        ({"uct_c": float("nan")}, "uct_c must be a number >= 0 and finite, got nan"),
    ],
    ids=["huge-count", "long-count", "huge-uct", "long-uct", "long-bot", "float", "nan"],
)  # fmt: skip
def test_the_openspiel_strategy_refuses_a_huge_or_long_value_in_one_short_line(params, said):
    """A whole number past Python's 4,300 digits raised Python's own "Exceeds the limit"
    error, one past a float's range an OverflowError, long text spilled over the line."""
    with pytest.raises(ValueError) as info:
        OpenSpielAgent(**params)
    assert str(info.value) == said
