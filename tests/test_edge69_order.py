"""Entrants told apart only by their listing order (``#1:``, ``#2:``: classes of one qualified
name made in a function) are never resumed: nothing a run records ties a number to its class,
so a resume listing them the other way round added one's games to the other's. And an integral
float given for an int parameter is the entrant the int is (``P(n=2.0)`` is ``P(n=2)``)."""

from __future__ import annotations

import pytest

from strategies import Strategy
from tournaments import Tournament
from tournaments.games import get_game
from tournaments.labels import entrant_labels, identity, listed_in_order

LEAVES = get_game("leaves")


def make() -> type:
    """A new class of one qualified name (``make.<locals>.Bot``) at each call."""

    class Bot(Strategy, register=False):
        def choose(self, view, legal, rng):
            return legal[0]

    return Bot


class P(Strategy, register=False):
    """A strategy with a float and an int parameter."""

    def __init__(self, x: float = 1.0, n: int = 2):
        self.x, self.n = x, n

    def choose(self, view, legal, rng):
        return legal[0]


def test_a_run_of_entrants_numbered_by_listing_order_is_not_resumed(tmp_path):
    first, second = make(), make()
    out = tmp_path / "run"
    Tournament([first(), second(), "greedy"], players=3, games=6, seed=1).run(out=out)
    for order in ([first(), second()], [second(), first()]):
        t = Tournament([*order, "greedy"], players=3, games=6, seed=1)
        with pytest.raises(ValueError) as caught:
            t.run(out=out, resume=True)
        said = str(caught.value)
        assert "\n" not in said
        assert said.startswith(f"cannot resume {out}: #1:make.<locals>.Bot and #2:")
        assert "told apart only by the order they are listed in" in said


def test_only_numbers_by_order_count_as_listed_in_order():
    labels = ["#1:Bot", "#12:make.<locals>.Bot", "#1.py:Bot", "ok.py:Bot", "greedy", "P(x=2)"]
    assert listed_in_order(labels) == ["#1:Bot", "#12:make.<locals>.Bot"]


@pytest.mark.parametrize("n", [2.0, 4.0])
def test_an_integral_float_for_an_int_parameter_is_the_same_entrant(n):
    assert identity(LEAVES, P(n=n))[0] == identity(LEAVES, P(n=int(n)))[0]
    with pytest.raises(ValueError, match=r"^strategy listed twice: P"):
        Tournament([P(n=int(n)), P(n=n), "greedy"], players=3, games=6, seed=1)


def test_a_fractional_float_for_an_int_parameter_stays_apart():
    labels = [label for label, _, _ in entrant_labels(LEAVES, [P(n=2), P(n=2.5)])]
    assert len(set(labels)) == 2 and not listed_in_order(labels)
