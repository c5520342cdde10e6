"""The OpenSpiel game's information state tensor is a perfect-recall one, declared as such:
the seat, its dealt hand, the cards dealt, the first player and every public move one-hot in
a fixed size (``max_game_length`` x ``num_distinct_actions``). It used to be the observation
tensor (the view now) under a game type that declared no information state tensor at all. Two
different histories give different tensors; no other seat's cards are ever in it."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

from interop.openspiel import GAME_NAME, register  # noqa: E402
from leaves import N_VALUES  # noqa: E402

register()


def _deal(state, rng) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def _played(game, seed: int, moves: int):
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    _deal(state, rng)
    while not state.is_terminal() and len(state.moves) < moves:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _parts(game, tensor) -> dict[str, np.ndarray]:
    n, rows, ids = game.num_players(), game.max_game_length(), game.num_distinct_actions()
    t = np.asarray(tensor)
    hand = n + N_VALUES
    return {"player": t[:n], "dealt": t[n:hand], "cards_dealt": t[hand],
            "first": t[hand + 1 : hand + 1 + n],
            "history": t[hand + 1 + n :].reshape(rows, ids)}  # fmt: skip


@pytest.mark.parametrize("params", ["players=4", "players=3,turn_limit=40"])
def test_the_game_declares_the_tensor_it_gives(params):
    game = pyspiel.load_game(f"{GAME_NAME}({params})")
    assert game.get_type().provides_information_state_tensor
    n, rows, ids = game.num_players(), game.max_game_length(), game.num_distinct_actions()
    size = n + N_VALUES + 1 + n + rows * ids
    assert game.information_state_tensor_shape() == [size]
    assert game.information_state_tensor_size() == size
    state = _played(game, 1, 12)
    seat = state.current_player()
    tensor = state.information_state_tensor(seat)
    assert len(tensor) == size
    assert len(tensor) != len(state.observation_tensor(seat))  # not the view now


def test_the_tensor_holds_the_seat_its_dealt_hand_the_first_player_and_every_move():
    game = pyspiel.load_game(f"{GAME_NAME}(players=4)")
    state = _played(game, 3, 25)
    for seat in range(4):
        p = _parts(game, state.information_state_tensor(seat))
        assert p["player"].tolist() == [float(s == seat) for s in range(4)]
        assert p["dealt"].tolist() == state.hands[seat]  # as dealt, not the hand now
        assert p["cards_dealt"] == sum(map(sum, state.hands))  # the whole deal
        assert p["first"].tolist() == [float(s == state.first) for s in range(4)]
        rows = p["history"]
        assert (rows.sum(axis=1)[: len(state.moves)] == 1).all() and rows.sum() == len(state.moves)
        assert rows.argmax(axis=1)[: len(state.moves)].tolist() == state.moves


def test_two_different_histories_give_different_tensors():
    game = pyspiel.load_game(f"{GAME_NAME}(players=4)")
    state = _played(game, 5, 6)
    a, b = state.clone(), state.clone()
    first, second = state.legal_actions()[:2]
    a.apply_action(first)
    b.apply_action(second)
    for seat in range(4):
        assert a.information_state_tensor(seat) != b.information_state_tensor(seat)
    # at three seats, the seat that did not move tells the two apart too
    game3 = pyspiel.load_game(f"{GAME_NAME}(players=3)")
    c, d = _played(game3, 8, 1), _played(game3, 8, 1)
    assert c.information_state_tensor(0) == d.information_state_tensor(0)
    c.apply_action(c.legal_actions()[0])
    d.apply_action(d.legal_actions()[-1])
    assert c.information_state_tensor(0) != d.information_state_tensor(0)


def test_it_never_reveals_another_seats_hand():
    game = pyspiel.load_game(f"{GAME_NAME}(players=4)")
    state = _played(game, 2, 30)
    seat = state.current_player()
    rng = np.random.default_rng(0)
    changed = 0
    for _ in range(5):  # other deals the seat cannot tell from this one: the same tensor
        world = state.resample_from_infostate(seat, rng.random)
        changed += world.hands != state.hands
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.information_state_string(seat) == state.information_state_string(seat)
    assert changed  # the hidden hands were drawn again
    # during the deal: only the cards dealt to the seat so far
    dealing, rng = game.new_initial_state(), np.random.default_rng(4)
    for _ in range(9):
        outcomes, probs = zip(*dealing.chance_outcomes(), strict=True)
        dealing.apply_action(int(rng.choice(outcomes, p=probs)))
    for s in range(4):
        p = _parts(game, dealing.information_state_tensor(s))
        assert p["dealt"].tolist() == dealing.hands[s] and p["dealt"].sum() == (3 if s == 0 else 2)
        assert p["cards_dealt"] == 9  # how far the deal has gone, which every seat sees
        assert not p["first"].any() and not p["history"].any()


def test_a_searchs_position_has_the_seats_dealt_hand():
    # OpenSpielAgent stands a fresh state where the seat's view stands (set_position): its
    # tensor is the true state's, the hidden hands drawn but the seat's own as dealt
    game = pyspiel.load_game(f"{GAME_NAME}(players=3)")
    state = _played(game, 6, 20)
    seat = state.current_player()
    standing = game.new_initial_state()
    standing.set_position(state.state.view(seat), np.random.default_rng(1))
    assert standing.information_state_tensor(seat) == state.information_state_tensor(seat)


def test_a_game_to_its_turn_limit_fills_every_row():
    game = pyspiel.load_game(f"{GAME_NAME}(players=3,turn_limit=15)")
    state = _played(game, 2, 10**6)
    assert state.is_terminal() and len(state.moves) == game.max_game_length() == 15
    p = _parts(game, state.information_state_tensor(0))
    assert (p["history"].sum(axis=1) == 1).all()
