"""13 Leaves' ``State`` and ``PlayerView`` at their edges: made only through their ways in (an
empty one built directly broke its own repr), and a dict form missing a key: the defaults
docs/rules-core.md states, and a lost ``removed`` named as missing."""

from __future__ import annotations

import copy
import pickle
import re

import numpy as np
import pytest

import leaves
from leaves import PlayerView, State
from leaves.ruleset import DEFAULT_RULES
from leaves.validate import KEYS
from tests.helpers import doc_text

MAKE_STATE = (
    "use leaves.new_game(n_players, seed), State.initial(hands) or State.from_dict(d) to make "
    "a State"
)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: State(), MAKE_STATE),
        (lambda: State(hands=[[1] * 13] * 3), MAKE_STATE),  # once 'State() takes no arguments'
        (lambda: State({"hands": []}), MAKE_STATE),
        (lambda: PlayerView(), "use state.view(seat) to make a PlayerView"),
        (lambda: PlayerView(0), "use state.view(seat) to make a PlayerView"),
    ],
    ids=["state", "state-keywords", "state-dict", "view", "view-seat"],
)
def test_a_state_or_view_built_directly_is_refused_naming_the_ways_in(make, said):
    """``State()`` and ``PlayerView()`` built empty objects whose repr raised AttributeError."""
    with pytest.raises(TypeError) as exc:
        make()
    assert str(exc.value) == said


def test_the_ways_in_still_make_states_and_views_that_copy_and_pickle():
    state = leaves.new_game(4, seed=3)
    state = state.apply(state.legal_actions()[0])
    view = state.view(1)
    initial = State.initial(leaves.new_game(3, seed=1).hands, first_player=1)
    for made in (state, view, initial, State.from_dict(state.to_dict())):
        assert "Error" not in repr(made)
        assert pickle.loads(pickle.dumps(made)) == made
        assert copy.copy(made) == made and copy.deepcopy(made) == made
    assert pickle.loads(pickle.dumps(state)).history == state.history
    assert view.sample_state(np.random.default_rng(0)).view(1) == view
    assert state.view(1) == view and type(view) is PlayerView and type(state) is State


def _later_position() -> State:
    """A position after the first round ended: some cards removed."""
    state = leaves.new_game(4, seed=3)
    rng = np.random.default_rng(0)
    while sum(state.removed) == 0:
        legal = state.legal_actions()
        state = state.apply(legal[rng.integers(len(legal))])
    assert not state.is_terminal
    return state


def test_a_dict_that_lost_removed_is_told_removed_is_missing():
    """It said 'cards of value 1 add up to 1 ...' and no more: nothing named the key."""
    d = _later_position().to_dict()
    del d["removed"]
    with pytest.raises(ValueError) as exc:
        State.from_dict(d)
    assert re.fullmatch(
        r"state is missing removed \(none removed when left out\): cards of value \d+ add up "
        r"to \d+ \(hands \+ table \+ removed \+ undealt\), the deck has \d+",
        str(exc.value),
    )


def test_cards_that_do_not_add_up_with_removed_given_say_only_that():
    d = _later_position().to_dict()
    d["undealt"] = [0] * 13
    with pytest.raises(ValueError, match=r"^cards of value \d+ add up to"):
        State.from_dict(d)


def _documented_defaults() -> dict[str, str]:
    """The keys docs/rules-core.md says ``from_dict`` may be given without, each with what the
    docs say it defaults to."""
    text = doc_text("rules-core.md")
    said = re.search(r"which then default to: (.*?)\. A dict", text)
    assert said, "docs/rules-core.md no longer lists from_dict's defaults"
    return dict(re.findall(r"`(\w+)` ([^,]+)", said.group(1)))


def test_the_keys_from_dict_may_leave_out_default_as_the_docs_say():
    """Only ``hands``, ``table`` and ``current_player`` are needed; every other key of the
    dict form is listed with its default, and a dict of those three gets just that."""
    said = _documented_defaults()
    assert set(said) == set(KEYS) - {"hands", "table", "current_player"}
    hands = [[1] * 13, [0] * 12 + [1], [0, 1] + [0] * 11]
    state = State.from_dict({"hands": hands, "table": [0] * 13, "current_player": 2})
    deck = DEFAULT_RULES.deck
    meant = {
        "removed": ("none removed", state.removed == (0,) * 13),
        "undealt": (
            "the rest of the deck",
            state.undealt == tuple(deck[v] - sum(h[v] for h in hands) for v in range(13)),
        ),
        "known": ("no card known", state.known == ((0,) * 13,) * 3),
        "passed": ("no seat passed", state.passed == (False,) * 3),
        "winner": ("none", state.winner is None),
        "turn": ("0", state.turn == 0),
        "round": ("1", state.round == 1),
        "rules": ("today's", state.rules == DEFAULT_RULES),
        "turn_limit": ("the rules'", state.turn_limit == DEFAULT_RULES.turn_limit),
    }
    for key, (words, holds) in meant.items():
        assert said[key] == words and holds, key
    for key in ("hands", "table", "current_player"):
        d = {"hands": hands, "table": [0] * 13, "current_player": 2}
        del d[key]
        with pytest.raises(ValueError, match=f"^state is missing {key}$"):
            State.from_dict(d)
