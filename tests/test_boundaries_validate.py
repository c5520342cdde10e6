"""The edges of ``leaves.validate`` (``State.from_dict``): each check that makes a position
impossible, on both sides of its bound, and the ends a table gives. Expectations are worked
out by hand from docs/rules.md ("Components", "Pass", "End of a round", "End of the game")."""

from __future__ import annotations

import numpy as np
import pytest

from leaves import Rules, State
from leaves.rules import DECK

from .helpers import counts


def base(**changes) -> dict:
    """4 seats holding 2, 3, 1 and 4 cards, nothing on the table, the rest undealt."""
    hands = [counts(v1=1, v13=1), counts(v7=3), counts(v5=1), counts(v9=2, v10=2)]
    d = {"hands": hands, "table": counts(), "current_player": 0}
    d.update(changes)
    return d


def refused(match: str, **changes) -> None:
    with pytest.raises(ValueError, match=match):
        State.from_dict(base(**changes))


def test_the_form_itself():
    with pytest.raises(ValueError, match="a state must be a dict"):
        State.from_dict([1, 2])
    with pytest.raises(ValueError, match="state is missing hands, current_player"):
        State.from_dict({"table": counts()})
    refused("at least 2 players", hands=[counts(v1=1)])
    refused("at least 2 players", hands="ab")
    two = State.from_dict(base(hands=[counts(v1=1), counts(v2=1)]))
    assert two.hand_sizes == (1, 1)


@pytest.mark.parametrize(("value", "said"), [
    (5, "must be a list of 13 card counts"),
    (["x"] * 13, "must be a list of 13 card counts"),
    ([0] * 12, "must have 13 counts .value 1 first., got 12"),
    ([0] * 14, "must have 13 counts .value 1 first., got 14"),
])  # fmt: skip
def test_a_count_list_has_13_numbers(value, said):
    refused("table " + said, table=value)


def test_a_count_lies_between_none_and_the_deck():
    refused("table: -1 cards of value 3 is impossible", table=counts(v3=-1))
    refused(r"table: 5 cards of value 1 is impossible \(the deck has 2\)", table=counts(v1=5))
    refused(r"table: 3 cards of value 1 is impossible \(the deck has 2\)", table=counts(v1=3))
    hands = base()["hands"]
    hands[0] = counts(v7=8 - 3)  # with seat 1's three 7s: the deck's eight
    s = State.from_dict(base(hands=hands))
    assert s.hand(0)[6] == 5 and sum(s.undealt) == 62 - sum(s.hand_sizes)


def test_every_value_adds_up_to_the_deck():
    undealt = [DECK[v] - sum(h[v] for h in base()["hands"]) for v in range(13)]
    assert State.from_dict(base(undealt=undealt)).undealt == tuple(undealt)
    for change in (+1, -1):
        bad = list(undealt)
        bad[6] += change
        refused(f"cards of value 7 add up to {8 + change} .* the deck has 8", undealt=bad)
    removed = counts(v4=2)
    bad = list(undealt)
    refused("cards of value 4 add up to 7", undealt=bad, removed=removed)
    bad[3] -= 2
    assert State.from_dict(base(undealt=bad, removed=removed)).removed[3] == 2


def test_known_cards_are_in_the_hand_and_one_entry_per_seat():
    hands = base()["hands"]
    known = [counts(), hands[1], counts(), counts(v9=2)]  # every 7 of seat 1: allowed
    assert State.from_dict(base(known=known)).known[1] == tuple(hands[1])
    over = [counts(), counts(v7=4), counts(), counts()]
    refused("known.1. says seat 1 holds 4 of value 7, the hand has 3", known=over)
    refused(r"known must have one entry per seat \(4\), got 3", known=known[:3])


def test_passes_leave_at_least_two_in_the_round():
    s = State.from_dict(base(passed=[False, True, True, False]))
    assert s.passed == (False, True, True, False)
    refused("3 of 4 players passed: the round should have ended",
            passed=[False, True, True, True])  # fmt: skip
    refused(r"passed must have one flag per seat \(4\), got 3", passed=[False, False, False])
    refused("current_player 1 has passed this round", passed=[False, True, False, False],
            current_player=1)  # fmt: skip


@pytest.mark.parametrize("seat", [0, 3, np.int64(3)])
def test_the_seat_to_act_is_at_the_table(seat):
    assert State.from_dict(base(current_player=seat)).current_player == seat


@pytest.mark.parametrize("seat", [-1, 4, "1", 1.0, None])
def test_a_seat_to_act_off_the_table_is_refused(seat):
    refused(r"current_player must be a seat 0\.\.3", current_player=seat)


def test_a_winner_holds_no_cards_and_only_a_winner_may():
    hands = base()["hands"]
    hands[0] = counts()
    refused("seat 0 has no cards left but there is no winner", hands=hands)
    hands3 = base()["hands"]
    hands3[3] = counts()
    refused("seat 3 has no cards left", hands=hands3)
    assert State.from_dict(base(hands=hands, winner=0)).winner == 0
    assert State.from_dict(base(hands=hands3, winner=np.int64(3))).winner == 3
    refused("winner 1 still holds 3 cards", hands=hands, winner=1)
    for bad in (-1, 4, "0"):
        refused(r"winner must be a seat 0\.\.3 or None", hands=hands, winner=bad)


def test_turn_and_round_start_at_zero_and_one():
    s = State.from_dict(base(turn=0, round=1))
    assert s.turn == 0 and s.round == 1
    assert State.from_dict(base()).turn == 0 and State.from_dict(base()).round == 1
    refused("turn must be >= 0, got -1", turn=-1)
    refused("round must be >= 1, got 0", round=0)


def test_a_turn_limit_of_its_own_joins_the_rules():
    assert State.from_dict(base(turn_limit=1)).turn_limit == 1
    assert State.from_dict(base(turn_limit=1000)).rules == Rules()
    d = base(rules={"take": "ends"}, turn_limit=50)
    assert State.from_dict(d).rules == Rules(take="ends", turn_limit=50)
    refused("turn_limit must be >= 1, got 0", turn_limit=0)
    refused("turn_limit must be >= 1, got 'x'", turn_limit="x")


def test_the_ends_are_the_lowest_and_highest_stacks():
    hands = [counts(v3=3, v5=1), counts(v13=2), counts(v1=1), counts(v12=1)]
    s = State.from_dict(base(hands=hands, table=counts(v6=3, v9=1, v12=2)))
    assert s.ends == ((6, 3), (12, 2))
    assert [a.id for a in s.legal_actions() if a.is_play] == [2 * 8 + 2]  # three 3s only
    one = State.from_dict(base(hands=hands, table=counts(v4=1)))
    assert one.ends == ((4, 1), (4, 1))
    assert State.from_dict(base(hands=hands)).ends is None
    hands[1] = counts(v13=1)  # the deck's other thirteen lies on the table
    low = State.from_dict(base(hands=hands, table=counts(v1=1, v13=1)))
    assert low.ends == ((1, 1), (13, 1))


def test_the_undealt_pile_left_out_is_the_rest_of_the_deck():
    s = State.from_dict(base(removed=counts(v4=2), table=counts(v12=1)))
    hands = base()["hands"]
    want = [DECK[v] - sum(h[v] for h in hands) for v in range(13)]
    want[3] -= 2
    want[11] -= 1
    assert s.undealt == tuple(want)


def test_more_cards_of_a_value_than_the_deck_holds_are_refused_with_the_undealt_left_out():
    """Two ones in each of two hands (the deck has 2): the undealt pile worked out as -2 ones,
    stored as garbage (14 ones undealt), instead of the count refused."""
    h = counts(v1=2)
    with pytest.raises(ValueError, match=r"^cards of value 1 add up to 4 \(hands \+ table \+ "
                                         r"removed \+ undealt\), the deck has 2$"):  # fmt: skip
        State.from_dict(base(hands=[h, h, counts(v2=1), counts(v3=1)]))
