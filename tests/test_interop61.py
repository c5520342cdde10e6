"""Audit of ``interop`` as a researcher meets it: PettingZoo's own conformance checks beyond the
API test, OpenSpiel's game contract at its edges, and the bots' settings."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402
from pettingzoo.test import render_test  # noqa: E402

from interop.openspiel import register  # noqa: E402
from interop.pettingzoo import env  # noqa: E402

register()


def test_pettingzoos_render_test_passes(capsys):
    # "human" prints the position and returns None, as Gymnasium and PettingZoo ask;
    # "ansi" returns it
    render_test(lambda render_mode=None: env(n_players=3, render_mode=render_mode))
    e = env(n_players=3, render_mode="human")
    e.reset(seed=1)
    capsys.readouterr()
    assert e.render() is None
    assert "to play: player_" in capsys.readouterr().out
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert capsys.readouterr().out.startswith("turn 1, round 1;")  # every step prints


def _dealt(players: int = 3, seed: int = 0):
    game = pyspiel.load_game(f"python_13_leaves(players={players})")
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize("action", [-1, 117, 500])
def test_an_id_that_is_no_action_of_the_game_has_no_name(action):
    # -1 named the last pass and 117 the pass taking nothing, a move today's rules lack
    state = _dealt()
    with pytest.raises(ValueError, match=f"{action} is not an action id of this game"):
        state.action_to_string(state.current_player(), action)
    assert state.action_to_string(state.current_player(), 116) == "pass, take 13"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_simulations": 2.5}, "max_simulations must be a whole number >= 1, got 2.5"),
        ({"max_simulations": "9"}, "max_simulations must be a whole number >= 1, got '9'"),
        ({"max_simulations": True}, "max_simulations must be a whole number >= 1, got True"),
        ({"max_simulations": None}, "max_simulations must be a whole number >= 1, got None"),
        ({"uct_c": float("inf")}, "uct_c must be a number >= 0 and finite, got inf"),
        ({"uct_c": "x"}, "uct_c must be a number >= 0 and finite, got 'x'"),
    ],
)
def test_an_openspiel_bots_settings_are_checked_when_built_in_python(kwargs, message):
    # built directly (not from a spec): a float count searched nothing and failed at the
    # first decision, a text exploration constant raised a TypeError
    from interop.openspiel import OpenSpielAgent

    with pytest.raises(ValueError, match=f"^{message}$".replace("(", r"\(")):
        OpenSpielAgent(**kwargs)


def test_an_openspiel_bot_built_in_python_from_numpy_numbers_plays():
    import leaves
    from interop.openspiel import OpenSpielAgent

    bot = OpenSpielAgent(max_simulations=np.int64(3), uct_c=np.float64(1.5))
    s = leaves.new_game(3, seed=1)
    legal = tuple(s.legal_actions())
    assert bot.choose(s.view(s.current_player), legal, np.random.default_rng(0)) in legal


@pytest.mark.parametrize(
    ("written", "shown"), [("take", "'take'"), ("take:", "'take:'"), (":ends", "':ends'")]
)
def test_openspiels_rules_that_cannot_be_read_say_the_form_a_game_string_holds(written, shown):
    # it said "write key=value", which no game string can hold, and quoted 'take=' for 'take:'
    with pytest.raises(ValueError) as err:
        pyspiel.load_game(f"python_13_leaves(rules=take:ends;{written})")
    assert str(err.value).splitlines()[-1] == (
        f"rules: cannot read the rule {shown}: write key:value;key:value"
    )


def test_pettingzoos_rules_that_cannot_be_read_quote_what_was_written():
    from interop.pettingzoo import raw_env

    with pytest.raises(ValueError, match=r"^cannot read the rule 'take:': write key=value$"):
        raw_env(rules="hand_size=9,take:")
    assert str(raw_env(rules="default").rules) == "default"  # the word Rules.parse reads


def _played_out(e, seed: int = 3):
    e.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        done = terminated or truncated
        e.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return e


def test_the_wrapped_envs_last_once_the_game_is_over_says_so():
    # env() (the wrapped one the docs loop over) raised a bare KeyError: 'player_0'
    e = _played_out(env(n_players=3))
    assert str(e) == "thirteen_leaves_v0"  # named as PettingZoo's own wrapper names it
    assert e.agents == []
    with pytest.raises(ValueError, match=r"^the game is over: reset\(\) first$"):
        e.last()
    assert e.step(0) is None and e.agents == []  # PettingZoo's order check only warns
    with pytest.raises(ValueError, match=r"^no game yet: call reset\(\) first$"):
        env(n_players=3).last()
    e.reset(seed=1)
    assert e.last()[0]["observation"].shape == (145,)  # a new game plays on


def test_chance_outcomes_exist_at_chance_nodes_only():
    # at a seat's turn it answered the first-player draw, three outcomes that were none
    state = _dealt()
    with pytest.raises(ValueError, match=r"^chance_outcomes: player \d is to act, not chance$"):
        state.chance_outcomes()
    fresh = pyspiel.load_game("python_13_leaves(players=3)").new_initial_state()
    outcomes = fresh.chance_outcomes()
    assert [v for v, _ in outcomes] == list(range(13))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)


def test_chance_outcomes_at_the_end_say_the_game_is_over():
    state, rng = _dealt(), np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(ValueError, match=r"^chance_outcomes: the game is over, not chance$"):
        state.chance_outcomes()


def test_pettingzoos_turn_based_parallel_form_passes_its_parallel_api_test():
    # the parallel API a researcher can have: PettingZoo's converter for turn-based games (the
    # plain aec_to_parallel refuses, as is_parallelizable is False)
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

    parallel_api_test(turn_based_aec_to_parallel(env(n_players=4)), num_cycles=300)
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env(n_players=4))


def _hands(e):
    return [tuple(h) for h in e.unwrapped.game.hands], e.unwrapped.game.current_player


def test_a_reset_without_a_seed_deals_the_next_deal_of_the_last_seeds_stream():
    a, b = env(n_players=4), env(n_players=4)
    a.reset(seed=7)
    b.reset(seed=7)
    first = _hands(a)
    a.reset()
    b.reset()
    assert _hands(a) == _hands(b) != first  # the same next deal, a new one
    a.reset(seed=7)
    assert _hands(a) == first  # the seed starts its stream again
    c = env(n_players=4)
    c.reset(seed=8)
    assert _hands(c) != first


def test_render_without_a_render_mode_warns_as_pettingzoos_classic_games_do():
    # it returned None without a word: nothing printed, nothing said
    e = env(n_players=3)
    e.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert e.render() is None
    with pytest.raises(ValueError, match=r"^no game yet: call reset\(\) first$"):
        env(n_players=3).unwrapped.render()  # before the first reset, whatever the mode


@pytest.mark.parametrize(
    ("game", "size"),
    [
        ("python_13_leaves", 117_022),
        ("python_13_leaves(turn_limit=100)", 11_722),
        ("python_13_leaves(players=3)", 117_020),
    ],
)
def test_the_information_state_tensor_has_the_size_the_docs_state(game, size):
    # docs/research.md: 117,022 entries at 4 players under the default limit, 11,722 under
    # turn_limit=100 (the seat, its dealt hand, the cards dealt, the first player, a row of
    # 117 a move)
    assert pyspiel.load_game(game).information_state_tensor_size() == size


@pytest.mark.slow
def test_the_meta_game_figures_of_the_research_page(capsys, tmp_path):
    """docs/research.md's meta-game run: `weighted` alone, 100% [95, 100]; `taker` at a table of
    two `weighted` wins 31.1% (2.3 percentage points below the fair third), `counter` 17.5%,
    `random` 0%; `taker` enters the equilibrium in 4.5% of the replicates; alpha-Rank puts
    `weighted` first with all the mass, [67, 100], in 20 of 20 replicates; the dynamics take
    `random` below 1% by time 10, `counter` by 30 and `taker` (first up to 37%) by 200."""
    import reports
    from tests.helpers import cli

    out = tmp_path / "mg"
    args = ["random", "taker", "counter", "weighted", "--players", "3", "--repeats"]
    code, _, err = cli(capsys, "tournament", *args, "--games", "20000", "--seed", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    tables, _ = reports.compute_tables(out)
    mix = tables["metagame_mix"].set_index("strategy")
    w, t = mix.loc["weighted"], mix.loc["taker"]
    assert (w.weight, round(100 * w.ci_low), w.ci_high) == (1.0, 95, 1.0)
    assert round(100 * t.in_support, 1) == 4.5
    pay = tables["metagame_payoffs"].set_index("table")
    assert round(100 * pay.loc["taker + 2 weighted", "taker"], 1) == 31.1
    assert round(100 * (1 / 3 - pay.loc["taker + 2 weighted", "taker"]), 1) == 2.3
    assert round(100 * pay.loc["counter + 2 weighted", "counter"], 1) == 17.5
    assert pay.loc["random + 2 weighted", "random"] == 0
    rank = tables["metagame_alpharank"].set_index("strategy").loc["weighted"]
    assert (rank["rank"], round(rank.mass, 6), round(100 * rank.ci_low)) == (1, 1.0, 67)
    assert (rank["first"], rank.replicates) == (1.0, 20)
    path = tables["metagame_trajectory"].set_index("time")

    def below_1pct_from(name):
        low = path[name] < 0.01
        return next(time for time in path.index if low.loc[time:].all())

    # the path is sampled at times about 10% apart: 1.1% at 9.4, 0.8% at 10.4
    assert 9 < below_1pct_from("random") <= 10.5
    assert 20 < below_1pct_from("counter") <= 30
    assert 100 < below_1pct_from("taker") <= 200 and round(100 * path["taker"].max()) == 37


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel:max_simulations=0", "max_simulations must be a whole number >= 1, got 0"),
        ("openspiel:uct_c=inf", "uct_c must be a number >= 0 and finite, got inf"),
        ("openspiel:bot=alphazero", "bot must be ismcts or mcts, got 'alphazero'"),
    ],
)
def test_an_openspiel_spec_with_a_bad_setting_is_one_line(capsys, tmp_path, spec, message):
    from tests.helpers import cli

    code, _, err = cli(capsys, "tournament", spec, "random", "random", "--players", "3",
                       "--games", "3", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err
