"""``leaves variants --resume`` refusals name each option by its flag in both halves of the
line, and a field the comparison was not given by what it played (the default field, in
words): they said 'the run has strategies ' (nothing), 'trace games 100' (a key's words) and
'load ' (nothing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line

DEFAULT_FIELD = "the default field, leaves run's built-ins"
OPTIONS = {"specs": [], "load": [], "rules": ["take=ends"], "sweep": None, "players": [4],
           "games": 60, "seed": 9, "expert": False, "trace_games": 100,
           "restricted_games": 50, "restrict": None, "ladder": None}  # fmt: skip
"""A comparison of today's rules and take=ends over the default field, as variants.json keeps
it (no game needs playing: every refusal comes before one)."""


def _state(tmp_path: Path, **options) -> Path:
    out = tmp_path / "v"
    out.mkdir()
    state = {"format": 1, "options": OPTIONS | options, "designer": {}}
    (out / "variants.json").write_text(json.dumps(state), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("options", "given", "said"),
    [
        ({}, ["taker", "greedy"], "strategies taker,greedy differs from this run, which has "
         f"{DEFAULT_FIELD}: give no strategies"),
        ({}, ["--trace-games", "99"], "--trace-games 99 differs from this run's --trace-games "
         "100: resume with --trace-games 100, or drop --trace-games"),
        ({}, ["--restricted-games", "3"], "--restricted-games 3 differs from this run's "
         "--restricted-games 50: resume with --restricted-games 50, or drop --restricted-games"),
        ({}, ["--players", "5"], "--players 5 differs from this run's --players 4: resume with "
         "--players 4, or drop --players"),
        ({"seed": 123456}, ["--seed", "3"], "--seed 3 differs from this run's --seed 123456: "
         "resume with --seed 123456, or drop --seed"),
        ({}, ["--load", "x.py"], "--load x.py differs from this run, which has no --load: drop "
         "--load"),
        ({}, ["--ladder", "taker,greedy"], "--ladder taker,greedy differs from this run, which "
         "has no --ladder: drop --ladder"),
        ({}, ["--restrict", "taker"], "--restrict taker differs from this run, which has no "
         "--restrict: drop --restrict"),
        ({"rules": [], "sweep": "hand_size=9,10"}, ["--rules", "take=ends"],
         "--rules take=ends differs from this run, which has no --rules: drop --rules"),
        ({"specs": ["greedy", "random"]}, ["taker", "greedy"],
         "strategies taker,greedy differs from this run's strategies greedy,random: give no "
         "strategies"),
    ],
)  # fmt: skip
def test_a_refusal_names_the_flag_twice_and_the_default_field_in_words(
    tmp_path, capsys, monkeypatch, options, given, said
):
    monkeypatch.setenv("COLUMNS", "400")
    out = _state(tmp_path, **options)
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume", *given)
    assert code == 2 and one_error_line(err) == f"leaves: error: cannot resume {out}: {said}"


def test_the_shared_refusal_never_names_an_empty_value_as_nothing():
    """The shared line (``leaves_cli.resume_words.disagreement``) words an empty list as none."""
    from leaves_cli.resume_words import disagreement

    said = str(disagreement("r", "--load", ["x.py"], "load", []))
    assert said == "cannot resume r: --load x.py differs from this run, which has no load: drop " \
                   "--load"  # fmt: skip
