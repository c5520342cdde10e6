"""``State.initial`` takes the undealt pile to be the rest of the deck, so hands that hold more
of a value than the deck has are the hands' fault, said so ('the hands hold 9 cards of value 7;
the deck has 8'), not an undealt pile nobody gave ('undealt: -1 cards ... is impossible'). A
hand that does not fit the deck on its own is still named by ``from_dict``."""

from __future__ import annotations

import numpy as np
import pytest

from leaves import State

SEVENS = "deck=0/0/0/0/0/0/8/0/0/0/0/0/0,hand_size=2"  # eight 7s and nothing else


def _hand(sevens, value: int = 7) -> list:
    return [0] * (value - 1) + [sevens] + [0] * (13 - value)


def _refusal(*hands: list, rules: str = SEVENS) -> str:
    with pytest.raises(ValueError) as exc:
        State.initial(list(hands), 0, rules=rules)
    return str(exc.value)


@pytest.mark.parametrize("hands, held", [
    ((5, 4), 9), ((8, 1), 9), ((4, 4, 4), 12), ((np.int64(5), 4), 9),
])  # fmt: skip
def test_hands_that_hold_more_than_the_deck_are_said_to(hands, held):
    said = _refusal(*(_hand(n) for n in hands))
    assert said == f"the hands hold {held} cards of value 7; the deck has 8"


def test_the_first_value_held_over_is_named_with_its_own_count():
    rules = "deck=0/0/0/0/0/3/8/0/0/0/0/0/0,hand_size=2"
    one, two = _hand(1, 6), _hand(1, 6)
    one[6], two[6] = 5, 4
    assert _refusal(one, two, rules=rules) == "the hands hold 9 cards of value 7; the deck has 8"
    one[5] = 3  # 3 + 1 sixes of 3: the sixes come first
    assert _refusal(one, two, rules=rules) == "the hands hold 4 cards of value 6; the deck has 3"


@pytest.mark.parametrize("hands, said", [
    ((_hand(9), _hand(0)), "hands[0]: 9 cards of value 7 is impossible (the deck has 8)"),
    ((_hand(5), _hand(-1)), "hands[1]: -1 cards of value 7 is impossible (the deck has 8)"),
    ((_hand(5), _hand(4) + [0]), "hands[1] must have 13 counts (value 1 first), got 14"),
    ((_hand(5), _hand(4)[:12]), "hands[1] must have 13 counts (value 1 first), got 12"),
    ((_hand(5), _hand(4.0)), "hands[1] must hold whole card counts, got"),
    ((_hand(8), _hand(True)), "hands[1] must hold whole card counts, got"),  # True: no 1
])  # fmt: skip
def test_a_hand_that_does_not_fit_the_deck_is_named_first(hands, said):
    assert _refusal(*hands).startswith(said)


def test_hands_the_deck_holds_are_a_position():
    state = State.initial([_hand(4), _hand(4)], 1, rules=SEVENS)  # every 7 dealt, none left
    assert state.current_player == 1 and state.to_dict()["undealt"] == [0] * 13
