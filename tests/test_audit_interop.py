"""Audit of ``interop``: bad input to the PettingZoo environment, the outside-agent strategy and
the OpenSpiel game is refused in one clear line, never taken for something else."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")

import strategies  # noqa: E402
from interop.pettingzoo import env, raw_env  # noqa: E402


# --------------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("n", [4.5, 3.9, "4", None, True])
def test_a_player_count_that_is_not_a_whole_number_is_refused(n):
    with pytest.raises(ValueError, match="n_players must be 3 to 6"):
        raw_env(n_players=n)


def test_numpy_player_counts_are_whole_numbers():
    assert raw_env(n_players=np.int64(5)).n_players == 5


def _started(**kwargs) -> raw_env:
    e = raw_env(n_players=3, **kwargs)
    e.reset(seed=1)
    return e


@pytest.mark.parametrize(
    "bad", [lambda a: a + 0.5, str, lambda a: None, lambda a: True, lambda a: [a]]
)
def test_raw_env_refuses_an_action_that_is_not_a_whole_number(bad):
    e = _started()
    action = bad(min(e.game.legal_action_ids()))  # e.g. 4.5 was played as 4, "4" as 4
    turn = e.game.turn
    with pytest.raises(ValueError, match="not an action id"):
        e.step(action)
    assert e.game.turn == turn  # nothing was played


def test_raw_env_takes_numpy_action_ids():
    e = _started()
    e.step(np.int64(min(e.game.legal_action_ids())))
    e.step(np.array(min(e.game.legal_action_ids())))  # a 0-d array, as Discrete accepts
    assert e.game.turn == 2


def test_raw_env_used_before_reset_says_so():
    e = raw_env(n_players=3, render_mode="ansi")
    for call in (lambda: e.observe("player_0"), e.render, lambda: e.step(0)):
        with pytest.raises(ValueError, match=r"reset\(\) first"):
            call()


def test_an_unknown_agent_is_named_in_the_error():
    e = _started()
    with pytest.raises(ValueError, match="unknown agent 'nobody'; the agents are player_0"):
        e.observe("nobody")


def _finish(e) -> None:
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(
            obs["action_mask"]))))  # fmt: skip


def test_stepping_raw_env_after_the_end_says_the_game_is_over():
    e = _started()
    _finish(e)
    assert e.agents == []
    with pytest.raises(ValueError, match=r"the game is over: reset\(\) first"):
        e.step(None)
    obs = e.observe("player_0")  # a dead agent's observation: its view, no action
    assert not obs["action_mask"].any()


def test_render_names_who_passed_even_when_nobody_did():
    e = _started(render_mode="ansi")
    assert "passed: nobody" in e.render()
    e = raw_env(n_players=3, render_mode="ansi", turn_limit=2)
    e.reset(seed=1)
    _finish(e)
    assert "stopped at the turn limit (2 turns)" in e.render()


def test_the_wrapped_env_still_ends_the_game_on_an_illegal_action():
    e = env(n_players=3)
    e.reset(seed=4)
    agent = e.agent_selection
    e.step(int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0]))
    assert e.rewards[agent] == -1 and all(e.terminations.values())


# --------------------------------------------------------------------------- outside agents
def _play(policy: str):
    agent = strategies.get(f"observation:policy=tests.test_audit_interop.{policy}")
    return strategies.play_game([agent, "random", "random"], seed=3)


def _first(obs) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def _float_answer(obs):
    return _first(obs) + 0.4


def _text_answer(obs):
    return str(_first(obs))


def _none_answer(obs):
    return None


def _array_answer(obs):
    return np.flatnonzero(obs["action_mask"])[:1]


def _bool_answer(obs):
    return True


def _mask_changer(obs):
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs["action_mask"][:] = 1  # the policy spoils the mask it was handed
    return illegal


@pytest.mark.parametrize(
    "policy", ["_float_answer", "_text_answer", "_none_answer", "_array_answer", "_bool_answer"]
)
def test_an_answer_that_is_not_an_action_id_forfeits_in_one_clear_line(policy):
    result = _play(policy)
    assert result.forfeit_seat == 0
    assert "ValueError: the policy answered" in str(result.error)
    assert "not a legal action id" in str(result.error)


def test_legality_is_judged_on_the_legal_actions_not_on_the_policys_copy_of_the_mask():
    result = _play("_mask_changer")
    assert result.forfeit_seat == 0 and "not a legal action id" in str(result.error)


def _numpy_answer(obs):
    return np.int64(_first(obs))


def _zero_d_answer(obs):
    return np.array(_first(obs))


def _keyword_only(obs, *, temperature=1.0):
    assert temperature == 1.0  # never handed the generator
    return _first(obs)


def _with_rng(obs, rng):
    assert isinstance(rng, np.random.Generator)
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize(
    "policy", ["_numpy_answer", "_zero_d_answer", "_keyword_only", "_with_rng"]
)
def test_whole_number_answers_and_keyword_only_parameters_play(policy):
    result = _play(policy)
    assert result.forfeit_seat is None and result.error is None


def test_a_builtin_without_a_signature_is_called_with_the_observation_alone():
    agent = strategies.get("observation:policy=builtins.max")  # max(obs): "observation"
    result = strategies.play_game([agent, "random", "random"], seed=3)
    assert result.forfeit_seat == 0
    assert "the policy answered 'observation'" in str(result.error)


# --------------------------------------------------------------------------- OpenSpiel
def _game(text: str = "players=3"):
    import pyspiel

    from interop.openspiel import GAME_NAME, register

    register()
    return pyspiel.load_game(f"{GAME_NAME}({text})")


def test_strategy_bot_asked_at_a_chance_node_or_the_end_says_so():
    from interop.openspiel import StrategyBot

    state = _game("players=3,turn_limit=1").new_initial_state()
    bot = StrategyBot("random", seed=1)
    with pytest.raises(ValueError, match="needs a seat to play, not"):
        bot.step(state)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(bot.step(state))
    assert state.is_terminal()
    with pytest.raises(ValueError, match="needs a seat to play, not"):
        bot.step(state)


@pytest.mark.parametrize("uct_c", ["nan", "inf", "-1.0"])
def test_an_exploration_constant_that_is_no_number_or_negative_is_refused(uct_c):
    with pytest.raises(ValueError, match="uct_c must be a number >= 0"):
        strategies.get(f"openspiel:uct_c={uct_c}")


def test_an_information_state_holds_the_seats_own_hand_only():
    game = _game()
    state, rng = game.new_initial_state(), np.random.default_rng(2)
    while state.is_chance_node() or len(state.history()) < 60:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, np.random.default_rng(0).random)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.observation_string(seat) == state.observation_string(seat)
    assert other.observation_tensor(seat) == state.observation_tensor(seat)


def test_a_resampled_state_is_the_drawn_world_history_and_serialization_included():
    # it used to be a copy of the true state with the hands swapped: its history still dealt
    # the true hidden cards, and serializing it brought the true state back
    game = _game("players=4")
    state, rng = game.new_initial_state(), np.random.default_rng(7)
    differ = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        world = state.resample_from_infostate(seat, rng.random)
        again = game.deserialize_state(world.serialize())
        assert again.state.hands == world.state.hands and again.history() == world.history()
        replayed = game.new_initial_state()  # its history is a game that leads to it
        for action in world.history():
            replayed.apply_action(action)
        assert replayed.state.hands == world.state.hands
        assert replayed.information_state_string(seat) == state.information_state_string(seat)
        differ += world.state.hands != state.state.hands
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differ  # the other seats' deals were drawn again


class _Counting(strategies.Strategy, register=False):
    """Counts its decisions in this game (a strategy's own state, which a new game drops)."""

    def __init__(self):
        self.decisions = 0

    def choose(self, view, legal, rng):
        self.decisions += 1
        assert self.decisions == 1, "a strategy carried over from the game before"
        return legal[0]


def test_pettingzoo_policy_starts_every_game_with_a_fresh_strategy():
    # it told a new game by its turn going back; a game of one turn, dealt again, did not
    from interop.agents import pettingzoo_policy

    act = pettingzoo_policy(_Counting(), seed=1)
    e = env(n_players=3, turn_limit=1)
    for _ in range(3):
        e.reset(seed=5)  # the same first player acts at turn 0 of every game
        for agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else act(e, agent))
