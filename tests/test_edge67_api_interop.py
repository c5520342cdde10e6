"""OpenSpiel's game class built directly with rules that are no text: the one line
``Rules.of`` says, not ``re``'s bare TypeError; and ``rules_text`` given no text."""

from __future__ import annotations

import re

import pytest

from interop.variants import rules_text
from leaves import Rules


@pytest.mark.parametrize("rules", [5, 2.5, b"take:ends", True], ids=str)
def test_rules_of_no_text_are_refused_as_rules_of_refuses_them(rules):
    openspiel = pytest.importorskip("interop.openspiel", exc_type=ImportError)
    with pytest.raises(ValueError) as said:
        Rules.of(rules)
    with pytest.raises(ValueError) as exc:
        openspiel.ThirteenLeavesGame({"rules": rules})
    assert str(exc.value) == str(said.value)
    assert str(exc.value).startswith("rules must be a leaves.Rules, its key=value text or a dict")


def test_rules_given_as_rules_or_a_dict_build_the_game_they_name():
    openspiel = pytest.importorskip("interop.openspiel", exc_type=ImportError)
    for rules in (Rules.of("take=ends"), {"take": "ends"}, "take:ends", None):
        game = openspiel.ThirteenLeavesGame({"rules": rules})
        want = Rules.of(None if rules is None else "take=ends")
        assert game.rules == want
        assert "rules=take:ends" in str(game) or rules is None


def test_rules_text_given_no_text_says_so_in_one_line():
    with pytest.raises(TypeError) as exc:
        rules_text(5, form="key:value;key:value")
    assert (
        str(exc.value) == "rules_text reads rules written as key:value;key:value text, got 5 (int)"
    )
    assert re.fullmatch(r"take=ends,hand_size=9", rules_text("take:ends;hand_size:9"))
