"""``interop`` at its edges, as PettingZoo's and OpenSpiel's own APIs use it: PettingZoo's
global ``state()``, OpenSpiel's observation of a seat during the deal, and the agents and bots
given bad settings."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402
from pettingzoo.test.state_test import state_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from interop import observation  # noqa: E402
from interop.agents import pettingzoo_policy  # noqa: E402
from interop.openspiel import GAME_NAME, OpenSpielAgent, StrategyBot, register  # noqa: E402
from interop.pettingzoo import env, raw_env  # noqa: E402

register()

_TWO = {"players": "2-6", "deck": (1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1), "hand_size": 7}


def _parts(vector: np.ndarray) -> dict[str, np.ndarray]:
    layout = observation.STATE_LAYOUT
    offsets = np.cumsum([0] + [n for _, n in layout])
    return {name: vector[offsets[k] : offsets[k + 1]] for k, (name, _) in enumerate(layout)}


# ------------------------------------------------------------ PettingZoo's global state()
@pytest.mark.parametrize(("n", "keys"), [(3, {}), (6, {}), (4, {"take": "nothing"}), (2, _TWO)])
def test_state_is_pettingzoos_global_state_with_every_card_where_it_is(n, keys):
    e = env(n_players=n, **keys)  # e.state() raised TypeError: 'State' object is not callable
    e.reset(seed=5)
    game, rules = e.unwrapped.game, e.unwrapped.rules
    for _ in range(40):
        if game.is_terminal:
            break
        vector = e.state()
        assert isinstance(vector, np.ndarray) and e.state_space.contains(vector)
        kind = e.observation_space("player_0")["observation"].dtype
        assert vector.shape == (217,) and vector.dtype == kind  # as the docs say
        part = _parts(vector)
        hands = part["hands"].reshape(6, 13)
        assert [tuple(h) for h in hands[:n]] == [tuple(h) for h in game.hands]
        assert not hands[n:].any() and list(part["in_game"]) == [1] * n + [0] * (6 - n)
        assert tuple(part["undealt"]) == game.undealt and tuple(part["table"]) == game.table
        # every card of the rules' deck is somewhere: in a hand, on the table, out, undealt
        total = hands.sum(axis=0) + part["table"] + part["removed"] + part["undealt"]
        assert tuple(total) == rules.deck
        assert list(part["to_play"]).index(1) == game.current_player  # seats as they are
        assert (part["round"][0], part["turn"][0]) == (game.round, game.turn)
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        game = e.unwrapped.game


def test_pettingzoos_state_test_passes_on_the_env_and_its_parallel_form():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not a warning either (all zeros, not an array, ...)
        state_test(env(n_players=4), turn_based_aec_to_parallel(env(n_players=4)))
        state_test(env(n_players=6, take="nothing"), turn_based_aec_to_parallel(env(n_players=3)))


def test_state_before_the_first_reset_says_so():
    with pytest.raises(ValueError, match=r"^no game yet: call reset\(\) first$"):
        raw_env(n_players=3).state()
    e = raw_env(n_players=3)
    e.reset(seed=2)
    assert e.game.turn == 0 and e.state().shape == e.state_space.shape


# ---------------------------------------------------- OpenSpiel's observation during the deal
@pytest.mark.parametrize("params", [{"players": 4}, {"players": 2, "rules": "take:nothing"
                                    ";hand_size:7;players:2-6"}])  # fmt: skip
def test_observation_string_and_tensor_agree_during_the_deal(params):
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    state, rng = game.new_initial_state(), np.random.default_rng(3)
    dealt = np.zeros((n, 13), int)
    for k in range(1000):
        for p in range(n):
            tensor = np.asarray(state.observation_tensor(p))
            # the string was the hand so far while the tensor was all zeros during the deal
            assert state.observation_string(p) == f"p{p} " + " ".join(map(str, tensor.astype(int)))
            assert list(tensor[:13]) == list(dealt[p])  # its own cards so far, no other's
            sizes = tensor[13 + 13 + 2 + 13 :][:n]
            assert list(sizes) == [dealt[(p + j) % n].sum() for j in range(n)]  # seats relative
        if not state.is_chance_node():
            break
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        outcome = int(rng.choice(outcomes, p=probs))
        if state.dealt < state._to_deal():  # a card, not the first player
            dealt[k % n][outcome] += 1
        state.apply_action(outcome)
    assert not state.is_chance_node() and dealt.sum() > 0


# ------------------------------------------------------------- bad settings, one line each
def test_max_simulations_in_scientific_notation_says_how_to_write_it():
    with pytest.raises(ValueError) as info:
        OpenSpielAgent(max_simulations=1e9)  # "a whole number >= 1, got 1000000000.0"
    assert str(info.value) == (
        "max_simulations must be a whole number >= 1 written as an int: "
        "1000000000, not 1000000000.0"
    )
    with pytest.raises(
        ValueError, match=r"^max_simulations must be a whole number >= 1, got 2\.5$"
    ):
        OpenSpielAgent(max_simulations=2.5)
    with pytest.raises(ValueError, match=r"^max_simulations must be a whole number >= 1, got 0$"):
        OpenSpielAgent(max_simulations=0)
    assert OpenSpielAgent(max_simulations=np.int64(7)).params["max_simulations"] == 7


@pytest.mark.parametrize("make", [lambda seed: StrategyBot("random", seed=seed),
                                  lambda seed: pettingzoo_policy("random", seed=seed)])  # fmt: skip
def test_a_bad_seed_is_named_in_one_line(make):
    with pytest.raises(ValueError, match=r"^seed must be a whole number >= 0 .*, got -1$"):
        make(-1)  # numpy said "expected non-negative integer"
    with pytest.raises(TypeError, match=r"^seed must be a whole number >= 0 .*, got 1\.5"):
        make(1.5)  # numpy's "SeedSequence expects int or sequence of ints for entropy"
    with pytest.raises(TypeError, match=r"^seed must be a whole number >= 0 .*, got '3'"):
        make("3")
    make(np.int64(3))


def test_pettingzoo_policy_before_the_first_reset_says_so():
    act = pettingzoo_policy("random", seed=1)
    for e in (env(n_players=3), raw_env(n_players=3)):  # was AttributeError on None
        with pytest.raises(ValueError, match=r"^no game yet: call reset\(\) first$"):
            act(e, "player_0")


def test_strategy_bot_on_another_games_state_says_so():
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    with pytest.raises(ValueError, match=r"^StrategyBot plays python_13_leaves, not tic_tac_toe$"):
        StrategyBot("random", seed=1).step(state)  # was AttributeError: no attribute 'state'


def test_action_to_string_of_a_chance_outcome_the_game_lacks_is_refused():
    state = pyspiel.load_game(GAME_NAME, {"players": 3}).new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 12) == "deal 13"
    for bad in (13, 99, -1):  # was "deal 100", a card the game has no value for
        with pytest.raises(ValueError, match=rf"^{bad} is not a chance outcome of this game"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, bad)
    while state.dealt < state._to_deal():  # to the chance node of the first player
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "first player 2"
    with pytest.raises(ValueError, match=r"^3 is not a chance outcome of this game \(0\.\.2\)$"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 3)  # was "first player 3" at 3 seats


@pytest.mark.parametrize(("players", "rules"), [(7, ""), (2, ""), (1, "players:2-6;hand_size:7")])
def test_a_player_count_the_rules_refuse_is_named(players, rules):
    with pytest.raises(ValueError, match=rf"^players must be .*, got {players}$"):
        pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules})


def test_a_resampled_world_looks_the_same_to_the_seat_during_the_deal_and_after():
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state, rng = game.new_initial_state(), np.random.default_rng(8)
    while not state.is_terminal() and state.move_number() < 60:
        for p in range(3):
            world = state.resample_from_infostate(p, rng.random)
            assert world.observation_string(p) == state.observation_string(p)
            assert world.observation_tensor(p) == state.observation_tensor(p)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.move_number() == state.move_number()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"players": 4.5}, r"^players must be 3 to 6, got 4\.5$"),  # was played at 4 seats
        ({"players": "x"}, r"^players must be 3 to 6, got 'x'$"),  # int()'s "invalid literal"
        ({"turn_limit": "abc"}, r"^turn_limit must be a whole number 1\.\.1000000, got 'abc'$"),
        ({"turn_limit": 4.5}, r"^turn_limit must be a whole number 1\.\.1000000, got 4\.5$"),
    ],
)
def test_the_game_built_from_python_reads_its_counts_as_whole_numbers(params, said):
    from interop.openspiel import ThirteenLeavesGame

    with pytest.raises(ValueError, match=said):
        ThirteenLeavesGame(params)


@pytest.mark.parametrize(
    "params",
    [  # short turn limits: the information state tensor has a row per turn
        {"players": 5, "turn_limit": 60},
        {"players": 4, "rules": "take:nothing", "turn_limit": 60},
        {"players": 3, "turn_limit": 25},
    ],
)
def test_every_node_serializes_clones_and_observes_the_same_for_every_seat(params):
    game = pyspiel.load_game(GAME_NAME, params)
    n, ids = game.num_players(), game.num_distinct_actions()
    state, rng = game.new_initial_state(), np.random.default_rng(4)
    while True:
        for copy in (game.deserialize_state(state.serialize()), state.clone()):
            assert copy.history() == state.history() and str(copy) == str(state)
            for p in range(n):
                assert copy.observation_string(p) == state.observation_string(p)
                assert copy.information_state_string(p) == state.information_state_string(p)
                assert copy.information_state_tensor(p) == state.information_state_tensor(p)
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0) and all(p > 0 for p in probs)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        legal = state.legal_actions()
        assert state.legal_actions_mask() == [int(a in legal) for a in range(ids)]
        assert all(state.legal_actions(p) == [] for p in range(n) if p != state.current_player())
        state.apply_action(int(rng.choice(legal)))
    assert state.legal_actions() == [] and all(state.legal_actions(p) == [] for p in range(n))
    returns = state.returns()
    # +1 the winner and -1 every other seat, or 0 for all when the turn limit stopped the game
    assert sorted(returns) in ([-1.0] * (n - 1) + [1.0], [0.0] * n)
    assert (sorted(returns) == [0.0] * n) == (state.state.winner is None)
