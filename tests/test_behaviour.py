"""Each built-in's character as executable documentation: scripted positions in which its
defining choice is asserted (in the spirit of the Axelrod library's per-strategy tests).

Positions are built by hand (``tests.helpers.position``: the cards not in a hand, on the table
or removed are undealt); each test also shows a contrast, a heuristic that decides otherwise
in the same position, so the assertion is about the strategy and not about the position.
"""

from __future__ import annotations

import numpy as np
import pytest

import leaves.players.builtin
import strategies
from leaves import Action

from .helpers import counts, position


def choice(spec: str, state, seed: int = 0) -> Action:
    """What strategy ``spec`` plays for the seat to act (checked legal)."""
    seat = state.current_player
    legal = state.legal_actions()
    action = strategies.get(spec).choose(state.view(seat), legal, np.random.default_rng(seed))
    assert action in legal
    return action


# A lead (empty table) with groups of different sizes and extremes, opponents holding plenty.
LEAD = position([counts(v2=1, v5=3, v9=2, v13=1), counts(v1=1, v7=4), counts(v8=3, v10=2)])


def test_random_passes_once_per_stack_it_may_take():
    # One legal play (a 9 on the right) and three stacks to take from: a pass is 3 of 4 ids.
    state = position(
        [counts(v9=1, v2=1), counts(v7=4), counts(v12=3)],
        table=counts(v4=2, v6=1, v8=1),
    )
    assert len(state.legal_actions()) == 4
    picks = [choice("random", state, seed).is_pass for seed in range(400)]
    assert 0.68 < np.mean(picks) < 0.82


def test_low_sheds_the_whole_lowest_group():
    assert choice("low", LEAD) == Action.play(2, 1)
    state = position([counts(v2=2, v5=1, v11=3), counts(v1=1), counts(v3=1)])
    assert choice("low", state) == Action.play(2, 2)  # all of its 2s, not one
    assert choice("high", state) == Action.play(11, 3)


def test_high_sheds_the_whole_highest_group():
    assert choice("high", LEAD) == Action.play(13, 1)
    assert choice("low", LEAD) != Action.play(13, 1)


def test_minimal_plays_the_fewest_cards_and_keeps_groups():
    # Right end is a stack of two 6s: every play needs two cards. Two 3s would split a group
    # of three; the two 10s leave nothing behind, so minimal plays those.
    state = position([counts(v3=3, v10=2, v12=1), counts(v1=2), counts(v13=2)], table=counts(v6=2))
    assert choice("minimal", state) == Action.play(10, 2)
    assert choice("low", state) == Action.play(3, 3)
    assert choice("minimal", LEAD).count == 1  # a lead: one card


def test_greedy_dumps_its_biggest_group_ties_to_the_extreme():
    assert choice("greedy", LEAD) == Action.play(5, 3)
    state = position([counts(v4=2, v12=2, v9=1), counts(v1=1), counts(v3=1)])
    assert choice("greedy", state) == Action.play(12, 2)  # |12 - 7| > |4 - 7|


def test_greedy_keep_pairs_saves_pairs_for_two_card_ends():
    state = position([counts(v9=2, v4=1), counts(v1=1), counts(v2=1)])
    assert choice("greedy", state) == Action.play(9, 2)
    assert choice("greedy:keep_pairs=true", state) == Action.play(4, 1)


def test_patient_takes_a_value_it_holds_rather_than_shed_a_lone_card():
    # Six singles; the table offers a 3 (which it holds) and an 8. It could play a single,
    # but passes and takes the 3, making a pair to lead later.
    hand = counts(v2=1, v3=1, v5=1, v9=1, v11=1, v13=1)
    state = position([hand, counts(v1=2), counts(v12=2)], table=counts(v3=1, v8=1))
    assert choice("patient", state) == Action.take(3)
    assert not choice("greedy", state).is_pass
    # Below min_hand cards it stops waiting and sheds the lone card.
    assert not choice("patient:min_hand=7", state).is_pass
    # A group of two or more is shed at once.
    grouped = position(
        [counts(v2=2, v5=1, v9=1, v11=1, v13=1), counts(v1=2), counts(v12=2)],
        table=counts(v3=1, v8=1),
    )
    assert choice("patient", grouped) == Action.play(2, 2)


def test_blocker_plays_the_most_extreme_value():
    state = position([counts(v1=1, v5=3, v9=2), counts(v2=1), counts(v3=1)])
    assert choice("blocker", state) == Action.play(1, 1)  # 1s close the left side
    assert choice("greedy", state) == Action.play(5, 3)


def test_counter_avoids_an_end_the_shortest_hand_could_answer():
    # Seat 1 holds one card. A single card would leave an end it could go out on, so counter
    # leads its pair; with nobody that short it leads a single card instead.
    hand = counts(v3=2, v9=1, v11=1, v6=1)
    near = position([hand, counts(v7=1), counts(v12=3, v1=2)])
    far = position([hand, counts(v7=3), counts(v12=3, v1=2)])
    assert choice("counter", near) == Action.play(3, 2)
    assert choice("counter", far).count == 1
    assert choice("counter:near_win_penalty=0.0", near).count == 1


def test_counter_counts_cards_removed_at_round_ends():
    # The same hands and table; in ``counted`` every 1, 2, 3 and the other 13 are out of the
    # game, so a 13 leaves two ends nobody can answer (the safe bonus): counter plays it
    # instead of its 11. Heuristics that count nothing decide alike in both positions.
    hands = [
        counts(v11=1, v12=1, v13=1),
        counts(v5=1, v6=1, v12=1),
        counts(v5=1, v6=1, v10=2),
    ]
    table = counts(v3=1, v4=1, v5=1)
    removed = counts(v1=2, v2=3, v3=3, v4=4, v5=3, v6=5, v8=7, v9=6, v12=1, v13=1)
    plain = position(hands, table=table)
    counted = position(hands, table=table, removed=removed)
    assert choice("counter", plain) == Action.play(11, 1)
    assert choice("counter", counted) == Action.play(13, 1)
    for other in ("low", "high", "greedy", "minimal", "blocker", "taker"):
        assert choice(other, counted) == choice(other, plain), other


def test_counter_threat_term_counts_cards_removed_at_round_ends():
    # With a weight on the threat (the tuned default has none), counting changes how many
    # values counter thinks could answer each end it might leave: it plays its 8, not its 9.
    hands = [
        counts(v4=1, v7=1, v8=1, v9=1),
        counts(v3=1, v6=1, v7=2, v11=1),
        counts(v5=2, v9=2, v13=1),
    ]
    table = counts(v5=1, v6=1)
    removed = counts(v8=6, v9=3, v10=5, v11=3, v12=3, v13=1)
    plain = position(hands, table=table)
    counted = position(hands, table=table, removed=removed)
    assert choice("counter:threat_weight=0.3", plain) == Action.play(9, 1)
    assert choice("counter:threat_weight=0.3", counted) == Action.play(8, 1)


def test_taker_sheds_small_groups_and_takes_the_card_that_joins_its_biggest_group():
    state = position([counts(v2=1, v6=3, v10=2), counts(v1=1), counts(v3=1)])
    assert choice("taker", state) == Action.play(2, 1)  # smallest whole group first
    assert choice("greedy", state) == Action.play(6, 3)
    # It cannot play (both ends need four cards): it takes the 4, joining its three 4s;
    # valuing extremes instead of groups, it would take from an end.
    stuck = position(
        [counts(v4=3, v9=1), counts(v1=2), counts(v13=2)],
        table=counts(v3=4, v4=1, v9=1, v11=4),
    )
    assert choice("taker", stuck) == Action.take(4)
    assert choice("taker:group_weight=0.0,extreme_weight=1.0", stuck) == Action.take(3)


def test_weighted_is_its_weights():
    # The pass weight decides whether it passes while it could play.
    state = position([counts(v2=1, v10=2), counts(v1=2), counts(v13=2)], table=counts(v6=1))
    assert not choice("weighted", state).is_pass
    assert choice("weighted:w_pass=50.0", state).is_pass
    # ... except that a play emptying the hand always wins.
    last = position([counts(v10=2), counts(v1=2), counts(v13=2)], table=counts(v6=1))
    assert choice("weighted:w_pass=50.0", last) == Action.play(10, 2)


@pytest.mark.parametrize("name", [c.name for c in leaves.players.builtin.BUILTINS])
def test_every_builtin_has_a_behaviour_test(name):
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    assert f'choice("{name}' in source
