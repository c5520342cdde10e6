"""leaves/actions.py at its boundaries, worked out by hand: the pinned encoding's edges (value
0 and 14, count 0 and 9 are no action and say which is wrong), the readable forms with and
without spaces, equality by id, and the one-line form of a bad value. Written against the
survivors of ``python benchmarks/bench_mutation.py leaves/actions.py``."""

from __future__ import annotations

import pytest

from leaves.actions import Action, action_id, shown
from leaves.rules import MAX_COPIES, N_VALUES


@pytest.mark.parametrize(
    ("value", "count", "message"),
    [
        (0, 1, "card value must be 1..13, got 0"),  # index -8 would be play 1x13
        (14, 1, "card value must be 1..13, got 14"),
        (0, 0, "card value must be 1..13, got 0"),
        (1, 0, "play count must be 1..8, got 0"),  # index -1 would be the last action
        (13, 0, "play count must be 1..8, got 0"),
        (13, 9, "play count must be 1..8, got 9"),
        (1, 9, "play count must be 1..8, got 9"),
    ],
)
def test_a_play_outside_the_encoding_names_what_is_wrong(value, count, message):
    with pytest.raises(ValueError) as info:
        Action.play(value, count)
    assert str(info.value) == message


def test_the_encodings_corners():
    assert Action.play(1, 1).id == 0 and Action.play(13, MAX_COPIES).id == 103
    assert Action.take(1).id == 104 and Action.take(N_VALUES).id == 116
    for bad in (0, 14, -1):
        with pytest.raises(ValueError, match=f"^card value must be 1..13, got {bad}$"):
            Action.take(bad)  # take(0) would be id 103, play 8x13


def test_the_readable_forms_with_and_without_spaces():
    assert Action.parse("play3x6") == Action.parse("play 3x6") == Action.play(6, 3)
    assert Action.parse("take9") == Action.parse("take 9") == Action.take(9)
    assert Action.parse("passtake 9") == Action.parse("pass, take 9") == Action.take(9)
    assert Action.parse("pass") == Action.pass_() and Action.parse("12") == Action.from_id(12)
    with pytest.raises(ValueError, match="^card value must be 1..13, got 14$"):
        Action.parse("play 3x14")  # the rule's own message, not "cannot read"
    with pytest.raises(ValueError, match="^cannot read an action from 'play three'"):
        Action.parse("play three")


def test_actions_are_equal_by_id_and_ordered_strictly():
    a, b = Action.play(1, 1), Action.play(1, 2)
    assert (a == b) is False and a == Action.from_id(0)
    assert Action._make(5) == Action.from_id(5)  # another object of the same id: equal
    assert Action._make(5) is not Action.from_id(5)
    assert (a == 0) is False  # an id is not an Action
    assert a < b and not (a < a) and not (b < a)
    assert sorted([b, a]) == [a, b]


def test_action_ids_refuse_what_is_outside_them():
    assert action_id(0) == 0 and action_id(117) == 117 and action_id(Action.take(2)) == 105
    for bad in (-1, 118):
        with pytest.raises(ValueError, match=r"^action id must be an integer 0..117, got "):
            action_id(bad)


def test_a_bad_value_is_shown_on_one_line_cut_at_60_characters():
    sixty = "x" * 58  # repr adds two quotes: 60 characters, shown whole
    assert shown(sixty) == f"'{sixty}' (str)"
    long = "y" * 59  # 61 characters: the first 57 and "..."
    assert shown(long) == "'" + "y" * 56 + "... (str)"
    assert shown("a\nb") == "'a\\nb' (str)"
