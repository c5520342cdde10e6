"""Bad input to the rules core's public API: one line of the right type naming the argument,
never a deep AttributeError, IndexError or OverflowError, never a value quietly read as another
(seat -1 as the last seat, seed 1.5 as seed 1, True as action 1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import leaves
import strategies
from leaves import Action, IllegalActionError, Rules
from leaves.testing import action_sequences, games, new_games, positions

NOT_ACTIONS = [None, 16.0, "16", (16,), True, np.float64(16.0)]


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_apply_and_is_legal_refuse_what_is_neither_an_action_nor_an_id(bad):
    s = leaves.new_game(4, seed=1)
    for method in (s.apply, s.is_legal):
        with pytest.raises(TypeError, match=r"^action must be an Action or an action id 0\.\.117"):
            method(bad)


def test_another_games_state_is_not_an_action():
    s, other = leaves.new_game(4, seed=1), leaves.new_game(3, seed=2)
    with pytest.raises(TypeError, match=r"got State\(n=3.*\(State\)$"):
        s.apply(other)


def test_a_numpy_integer_is_an_action_id():
    s = leaves.new_game(4, seed=1)
    first = s.legal_actions()[0]
    for aid in (np.int64(first.id), np.uint8(first.id), first.id):
        assert s.apply(aid) == s.apply(first)
        assert s.is_legal(aid)
    with pytest.raises(
        ValueError, match=r"action id must be an integer 0\.\.117, got np\.int64\(-1\)"
    ):
        s.apply(np.int64(-1))
    with pytest.raises(ValueError, match="0..117, got 118"):
        s.is_legal(118)


@pytest.mark.parametrize("bad", [True, False, 1.0, "3", -1, 118])
def test_from_id_takes_only_an_id(bad):
    # True is an int to Python, but no one means "play id 1" by it.
    with pytest.raises(ValueError, match=r"action id must be an integer 0\.\.117"):
        Action.from_id(bad)
    assert Action.from_id(np.int64(3)) == Action.from_id(3)


@pytest.mark.parametrize("bad", [1.0, "0", True, None], ids=repr)
def test_a_seat_is_a_whole_number(bad):
    s = leaves.new_game(4, seed=1)
    for method in (s.view, s.hand):
        with pytest.raises(TypeError, match=r"^player must be a seat number 0\.\.3, got "):
            method(bad)


def test_a_numpy_seat_gives_a_plain_one():
    s = leaves.new_game(4, seed=1)
    v = s.view(np.int64(1))
    assert v.player == 1 and type(v.player) is int and v == s.view(1)
    assert v.hand == s.hand(1) == s.hand(np.int64(1)) == s.hands[1]


@pytest.mark.parametrize("seat", [-1, 4, 2**70])
def test_hand_checks_the_seat_as_view_does(seat):
    s = leaves.new_game(4, seed=1)
    for method in (s.view, s.hand):
        with pytest.raises(ValueError, match=rf"^player must be a seat 0\.\.3, got {seat}$"):
            method(seat)


SEED_FORMS = r"a whole number >= 0 \(or a numpy Generator/SeedSequence, or None\)"


@pytest.mark.parametrize(
    "seed, error, shown",
    [(-1, ValueError, "-1"), (1.5, TypeError, r"1\.5 \(float\)"), ("3", TypeError, "'3' .str.")],
    ids=repr,
)
def test_new_game_names_a_bad_seed(seed, error, shown):
    with pytest.raises(error, match=rf"^seed must be {SEED_FORMS}, got {shown}$"):
        leaves.new_game(4, seed=seed)


def test_new_game_keeps_every_seed_it_took():
    same = leaves.new_game(4, seed=7)
    assert leaves.new_game(4, seed=np.int64(7)) == same
    assert leaves.new_game(4, seed=np.random.SeedSequence(7)) == same
    assert leaves.new_game(4, seed=np.random.default_rng(7)) == same
    assert leaves.new_game(4, seed=np.random.PCG64(7)) == same
    assert leaves.new_game(4, seed=[7, 8]) == leaves.new_game(4, seed=(7, 8))
    assert leaves.new_game(4, seed=2**70).n_players == 4
    leaves.new_game(4)  # fresh entropy
    with pytest.raises(TypeError, match=r"got True \(bool\)"):
        leaves.new_game(4, seed=True)
    with pytest.raises(ValueError, match=r"^seed must be a list of whole numbers >= 0"):
        leaves.new_game(4, seed=[1, -2])


@pytest.mark.parametrize("seed, error", [(-1, ValueError), (1.5, TypeError), (True, TypeError)])
def test_play_game_names_a_bad_seed(seed, error):
    with pytest.raises(error, match=r"^seed must be a whole number >= 0 \(or None\), got "):
        strategies.play_game("random", seed=seed, n_players=3, record=False)


def test_play_game_refuses_a_seed_int_would_truncate():
    same = strategies.play_game("random", seed=4, n_players=3, record=False)
    assert strategies.play_game("random", seed=np.int64(4), n_players=3, record=False) == same
    with pytest.raises(TypeError, match=r"^deal seed must be a whole number 0 to 2\*\*64 - 1"):
        strategies.play_game("random", n_players=3, deal_seed=1.5, play_seed=1)
    with pytest.raises(TypeError, match=r"^play seed must be a whole number .*'7' \(str\)$"):
        strategies.play_game("random", n_players=3, deal_seed=1, play_seed="7")


def test_a_seed_sequence_is_said_on_one_line():
    with pytest.raises(TypeError) as info:
        strategies.play_game("random", seed=np.random.SeedSequence(3), n_players=3)
    assert "\n" not in str(info.value) and "(SeedSequence)" in str(info.value)


@pytest.mark.parametrize("seed, error", [(-1, ValueError), (1.5, TypeError)])
def test_pettingzoo_reset_names_a_bad_seed(seed, error):
    pettingzoo = pytest.importorskip("interop.pettingzoo")
    env = pettingzoo.raw_env(n_players=3)
    with pytest.raises(error, match=r"^seed must be a whole number >= 0 \(or None\), got "):
        env.reset(seed=seed)
    env.reset(seed=np.int64(5))
    again = pettingzoo.raw_env(n_players=3)
    again.reset(seed=5)
    assert env.game == again.game


def test_an_empty_table_pass_under_take_nothing_says_why():
    s = leaves.new_game(4, seed=1, rules="take=nothing")
    with pytest.raises(IllegalActionError) as info:
        s.apply(Action.pass_())
    assert str(info.value) == (
        "cannot pass on an empty table: a round is led by a play, even where a pass takes "
        "nothing (P1)"
    )
    with pytest.raises(IllegalActionError, match="a pass must take a card"):
        leaves.new_game(4, seed=1).apply(Action.take(5))


@pytest.mark.parametrize("bad", [5, 0, b"hand_size=9", ["take=ends", 5]], ids=repr)
def test_rules_parse_refuses_what_is_not_text(bad):
    with pytest.raises(TypeError, match=r"^Rules\.parse reads key=value text \(a str, several"):
        Rules.parse(bad)


def test_rules_parse_still_reads_its_forms():
    assert Rules.parse(None) == Rules.parse([]) == Rules.parse("") == Rules()
    assert Rules.parse(("take=ends", "hand_size=9")) == Rules(take="ends", hand_size=9)
    assert Rules.parse(t for t in ["take=ends"]) == Rules(take="ends")


@pytest.mark.parametrize(
    "args, named",
    [((3.5, 1), "value=3.5, count=1"), ((3, 1.5), "value=3, count=1.5"), (("3", 1), "'3'")],
)
def test_action_play_names_value_and_count(args, named):
    with pytest.raises(TypeError, match=r"^Action\.play takes a whole card value 1\.\.13 and "):
        Action.play(*args)
    with pytest.raises(TypeError, match=named):
        Action.play(*args)
    with pytest.raises(TypeError, match=r"^Action\.take takes a whole card value 1\.\.13, got"):
        Action.take(args[0] if args[0] != 3 else 3.5)
    assert Action.play(np.int64(3), np.int64(2)) == Action.play(3, 2)
    with pytest.raises(ValueError, match="play count must be 1..8, got 9"):
        Action.play(3, 9)


@pytest.mark.parametrize(
    "strategy",
    [
        lambda: new_games(rules="players=3"),
        lambda: games(rules="hand_size=14"),
        lambda: action_sequences(max_players=3, rules="hand_size=14", max_turns=5),
        lambda: new_games(min_players=2, rules="hand_size=9,players=2/3"),
    ],
)
def test_testing_strategies_draw_counts_the_rules_allow(strategy):
    made = strategy()

    @settings(max_examples=8, deadline=None, database=None)
    @given(made)
    def check(drawn):
        state = drawn[0] if isinstance(drawn, list | tuple) else drawn
        assert state.n_players in state.rules.players

    check()


@pytest.mark.parametrize(
    "make, said",
    [
        (
            lambda: new_games(5, rules="hand_size=14"),
            "under hand_size=14 is played by 3 or 4 players: min_players=5 leaves none of them",
        ),
        (lambda: games(max_players=2), "3 to 6 players: max_players=2 leaves none"),
        (lambda: positions(7), "min_players=7 leaves none"),
        (lambda: action_sequences(5, 4), "min_players=5 and max_players=4 leave none"),
    ],
)
def test_testing_strategies_say_when_no_count_is_left(make, said):
    with pytest.raises(ValueError, match=rf"^no player count to draw: 13 Leaves .*{said}"):
        make()


@settings(max_examples=5, deadline=None, database=None)
@given(st.data())
def test_positions_still_honour_their_bounds(data):
    state = data.draw(positions(4, 4, max_turns=20))
    assert state.n_players == 4 and not state.is_terminal
