"""A tuning plays one run a candidate, each under its own label: the warning that a strategy
draws from the global random state was said once a candidate (112 lines in one tuning).
Runs inside ``runs_as_one`` (a tuning's) name a class once, whatever its parameters."""

from __future__ import annotations

import warnings

import pytest

from tournaments import Tournament
from tournaments.notices import runs_as_one

STRATS = """
import random

from strategies import Strategy


class TRoll(Strategy, register=False):
    def __init__(self, eps: float = 0.1):
        self.eps = eps

    def choose(self, view, legal, rng):
        return legal[random.randrange(len(legal))]
"""

SAID = "draws from the global random state"


@pytest.fixture(scope="module")
def strats(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("troll") / "troll.py"
    path.write_text(STRATS)
    return str(path)


def _warned(runs: list[list[str]]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for entrants in runs:
            Tournament(entrants, players=3, games=6, seed=1, chunk_size=6).run()
    return [str(w.message) for w in caught if SAID in str(w.message)]


def test_runs_as_one_name_a_class_once_whatever_its_parameters(strats):
    runs = [[f"{strats}:TRoll:eps={eps}", "greedy", "low"] for eps in (0.1, 0.2, 0.3)]
    assert len(_warned(runs)) == 3  # apart, each run says it
    with runs_as_one():
        (line,) = _warned(runs)
    assert line.startswith(f"TRoll {SAID}")  # its first run's label: eps=0.1 is the default
    assert len(_warned(runs)) == 3  # the scope ends with its block


def test_a_tuning_plays_its_runs_as_one():
    import importlib
    import inspect

    module = importlib.import_module("tuning.tune")
    assert "runs_as_one()" in inspect.getsource(module)
