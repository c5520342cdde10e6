"""The rules core used from Python at its edges, third audit: a seat, a card value, a score
and a random generator given as the wrong kind of thing are refused in one line naming the
argument (never read as another value: True as seat 1, 1.5 points as 1), a record replays
only when what it says is what its actions give, and a view cannot be changed."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import find, given, settings

import leaves
from leaves import Action, ExpertMatch, GameRecord, Rules
from leaves.testing import (
    action_sequences,
    games,
    new_games,
    player_counts,
    positions,
    rule_sets,
)


@pytest.mark.parametrize(
    "bad, error", [(True, TypeError), (1.0, TypeError), ("0", TypeError), (-1, ValueError)]
)
def test_new_game_checks_first_player_as_a_seat(bad, error):
    with pytest.raises(error, match=r"^first_player must be a seat (number )?0\.\.3, got "):
        leaves.new_game(4, seed=1, first_player=bad)
    s = leaves.new_game(4, seed=1, first_player=np.int8(2))
    assert s.current_player == 2 and type(s.current_player) is int


@pytest.mark.parametrize(
    "bad", [None, 42, np.random.RandomState(0)], ids=["None", "42", "RandomState"]
)
def test_sample_state_names_a_bad_generator(bad):
    view = leaves.new_game(4, seed=1).view(0)
    with pytest.raises(TypeError, match=r"^rng must be a numpy Generator .*, got "):
        view.sample_state(bad)


def test_a_views_legal_actions_cannot_be_replaced():
    s = leaves.new_game(4, seed=1)
    view = s.view(s.current_player)
    with pytest.raises(AttributeError, match="PlayerView is immutable"):
        view._legal = (Action.take(3),)
    assert view.legal_actions() == s.legal_actions()  # the cache still fills
    with pytest.raises(AttributeError, match="PlayerView is immutable"):
        view._legal = ()


@pytest.mark.parametrize("flag", [True, np.True_], ids=repr)
def test_a_flag_is_no_card_value_nor_count(flag):
    with pytest.raises(TypeError, match=r"^Action\.play takes a whole card value"):
        Action.play(flag, 1)
    with pytest.raises(TypeError, match=r"^Action\.play takes a whole card value"):
        Action.play(3, flag)
    with pytest.raises(TypeError, match=r"^Action\.take takes a whole card value"):
        Action.take(flag)


def test_mixed_numpy_integers_make_an_action():
    assert Action.play(np.int8(3), np.uint64(2)) == Action.play(3, 2)
    assert Action.take(np.uint64(13)) == Action.take(13)


def _cut_short() -> GameRecord:
    s = leaves.new_game(4, seed=1)
    return GameRecord.from_states(s, s.apply(s.legal_actions()[0]), seed=1, stopped="quit")


def test_a_cut_short_record_claiming_a_winner_is_refused():
    d = _cut_short().to_dict()
    assert len(leaves.replay(GameRecord.from_dict(d))) == 2
    d["winner"] = 2
    with pytest.raises(ValueError, match="record says winner 2, its actions give None"):
        leaves.replay(GameRecord.from_dict(d))
    d.pop("stopped")
    d["forfeit_seat"] = 1
    with pytest.raises(ValueError, match="record says winner 2, its actions give None"):
        leaves.replay(GameRecord.from_dict(d))


def test_replay_reads_rules_in_any_form():
    record = _cut_short()
    for same in ("turn_limit=50", {}, Rules(), ["take=any"]):
        assert len(leaves.replay(record, same)) == 2
    with pytest.raises(ValueError, match="the record was played under the rules default"):
        leaves.replay(record, "hand_size=9")


@pytest.mark.parametrize("bad", [None, {"hands": []}, "{}"], ids=repr)
def test_replay_names_what_is_not_a_record(bad):
    with pytest.raises(TypeError, match=r"^record must be a GameRecord \(GameRecord\.from_dict"):
        leaves.replay(bad)


@pytest.mark.parametrize(
    "scores, said",
    [
        ([1.5, 0, 0, 0], r"^each score must be a whole number, got 1\.5 \(float\)$"),
        ([True, 0, 0, 0], r"^each score must be a whole number, got True \(bool\)$"),
        (None, r"^scores must be a list of 4 points, got None"),
        ("1234", r"^scores must be a list of 4 points, got '1234'"),
    ],
)
def test_expert_scores_are_whole_points(scores, said):
    with pytest.raises(TypeError, match=said):
        ExpertMatch(4).add(scores)
    m = ExpertMatch(4).add(np.array([1, 2, 3, 4])).add(x for x in (0, 0, 0, 1))
    assert m.totals == (1, 2, 3, 5) and all(type(t) is int for t in m.totals)


@pytest.mark.parametrize(
    "args, error, said",
    [
        ((True,), TypeError, "n_players must be a whole number, got True"),
        ((4.0,), TypeError, "n_players must be a whole number, got 4.0"),
        ((0,), ValueError, "at least 2 players, got n_players=0"),
        ((1,), ValueError, "at least 2 players, got n_players=1"),
        ((4, None), TypeError, "target must be a whole number, got None"),
        ((4, 1.5), TypeError, "target must be a whole number, got 1.5"),
        ((4, True), TypeError, "target must be a whole number, got True"),
    ],
)
def test_expert_match_names_a_bad_count_or_target(args, error, said):
    with pytest.raises(error, match=said):
        ExpertMatch(*args)


def test_expert_match_keeps_plain_ints():
    m = ExpertMatch(np.int64(2), np.int64(3))
    assert (m.n_players, m.target, m.totals) == (2, 3, (0, 0))
    assert type(m.n_players) is int and type(m.target) is int
    assert m.add([3, 0]).winners == (1,)


@pytest.mark.parametrize(
    "make, error, said",
    [
        (lambda: player_counts(7, 9), ValueError, "min_players=7 and max_players=9 leave none"),
        (lambda: player_counts(5, 3), ValueError, "no player count to draw"),
        (lambda: new_games(min_players=True), TypeError, "min_players must be a whole number"),
        (lambda: new_games(max_players=4.5), TypeError, "max_players must be a whole number"),
        (lambda: games(min_players="3"), TypeError, "min_players must be a whole number"),
        (lambda: new_games(max_players=-1), ValueError, "max_players must be at least 0, got -1"),
        (lambda: positions(max_turns=-1), ValueError, "max_turns must be at least 0, got -1"),
        (lambda: positions(max_turns=1.5), TypeError, "max_turns must be a whole number"),
        (lambda: action_sequences(max_turns=-1), ValueError, "max_turns must be at least 0"),
        (lambda: positions(nonterminal="no"), TypeError, "nonterminal must be True or False"),
    ],
)
def test_testing_strategies_name_a_bad_bound_when_built(make, error, said):
    with pytest.raises(error, match=said):
        make()


@settings(max_examples=30, deadline=None)
@given(
    player_counts(),
    player_counts(rules="hand_size=14"),
    player_counts(min_players=np.int64(5)),
    positions(max_turns=np.int64(20), rules="take=nothing,turn_limit=60"),
    positions(max_turns=None, max_players=3),
)
def test_testing_strategies_draw_what_the_rules_allow(n, n14, n5, state, unbounded):
    assert 3 <= n <= 6 and n14 in (3, 4) and n5 in (5, 6)
    assert state.rules == Rules(take="nothing", turn_limit=60) and not state.is_terminal
    assert state.turn <= 20 and leaves.State.from_dict(state.to_dict()) == state
    assert unbounded.n_players == 3 and not unbounded.is_terminal


def _position() -> dict:
    s = leaves.new_game(4, seed=3)
    for _ in range(7):
        s = s.apply(s.legal_actions()[-1])
    return s.to_dict()


@pytest.mark.parametrize(
    "key, bad, said",
    [
        ("current_player", True, r"current_player must be a seat 0\.\.3, got True"),
        ("winner", True, r"winner must be a seat 0\.\.3 or None, got True"),
        ("turn", 1.5, r"turn must be a whole number >= 0, got 1\.5"),
        ("turn", True, r"turn must be a whole number >= 0, got True"),
        ("round", None, r"round must be a whole number >= 1, got None"),
        ("turn_limit", True, r"turn_limit must be >= 1, got True"),
        ("passed", "ffff", r"passed must be 4 flags True/False, got 'ffff'"),
        ("passed", [None, 0, 0, 0], r"passed must be 4 flags True/False"),
        ("table", [True] + [0] * 12, r"table must hold whole card counts, got \[True, 0"),
    ],
)
def test_from_dict_reads_no_value_as_another(key, bad, said):
    d = _position()
    assert leaves.State.from_dict(d).to_dict() == d
    d[key] = bad
    with pytest.raises(ValueError, match=f"^{said}"):
        leaves.State.from_dict(d)


def test_from_dict_takes_numpy_numbers_and_flags():
    d = _position()
    want = leaves.State.from_dict(d)
    d.update(
        current_player=np.int64(d["current_player"]),
        turn=np.int32(d["turn"]),
        passed=[np.bool_(p) for p in d["passed"]],
        hands=[np.array(h) for h in d["hands"]],
    )
    assert leaves.State.from_dict(d) == want


@pytest.mark.parametrize("bad", [None, 5, [None] * 4, [["a"] * 13] * 4], ids=repr)
def test_initial_names_hands_that_are_no_counts(bad):
    with pytest.raises(ValueError, match=r"^hands must be one list of 13 card counts per player"):
        leaves.State.initial(bad)
    record = _cut_short().to_dict()
    record["hands"] = bad
    with pytest.raises(ValueError, match=r"^bad record: hands must be one list of 13 card"):
        leaves.replay(GameRecord.from_dict(record))


def test_a_view_still_copies_and_pickles():
    s = leaves.new_game(4, seed=2)
    view = s.view(s.current_player)
    view.legal_actions()
    for again in (pickle.loads(pickle.dumps(view)), copy.copy(view), copy.deepcopy(view)):
        assert again == view and again.legal_actions() == s.legal_actions()


def test_a_numpy_hand_size_is_a_hand_size():
    # every other key took numpy's numbers; hand_size said "must be a number", got np.int64(9)
    for same in (np.int64(9), np.uint8(9), 9.0, "9"):
        assert Rules(hand_size=same) == Rules(hand_size=9)
        assert hash(Rules(hand_size=same)) == hash(Rules(hand_size=9))
    with pytest.raises(ValueError, match=r"^hand_size must be a whole number 1\.\.52, got 9\.5$"):
        Rules(hand_size=9.5)
    with pytest.raises(ValueError, match=r"^hand_size must be 1\.\.52, got 0$"):
        Rules(hand_size=np.int64(0))


@pytest.mark.parametrize("bad", [None, 5, b"play 3x6"], ids=repr)
def test_parse_names_what_is_not_text(bad):
    with pytest.raises(TypeError, match=r"^Action\.parse takes text such as 'play 3x6', got "):
        Action.parse(bad)
    assert Action.parse(" PLAY 3X6 ") == Action.play(6, 3)


def test_an_action_is_ordered_among_actions_only():
    a = Action.play(6, 3)
    with pytest.raises(TypeError, match="'<' not supported"):
        a < 5  # noqa: B015
    with pytest.raises(TypeError, match="'>' not supported"):
        a > 5  # noqa: B015
    assert sorted([Action.take(1), a]) == [a, Action.take(1)] and a < Action.take(1)


def test_rule_sets_shrink_towards_the_smallest_game():
    # its docstring said "towards today's rules with small changes"
    least = find(rule_sets("turn_limit=40"), lambda r: True, settings=settings(database=None))
    assert least == Rules(
        deck=(1, 1) + (0,) * 11, hand_size=1, players=(2,), min_count=False, take="any",
        expert_target=1, turn_limit=40,
    )  # fmt: skip


@pytest.mark.parametrize("bad", ["3", 1.5, True], ids=repr)
def test_new_game_names_a_hand_size_that_is_no_number(bad):
    # '3' failed on "'<' not supported between instances of 'str' and 'int'"
    with pytest.raises(TypeError, match=r"^hand_size must be a whole number of cards, got "):
        leaves.new_game(3, seed=1, hand_size=bad)
    assert leaves.new_game(3, seed=1, hand_size=np.int64(5)).hand_sizes == (5, 5, 5)


@pytest.mark.parametrize(
    "seed, error, said",
    [(1.5, TypeError, r"got 1\.5 \(float\)"), (True, TypeError, "got True"), (-1, ValueError, "")],
)
def test_a_record_keeps_no_seed_it_did_not_take(seed, error, said):
    # seed 1.5 was written down as seed 1
    s = leaves.new_game(4, seed=1)
    with pytest.raises(error, match=f"^seed must be .*{said}"):
        GameRecord.from_states(s, s, seed=seed)
    assert GameRecord.from_states(s, s, seed=np.uint64(1), stopped="quit").seed == 1


@pytest.mark.parametrize(
    "totals, error, said",
    [
        ((1.5, 0, 0), TypeError, r"^each total must be a whole number, got 1\.5"),
        ((0, -2, 0), ValueError, r"^totals cannot be negative, got \(0, -2, 0\)"),
        ((0, 0), ValueError, r"^totals must have one entry per player"),
    ],
)
def test_expert_match_checks_the_totals_it_starts_from(totals, error, said):
    with pytest.raises(error, match=said):
        ExpertMatch(3, totals=totals)
    m = ExpertMatch(3, totals=(np.int64(4), 0, 19))
    assert m.totals == (4, 0, 19) and type(m.totals[0]) is int and not m.is_over


@pytest.mark.parametrize("bad", [None, (3, 0, 2)], ids=repr)
def test_game_scores_names_what_is_not_a_state(bad):
    with pytest.raises(TypeError, match=r"^game_scores takes the final State of a game, got "):
        leaves.game_scores(bad)
