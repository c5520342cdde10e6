"""``leaves strategies``: the registry as a table, filters, user files; shell completion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import strategies
from leaves_cli import main

ROOT = Path(__file__).resolve().parents[1]

USER_FILE = """
from strategies import Strategy


class LowestId(Strategy):
    name = "cli-test-lowest"
    description = "always the lowest action id (CLI test)"
    classifier = {"uses_card_counting": True}

    def __init__(self, patience: int = 3):
        pass

    def choose(self, view, legal, rng):
        return legal[0]
"""


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("user") / "my_bot.py"
    path.write_text(USER_FILE)
    return path


def _run(capsys, *args):
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def _cli(*args, **kw):
    env = {**os.environ, "COLUMNS": "160", **kw.pop("env", {})}
    return subprocess.run(
        [sys.executable, "-m", "leaves_cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        **kw,
    )


def test_table_lists_every_registered_strategy_with_description(capsys):
    code, out, err = _run(capsys, "strategies")
    assert code == 0 and err == ""
    flat = " ".join(out.split())
    for name in strategies.names():
        cls = strategies.registry.get_class(name)
        assert f" {name} " in f" {flat} "
        assert " ".join(cls.description.split()[:3]) in flat


def test_filter_keeps_only_matching_classifiers(capsys):
    code, out, _ = _run(capsys, "strategies", "--names", "--filter", "stochastic=true")
    assert code == 0
    assert out.split() == strategies.filtered(stochastic=True)
    code, out, _ = _run(
        capsys, "strategies", "--names", "--filter", "stochastic=false", "--filter", "search=no"
    )
    assert out.split() == strategies.filtered(stochastic=False, search=False)
    assert "random" not in out.split()


@pytest.mark.slow
def test_load_registers_a_user_file_and_play_uses_it(user_file):
    proc = _cli("strategies", "--load", str(user_file))
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stdout.splitlines() if "cli-test-lowest" in line)
    assert "uses_card_counting" in row and "always the lowest action id" in row
    assert "patience=3" in proc.stdout
    proc = _cli("strategies", "--load", str(user_file), "--names", "--filter", "compiled=false")
    assert "cli-test-lowest" in proc.stdout.split()
    # the spec form file.py:Class works next to --load of the same file
    proc = _cli(
        "play", "--players", "3", "--seed", "2", "--load", str(user_file),
        "--against", f"cli-test-lowest:patience=1,{user_file}:LowestId",
        input="q\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "seat 1 (cli-test-lowest(patience=1))" in proc.stdout
    assert "seat 2 (cli-test-lowest)" in proc.stdout


def test_shell_completion_is_built_in():
    proc = _cli(env={"_LEAVES_COMPLETE": "bash_source"})
    assert proc.returncode == 0
    assert "_leaves_completion" in proc.stdout
    proc = _cli(
        env={"_LEAVES_COMPLETE": "bash_complete", "COMP_WORDS": "leaves re", "COMP_CWORD": "1"}
    )
    assert "plain,replay" in proc.stdout.split()
    assert "plain,play" not in proc.stdout.split()
    words = {"COMP_WORDS": "leaves play --against greedy,ra", "COMP_CWORD": "3"}
    proc = _cli(env={"_LEAVES_COMPLETE": "bash_complete", **words})
    assert proc.stdout.split() == ["plain,greedy,random"]


@pytest.mark.parametrize(
    "command", ["strategies", "play", "replay", "run", "tournament", "report", "bench"]
)
def test_every_command_has_help_with_examples(command, capsys):
    code, out, _ = _run(capsys, command, "--help")
    assert code == 0
    assert "Examples:" in out
    assert f"leaves {command}" in out.split("Examples:")[1]
