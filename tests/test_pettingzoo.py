"""13 Leaves as a PettingZoo AEC environment (``interop.pettingzoo``) passes PettingZoo's own
conformance tests, and its observations hold nothing a seat may not see."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import leaves  # noqa: E402
from interop.observation import SIZE, encode  # noqa: E402
from interop.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_pettingzoos_api_test(n):
    api_test(env(n_players=n), num_cycles=1000, verbose_progress=False)


def test_pettingzoos_seed_test():
    seed_test(lambda: env(n_players=4), num_cycles=500)


def _random_game(e, rng) -> dict[str, float]:
    """One game of random legal actions; every observation inside its space."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        assert e.observation_space(agent).contains(obs)
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and obs["observation"].shape == (SIZE,)
        e.step(int(rng.choice(legal)))
    return totals


def test_a_long_random_bombardment():
    # PettingZoo's bombardment_test cannot read dict observations (it compares the inner
    # array with the whole first observation); the same stress, written out: 300 games.
    rng = np.random.default_rng(3)
    for g in range(300):
        e = env(n_players=3 + g % 4)
        e.reset(seed=g)
        totals = _random_game(e, rng)
        n = len(totals)
        assert sorted(totals.values()) in ([-1.0] * (n - 1) + [1.0], [0.0] * n)


def test_the_turn_limit_truncates_with_no_reward():
    e = env(n_players=4, turn_limit=5)
    e.reset(seed=1)
    totals = _random_game(e, np.random.default_rng(0))
    assert set(totals.values()) == {0.0} and all(e.truncations.values())


def test_an_observation_is_the_view_and_nothing_else():
    # a determinization (other hands redrawn, consistent with the view) looks the same
    rng = np.random.default_rng(5)
    state = leaves.new_game(5, seed=9)
    for _ in range(40):
        for seat in range(state.n_players):
            view = state.view(seat)
            other = view.sample_state(rng)
            assert np.array_equal(encode(view), encode(other.view(seat)))
        state = state.apply(int(rng.choice(state.legal_action_ids())))
        if state.is_terminal:
            break


def test_the_mask_is_the_legal_actions_and_an_illegal_action_loses():
    e = raw_env(n_players=3)
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    assert set(np.flatnonzero(obs["action_mask"])) == set(e.state.legal_action_ids())
    wrapped = env(n_players=3)
    wrapped.reset(seed=4)
    agent = wrapped.agent_selection
    illegal = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    wrapped.step(illegal)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_settings_are_checked_and_render_is_text():
    with pytest.raises(ValueError, match="n_players must be 3 to 6"):
        raw_env(n_players=2)
    e = raw_env(n_players=4, render_mode="ansi")
    e.reset(seed=2)
    assert "to play: player_" in e.render()


def _rows(tmp_path, name: str, jobs: int):
    from tournaments import Tournament

    t = Tournament(["observation:policy=interop.agents.random_legal", "random", "greedy"],
                   players=3, games=60, seed=11)  # fmt: skip
    return t.run(n_jobs=jobs, out=tmp_path / name).games()


def test_an_outside_agent_plays_in_a_tournament_from_the_runners_seeds(tmp_path):
    import pandas as pd

    a, b = _rows(tmp_path, "a", 1), _rows(tmp_path, "b", 2)
    pd.testing.assert_frame_equal(a, b)  # the same games, whatever --jobs
    assert (a.filter(like="seat_") == "observation(policy=interop.agents.random_legal)").any().any()


def test_an_outside_agent_that_answers_an_illegal_action_forfeits(tmp_path):
    import strategies

    agent = strategies.get("observation:policy=tests.test_pettingzoo._always_zero")
    result = strategies.play_game([agent, "random", "random"], seed=3)
    assert result.forfeit_seat == 0 and "not a legal action id" in str(result.error)


def _always_zero(observation):
    return 0 if not observation["action_mask"][0] else 1_000


def test_our_strategy_drives_pettingzoos_loop_the_same_way_twice():
    from interop.agents import pettingzoo_policy

    def play(seed: int) -> list[int]:
        e = env(n_players=4)
        e.reset(seed=seed)
        policies = {a: pettingzoo_policy("weighted", seed=i) for i, a in enumerate(e.agents)}
        actions = []
        for agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last()
            action = None if terminated or truncated else policies[agent](e, agent)
            actions.append(action)
            e.step(action)
        return actions

    assert play(7) == play(7) and play(7) != play(8)
