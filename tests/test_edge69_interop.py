"""The interop layer off the happy path: a policy's seed replays its games, a bool action is
refused in the raw environment's line, a strategy of another game is refused without advice
the API cannot follow, and OpenSpiel's ``apply_action`` of an id the game lacks says so."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import strategies  # noqa: E402
from interop.agents import pettingzoo_policy  # noqa: E402
from interop.openspiel import GAME_NAME, StrategyBot, register  # noqa: E402
from interop.pettingzoo import env  # noqa: E402

register()


@pytest.mark.parametrize(
    "seed", [np.random.default_rng(1), np.random.SeedSequence(1), np.random.PCG64(1)]
)
def test_pettingzoo_policy_refuses_a_seed_it_could_not_start_again(seed):
    # a Generator was taken and drawn on from game to game: a deal played again differed
    with pytest.raises(TypeError, match=r"^seed must be a whole number >= 0 \(or None\), got "):
        pettingzoo_policy("random", seed=seed)


@pytest.mark.parametrize("action", [True, False, np.True_, 4.5, "3"])
def test_env_refuses_what_is_no_action_id_in_the_raw_environments_line(action):
    e = env()
    e.reset(seed=1)
    game, agent = e.unwrapped.game, e.agent_selection
    assert 0 in game.legal_action_ids()  # False is not played as 0
    # was a numpy error (the truth value of an array...) for a bool, an AssertionError for 4.5
    with pytest.raises(ValueError) as refused:
        e.step(action)
    assert str(refused.value) == f"{action!r} is not an action id (a whole number 0..116)"
    assert e.unwrapped.game is game and e.agent_selection == agent  # nothing changed
    e.step(0)  # the game goes on
    assert e.unwrapped.game.turn == game.turn + 1


@pytest.mark.parametrize(
    "make", [pettingzoo_policy, StrategyBot], ids=["pettingzoo_policy", "StrategyBot"]
)
def test_a_strategy_of_another_game_gets_no_game_parameter_to_pass(make):
    with pytest.raises(ValueError) as refused:
        make("stack")
    said = f"unknown strategy 'stack': it is a Ligretto strategy, and {make.__name__} plays "
    assert str(refused.value) == said + "13 Leaves only"  # was: pass game='ligretto'
    assert "game=" not in str(refused.value)


def test_strategies_get_keeps_its_advice():
    with pytest.raises(ValueError, match=r"; pass game='ligretto' to play it$"):
        strategies.get("stack")


def _dealt(params: str = "") -> pyspiel.State:
    state = pyspiel.load_game(f"{GAME_NAME}({params})" if params else GAME_NAME)
    state = state.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize(("params", "action", "top"), [
    ("", 117, 116), ("", 118, 116), ("", -2, 116), ("rules=take:nothing", 118, 117),
])  # fmt: skip
def test_apply_action_of_an_id_the_game_lacks_says_so(params, action, top):
    state = _dealt(params)
    assert state.get_game().num_distinct_actions() == top + 1
    history = state.history()
    # was: "a pass takes a card under these rules: write 'pass, take V'" for 117 (the
    # command line's words), "action id must be an integer 0..117" for 118
    with pytest.raises(ValueError) as refused:
        state.apply_action(action)
    assert str(refused.value) == f"{action} is not an action id of this game (0..{top})"
    with pytest.raises(ValueError) as named:
        state.action_to_string(state.current_player(), action)
    assert str(named.value) == str(refused.value)  # one wording for both
    assert state.history() == history  # nothing changed
