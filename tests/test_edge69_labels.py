"""Entrant identity (``tournaments.labels``): an instance's parameters compared as the registry
reads them (``P(x=1)`` is ``P(x=1.0)`` where the default is a float, whatever label each
writes), and two classes of one qualified name that the name does not lead back to (made in a
function) two entrants, numbered in the order listed; labels of entrants that differ otherwise
are as they were."""

from __future__ import annotations

import numpy as np
import pytest

from strategies import Strategy
from tournaments import Gauntlet, Tournament, arguments
from tournaments.games import get_game
from tournaments.labels import entrant_labels, identity

LEAVES = get_game("leaves")


class P(Strategy, register=False):
    """A strategy with one float parameter."""

    def __init__(self, x: float = 1.0, n: int = 3):
        self.x, self.n = x, n

    def choose(self, view, legal, rng):
        return legal[0]


def make() -> type:
    """A new class of one qualified name (``make.<locals>.Bot``) at each call."""

    class Bot(Strategy, register=False):
        def choose(self, view, legal, rng):
            return legal[0]

    return Bot


def _labels(specs):
    return [label for label, _, _ in entrant_labels(LEAVES, specs)]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (P(x=1.0), P(x=1)),  # one label, "P": the parameters' words told them apart
        (P(x=2), P(x=2.0)),  # two labels, "P(x=2)" and "P(x=2.0)"
        (P(x=np.int64(2)), P(x=2.0)),  # a numpy number, as the registry reads one
    ],
)
def test_one_entrant_whatever_the_type_of_its_float_parameter(a, b):
    assert identity(LEAVES, a)[0] == identity(LEAVES, b)[0]
    assert len(set(_labels([a, b, "greedy"]))) == 2
    assert _labels([a, b]) == _labels([b, a])  # one label, whichever is listed first
    with pytest.raises(ValueError, match=r"^strategy listed twice: P"):
        Tournament([a, b, "greedy"], players=3, games=6, seed=1)
    with pytest.raises(ValueError, match=r"the strategy and its baseline are the same \(P"):
        Gauntlet(a, ["greedy"], baseline=b, players=3, games=6)


def test_an_int_parameter_and_a_different_value_stay_apart():
    """Only a float parameter's whole number reads as a float; 2 and 3 differ."""
    assert _labels([P(n=2), P(n=4)]) == ["P(n=2)", "P(n=4)"]
    assert _labels([P(x=2), P(x=3)]) == ["P(x=2)", "P(x=3)"]


def test_two_classes_of_one_qualified_name_are_two_entrants_in_the_order_listed():
    first, second = make()(), make()()
    name = type(first).__qualname__
    t = Tournament([first, second, "greedy"], players=3, games=6, seed=1)
    assert t.labels == (f"#1:{name}", f"#2:{name}", "greedy")
    assert _labels([first, second]) == [f"#1:{name}", f"#2:{name}"]
    assert _labels([second, first]) == [f"#1:{name}", f"#2:{name}"]  # by the order listed
    focus = arguments.focus_label(LEAVES, second, t.labels, t.payloads)
    assert focus == f"#2:{name}"  # found by its class, not by its name


def test_one_class_listed_twice_is_still_refused():
    bot = make()
    with pytest.raises(ValueError, match=r"^strategy listed twice: make\.<locals>\.Bot$"):
        Tournament([bot(), bot(), "greedy"], players=3, games=6, seed=1)


def test_the_labels_of_entrants_that_differ_are_as_they_were():
    assert _labels(["counter:near_win_penalty=3", "counter", P(x=2), "greedy"]) == [
        "counter(near_win_penalty=3.0)", "counter", "P(x=2)", "greedy"]  # fmt: skip
