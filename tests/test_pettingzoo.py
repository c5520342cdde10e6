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


@pytest.mark.slow
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
    e = env(n_players=4, rules="turn_limit=5")
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
    assert set(np.flatnonzero(obs["action_mask"])) == set(e.game.legal_action_ids())
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


# ---------------------------------------------------------------------- rule variants
TAKE_NOTHING = leaves.Rules(take="nothing")
TWO_PLAYERS = leaves.Rules(hand_size=7, deck=(1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1),
                           players=(2, 3, 4, 5, 6))  # fmt: skip
NO_MIN_COUNT = leaves.Rules(min_count=False)
BIG_DECK = leaves.Rules(deck=(8,) * 13, hand_size=30, players=(3,), take="ends")  # 8 copies


def _digest(n: int, seed: int) -> str:
    """A game of random legal actions under today's rules: every observation, mask and reward."""
    import hashlib

    e = env(n_players=n)
    e.reset(seed=seed)
    rng, h = np.random.default_rng(seed), hashlib.sha256()
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        h.update(obs["observation"].tobytes() + obs["action_mask"].tobytes() + str(reward).encode())
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return h.hexdigest()[:16]


def test_todays_games_and_observations_are_as_before_the_rules_came():
    # digests taken before environments took rules: today's rules change nothing
    pinned = ["57379a342b97b819", "23ea462446705ff4", "b0630f318355e3b9", "56c10c1bf0fa6172"]
    assert [_digest(n, 10 + n) for n in (3, 4, 5, 6)] == pinned
    e = raw_env()
    assert e.rules is leaves.DEFAULT_RULES and e.action_space("player_0").n == leaves.N_ACTIONS


@pytest.mark.parametrize(("rules", "n"), [(TAKE_NOTHING, 4), (TWO_PLAYERS, 2), (NO_MIN_COUNT, 5)])
def test_pettingzoos_api_and_seed_tests_under_variants(rules, n):
    api_test(env(n_players=n, rules=rules), num_cycles=1000, verbose_progress=False)
    seed_test(lambda: env(n_players=n, rules=rules), num_cycles=300)


@pytest.mark.slow
def test_a_random_bombardment_under_variants():
    # every observation inside its space (bounds from the rules' deck), every ending rewarded
    from leaves.players.testing import VARIANTS

    rng = np.random.default_rng(4)
    for r, rules in enumerate((*VARIANTS, BIG_DECK)):
        for g in range(40):
            n = rules.players[g % len(rules.players)]
            e = env(n_players=n, rules=rules)
            e.reset(seed=1000 * r + g)
            totals = _random_game(e, rng)
            assert sorted(totals.values()) in ([-1.0] * (n - 1) + [1.0], [0.0] * n)


def test_the_action_space_follows_the_take_rule():
    e = raw_env(n_players=4, take="nothing")
    assert e.action_space("player_1").n == leaves.rules.N_ACTION_IDS == 118
    passes = 0
    for seed in range(6):
        e.reset(seed=seed)
        while not e.game.is_terminal:
            mask = e.observe(e.agent_selection)["action_mask"]
            assert mask.shape == (118,) and set(np.flatnonzero(mask)) == set(
                e.game.legal_action_ids()
            )
            assert not mask[leaves.N_ACTIONS - 13 : leaves.N_ACTIONS].any()  # no take
            passes += int(mask[leaves.rules.PASS_ID])
            e.step(int(np.flatnonzero(mask)[-1]))
    assert passes
    for rules in (NO_MIN_COUNT, TWO_PLAYERS, leaves.Rules(take="ends")):
        assert raw_env(n_players=rules.players[0], rules=rules).action_space("player_0").n == 117


def test_the_observation_bounds_follow_the_deck():
    from interop.observation import LAYOUT

    high = raw_env(n_players=3, rules=BIG_DECK).observation_space("player_0")["observation"].high
    offsets = np.cumsum([0] + [n for _, n in LAYOUT])
    start = {name: int(offsets[k]) for k, (name, _) in enumerate(LAYOUT)}
    assert high[start["hand"]] == 8 and high[start["hand_sizes"]] == 104
    small = raw_env(n_players=2, rules=TWO_PLAYERS).observation_space("player_0")
    assert small["observation"].high[start["hand_sizes"]] == sum(TWO_PLAYERS.deck)
    short = raw_env(rules={"turn_limit": 9}).observation_space("player_0")["observation"].high
    assert short[start["turn"]] == 9 and short[start["round"]] == 10  # the rules' turn limit


def test_rule_keys_text_and_rules_name_the_same_game():
    a = raw_env(n_players=4, take="ends", hand_size=9)
    b = raw_env(n_players=4, rules="take=ends,hand_size=9")
    c = raw_env(n_players=4, rules=leaves.Rules(take="ends"), hand_size=9, turn_limit=1000)
    assert a.rules == b.rules == c.rules == leaves.Rules.parse("take=ends,hand_size=9")
    for e in (a, b, c):
        e.reset(seed=3)
    assert a.game == b.game == c.game and a.game.hand_sizes == (9, 9, 9, 9)
    assert raw_env(turn_limit=7, rules="take=ends").rules.turn_limit == 7  # a rule key on top
    assert raw_env(4, "take=ends,turn_limit=7").rules == leaves.Rules(take="ends", turn_limit=7)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"colour": "red"}, "unknown rule 'colour'"),
     ({"take": "everything"}, "take must be one of any, ends, nothing"),
     ({"hand_size": 30}, "no player count 3..6 can be dealt"),
     ({"rules": "take=ends,hand_size=12", "n_players": 6}, "n_players must be 3 to 5 under"),
     ({"rules": 3}, "rules must be a leaves.Rules"),
     ({"turn_limit": 0}, "turn_limit must be 1..1000000")],
)  # fmt: skip
def test_impossible_rules_are_refused_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        raw_env(**kwargs)
    assert "\n" not in str(info.value)


def test_our_strategy_and_an_outside_agent_play_under_variants():
    import strategies
    from interop.agents import pettingzoo_policy

    for rules, n in ((TAKE_NOTHING, 3), (TWO_PLAYERS, 2)):
        e = env(n_players=n, rules=rules)
        e.reset(seed=5)
        policies = {a: pettingzoo_policy("weighted", seed=i) for i, a in enumerate(e.agents)}
        for agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else policies[agent](e, agent))
        assert e.unwrapped.game.is_terminal
        spec = "observation:policy=interop.agents.random_legal"
        result = strategies.play_game([spec] + ["random"] * (n - 1), seed=2, rules=rules)
        assert result.forfeit_seat is None
