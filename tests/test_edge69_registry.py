"""Entry points register as ``register`` does; a refusal's example spec builds; a file's class
as a parameter's value is no file of the strategy's name."""

from __future__ import annotations

from typing import Any

import pytest

import strategies
from strategies import Strategy, registry
from strategies.spec_values import SPEC_EXAMPLE


class _EntryPoint:
    """An installed entry point as ``importlib.metadata`` gives it."""

    def __init__(self, cls: type, value: str) -> None:
        self.cls, self.value = cls, value

    def load(self) -> Any:
        return self.cls


def test_an_entry_points_class_with_no_name_of_its_own_is_labelled_by_the_entry_point():
    class Unnamed69(Strategy):
        def choose(self, view, legal, rng):
            return legal[0]

    try:
        cls = registry._load_entry_point("epname69", _EntryPoint(Unnamed69, "m:Unnamed69"))
        assert cls is Unnamed69 and strategies.get("epname69").label == "epname69"
    finally:
        registry.unregister("epname69")


def test_an_entry_points_class_that_cannot_play_is_refused_and_not_registered():
    class NoPlay69(Strategy):
        pass

    with pytest.raises(ValueError, match=r"entry point 'noplay69' \(m:NoPlay69\): .*no .*player"):
        registry._load_entry_point("noplay69", _EntryPoint(NoPlay69, "m:NoPlay69"))
    assert "noplay69" not in registry.names()


def test_the_spec_refusals_example_builds_and_is_the_one_said():
    strategies.get(SPEC_EXAMPLE)  # raises if the example names a parameter not there
    with pytest.raises(ValueError, match=f"e.g. '{SPEC_EXAMPLE}'"):
        strategies.get("greedy:keep_pairs")


def test_a_files_class_as_a_parameters_value_is_the_strategys_parameter(tmp_path):
    bot = tmp_path / "bots69.py"
    bot.write_text("from strategies import Strategy\n\n\nclass Bot(Strategy, register=False):\n"
                   "    def choose(self, view, legal, rng):\n        return legal[0]\n")  # fmt: skip
    target, params = registry.parse_spec(f"ismcts:rollout={bot}:Bot")
    assert (target, params) == ("ismcts", {"rollout": f"{bot}:Bot"})
    with pytest.raises(ValueError) as err:
        strategies.get(f"ismcts:rollout={bot}:Bot")
    assert "no such strategy file" not in str(err.value) and "rollout" in str(err.value)
