"""The edges of ``leaves.moves`` on hand-made positions: a take that empties an end (the next
stack inward becomes the end, over gaps), the only stack or a middle one; the round's last
pass; turn order past passed seats and around the table; plays onto an end equal to it, the
minimum count and its variant, the known cards a play uses up; and each refusal's reason.
Every expected position is written out from docs/rules.md ("Pass", "End of a round")."""

from __future__ import annotations

import pytest

from leaves import Action, IllegalActionError, Rules, State

from .helpers import counts, position

TAKE_NOTHING = 117


def at(hands, table, rules: Rules, **extra) -> State:
    deck = rules.deck
    undealt = [deck[v] - sum(h[v] for h in hands) - table[v] for v in range(13)]
    return State.from_dict({"hands": hands, "table": table, "undealt": undealt,
                            "current_player": 0, "rules": rules.changes(), **extra})  # fmt: skip


def test_taking_the_left_end_moves_it_inward_over_a_gap():
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v1=1, v6=2, v9=1))
    t = s.apply(Action.take(1))
    assert t.ends == ((6, 2), (9, 1)) and t.stacks == ((6, 2), (9, 1))
    assert t.current_player == 1 and t.passed == (True, False, False)
    assert t.hand(0) == tuple(counts(v1=1, v2=1)) and t.known[0] == tuple(counts(v1=1))


def test_taking_the_right_end_moves_it_inward_over_a_gap():
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v1=1, v6=2, v13=1))
    t = s.apply(Action.take(13))
    assert t.ends == ((1, 1), (6, 2))
    t = position([counts(v2=1), counts(v3=1), counts(v4=1)],
                 table=counts(v5=1, v13=1)).apply(Action.take(13))  # fmt: skip
    assert t.ends == ((5, 1), (5, 1))


def test_taking_one_of_a_bigger_end_keeps_it():
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v1=2, v12=3))
    t = s.apply(Action.take(1))
    assert t.ends == ((1, 1), (12, 3))
    assert s.apply(Action.take(12)).ends == ((1, 2), (12, 2))


def test_taking_the_only_card_empties_the_table():
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v7=1))
    t = s.apply(Action.take(7))
    assert t.ends is None and t.stacks == () and t.round == 1
    assert t.current_player == 1
    ids = t.legal_action_ids()
    assert ids == (2 * 8,)  # only the play of 1x3: no pass on an empty table (P1)
    with pytest.raises(IllegalActionError, match="cannot pass on an empty table"):
        t.apply(Action.take(7))
    u = t.apply(Action.play(3, 1))
    assert u.ends == ((3, 1), (3, 1))


def test_taking_a_middle_stack_keeps_the_ends():
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v1=1, v6=1, v9=1))
    t = s.apply(Action.take(6))
    assert t.ends == ((1, 1), (9, 1)) and t.stacks == ((1, 1), (9, 1))


def test_the_last_pass_ends_the_round_and_the_survivor_leads():
    # seat 1 has passed; seat 2 passes now: seat 0 stays, clears the table and leads round 2
    s = position([counts(v2=1), counts(v3=1), counts(v4=1)], table=counts(v5=2, v8=1),
                 passed=[False, True, False], current=2, turn=10, round=3)  # fmt: skip
    t = s.apply(Action.take(8))
    assert t.round == 4 and t.passed == (False, False, False) and t.current_player == 0
    assert t.table == (0,) * 13 and t.ends is None
    assert t.removed == tuple(counts(v5=2))
    assert t.hand(2) == tuple(counts(v4=1, v8=1))


@pytest.mark.parametrize("survivor", [0, 1, 2, 3])
def test_any_seat_can_survive_a_round(survivor):
    others = [p for p in range(4) if p != survivor]
    last = others[-1]
    passed = [p in others[:-1] for p in range(4)]
    hands = [counts(v2=1), counts(v3=1), counts(v4=1), counts(v11=1)]
    s = position(hands, table=counts(v6=1, v9=1), passed=passed, current=last)
    t = s.apply(Action.take(6))
    assert t.current_player == survivor and t.round == 2 and t.removed == tuple(counts(v9=1))


def test_turns_skip_passed_seats_and_wrap_around():
    hands = [counts(v2=1), counts(v3=1), counts(v4=1), counts(v11=1)]
    s = position(hands, table=counts(v6=1), passed=[False, True, True, False], current=3)
    t = s.apply(Action.take(6))  # seat 3 passes: 1 and 2 have passed, seat 0 is the survivor
    assert t.round == 2 and t.current_player == 0
    s = position(hands, table=counts(v6=1), passed=[False, True, False, False], current=0)
    t = s.apply(Action.take(6))
    assert t.current_player == 2  # past seat 1
    s = position([counts(v12=1), counts(v3=1), counts(v4=1), counts(v13=2)], table=counts(v6=1),
                 passed=[True, False, False, False], current=3)  # fmt: skip
    t = s.apply(Action.play(13, 1))
    assert t.current_player == 1  # wraps past seat 0, which has passed
    s = position([counts(v12=1), counts(v3=1), counts(v4=1), counts(v13=2)], table=counts(v6=1),
                 current=3)  # fmt: skip
    assert s.apply(Action.play(13, 1)).current_player == 0


def test_plays_onto_each_end():
    hand = counts(v1=2, v3=2, v5=1, v9=3, v12=2)
    s = position([hand, counts(v2=1)], table=counts(v3=2, v9=2))
    on_left = s.apply(Action.play(3, 2))
    assert on_left.ends == ((3, 4), (9, 2))
    assert s.apply(Action.play(1, 2)).ends == ((1, 2), (9, 2))
    assert s.apply(Action.play(9, 2)).ends == ((3, 2), (9, 4))
    assert s.apply(Action.play(12, 2)).ends == ((3, 2), (12, 2))
    with pytest.raises(IllegalActionError, match="value 5 lies between the ends 3 and 9"):
        s.apply(Action.play(5, 1))
    with pytest.raises(IllegalActionError, match="needs at least 4 cards on the left end, got 1"):
        on_left.apply(Action.play(2, 1))  # seat 1's turn now
    with pytest.raises(IllegalActionError, match="needs at least 2 cards on the right end, got 1"):
        s.apply(Action.play(9, 1))


def test_min_count_off_plays_one_card_on_any_end():
    rules = Rules(min_count=False)
    s = at([counts(v1=1, v9=1, v12=1), counts(v2=1)], counts(v3=4, v9=3), rules)
    assert s.apply(Action.play(1, 1)).ends == ((1, 1), (9, 3))
    assert s.apply(Action.play(9, 1)).ends == ((3, 4), (9, 4))
    assert s.apply(Action.play(12, 1)).ends == ((3, 4), (12, 1))


def test_a_play_needs_the_cards():
    s = position([counts(v5=2, v7=1), counts(v2=1)])
    with pytest.raises(
        IllegalActionError, match="cannot play 3 cards of value 5: the hand holds 2"
    ):
        s.apply(Action.play(5, 3))
    with pytest.raises(IllegalActionError, match="cannot play 1 card of value 6: the hand holds 0"):
        s.apply(Action.play(6, 1))
    t = s.apply(Action.play(5, 2))
    assert t.hand(0) == tuple(counts(v7=1)) and t.table == tuple(counts(v5=2))


def test_known_cards_are_used_up_by_plays_of_their_value():
    hands = [counts(v5=3, v7=1), counts(v2=1)]
    s = position(hands, known=[counts(v5=2), [0] * 13])
    assert s.apply(Action.play(5, 1)).known[0] == tuple(counts(v5=1))
    assert s.apply(Action.play(5, 2)).known[0] == (0,) * 13
    assert s.apply(Action.play(5, 3)).known[0] == (0,) * 13
    assert s.apply(Action.play(7, 1)).known[0] == tuple(counts(v5=2))


def test_emptying_the_hand_wins_and_the_seat_stays():
    s = position([counts(v2=1), counts(v5=2), counts(v3=1)], table=counts(v4=1),
                 passed=[False, False, True], current=1)  # fmt: skip
    t = s.apply(Action.play(5, 2))
    assert t.winner == 1 and t.current_player == 1 and t.passed == (False, False, True)
    assert t.is_terminal and t.legal_actions() == ()


def test_a_take_needs_its_stack():
    s = position([counts(v2=1), counts(v3=1)], table=counts(v5=1))
    for v, said in ((8, "an 8"), (11, "an 11"), (12, "a 12"), (10, "a 10"), (1, "a 1")):
        with pytest.raises(
            IllegalActionError, match=f"cannot take {said}: there is no stack of {v}s"
        ):
            s.apply(Action.take(v))


def test_what_a_pass_takes_under_each_rule():
    hands = [counts(v2=1), counts(v3=1), counts(v8=1)]
    table = counts(v4=1, v6=1, v9=1)
    today = at(hands, table, Rules())
    write = "a pass takes a card under these rules: write 'pass, take V'"
    with pytest.raises(IllegalActionError, match=write):
        today.apply(TAKE_NOTHING)
    loose = at(hands, table, Rules(min_count=False))  # flags set, takes as today
    assert loose.apply(Action.take(6)).stacks == ((4, 1), (9, 1))
    with pytest.raises(IllegalActionError, match=write):
        loose.apply(TAKE_NOTHING)
    ends = at(hands, table, Rules(take="ends"))
    with pytest.raises(IllegalActionError, match=r"a pass takes only an end stack \(take=ends\)"):
        ends.apply(Action.take(6))
    with pytest.raises(IllegalActionError, match=r"a pass takes only an end stack \(take=ends\)"):
        ends.apply(TAKE_NOTHING)
    assert ends.apply(Action.take(4)).ends == ((6, 1), (9, 1))
    assert ends.apply(Action.take(9)).ends == ((4, 1), (6, 1))
    hands = hands[:2]  # two seats: the one pass ends the round
    nothing = at(hands, table, Rules(take="nothing"))
    for v in (4, 6, 9):
        with pytest.raises(IllegalActionError, match=r"a pass takes nothing \(take=nothing\)"):
            nothing.apply(Action.take(v))
    t = nothing.apply(TAKE_NOTHING)
    # seat 0 took nothing and the round is over: seat 1 clears the table and leads
    assert t.hand(0) == tuple(hands[0]) and t.known[0] == (0,) * 13
    assert t.table == (0,) * 13 and t.removed == tuple(table)
    assert t.round == 2 and t.current_player == 1


def test_the_pass_taking_nothing_keeps_the_round_going_with_more_seats():
    hands = [counts(v2=1), counts(v3=1), counts(v8=1)]
    s = at(hands, counts(v4=2), Rules(take="nothing"))
    t = s.apply(TAKE_NOTHING)
    assert t.round == 1 and t.passed == (True, False, False) and t.current_player == 1
    assert t.ends == ((4, 2), (4, 2)) and t.table == tuple(counts(v4=2))
