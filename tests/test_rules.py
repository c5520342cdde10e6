"""One test (at least) per rule of docs/rules.md, on hand-made positions."""

from __future__ import annotations

import pytest

import leaves
from leaves import DECK, Action, IllegalActionError, new_game
from leaves.rules import TURN_LIMIT

from .helpers import counts, position


def test_deck_composition():
    assert DECK == (2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2)
    assert sum(DECK) == 62


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_deal_sizes_and_undealt(n):
    dealt = {3: 12, 4: 11, 5: 10, 6: 9}[n]  # docs/rules.md, "Setup"
    s = new_game(n, seed=7)
    assert s.hand_sizes == (dealt,) * n
    assert sum(s.undealt) == 62 - n * dealt
    assert s.table == (0,) * 13 and s.turn == 0 and s.round == 1
    assert 0 <= s.current_player < n


@pytest.mark.parametrize("n", [1, 2, 7])
def test_player_count_refused_without_hand_size(n):
    with pytest.raises(ValueError, match="3 to 6 players"):
        new_game(n, seed=1)


def test_other_player_count_with_explicit_hand_size():
    s = new_game(2, seed=1, hand_size=15)
    assert s.hand_sizes == (15, 15)
    with pytest.raises(ValueError, match="n_players must be 2..6 with a hand_size given, got 7"):
        new_game(7, seed=1, hand_size=9)


def test_first_player_is_random_and_seeded():
    firsts = {new_game(4, seed=s).current_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_game(4, seed=5) == new_game(4, seed=5)
    assert new_game(4, seed=5, first_player=2).current_player == 2


def test_action_encoding():
    assert Action.play(1, 1).id == 0
    assert Action.play(6, 3).id == 5 * 8 + 2
    assert Action.play(13, 8).id == 103
    assert Action.take(1).id == 104 and Action.take(13).id == 116
    assert str(Action.play(6, 3)) == "play 3x6"
    assert str(Action.take(9)) == "pass, take 9"
    for i in range(117):
        a = Action.from_id(i)
        assert a.id == i and Action.parse(str(a)) is a
    p = Action.from_id(117)  # the pass taking nothing of the variant take=nothing
    assert p is Action.pass_() and p.is_pass and p.taken is None and str(p) == "pass"
    assert Action.parse("pass") is p
    with pytest.raises(ValueError):
        Action.from_id(118)
    with pytest.raises(ValueError):
        Action.play(14, 1)


def test_rulebook_example_left_three_sixes_right_two_twelves():
    """Acceptance case: legal = any value <= 6 with >= 3 cards, any value >= 12 with >= 2."""
    hand = counts(v1=2, v2=3, v4=4, v5=3, v6=3, v8=4, v9=3, v13=2)
    table = counts(v6=3, v9=1, v12=2)
    s = position([hand, counts(v3=1), counts(v7=1)], table=table)
    plays = {(a.value, a.count) for a in s.legal_actions() if not a.is_pass}
    expected = {(2, 3), (4, 3), (4, 4), (5, 3), (6, 3), (13, 2)}
    assert plays == expected
    assert {a.value for a in s.legal_actions() if a.is_pass} == {6, 9, 12}
    assert not any(7 <= a.value <= 11 for a in s.legal_actions() if not a.is_pass)
    with pytest.raises(IllegalActionError, match="between the ends 6 and 12"):
        s.apply(Action.play(9, 3))
    with pytest.raises(IllegalActionError, match="at least 3 cards on the left end, got 2"):
        s.apply(Action.play(5, 2))
    with pytest.raises(IllegalActionError, match="at least 2 cards on the right end, got 1"):
        s.apply(Action.play(13, 1))


def test_stacking_makes_the_end_bigger():
    s = position([counts(v6=3, v1=1), counts(v5=6, v3=1), counts(v1=1)], table=counts(v6=3))
    s = s.apply(Action.play(6, 3))
    assert s.table[5] == 6 and s.ends == ((6, 6), (6, 6))
    # next player needs six cards of value 5 or lower on the left
    assert s.current_player == 1
    plays = [a for a in s.legal_actions() if not a.is_pass]
    assert plays == [Action.play(5, 6)]


def test_empty_table_any_value_any_count_and_no_pass():
    s = position([counts(v3=2, v9=1), counts(v1=1), counts(v2=1)])
    assert set(s.legal_actions()) == {Action.play(3, 1), Action.play(3, 2), Action.play(9, 1)}
    with pytest.raises(IllegalActionError, match="P1"):
        s.apply(Action.take(3))


def test_single_stack_is_both_ends():
    s = position([counts(v4=2, v7=1, v9=2), counts(v1=1), counts(v2=1)], table=counts(v7=2))
    plays = {(a.value, a.count) for a in s.legal_actions() if not a.is_pass}
    assert plays == {(4, 2), (9, 2)}


def test_pass_takes_from_any_stack_and_end_moves_inward():
    s = position(
        [counts(v1=1), counts(v2=1), counts(v3=1)],
        table=counts(v4=1, v8=2, v11=1),
    )
    takes = [a for a in s.legal_actions() if a.is_pass]
    assert takes == [Action.take(4), Action.take(8), Action.take(11)]
    s1 = s.apply(Action.take(4))  # left end empties: 8 becomes the left end
    assert s1.ends == ((8, 2), (11, 1))
    assert s1.hand(0)[3] == 1 and s1.passed == (True, False, False)
    assert s1.known[0][3] == 1
    s2 = s.apply(Action.take(8))  # middle stack shrinks
    assert s2.ends == ((4, 1), (11, 1)) and s2.table[7] == 1


def test_take_not_on_table_is_illegal():
    s = position([counts(v1=1), counts(v2=1), counts(v3=1)], table=counts(v8=2))
    with pytest.raises(IllegalActionError, match="no stack of 5s"):
        s.apply(Action.take(5))


def test_turn_order_skips_passed_players():
    s = position(
        [counts(v1=1, v13=1), counts(v2=2), counts(v3=2), counts(v4=2)],
        table=counts(v7=1),
        passed=[False, True, False, False],
        current=0,
    )
    s = s.apply(Action.play(13, 1))
    assert s.current_player == 2


def test_round_end_last_passer_takes_and_survivor_clears_and_leads():
    s = position(
        [counts(v1=2), counts(v2=2), counts(v3=2)],
        table=counts(v5=1, v9=2),
        passed=[False, True, False],
        current=2,
    )
    s = s.apply(Action.take(9))  # last passer still takes
    assert s.hand(2)[8] == 1
    assert s.round == 2 and s.current_player == 0
    assert s.table == (0,) * 13 and s.passed == (False, False, False)
    assert s.removed[4] == 1 and s.removed[8] == 1
    assert all(a.is_pass is False for a in s.legal_actions())


def test_table_emptied_by_takes_mid_round_is_a_fresh_table():
    s = position(
        [counts(v1=2), counts(v2=2), counts(v3=2), counts(v4=2)],
        table=counts(v9=1),
        current=0,
    )
    s = s.apply(Action.take(9))
    assert s.table == (0,) * 13 and s.ends is None and s.round == 1
    assert s.current_player == 1
    assert set(s.legal_actions()) == {Action.play(2, 1), Action.play(2, 2)}


def test_game_ends_when_a_hand_empties():
    s = position([counts(v10=2), counts(v2=2), counts(v3=2)], table=counts(v9=2))
    s = s.apply(Action.play(10, 2))
    assert s.is_terminal and s.winner == 0 and not s.unfinished
    assert s.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(Action.take(9))


def test_turn_limit_ends_game_unfinished():
    assert TURN_LIMIT >= 1000
    s = new_game(4, seed=3, rules="turn_limit=5")
    for _ in range(5):
        s = s.apply(s.legal_actions()[0])
    assert s.turn == 5 and s.is_terminal and s.unfinished and s.winner is None
    with pytest.raises(IllegalActionError, match="turn limit"):
        s.apply(Action.play(1, 1))


def test_playing_known_cards_reduces_known():
    s = position(
        [counts(v9=2, v1=1), counts(v2=2), counts(v3=2)],
        known=[counts(v9=1), [0] * 13, [0] * 13],
    )
    s2 = s.apply(Action.play(9, 1))
    assert s2.known[0][8] == 0


def test_illegal_action_leaves_state_unchanged():
    s = new_game(4, seed=11)
    d = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(Action.take(5))
    assert s.to_dict() == d


def test_counting_turns_and_rounds():
    # Every action is a turn; a round begins when all but one have passed.
    s = position([counts(v2=1, v5=2), counts(v9=1, v1=1), counts(v12=1, v13=1)], current=0)
    assert (s.turn, s.round) == (0, 1)
    s = s.apply(Action.play(5, 2))  # seat 0 leads two 5s
    assert (s.turn, s.round) == (1, 1)
    s = s.apply(Action.take(5))  # seat 1 passes, taking a 5
    assert (s.turn, s.round) == (2, 1)
    s = s.apply(Action.take(5))  # seat 2 passes: only seat 0 is left, a new round begins
    assert (s.turn, s.round, s.current_player) == (3, 2, 0)
    assert s.table == (0,) * 13 and s.passed == (False, False, False)
    s = s.apply(Action.play(2, 1))
    assert (s.turn, s.round) == (4, 2)


def test_from_dict_rejects_impossible_positions():
    good = new_game(4, seed=1).to_dict()
    assert leaves.State.from_dict(good) == new_game(4, seed=1)
    bad = dict(good, hands=[h[:] for h in good["hands"]])
    bad["hands"][0][6] += 1
    with pytest.raises(ValueError, match="value 7 add up to"):
        leaves.State.from_dict(bad)
    with pytest.raises(ValueError, match="current_player"):
        leaves.State.from_dict(dict(good, current_player=9))
    with pytest.raises(ValueError, match="round should have ended"):
        leaves.State.from_dict(dict(good, passed=[True, True, True, False]))
    with pytest.raises(ValueError, match="13 counts"):
        leaves.State.from_dict(dict(good, table=[0] * 12))
    with pytest.raises(ValueError, match="winner"):
        leaves.State.from_dict(dict(good, winner=2))


def test_every_rules_constant_is_read_by_the_code():
    """A named rule choice that nothing reads would pretend to be a switch (issue: P1, P2, X1
    were constants that the State API and the kernels ignored)."""
    import re
    from pathlib import Path

    from leaves import rules

    root = Path(rules.__file__).resolve().parents[1]
    rules_src = Path(rules.__file__).read_text()
    code = "\n".join(
        p.read_text()
        for pkg in ("leaves", "strategies", "tournaments", "reports")
        for p in (root / pkg).rglob("*.py")
        if p.resolve() != Path(rules.__file__).resolve()
    )
    names = [n for n in vars(rules) if n.isupper()]
    assert names
    for name in names:
        pattern = re.compile(rf"\b{name}\b")
        used_here = len(pattern.findall(rules_src)) > 1  # read by another definition
        assert used_here or pattern.search(code), f"leaves.rules.{name} is read by nothing"
        assert not isinstance(getattr(rules, name), bool), f"{name} looks like a switch"


# ------------------------------------------------------------- actions explain themselves
def test_actions_have_self_explaining_read_only_attributes():
    take, play = Action.take(9), Action.play(6, 3)
    assert (take.is_pass, take.is_play, take.taken, take.value, take.count) == (
        True, False, 9, 9, 0,
    )  # fmt: skip
    assert (play.is_pass, play.is_play, play.taken, play.value, play.count) == (
        False, True, None, 6, 3,
    )  # fmt: skip
    for a in leaves.ALL_ACTIONS:
        assert a.is_play != a.is_pass
        assert (a.taken == a.value) if a.is_pass else (a.taken is None and a.count >= 1)
    for name in ("taken", "count", "is_play", "value"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(take, name, 1)


@pytest.mark.parametrize(
    ("name", "advice"),
    [("take", "a.taken"), ("play", "a.count"), ("from_id", "a.id")],
)
def test_constructors_work_on_the_class_only(name, advice):
    a = Action.take(9)
    with pytest.raises(AttributeError, match=rf"Action\.{name} is a constructor.*{advice}"):
        getattr(a, name)
    assert not hasattr(a, name)
    assert Action.from_id(a.id) is a and Action.play(6, 3).id == 5 * 8 + 2
    assert Action.take.__doc__ and "Pass" in Action.take.__doc__


def test_actions_keep_their_ids_hashes_and_pickles():
    import copy
    import pickle

    ids = [a.id for a in leaves.ALL_ACTIONS]
    assert ids == list(range(117))
    assert Action.take(1).id == 104 and Action.play(13, 8).id == 103
    for a in leaves.ALL_ACTIONS:
        assert pickle.loads(pickle.dumps(a)) is a and copy.deepcopy(a) is a
        assert hash(a) == a.id and Action.parse(str(a)) is a


@pytest.mark.parametrize(("value", "article"), [(8, "an"), (11, "an"), (9, "a"), (1, "a")])
def test_a_take_without_a_stack_names_the_value_with_the_right_article(value, article):
    from leaves.moves import _article

    assert _article(value) == article
    assert _article(18) == "an" and _article(80) == "an" and _article(13) == "a"
    hands = [counts(v1=2, v5=1), counts(v2=1), counts(v3=1)]
    state = position(hands, table=counts(v4=1), current=0)
    with pytest.raises(IllegalActionError, match=rf"cannot take {article} {value}: there is no"):
        state.apply(Action.take(value))
