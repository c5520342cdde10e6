"""Terminal rendering of positions (leaves.commands.render): the words carry the meaning."""

from __future__ import annotations

from hypothesis import given, settings

from leaves import Action, new_game
from leaves.commands import render
from leaves.testing import positions
from leaves_cli.console import to_text
from tests.helpers import counts, position

NAMES4 = ["you", "greedy", "random", "counter"]


def _rulebook_position():
    """Left end three 6s, right end two 12s, a 9 in the middle; seat 2 passed and took a 9."""
    hands = [
        counts(v3=3, v5=4, v9=1, v12=1, v13=2),
        counts(v1=2, v7=2),
        counts(v9=1, v8=2),
        counts(v10=1, v11=1),
    ]
    known = [[0] * 13, [0] * 13, counts(v9=1), [0] * 13]
    return position(
        hands,
        table=counts(v6=3, v9=1, v12=2),
        passed=[False, False, True, False],
        current=0,
        known=known,
    )


def test_table_row_shows_every_stack_size_and_both_ends():
    text = to_text(render.table_row(((6, 3), (9, 1), (12, 2)), ((6, 3), (12, 2))))
    lines = text.splitlines()
    values = next(line for line in lines if "6" in line and "12" in line)
    assert values.index("6") < values.index("9") < values.index("12")
    assert "x3" in text and "x1" in text and "x2" in text
    marks = next(line for line in lines if "left end" in line)
    assert "right end" in marks
    assert marks.index("left end") < marks.index("right end")


def test_single_stack_is_both_ends_and_empty_table_says_so():
    assert "both ends" in to_text(render.table_row(((7, 2),), ((7, 2), (7, 2))))
    assert "empty" in to_text(render.table_row((), None))


def test_end_rules_follow_the_rulebook_example():
    rule = render.end_rules(((6, 3), (12, 2)))
    assert "value <= 6 with at least 3 cards" in rule
    assert "value >= 12 with at least 2 cards" in rule
    assert "Values 7-11: never" in rule
    assert "never" not in render.end_rules(((6, 1), (7, 1)))
    assert "Value 7: never" in render.end_rules(((6, 1), (8, 1)))  # one value: singular
    assert "Values 7-8: never" in render.end_rules(((6, 1), (9, 1)))
    assert "any value with at least 2 cards" in render.end_rules(((4, 2), (4, 2)))
    assert "Empty table" in render.end_rules(None)


def test_describe_action_reads_as_english():
    assert render.describe_action(Action.play(6, 3)) == "plays three 6s"
    assert render.describe_action(Action.play(8, 1)) == "plays an 8"
    assert render.describe_action(Action.take(9)) == "passes and takes a 9"
    assert render.describe_action(Action.take(11), you=True) == "pass and take an 11"
    assert render.describe_action(Action.play(2, 2), you=True) == "play two 2s"


def test_position_shows_hand_sizes_passes_known_cards_and_keyed_moves():
    state = _rulebook_position()
    view = state.view(0)
    legal = state.legal_actions()
    text = to_text(render.position(view, NAMES4, hand=view.hand, legal=legal), width=120)
    assert "Your hand: 3 3 3  5 5 5 5  9  12  13 13" in text
    seat_rows = [line for line in text.splitlines() if any(n in line for n in NAMES4[1:])]
    assert len(seat_rows) == 3
    assert "passed" in next(line for line in seat_rows if "random" in line)
    assert "passed" not in next(line for line in seat_rows if "greedy" in line)
    # seat 2 is known to hold the 9 it took
    assert next(line for line in seat_rows if "random" in line).rstrip().endswith("9")
    for key, action in render.move_keys(legal).items():
        assert f"{key} {action}" in " ".join(text.split()), (key, action)
    assert "play 3x5" in text and "play 4x5" in text  # left end needs at least 3 cards
    assert "play 2x3" not in text and "play 1x9" not in text and "play 1x12" not in text


def test_move_keys_number_the_moves_in_order():
    legal = new_game(4, seed=3).legal_actions()
    keys = render.move_keys(legal)
    assert list(keys) == [str(i) for i in range(1, len(legal) + 1)]
    assert list(keys.values()) == list(legal)


@settings(max_examples=30)
@given(positions())
def test_any_position_renders_every_legal_move_and_hand_size(state):
    seat = state.current_player
    view = state.view(seat)
    names = ["you" if i == seat else f"bot{i}" for i in range(state.n_players)]
    text = to_text(
        render.position(view, names, hand=view.hand, legal=state.legal_actions()), width=160
    )
    flat = " ".join(text.split())
    for key, action in render.move_keys(state.legal_actions()).items():
        assert f"{key} {action}" in flat
    for line in text.splitlines():
        for i in range(state.n_players):
            if f" bot{i} " in f"{line} ":
                assert str(state.hand_sizes[i]) in line.split()
    for value, size in state.stacks:
        assert f"x{size}" in text and str(value) in text
