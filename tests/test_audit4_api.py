"""The rules core used from Python, fourth audit: a state, a view, an action and a record cannot
be changed once made; a record and a position that cannot be true are refused when made; an
action id is read from ASCII digits only; an argument of the wrong kind is a TypeError; and the
hypothesis strategies of ``leaves.testing`` draw what they say."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import leaves
from leaves import Action, GameRecord, State
from leaves.record import replay
from leaves.state import StateFields
from leaves.testing import positions, rule_sets, variant_games


def _walk(state: State, moves: int) -> State:
    for _ in range(moves):
        state = state.apply(state.legal_actions()[-1])
    return state


def _states() -> list[State]:
    """A state from each way one is made: a deal, a move, a dict, a deal of hands, a sample of
    a view, a pickle."""
    dealt = leaves.new_game(4, seed=5)
    moved = _walk(dealt, 9)
    return [
        dealt,
        moved,
        State.from_dict(moved.to_dict()),
        State.initial(dealt.hands, 1),
        moved.view(0).sample_state(np.random.default_rng(1)),
        pickle.loads(pickle.dumps(moved)),
    ]


# ---------------------------------------------------------------- a State is immutable
@pytest.mark.parametrize("name", [f"_{f}" for f in StateFields._fields] + ["_legal", "_key"])
def test_no_field_of_a_state_can_be_set_or_deleted(name):
    for s in _states():
        before = (s.to_dict(), s.legal_actions(), hash(s), s.history)
        with pytest.raises(AttributeError, match=r"^State is immutable"):
            setattr(s, name, 0)
        with pytest.raises(AttributeError, match=r"^State is immutable"):
            delattr(s, name)
        assert (s.to_dict(), s.legal_actions(), hash(s), s.history) == before


def test_a_state_cannot_take_a_new_attribute_nor_a_public_one():
    s = leaves.new_game(4, seed=5)
    for name in ("current_player", "winner", "turn", "anything"):
        with pytest.raises(AttributeError):
            setattr(s, name, 0)
    assert s.current_player == leaves.new_game(4, seed=5).current_player


def test_an_immutable_state_still_caches_and_plays():
    s = _walk(leaves.new_game(5, seed=8), 4)
    assert s.legal_actions() is s.legal_actions()  # the cache still fills
    assert hash(s) == hash(State.from_dict(s.to_dict()))
    after = s.apply(s.legal_actions()[0])
    assert after.turn == s.turn + 1 and type(after) is State and type(s) is State


# ---------------------------------------------------------------- a view and an action too
def test_no_field_of_a_view_can_be_deleted():
    view = leaves.new_game(4, seed=1).view(0)
    for name in ("_legal", "player", "current_player", "_hand"):
        with pytest.raises(AttributeError, match=r"^PlayerView is immutable"):
            delattr(view, name)
    with pytest.raises(AttributeError, match=r"^PlayerView is immutable"):
        view.player = 3  # deleting ``_legal`` first no longer opens the view to changes
    assert view.player == 0 and view.legal_actions() == view.legal_actions()
    back = pickle.loads(pickle.dumps(view))
    assert back == view and type(back) is type(view)
    with pytest.raises(AttributeError, match=r"^PlayerView is immutable"):
        back.current_player = 2


def test_no_field_of_an_action_can_be_deleted():
    a = Action.from_id(3)
    for name in ("value", "count", "id"):
        with pytest.raises(AttributeError, match=r"^Action is immutable"):
            delattr(a, name)
    assert (a.value, a.count, a.id) == (1, 4, 3) and Action.parse("play 4x1") is a


# ---------------------------------------------------------------- a record's sequences
def _record() -> GameRecord:
    s = leaves.new_game(4, seed=2)
    labels = ["a", "b", "c", "d"]
    return GameRecord.from_states(s, _walk(s, 6), seed=2, strategies=labels, stopped="quit")


def test_a_records_sequences_are_tuples():
    rec = _record()
    assert type(rec.actions) is tuple and len(rec.actions) == 6
    assert type(rec.strategies) is tuple and rec.strategies == ("a", "b", "c", "d")
    assert type(rec.hands) is tuple and all(type(h) is tuple for h in rec.hands)
    with pytest.raises(AttributeError):
        rec.actions.append(3)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rec.strategies.append("e")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        rec.hands[0][0] = 9  # type: ignore[index]
    assert len(rec.actions) == 6 and rec.strategies == ("a", "b", "c", "d")


def test_a_record_made_from_lists_is_the_record_made_from_tuples():
    rec = _record()
    d = rec.to_dict()
    assert type(d["actions"]) is list and type(d["hands"][0]) is list  # plain JSON data
    assert GameRecord(**d) == rec == GameRecord.from_json(rec.to_json())
    assert GameRecord.from_json(rec.to_json()).to_json() == rec.to_json()
    assert json.loads(rec.to_json())["actions"] == list(rec.actions)
    states = replay(GameRecord.from_json(rec.to_json()))
    assert [a.id for _, a in states[-1].history] == list(rec.actions)


def test_a_record_of_bad_data_still_replays_to_a_one_line_error():
    d = _record().to_dict()
    d["actions"] = "abc"  # text, not a list: kept as given, refused by replay
    with pytest.raises(ValueError, match=r"^record action 0 is 'a', not an action id"):
        replay(GameRecord.from_dict(d))


# ---------------------------------------------------------------- final from initial
def test_a_record_of_a_final_state_from_another_game_is_refused():
    start = leaves.new_game(4, seed=2)
    other = _walk(leaves.new_game(4, seed=3), 5)
    with pytest.raises(ValueError, match=r"^final did not come from initial"):
        GameRecord.from_states(start, other)
    later = _walk(start, 5)
    with pytest.raises(ValueError, match=r"^final did not come from initial"):
        GameRecord.from_states(later, start)  # the wrong way round
    with pytest.raises(ValueError, match=r"^initial must be a game's dealt position"):
        GameRecord.from_states(_walk(start, 2), later)  # a record keeps no later position


@pytest.mark.parametrize("bad", [None, 3, "state"], ids=repr)
def test_a_record_is_made_from_states_only(bad):
    s = leaves.new_game(4, seed=2)
    with pytest.raises(TypeError, match=r"^initial must be a leaves\.State, got "):
        GameRecord.from_states(bad, s)
    with pytest.raises(TypeError, match=r"^final must be a leaves\.State, got "):
        GameRecord.from_states(s, bad)


# ---------------------------------------------------------------- past the turn limit
def test_a_position_past_its_turn_limit_is_refused():
    d = _walk(leaves.new_game(4, seed=3), 7).to_dict()
    d["turn_limit"] = 7
    at_limit = State.from_dict(d)
    assert at_limit.unfinished and at_limit.is_terminal  # a game ends at its limit
    d["turn"] = 8
    with pytest.raises(ValueError, match=r"^turn 8 is past the turn limit of 7"):
        State.from_dict(d)
    d["turn"], d["turn_limit"] = 10**6, None
    with pytest.raises(ValueError, match=r"^turn 1000000 is past the turn limit of 1000"):
        State.from_dict(d)


# ---------------------------------------------------------------- ASCII digits only
@pytest.mark.parametrize(
    "text", ["٣", "３", "play ٣x6", "play 3x٦", "take ٩", "pass, take ９", "1_2", "take 1_3",
             "+3", "play +3x6", "play 3x-6"],
)  # fmt: skip
def test_an_action_is_read_from_ascii_digits_only(text):
    with pytest.raises(ValueError, match=r"^cannot read an action from "):
        Action.parse(text)


def test_the_readable_forms_still_parse():
    assert Action.parse(" 12 ") is Action.from_id(12)
    assert Action.parse("PLAY 3 x 6") is Action.play(6, 3)
    assert Action.parse("pass, take 9") is Action.take(9) is Action.parse("take 9")
    assert Action.parse("pass") is Action.pass_()
    with pytest.raises(ValueError, match=r"^card value must be 1\.\.13, got 14"):
        Action.parse("take 14")


# ---------------------------------------------------------------- a wrong kind: TypeError
@pytest.mark.parametrize("bad", [None, True, 4.0, "4", [4]], ids=repr)
def test_new_game_refuses_a_player_count_of_the_wrong_kind(bad):
    with pytest.raises(TypeError, match=r"^n_players must be an integer, got "):
        leaves.new_game(bad)
    assert leaves.new_game(np.int8(4), seed=1) == leaves.new_game(4, seed=1)
    with pytest.raises(ValueError, match=r"3 to 6 players, got 7"):
        leaves.new_game(7)


# ---------------------------------------------------------------- leaves.testing
_FEW = settings(max_examples=120, database=None, derandomize=True, deadline=None,
                suppress_health_check=list(HealthCheck))  # fmt: skip


def test_positions_are_spread_along_the_game_not_piled_at_its_end():
    one_from_end = []

    @_FEW
    @given(positions())
    def draw(s):
        one_from_end.append(any(s.apply(a).is_terminal for a in s.legal_actions()))

    draw()
    # along random games about 1 position in 40 is one move from the end; a strategy that
    # returned the last position of every game shorter than its drawn length gave 2 in 5
    assert sum(one_from_end) < 0.15 * len(one_from_end)


def test_positions_reach_late_turns_and_ended_games():
    turns, ended = [], []

    @_FEW
    @given(positions(max_turns=None), positions(nonterminal=False, rules="turn_limit=5"))
    def draw(running, any_state):
        turns.append(running.turn)
        ended.append(any_state.is_terminal)
        assert not running.is_terminal

    draw()
    assert max(turns) >= 60 and min(turns) == 0 and 0 < sum(ended) < len(ended)

    @_FEW
    @given(positions(rules="turn_limit=5"))
    def running(state):
        assert not state.is_terminal and state.turn < 5

    running()


@pytest.mark.parametrize("make", [rule_sets, variant_games])
@pytest.mark.parametrize("base", [5, "no_such_rule=1", "turn_limit=0"])
def test_rule_strategies_refuse_a_bad_base_when_built(make, base):
    with pytest.raises(ValueError):
        make(base)


def test_rule_strategies_keep_the_base_turn_limit():
    @settings(_FEW, max_examples=10)
    @given(rule_sets("turn_limit=400"), variant_games("turn_limit=9"))
    def draw(rules, game):
        assert rules.turn_limit == 400 and game.turn_limit == game.rules.turn_limit == 9

    draw()


@pytest.mark.parametrize(
    "bad, error", [("x", TypeError), (True, TypeError), (1.0, TypeError), (4, ValueError)]
)
def test_initial_checks_first_player_as_a_seat_naming_it(bad, error):
    hands = leaves.new_game(4, seed=1).hands
    with pytest.raises(error, match=r"^first_player must be a seat (number )?0\.\.3, got "):
        State.initial(hands, bad)
    assert State.initial(hands, np.int8(2)).current_player == 2
    d = _record().to_dict()
    d["first_player"] = bad  # a record's data: still a one-line ValueError from replay
    with pytest.raises(ValueError, match=r"^bad record: first_player must be a seat"):
        replay(GameRecord.from_dict(d))
