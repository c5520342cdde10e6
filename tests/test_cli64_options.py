"""An option given a value it does not take is refused in the project's one line, naming the
flag and what it takes in words ("--alpha takes a number above 0 and below 1, got 2"), never
in click's ("'x' is not a valid float", "'pdf' is not one of 'html', 'md'")."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from leaves_cli.main import cli as leaves
from tests.helpers import usage_error

ALPHA = "--alpha takes a number above 0 and below 1"


@pytest.mark.parametrize(
    ("typed", "got"),
    [("x", "'x'"), ("2", "2"), ("0", "0"), ("1", "1"), ("-0.5", "-0.5"), ("nan", "nan")],
)
def test_compare_alpha_is_refused_in_words(capsys, tmp_path, typed, got):
    line = usage_error(capsys, ["compare", str(tmp_path), str(tmp_path), "--alpha", typed])
    assert line == f"leaves: error: {ALPHA}, got {got} (see 'leaves compare --help')"


def test_compare_help_says_what_alpha_takes():
    out = CliRunner().invoke(leaves, ["compare", "--help"], terminal_width=200).output
    assert "[default: 0.05; above 0 and below 1]" in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["report", "{d}", "--format", "pdf"], "--format takes html or md, got 'pdf'"),
        (["play", "--level", "expert"], "--level takes easy, medium or hard, got 'expert'"),
        (
            ["tournament", "greedy", "low", "--seating", "x", "--out", "{d}/o"],
            "--seating takes balanced, all or rotations, got 'x'",
        ),
        (
            ["tournament", "greedy", "low", "--backend", "ray", "--out", "{d}/o"],
            "--backend takes loky or dask, got 'ray'",
        ),
    ],
    ids=lambda a: a[0] if isinstance(a, list) else None,
)
def test_a_word_not_among_the_choices_is_refused_in_words(capsys, tmp_path, args, said):
    args = [a.replace("{d}", str(tmp_path)) for a in args]
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "greedy", "low", "--out", "{d}/o"],
        ["gauntlet", "greedy", "--against", "low"],
        ["tune", "taker", "--against", "low", "--out", "{d}/o"],
        ["run", "--out", "{d}/o"],
        ["variants", "--rules", "take=ends", "--out", "{d}/o"],
        ["play"],
        ["bench"],
    ],
    ids=lambda a: a[0],
)
def test_every_seed_option_refuses_a_negative_seed_in_one_sentence(capsys, tmp_path, args):
    args = [a.replace("{d}", str(tmp_path)) for a in args]
    line = usage_error(capsys, [*args, "--seed", "-1"])
    assert (
        line
        == f"leaves: error: --seed takes a whole number 0 or more, got -1 (see 'leaves {args[0]} --help')"
    )
