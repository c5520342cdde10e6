"""What ``near_win`` (``weighted``) and ``near_win_penalty`` (``counter``) weigh is what the docs
say: a new end needs no more cards to answer it than the shortest opponent hand still in the
round holds. The docs said "an end would let the shortest hand go out", which the code never
computed: with opponents holding 10 cards (none can go out in one play: no stack holds more
than 8) nearly every play had ``near_win = 1``.

Each claim is judged on positions made by hand and on positions of random play, from the
position after the play (its ends) and the hands before it, not from the feature's code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings

import strategies
from leaves import Action
from leaves.players.builtin.counter import COUNTER_PARAMS
from leaves.players.builtin.weighted import WEIGHTED_PARAMS
from leaves.players.policy.features import NEAR_WIN_DOC
from leaves.rules import MAX_COPIES
from leaves.testing import positions

from .helpers import counts, position

DOCS = " ".join((Path(__file__).parents[1] / "docs" / "strategies.md").read_text().split())

WEIGHTED_SENTENCE = (
    "`near_win` = 1 when a new end needs no more cards to answer it (its size; 1 under "
    "`min_count=off`) than the shortest opponent hand still in the round holds, else 0: it "
    "counts cards, not the values that hand holds, so it is 1 for every play while that hand "
    "holds 8 cards or more (no stack holds more), and 0 for a pair led against a hand of one "
    "card."
)
COUNTER_SENTENCE = (
    "and whether a new end needs no more cards than the shortest opponent hand still in the "
    "round holds (as `weighted`'s `near_win`)."
)


def claim(state, action: Action) -> float:
    """The docs' sentence, judged on the position: 1.0 when one of the ends the play leaves
    (the lowest and highest stacks on the table after it) needs no more cards to answer it
    (its size; 1 under min_count=off) than the shortest hand of an opponent still in the
    round holds, else 0.0."""
    seat = state.current_player
    shortest = min(
        len_hand(state, i) for i in range(state.n_players) if i != seat and not state.passed[i]
    )
    table = state.apply(action).to_dict()["table"]
    stacks = [c for c in table if c]
    needs = [stacks[0], stacks[-1]] if state.rules.min_count else [1, 1]
    return float(min(needs) <= shortest)


def len_hand(state, seat: int) -> int:
    return sum(state.hand(seat))


def features(state) -> dict[Action, float]:
    """``near_win`` of each play ``weighted`` explains (a play that empties the hand aside:
    the round ends with it)."""
    scored = strategies.get("weighted").explain(state.view(state.current_player))
    return {s.action: s.features["near_win"] for s in scored if not s.action.is_pass and not s.wins}


def test_the_docs_and_the_parameters_say_what_is_computed():
    assert WEIGHTED_SENTENCE in DOCS
    assert COUNTER_SENTENCE in DOCS
    assert "go out" not in DOCS.split("**counter**")[1].split("**ismcts**")[0]
    for params, name in ((WEIGHTED_PARAMS, "w_near_win"), (COUNTER_PARAMS, "near_win_penalty")):
        (doc,) = [p.doc for p in params.params if p.name == name]
        assert doc == NEAR_WIN_DOC
    assert NEAR_WIN_DOC == (
        "a new end needs no more cards to answer it than the shortest opponent hand in the "
        "round holds"
    )


def test_opponents_holding_ten_cards_cannot_go_out_yet_every_play_has_near_win():
    # The old words ("an end would let the shortest hand go out") said 0 here: a hand of 10
    # cannot go out in one play, no stack holding more than MAX_COPIES cards.
    ten = [counts(v1=2, v2=2, v4=2, v10=2, v12=2), counts(v2=1, v4=2, v7=4, v10=1, v13=2)]
    state = position([counts(v3=2, v6=1, v9=1, v11=1), *ten], table=counts(v5=1, v8=1))
    assert min(len_hand(state, 1), len_hand(state, 2)) > MAX_COPIES
    near = features(state)
    assert len(near) >= 3 and set(near.values()) == {1.0}
    assert all(near[a] == claim(state, a) for a in near)


def test_a_pair_led_against_a_hand_of_one_card_is_the_one_without_it():
    hand = counts(v3=2, v9=1, v11=1, v6=1)
    state = position([hand, counts(v7=1), counts(v12=3, v1=2)])
    near = features(state)
    assert near[Action.play(3, 2)] == 0.0
    assert near[Action.play(3, 1)] == near[Action.play(9, 1)] == 1.0
    assert all(near[a] == claim(state, a) for a in near)
    # a pair played on one end leaves the other: a one-card end, which the one card answers
    onto = position([counts(v3=2, v9=1, v11=1), counts(v7=1), counts(v12=3)],
                    table=counts(v4=2, v8=1))  # fmt: skip
    assert features(onto)[Action.play(3, 2)] == 1.0 == claim(onto, Action.play(3, 2))


def test_only_opponents_still_in_the_round_count_and_min_count_off_needs_one_card():
    hand = counts(v3=2, v9=1, v11=1, v6=1)
    passed = position([hand, counts(v7=1), counts(v12=3, v1=2)], table=counts(v5=1),
                      passed=[False, True, False])  # fmt: skip
    assert features(passed)[Action.play(3, 2)] == 1.0 == claim(passed, Action.play(3, 2))
    free = position([hand, counts(v7=1), counts(v12=3, v1=2)], rules={"min_count": False})
    assert features(free)[Action.play(3, 2)] == 1.0 == claim(free, Action.play(3, 2))


def test_the_compiled_policies_weigh_the_same_term():
    """The compiled ``weighted`` (only ``w_near_win`` set: ties go to the lowest id) and
    ``counter`` (its penalty alone) play by the term the docs describe."""
    hand = counts(v3=2, v9=1, v11=1, v6=1)
    one = position([hand, counts(v7=1), counts(v12=3, v1=2)])
    zero = {f"w_{f}": 0.0 for f in ("shed", "keep", "end", "extreme", "threat")}

    def plays(spec: str, state, **params) -> Action:
        legal = state.legal_actions()
        view = state.view(state.current_player)
        return strategies.get(spec, **params).choose(view, legal, np.random.default_rng(0))

    assert plays("weighted", one, w_near_win=-5.0, **zero) == Action.play(3, 2)
    assert plays("weighted", one, w_near_win=5.0, **zero) == Action.play(3, 1)
    lone = {"threat_weight": 0.0, "keep_weight": 0.0, "safe_bonus": 0.0, "shed_weight": 0.0}
    assert plays("counter", one, near_win_penalty=5.0, **lone) == Action.play(3, 2)


@settings(max_examples=80, deadline=None)
@given(positions())
def test_near_win_is_the_sentence_in_positions_of_random_play(state):
    near = features(state)
    seat = state.current_player
    shortest = min(len_hand(state, i) for i in range(state.n_players)
                   if i != seat and not state.passed[i])  # fmt: skip
    for action, value in near.items():
        assert value == claim(state, action), action
        if shortest >= 8:
            assert value == 1.0
