"""Audit of ``interop`` at its edges, as a researcher uses it: every rule the core supports
(the turn limit's whole range), OpenSpiel's own helpers (``evaluate_bots``), the calls of
PettingZoo's AEC loop before and after a game, and states that differ only in hidden cards."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import leaves  # noqa: E402
from interop.observation import encode  # noqa: E402
from interop.openspiel import StrategyBot, register  # noqa: E402
from interop.pettingzoo import raw_env  # noqa: E402

register()

_LONG = 40_000  # a turn limit the core allows (up to 1,000,000) that int16 cannot count to


def _pass_forever(legal):
    """A policy that never ends a game: pass (taking a card) whenever it may."""
    passes = [a for a in legal if not a.is_play]
    return (passes or list(legal))[0]


def _long_state(turns: int) -> leaves.State:
    s = leaves.new_game(3, seed=1, rules=leaves.Rules(turn_limit=_LONG))
    while s.turn < turns:
        s = s.apply(_pass_forever(s.legal_actions()))
    assert not s.is_terminal
    return s


# ------------------------------------------------------------------ the turn limit's range
def test_pettingzoo_plays_under_a_turn_limit_int16_cannot_count_to():
    e = raw_env(n_players=3, turn_limit=_LONG)  # was an OverflowError traceback
    e.reset(seed=1)
    while e.unwrapped.game.turn < 32_768:
        e.step(_pass_forever(e.game.legal_actions()).id)
    for agent in e.agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs)
        assert obs["observation"][-1] == e.game.turn == 32_768


@pytest.mark.parametrize(("limit", "kind"), [(1000, np.int16), (32_766, np.int16),
                                            (32_767, np.int32)])  # fmt: skip
def test_the_observation_is_int16_while_int16_counts_the_rounds(limit, kind):
    e = raw_env(n_players=4, turn_limit=limit)
    e.reset(seed=3)
    assert e.observe("player_0")["observation"].dtype == kind
    space = e.observation_space("player_0")["observation"]
    assert space.dtype == kind and space.high[-2:].tolist() == [limit + 1, limit]  # round, turn


def test_openspiels_observation_tensor_past_turn_32767():
    game = pyspiel.load_game(f"python_13_leaves(players=3,turn_limit={_LONG})")
    s = _long_state(32_768)
    state = game.new_initial_state()
    state.set_position(s.view(0), np.random.default_rng(0))
    tensor = state.observation_tensor(0)  # was an OverflowError
    assert tensor[-1] == 32_768
    assert np.array_equal(tensor, encode(s.view(0)))


# ------------------------------------------------------------------ OpenSpiel's helpers
def test_our_strategies_play_in_openspiels_evaluate_bots():
    from open_spiel.python.algorithms import evaluate_bots  # the helper a researcher calls

    game = pyspiel.load_game("python_13_leaves(players=3)")
    bots = [StrategyBot("weighted", seed=i) for i in range(3)]
    returns = [
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(k))
        for k in (0, 0, 1)
    ]  # was "RestartAt(state) not implemented"
    assert all(sorted(r) == [-1.0, -1.0, 1.0] for r in returns)
    assert returns[0] == returns[1]  # restart_at starts the bots afresh: the same game again


@pytest.mark.parametrize("cards", [1, 8, 36])  # 36: dealt, the first player not yet drawn
def test_resampling_during_the_deal_keeps_the_seats_cards_and_redraws_the_rest(cards):
    game = pyspiel.load_game("python_13_leaves(players=3)")
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(cards):  # the deal under way: a seat has seen only its own cards so far
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    redrawn = False
    for seat in (0, 1, 2) * 4:
        world = state.resample_from_infostate(seat, rng.random)  # was an AttributeError
        assert world.is_chance_node()
        assert len(world.history()) == len(state.history())
        for view in ("information_state_string", "information_state_tensor"):
            assert getattr(world, view)(seat) == getattr(state, view)(seat)
        assert (np.sum(world.hands, axis=0) <= game.rules.deck).all()
        assert [sum(h) for h in world.hands] == [sum(h) for h in state.hands]
        redrawn |= world.hands != state.hands
    assert redrawn  # the cards the seat has not seen are drawn again


# ------------------------------------------------------------------ the AEC loop's edges
def test_raw_env_last_and_agent_iter_before_reset_say_so():
    e = raw_env(n_players=3)
    for call in (e.last, lambda: next(iter(e.agent_iter()))):
        with pytest.raises(ValueError, match=r"reset\(\) first"):  # was an AttributeError
            call()


def test_raw_env_last_once_every_agent_is_gone_says_the_game_is_over():
    e = raw_env(n_players=3)
    e.reset(seed=2)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        done = terminated or truncated
        e.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="the game is over"):  # was a KeyError 'player_2'
        e.last()


# ------------------------------------------------------------------ hidden cards
def _swap_hidden(hands, seat, rng):
    """The deal with one card swapped between two other seats (what ``seat`` cannot see)."""
    others = [q for q in range(len(hands)) if q != seat]
    q, r = rng.choice(others, 2, replace=False)
    va = rng.choice(np.flatnonzero(hands[q]))
    vb = rng.choice(np.flatnonzero(hands[r]))
    out = [list(h) for h in hands]
    out[q][va] -= 1
    out[q][vb] += 1
    out[r][vb] -= 1
    out[r][va] += 1
    return out


def _replayed(game, hands, first, moves):
    """The OpenSpiel state dealt ``hands`` (card by card), ``first`` to play, then ``moves``
    (None if one of them is not legal there)."""
    n = len(hands)
    state = game.new_initial_state()
    cards = [[v for v, c in enumerate(h) for _ in range(c)] for h in hands]
    for i in range(sum(map(len, cards))):
        state.apply_action(cards[i % n][i // n])
    state.apply_action(first)
    for m in moves:
        if m not in state.legal_actions():
            return None
        state.apply_action(m)
    return state


@pytest.mark.parametrize("params", ["players=4", "players=5,rules=take:nothing;min_count:off"])
def test_states_that_differ_only_in_hidden_cards_look_the_same_to_the_seat(params):
    game = pyspiel.load_game(f"python_13_leaves({params})")
    rng = np.random.default_rng(7)
    compared = 0
    for _ in range(6):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        hands, moves = [list(h) for h in state.state.hands], []
        for _ in range(rng.integers(0, 40)):
            if state.is_terminal():
                break
            moves.append(int(rng.choice(state.legal_actions())))
            state.apply_action(moves[-1])
        for seat in range(game.num_players()):
            other = _replayed(game, _swap_hidden(hands, seat, rng), state.first, moves)
            if other is None or other.state.hands == state.state.hands:
                continue
            for view in ("information_state_string", "information_state_tensor",
                         "observation_string", "observation_tensor"):  # fmt: skip
                assert getattr(other, view)(seat) == getattr(state, view)(seat), view
            assert np.array_equal(encode(other.state.view(seat)), encode(state.state.view(seat)))
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize(
    ("public", "private"),
    [(True, "NONE"), (False, "SINGLE_PLAYER"), (True, "ALL_PLAYERS"), (False, "NONE")],
)
@pytest.mark.parametrize("perfect_recall", [False, True])
def test_an_observation_type_the_game_cannot_give_is_refused(perfect_recall, public, private):
    """A public-only observer was handed the seat's private hand (and an all-players one only
    the seat's): OpenSpiel's observer types the game cannot give are refused in one line."""
    from open_spiel.python.observation import make_observation  # the researcher's call

    game = pyspiel.load_game("python_13_leaves(players=3)")
    kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public,
                                      private_info=getattr(pyspiel.PrivateInfoType, private))  # fmt: skip
    with pytest.raises(ValueError, match="observes one seat") as err:
        make_observation(game, kind)
    assert "\n" not in str(err.value)


def test_the_observation_types_the_game_gives_still_work():
    from open_spiel.python.observation import make_observation  # the researcher's call

    game = pyspiel.load_game("python_13_leaves(players=3)")
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    for recall, tensor in ((False, "observation_tensor"), (True, "information_state_tensor")):
        for kind in (None, pyspiel.IIGObservationType(perfect_recall=recall)):
            if kind is None and recall:
                continue
            obs = make_observation(game, kind)
            obs.set_from(state, 1)
            assert list(obs.tensor) == getattr(state, tensor)(1)


def test_the_spaces_of_an_unknown_agent_name_the_agents():
    e = raw_env(n_players=3)
    for space in (e.observation_space, e.action_space):  # was a bare KeyError 'player_3'
        with pytest.raises(ValueError, match="unknown agent 'player_3'; the agents are player_0"):
            space("player_3")


def test_our_policy_asked_for_a_seat_not_to_act_says_so():
    """It chose among the acting seat's legal actions with another seat's view."""
    from interop.agents import pettingzoo_policy

    e = raw_env(n_players=3)
    e.reset(seed=1)
    act = pettingzoo_policy("weighted", seed=1)
    idle = next(a for a in e.agents if a != e.agent_selection)
    with pytest.raises(ValueError, match=f"{idle} is not to act here"):
        act(e, idle)
    e.step(act(e, e.agent_selection))  # the seat to act still plays


@pytest.mark.parametrize("cards", [3, 40])  # during the deal, and after it
@pytest.mark.parametrize("seat", [-1, 3])
def test_resampling_for_a_seat_that_is_not_at_the_table_is_refused(cards, seat):
    game = pyspiel.load_game("python_13_leaves(players=3)")
    state = game.new_initial_state()
    while len(state.history()) < cards:
        chance = state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0] if chance else state.legal_actions()[0])
    with pytest.raises(ValueError, match=f"player must be a seat 0..2, got {seat}"):
        state.resample_from_infostate(seat, np.random.default_rng(0).random)  # -1: seat 2's


# ------------------------------------------------------------------ chance outcomes
@pytest.mark.parametrize("outcome", [12, 13, 40])
def test_a_deal_outcome_that_is_not_a_chance_outcome_is_refused(outcome):
    """A value with no copy left was dealt (the deck's counts then went negative, and so did
    the chance probabilities); a value past 13 was an IndexError."""
    game = pyspiel.load_game("python_13_leaves(players=3,rules=deck:5/5/5/5/5/5/5/5/5/5/5/5/0)")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=f"{outcome} is not a chance outcome here"):
        state.apply_action(outcome)
    assert state.history() == [] and state.hands[0] == [0] * 13  # nothing dealt
    for _ in range(5):
        state.apply_action(0)  # every copy of value 1, to seats 0, 1, 2, 0, 1
    with pytest.raises(ValueError, match="0 is not a chance outcome here"):
        state.apply_action(0)
    outcomes = state.chance_outcomes()
    assert 0 not in dict(outcomes) and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert all(p > 0 for _, p in outcomes)


def test_a_first_player_outside_the_table_is_refused_and_changes_nothing():
    game = pyspiel.load_game("python_13_leaves(players=3)")
    state = game.new_initial_state()
    while len(state.history()) < 36:
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not a chance outcome here"):
        state.apply_action(3)
    assert state.first == -1 and state.is_chance_node()
    assert state.chance_outcomes() == [(seat, 1 / 3) for seat in range(3)]
    state.apply_action(2)
    assert state.current_player() == 2
