"""docs/strategies.md names each built-in's parameters, `ismcts`'s defaults and what each of
its presets sets: read here from the classes, so that a default changed in the code (or a
parameter renamed) fails until the page says it too."""

from __future__ import annotations

import re

import strategies
from tests.helpers import doc_text

PAGE = "strategies.md"
WORDS = {"on": True, "off": False, "true": True, "false": False}


def _value(word: str) -> object:
    """A value as the page writes it: a switch's word, a number (`1,600`) or a name."""
    word = word.strip()
    if word.lower() in WORDS:
        return WORDS[word.lower()]
    try:
        return float(word.replace(",", ""))
    except ValueError:
        return word


def _same(said: object, value: object) -> bool:
    if isinstance(said, float) and not isinstance(value, bool):
        return said == float(value)  # type: ignore[arg-type]
    return said == value


def test_each_builtins_parameters_are_the_ones_it_declares():
    """`**counter** (`threat_weight, ...`)`: the names in order, and a value where given."""
    listed = re.findall(r"\*\*(\w+)\*\* \(`([^`]+)`\)", doc_text(PAGE))
    assert {name for name, _ in listed} >= {"greedy", "patient", "counter", "taker", "weighted"}
    for name, params in listed:
        declared = {p.name: p.default for p in strategies.get(name).PARAMS}
        items = [x.strip().split("=") for x in params.split(",")]
        assert [x[0] for x in items] == list(declared), name
        for item in items:
            if len(item) == 2:
                assert _same(_value(item[1]), declared[item[0]]), (name, item)


def test_the_ismcts_defaults_the_page_gives_are_the_searchs():
    from leaves.players.ismcts.settings import SETTINGS

    text = doc_text(PAGE).split("- **ismcts**:", 1)[1].split("`strategies.names()`", 1)[0]
    said = {
        "max_depth": r"whole tree over its later moves too \(`max_depth=(\d+)`\)",
        "widen": r"widened \(`widen=(\d+)`",
        "model_steps": r"`model_steps` \((\d+)\)",
        "model_pool": r"`model_pool` \(([\d.]+)\)",
        "rollout": r"the rollout policy \(`rollout`, default `(\w+)`\)",
        "models": r"\(`models`, default `(\w+)`",
        "infer_lambda": r"\(default ([\d.]+); `1e6` is hard rejection",
        "reuse": r"\*Reuse\* \(`reuse`, (on|off)\)",
        "iterations": r"\*Budget:\* `iterations` \(default ([\d,]+)\)",
        "stop_early": r"`stop_early` \((on|off)\)",
    }
    defaults = SETTINGS.defaults()
    for key, pattern in said.items():
        found = re.search(pattern, text)
        assert found, f"docs/strategies.md no longer gives {key}'s default: {pattern}"
        assert _same(_value(found[1]), defaults[key]), (key, found[1], defaults[key])
    at = re.search(r"at ([\d,]+) iterations: the flat search's time", text)[1]
    assert _value(at) == defaults["iterations"]


def test_each_preset_sets_what_the_page_says():
    from leaves.players.ismcts.settings import PRESETS

    named = dict(re.findall(r"`ismcts:preset=(\w+)` \(`([^`]+)`", doc_text(PAGE)))
    assert set(named) == set(PRESETS)
    for name, values in named.items():
        items = dict(x.strip().split("=") for x in values.split(","))
        assert set(items) == set(PRESETS[name]), name
        for key, value in items.items():
            assert _same(_value(value), PRESETS[name][key]), (name, key)
