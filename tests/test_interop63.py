"""``interop`` at the edges of OpenSpiel's and PettingZoo's contracts: a seat's information
state during the deal identifies exactly what the seat knows (its cards and how many have been
dealt), and the games' other promises, checked against what they must be."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

from interop.agents import pettingzoo_policy  # noqa: E402
from interop.openspiel import GAME_NAME, register  # noqa: E402
from interop.pettingzoo import env  # noqa: E402

register()

# two seats of two cards from a deck of five: every deal and every game can be walked
_TINY = (
    f"{GAME_NAME}(players=2,turn_limit=6,"
    "rules=players:2;hand_size:2;deck:2/1/1/1/0/0/0/0/0/0/0/0/0)"
)


def _tree(state, out: list) -> list:
    """Every node of the game, depth first: the deal, then every line of play."""
    out.append(state)
    if state.is_terminal():
        return out
    chance = state.is_chance_node()
    for action in [o for o, _ in state.chance_outcomes()] if chance else state.legal_actions():
        _tree(state.child(action), out)
    return out


def _known(state, seat: int) -> tuple:
    """What ``seat`` knows at ``state``, from the truth of the game: its own cards as dealt (a
    hand is a set of cards, the order they came in is not kept, as in OpenSpiel's card games),
    and the public facts: how many cards each seat has been dealt, the first player and every
    move since."""
    counts = tuple(sum(h) for h in state.hands)
    return (tuple(state.hands[seat]), counts, state.first, tuple(state.moves))


def _key(information) -> str | bytes:
    return information if isinstance(information, str) else np.asarray(information).tobytes()


@pytest.fixture(scope="module")
def tiny_game_tree() -> list:
    return _tree(pyspiel.load_game(_TINY).new_initial_state(), [])


@pytest.mark.parametrize("view", ["information_state_string", "information_state_tensor"])
def test_a_seats_information_state_is_what_it_knows_at_every_node(view, tiny_game_tree):
    # during the deal the string was the seat's cards alone: after 1, 2 and 3 cards dealt,
    # seat 0 holding the one card dealt to it, the three nodes shared one information state
    nodes = tiny_game_tree
    assert len(nodes) > 3000 and sum(node.is_terminal() for node in nodes) > 1000
    for seat in range(2):
        told: dict = {}
        for node in nodes:
            told.setdefault(_key(getattr(node, view)(seat)), set()).add(_known(node, seat))
        # the same information state: one thing known; things known apart: told apart
        assert all(len(knowledge) == 1 for knowledge in told.values())
        assert len(told) == len({_known(node, seat) for node in nodes})


def test_at_a_chance_node_no_seat_has_a_legal_action():
    # OpenSpiel's contract (its C++ card games answer so): a player's legal actions are empty
    # where it is not to act; a seat asked during the deal was handed the chance outcomes
    game = pyspiel.load_game(f"{GAME_NAME}(players=3)")
    state, rng = game.new_initial_state(), np.random.default_rng(2)
    ids = game.num_distinct_actions()
    while state.is_chance_node():
        outcomes = [outcome for outcome, _ in state.chance_outcomes()]
        assert state.legal_actions() == state.legal_actions(pyspiel.PlayerId.CHANCE) == outcomes
        for seat in range(3):
            assert state.legal_actions(seat) == []
            assert state.legal_actions_mask(seat) == [0] * ids
        state.apply_action(int(rng.choice(outcomes)))
    seat = state.current_player()  # the seat to act has its actions, the others none
    assert state.legal_actions(seat) == state.legal_actions() != []
    assert state.legal_actions_mask(seat) == [int(a in state.legal_actions()) for a in range(ids)]
    assert all(state.legal_actions(p) == [] for p in range(3) if p != seat)


def _played(act, deal: int) -> list:
    """The actions of a 3-seat game of ``deal`` with ``act`` playing every seat."""
    e, actions = env(n_players=3), []
    e.reset(seed=deal)
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        actions.append(None if terminated or truncated else act(e, agent))
        e.step(actions[-1])
    return actions


def test_pettingzoo_policy_plays_a_deal_the_same_whatever_was_played_before():
    # its generator ran on from game to game: a deal's game hung on the games before it
    alone = _played(pettingzoo_policy("random", seed=3), deal=5)
    act = pettingzoo_policy("random", seed=3)
    _played(act, deal=4)
    assert _played(act, deal=5) == alone
    assert _played(act, deal=5) == alone  # the same deal again: the same game
    assert _played(pettingzoo_policy("random", seed=4), deal=5) != alone  # the seed counts


@pytest.mark.parametrize(
    "params", ["players=3,turn_limit=5", "players=6", _TINY[len(GAME_NAME) + 1 : -1]]
)
def test_the_game_states_its_longest_history(params):
    # OpenSpiel's max_chance_nodes_in_history was the turn limit (its default): 5 under
    # turn_limit=5, and max_history_length 10, for histories of 42 (a deal of 37 chance nodes)
    game = pyspiel.load_game(f"{GAME_NAME}({params})")
    state, rng, chance = game.new_initial_state(), np.random.default_rng(1), 0
    while not state.is_terminal():
        chance += state.is_chance_node()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert game.max_chance_nodes_in_history() == chance  # every deal: the same chance nodes
    assert len(state.history()) <= game.max_history_length() == game.max_move_number()
    assert game.max_history_length() == chance + game.max_game_length()


_SHORT = {"players": "2-6", "hand_size": 7, "deck": "1/2/3/4/5/6/6/6/5/4/3/2/1", "turn_limit": 8}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pettingzoos_api_and_seed_tests_at_every_count_under_a_variant_that_truncates(n):
    from pettingzoo.test import api_test, seed_test

    api_test(env(n_players=n, **_SHORT), num_cycles=300, verbose_progress=False)
    seed_test(lambda: env(n_players=n, **_SHORT), num_cycles=100)
    e = env(n_players=n, **_SHORT)  # the turn limit stops the game: truncated, 0 for all
    e.reset(seed=1)
    ends = []
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            ends.append((reward, terminated, truncated))
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert ends == [(0, False, True)] * n and e.unwrapped.game.turn == 8
