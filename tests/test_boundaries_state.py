"""The edges of ``leaves.state``: the turn limit's own turn, a game won at the limit, a game in
progress, seat 0 as the winner, the bounds of ``new_game``'s arguments, identity and the dict
form. Every expectation is worked out by hand from docs/rules.md (E1, "Setup")."""

from __future__ import annotations

import copy
import pickle

import pytest

from leaves import DEFAULT_RULES, Action, IllegalActionError, Rules, State, new_game

from .helpers import counts, position


def test_a_game_in_progress_is_neither_over_nor_unfinished():
    s = new_game(4, seed=3)
    assert not s.is_terminal and not s.unfinished and s.winner is None
    s = s.apply(s.legal_actions()[0])
    assert not s.is_terminal and not s.unfinished and s.winner is None
    assert s.turn == 1


def test_the_turn_limit_is_reached_on_its_own_turn():
    """With limit 3 the game runs turns 0, 1, 2; at turn 3 it is over, unfinished."""
    s = new_game(3, seed=11, rules=Rules(turn_limit=3))
    for turn in range(3):
        assert s.turn == turn and not s.is_terminal and not s.unfinished
        assert s.legal_actions()
        s = s.apply(s.legal_actions()[0])
    assert s.turn == 3 == s.turn_limit
    assert s.is_terminal and s.unfinished and s.winner is None
    assert s.legal_actions() == () and not s.is_legal(0)
    with pytest.raises(IllegalActionError, match="the turn limit of 3 turns was reached"):
        s.apply(0)
    assert repr(s).startswith("State(n=3, turn=3, round=1, unfinished, ")


def test_a_game_won_on_the_limit_turn_is_won_not_unfinished():
    hands = [counts(v5=1), counts(v3=2), counts(v9=1)]
    s = position(hands, current=0, turn=9, rules={"turn_limit": 10})
    assert not s.is_terminal and s.legal_action_ids() == (4 * 8,)  # play 1x5
    won = s.apply(Action.play(5, 1))
    assert won.turn == 10 and won.winner == 0
    assert won.is_terminal and not won.unfinished
    assert won.current_player == 0  # the seat that acted last
    with pytest.raises(IllegalActionError, match="seat 0 has won"):
        won.apply(Action.play(3, 1))
    assert (
        repr(won) == "State(n=3, turn=10, round=1, winner=0, stacks=[(5, 1)], hand_sizes=[0, 2, 1])"
    )


def test_a_game_one_turn_short_of_the_limit_still_plays():
    hands = [counts(v5=2), counts(v3=2), counts(v9=1)]
    s = position(hands, current=0, turn=8, rules={"turn_limit": 10})
    s = s.apply(Action.play(5, 1))
    assert s.turn == 9 and not s.is_terminal and not s.unfinished
    assert (
        repr(s) == "State(n=3, turn=9, round=1, to_play=1, stacks=[(5, 1)], hand_sizes=[1, 2, 1])"
    )


@pytest.mark.parametrize("winner", [0, 1])
def test_a_finished_game_reads_as_won_by_its_seat(winner):
    hands = [counts(v5=1), counts(v3=2)]
    hands[winner] = [0] * 13
    hands[1 - winner] = counts(v5=1, v3=2)
    s = position(hands, current=0, winner=winner)
    assert s.winner == winner and s.is_terminal and not s.unfinished
    assert s.legal_actions() == ()
    assert f"winner={winner}" in repr(s)


def test_turn_limit_one_ends_after_the_first_action():
    s = new_game(4, seed=2, rules="turn_limit=1")
    assert s.turn_limit == 1 and s.rules.turn_limit == 1 and not s.is_terminal
    s = s.apply(s.legal_actions()[-1])
    assert s.is_terminal and s.unfinished


@pytest.mark.parametrize("limit", [0, -1])
def test_a_turn_limit_below_one_is_refused(limit):
    with pytest.raises(ValueError, match=f"turn_limit must be 1..1000000, got {limit}"):
        new_game(4, seed=2, rules={"turn_limit": limit})


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_first_player_takes_every_seat_and_no_other(n):
    for seat in (0, n - 1):
        assert new_game(n, seed=1, first_player=seat).current_player == seat
    for seat in (-1, n):
        with pytest.raises(
            ValueError, match=rf"first_player must be a seat 0..{n - 1}, got {seat}"
        ):
            new_game(n, seed=1, first_player=seat)


def test_first_player_drawn_when_not_given():
    drawn = {new_game(3, seed=s).current_player for s in range(30)}
    assert drawn == {0, 1, 2}


def test_hand_size_bounds():
    """Any count from 2 the deck can deal: 2 x 31 = 62 cards is the whole deck."""
    s = new_game(2, seed=4, hand_size=31)
    assert s.hand_sizes == (31, 31) and sum(s.undealt) == 0
    assert new_game(2, seed=4, hand_size=1).hand_sizes == (1, 1)
    with pytest.raises(ValueError, match="cannot deal 32 cards to each of 2 players from 62"):
        new_game(2, seed=4, hand_size=32)
    with pytest.raises(ValueError, match="cannot deal 0 cards to each of 3 players from 62"):
        new_game(3, seed=4, hand_size=0)
    with pytest.raises(ValueError, match="n_players must be 2..6 with a hand_size given, got 1"):
        new_game(1, seed=4, hand_size=5)
    with pytest.raises(ValueError, match="cannot deal 21 cards to each of 3 players from 62"):
        new_game(3, seed=4, hand_size=21)
    assert new_game(3, seed=4, hand_size=20).hand_sizes == (20, 20, 20)


def test_todays_hand_size_given_keeps_todays_rules():
    s = new_game(4, seed=1, hand_size=11)
    assert s.rules == DEFAULT_RULES and "rules" not in s.to_dict()
    other = new_game(4, seed=1, hand_size=10)
    assert other.hand_sizes == (10,) * 4
    assert other.rules.players == (4,) and other.rules.hand_size_for(4) == 10
    # the players follow from the one hand size, so only the hand size is written
    assert other.to_dict()["rules"] == {"hand_size": {"4": 10}}


def test_a_new_game_starts_blank():
    s = new_game(5, seed=9)
    d = s.to_dict()
    assert d["table"] == [0] * 13 and d["removed"] == [0] * 13
    assert d["known"] == [[0] * 13] * 5 and d["passed"] == [False] * 5
    assert d["winner"] is None and d["turn"] == 0 and d["round"] == 1
    assert d["turn_limit"] == 1000 and s.ends is None and s.stacks == ()
    assert s == State.from_dict(d)  # every field, the winner included, as the checked form


def test_state_initial_defaults_and_the_undealt_rest():
    hands = [counts(v1=2, v7=3), counts(v13=2), counts(v6=1, v7=1)]
    s = State.initial(hands)
    assert s.current_player == 0 and s.turn == 0 and s.round == 1
    assert s.turn_limit == 1000 and s.rules == DEFAULT_RULES
    deck = (2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2)
    expected = list(deck)
    expected[0] -= 2
    expected[6] -= 4
    expected[12] -= 2
    expected[5] -= 1
    assert list(s.undealt) == expected
    assert s.table == (0,) * 13 and s.removed == (0,) * 13 and s.passed == (False,) * 3
    assert State.initial(hands, first_player=2, rules=Rules(turn_limit=7)).current_player == 2
    assert State.initial(hands, rules="turn_limit=7").turn_limit == 7


@pytest.mark.parametrize("short", [0, 1, 2])
def test_state_initial_names_a_hand_of_the_wrong_length(short):
    """Bad input is a ValueError naming the hand, whichever hand it is (not an IndexError)."""
    hands = [counts(v1=1), counts(v2=1), counts(v3=1)]
    hands[short] = hands[short][:12]
    with pytest.raises(
        ValueError, match=rf"hands\[{short}\] must have 13 counts \(value 1 first\), got 12"
    ):
        State.initial(hands)


def test_equality_and_hash_follow_the_position():
    a, b = new_game(4, seed=1), new_game(4, seed=2)
    assert a != b and a == new_game(4, seed=1)
    assert hash(a) == hash(new_game(4, seed=1))
    assert len({a, b, new_game(4, seed=1)}) == 2
    assert (a == 5) is False and a != "state"
    c = a.apply(a.legal_actions()[0])
    assert c != a and c == a.apply(a.legal_actions()[0])
    assert a.clone() is a


def test_a_state_survives_pickling_and_the_dict_form():
    s = new_game(4, seed=6, rules=Rules(take="ends"))
    for _ in range(5):
        s = s.apply(s.legal_actions()[0])
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.to_dict() == s.to_dict()
    assert s.to_dict()["rules"] == {"take": "ends"}
    # and its history: a state sent to a worker process gives the same views there
    assert len(s.view(0).history) == 5
    for p in range(4):
        assert back.view(p).history == s.view(p).history
    after = back.apply(back.legal_actions()[0])
    assert after.view(1).history == s.apply(s.legal_actions()[0]).view(1).history
    for copied in (copy.copy(s), copy.deepcopy(s)):  # both go through the same reduction
        assert copied == s and copied.view(3).history == s.view(3).history


def test_a_long_history_pickles_without_deep_recursion():
    # a linked history deeper than pickle recurses (a game under a large turn limit)
    s = new_game(4, seed=3)
    deep = None
    for t in range(5000):
        deep = (deep, t % 4, 104 + t % 13)
    object.__setattr__(s, "_history", deep)  # a State is immutable: only a test reaches in
    back = pickle.loads(pickle.dumps(s))
    assert len(back.view(2).history) == 5000 and back.view(2).history == s.view(2).history


def test_is_legal_takes_ids_and_actions():
    s = position([counts(v5=2), counts(v3=1), counts(v9=1)], table=counts(v7=1))
    ids = s.legal_action_ids()
    assert ids == (4 * 8, 4 * 8 + 1, 104 + 6)  # 1x5, 2x5, take the 7
    assert s.is_legal(Action.play(5, 2)) and s.is_legal(4 * 8)
    assert not s.is_legal(Action.play(9, 1)) and not s.is_legal(2 * 8)
    assert s.legal_actions() is s.legal_actions()  # computed once


def test_taking_value_one_is_a_pass():
    """Action id 104 (take a 1) is the first pass id: a pass, never a play."""
    s = position([counts(v5=2), counts(v3=1), counts(v9=1)], table=counts(v1=1, v4=1))
    t = s.apply(104)
    assert t.hand(0) == tuple(counts(v1=1, v5=2)) and t.table == tuple(counts(v4=1))
    assert t.passed == (True, False, False) and t.current_player == 1
    assert t.known[0] == tuple(counts(v1=1))


def test_apply_refuses_what_is_not_an_action():
    s = new_game(3, seed=1)
    with pytest.raises(ValueError):
        s.apply(118)
    with pytest.raises(TypeError, match="an Action or an action id"):
        s.apply("play 1x5")


def test_the_same_position_under_another_turn_limit():
    s = new_game(3, seed=5)
    for _ in range(4):
        s = s.apply(s.legal_actions()[0])
    cut = State.from_dict({**s.to_dict(), "turn_limit": 4})
    assert cut.turn_limit == 4 and cut.rules == Rules(turn_limit=4)
    assert cut.is_terminal and cut.unfinished
    assert cut.hands == s.hands and cut.table == s.table
    longer = State.from_dict({**s.to_dict(), "turn_limit": 5})
    assert not longer.is_terminal and longer.legal_actions() == s.legal_actions()


def test_hands_and_passed_per_seat():
    s = position([counts(v2=1), counts(v3=2), counts(v4=3)], table=counts(v8=1),
                 passed=[False, True, False], current=2)  # fmt: skip
    assert s.hands == (tuple(counts(v2=1)), tuple(counts(v3=2)), tuple(counts(v4=3)))
    assert s.hand(2) == tuple(counts(v4=3)) and s.passed == (False, True, False)
    assert s.n_players == 3 and s.hand_sizes == (1, 2, 3)
