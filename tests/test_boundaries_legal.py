"""The edges of ``leaves.legal``'s lookups: a table of one stack (both ends at once) at either
end of the values, a stack of eight (the top bit of a count), stacks on values 1 and 13, and
the variants' takes with one stack and with several. Each position is checked against the
plain reference of ``test_boundaries_reference`` and, where short, against ids written out by
hand from docs/rules.md ("Play", "Action encoding")."""

from __future__ import annotations

import pytest

from leaves import DEFAULT_RULES, Rules, State

from .helpers import counts
from .test_boundaries_reference import legal, of_state


def play(v: int, k: int) -> int:
    return (v - 1) * 8 + k - 1


def take(v: int) -> int:
    return 104 + v - 1


def at(hands, table, rules: Rules = DEFAULT_RULES, current: int = 0) -> State:
    """A position under ``rules``: the hands and table given, the rest of the deck undealt."""
    deck = rules.deck
    undealt = [deck[v] - sum(h[v] for h in hands) - table[v] for v in range(13)]
    d = {"hands": hands, "table": table, "undealt": undealt, "current_player": current,
         "rules": rules.changes()}  # fmt: skip
    return State.from_dict(d)


def check(s: State, expected: list[int] | None = None) -> None:
    ids = list(s.legal_action_ids())
    assert ids == legal(of_state(s))
    if expected is not None:
        assert ids == expected


@pytest.mark.parametrize("v, on_table, in_hand", [(1, 1, 1), (2, 1, 2), (7, 2, 4), (12, 1, 2),
                                                   (13, 1, 1)])  # fmt: skip
def test_one_stack_is_both_ends(v, on_table, in_hand):
    """A single stack of value v: the hand's v plays with at least as many cards, once."""
    hand = [0] * 13
    hand[v - 1] = in_hand
    table = [0] * 13
    table[v - 1] = on_table
    s = at([hand, counts(v5=1) if v != 5 else counts(v6=1)], table)
    check(s, [play(v, c) for c in range(on_table, in_hand + 1)] + [take(v)])
    assert s.ends == ((v, on_table), (v, on_table))


def test_one_stack_with_values_on_both_sides():
    hand = counts(v1=1, v4=2, v6=3, v9=2, v13=1)
    s = at([hand, counts(v2=1)], counts(v6=2))
    check(s, [play(4, 2), play(6, 2), play(6, 3), play(9, 2), take(6)])


def test_the_outermost_values_as_ends():
    s = at([counts(v1=1, v13=1, v7=1), counts(v2=1)], counts(v1=1, v13=1))
    check(s, [play(1, 1), play(13, 1), take(1), take(13)])
    s = at([counts(v2=2, v13=2, v7=1), counts(v3=1)], counts(v1=2))
    check(s, [play(2, 2), play(13, 2), take(1)])
    s = at([counts(v1=2, v12=1, v7=1), counts(v3=1)], counts(v13=2))
    check(s, [play(1, 2), take(13)])


def test_a_stack_of_eight():
    """Eight 7s (a count with only its top bit set): both ends, at least eight to play on it."""
    s = at([counts(v3=2, v11=1), counts(v2=1)], counts(v7=8))
    assert s.ends == ((7, 8), (7, 8)) and s.stacks == ((7, 8),)
    check(s, [take(7)])
    s = at([counts(v3=2, v13=1), counts(v2=1)], counts(v7=8, v12=1))
    assert s.ends == ((7, 8), (12, 1))
    check(s, [play(13, 1), take(7), take(12)])
    mixed = at([counts(v3=2, v11=1), counts(v2=1)], counts(v7=8, v9=1), Rules(min_count=False))
    check(mixed, [play(3, 1), play(3, 2), play(11, 1), take(7), take(9)])


def test_an_eight_count_in_hand_plays_every_count():
    rules = Rules(deck=(2, 3, 4, 5, 6, 7, 8, 8, 6, 5, 4, 3, 2))
    s = at([counts(v8=8), counts(v2=1)], [0] * 13, rules)
    check(s, [play(8, k) for k in range(1, 9)])
    s = at([counts(v8=8, v7=1), counts(v2=1)], counts(v7=7), rules)
    check(s, [play(8, 7), play(8, 8), take(7)])


@pytest.mark.parametrize("take_rule", ["ends", "nothing", "any"])
@pytest.mark.parametrize("min_count", [True, False])
def test_variant_takes_with_one_and_with_three_stacks(take_rule, min_count):
    rules = Rules(take=take_rule, min_count=min_count)
    hand = counts(v1=1, v5=2, v10=3)
    one = at([hand, counts(v2=1)], counts(v5=2), rules)
    three = at([hand, counts(v2=1)], counts(v3=2, v6=1, v9=2), rules)
    takes_one = {"ends": [take(5)], "nothing": [117], "any": [take(5)]}[take_rule]
    takes_three = {"ends": [take(3), take(9)], "nothing": [117],
                   "any": [take(3), take(6), take(9)]}[take_rule]  # fmt: skip
    low = 1 if not min_count else 2  # fewest cards onto an end of two
    plays_one = ([play(1, 1)] if not min_count else []) + [play(5, k) for k in range(low, 3)]
    plays_one += [play(10, k) for k in range(low, 4)]
    plays_three = ([play(1, 1)] if not min_count else []) + [play(10, k) for k in range(low, 4)]
    check(one, plays_one + takes_one)
    check(three, plays_three + takes_three)


def test_an_empty_table_under_variants_plays_anything_and_never_passes():
    for rules in (Rules(take="nothing"), Rules(take="ends", min_count=False)):
        s = at([counts(v2=2, v12=1), counts(v3=1)], [0] * 13, rules)
        check(s, [play(2, 1), play(2, 2), play(12, 1)])


def test_lookups_agree_on_a_second_asking():
    """The caches must give what they computed: every hand of a few cards on a few tables."""
    tables = [counts(v6=3, v9=1, v12=2), counts(v4=1), counts(v1=1, v8=2), counts(v7=8)]
    hands = [counts(v2=3, v5=4, v13=2), counts(v8=1, v9=6), counts(v1=1, v7=0, v12=3)]
    for table in tables:
        for hand in hands:
            if any(hand[v] + table[v] > Rules().deck[v] for v in range(13)):
                continue
            for _ in range(2):
                check(at([hand, counts(v3=1)], table))
