"""The research environments at their edges: OpenSpiel's ``apply_action`` of anything but a
move or outcome here is one ``ValueError`` line that changes nothing (-1 was OpenSpiel's
two-line fatal error, printed too), ``openspiel:bot=ismcts`` plays a position built from its
dict form, and a PettingZoo game ended by an illegal action says so and names no one to play."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import leaves  # noqa: E402
from interop.observation import LAYOUT, STATE_LAYOUT, part  # noqa: E402
from interop.openspiel import GAME_NAME, OpenSpielAgent, register  # noqa: E402
from interop.pettingzoo import env  # noqa: E402

register()
_GAME = pyspiel.load_game(f"{GAME_NAME}(players=3)")


def _at_a_seat() -> pyspiel.State:
    state = _GAME.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def _refused_unchanged(state: pyspiel.State, action: object, capfd) -> str:
    """The one line ``apply_action(action)`` is refused with; the state as it was, and
    nothing printed."""
    before = (state.history(), state.move_number(), str(state))
    with pytest.raises(ValueError) as refused:
        state.apply_action(action)
    assert (state.history(), state.move_number(), str(state)) == before
    assert "\n" not in str(refused.value)
    assert capfd.readouterr().err == ""  # OpenSpiel printed "OpenSpiel exception: ..."
    return str(refused.value)


@pytest.mark.parametrize("action", [-1, np.int64(-1), -2])
def test_a_negative_id_is_one_line_at_a_seat_and_at_a_chance_node(action, capfd):
    said = _refused_unchanged(_at_a_seat(), action, capfd)
    assert said == f"{int(action)} is not an action id of this game (0..116)"
    said = _refused_unchanged(_GAME.new_initial_state(), action, capfd)
    assert said.startswith(f"{int(action)} is not a chance outcome here; they are [0, 1,")


@pytest.mark.parametrize("action", [4.5, "3", None, True, 2**64])
def test_what_is_no_whole_number_or_past_64_bits_is_one_line(action, capfd):
    # the binding refused these over several lines (a TypeError), and played True as 1
    said = _refused_unchanged(_at_a_seat(), action, capfd)
    assert said.endswith("is not an action id of this game (0..116)")
    said = _refused_unchanged(_GAME.new_initial_state(), action, capfd)
    assert " is not a chance outcome here; they are [0, 1," in said


@given(action=st.integers(min_value=-(2**70), max_value=2**70))
def test_any_integer_but_a_legal_id_is_refused_and_changes_nothing(action):
    state = _at_a_seat()
    if action in state.legal_actions():
        return
    before = (state.history(), str(state))
    with pytest.raises(ValueError) as refused:
        state.apply_action(action)
    assert "\n" not in str(refused.value)
    assert (state.history(), str(state)) == before


def test_ismcts_plays_a_position_built_from_its_dict_form():
    inner = leaves.new_game(3, seed=1)
    for _ in range(10):
        inner = inner.apply(inner.legal_actions()[0])
    bare = leaves.State.from_dict(inner.to_dict())
    view = bare.view(bare.current_player)
    for bot in ("ismcts", "mcts"):  # ismcts: "cannot deal and play out a world ..."
        agent = OpenSpielAgent(bot=bot, max_simulations=8)
        chosen = agent.choose(view, bare.legal_actions(), np.random.default_rng(1))
        assert chosen in bare.legal_actions()
        again = OpenSpielAgent(bot=bot, max_simulations=8)
        assert again.choose(view, bare.legal_actions(), np.random.default_rng(1)) == chosen


def _ended_by_an_illegal_action():
    e = env(n_players=3, render_mode="ansi")
    e.reset(seed=4)
    cheat = e.unwrapped.game.current_player
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    return e, cheat


def test_a_game_ended_by_an_illegal_action_renders_so_and_names_no_one_to_play():
    e, cheat = _ended_by_an_illegal_action()
    assert all(e.terminations.values())
    for _ in range(2):  # while agents are done, and once they are all gone
        assert e.render().splitlines()[-1] == f"ended by an illegal action of player_{cheat}"
        assert not e.state()[part(STATE_LAYOUT, "to_play")].any()
        for agent in e.possible_agents:
            seen = e.unwrapped.observe(agent)
            assert not seen["observation"][part(LAYOUT, "to_play")].any()
            assert not seen["action_mask"].any()
        for _agent in e.agent_iter():
            e.step(None)
    assert not e.agents


def test_a_game_in_play_still_names_who_is_to_play():
    e = env(n_players=3, render_mode="ansi")
    e.reset(seed=4)
    seat = e.unwrapped.game.current_player
    assert e.render().splitlines()[-1] == f"to play: player_{seat}"
    assert list(np.flatnonzero(e.state()[part(STATE_LAYOUT, "to_play")])) == [seat]
    assert e.last()[0]["action_mask"].any()
