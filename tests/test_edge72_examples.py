"""The examples as a user stops them and runs them again, and the property-testing API as the
docs show it.

A stopped run_tournament.py said ``'python examples/run_tournament.py OUT' continues it``
where ``LEAVES_EXAMPLE_GAMES`` had set its size: that command plays the default size, which the
folder refuses as another tournament. my_strategy.py and win_rate_chart.py, whose folder
"stopped or finished, is continued", ended a Ctrl-C in a KeyboardInterrupt traceback, naming
no command (my_strategy.py's default folder a temporary one it never said). A bad size in the
notebook or a pytest file named another program ("ipykernel_launcher.py: error", "-c: error",
"__main__.py: error"), not the example.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

import tournaments
from strategies.user_code import load_file

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

STOP = """
import runpy, sys
from tests.helpers import ctrl_c_after_two_chunks
sys.argv = sys.argv[1:]
with ctrl_c_after_two_chunks():
    runpy.run_path(sys.argv[0], run_name="__main__")
"""
"""Runs the script ``argv[1]`` as ``python SCRIPT ARGS`` does, stopped as Ctrl-C stops its
run once 2 of its chunks are written."""


def _environ(tmp_path: Path, **env: str) -> dict[str, str]:
    """This environment without LEAVES_EXAMPLE_* settings, temporary folders under
    ``tmp_path``, and ``env``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEAVES_EXAMPLE_")}
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    environ.update(PYTHONPATH=path, MPLBACKEND="Agg", TMPDIR=str(tmp_path / "tmp"), **env)
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return environ


def _continued(line: str, script: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess, str]:
    """The command a stop's ``line`` gives, run as a shell runs it (its ``K=V`` settings, then
    ``python ...``): (its process, the folder it names)."""
    said = re.fullmatch(rf"{script}: interrupted: '(.*)' continues it", line)
    assert said, line
    words = shlex.split(said[1])
    settings_ = dict(w.split("=", 1) for w in words[: words.index("python")])
    argv = words[words.index("python") + 1 :]
    env = _environ(tmp_path, **settings_)
    proc = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    return proc, settings_.get("LEAVES_EXAMPLE_OUT") or argv[1]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "games", "out_by"),
    [
        ("run_tournament.py", "6000", "argument"),
        ("win_rate_chart.py", "6000", "environment"),
        ("win_rate_chart.py", "6000", "temporary"),
        ("my_strategy.py", "100", "temporary"),
    ],
)
def test_a_stopped_example_says_the_command_that_continues_it(script, games, out_by, tmp_path):
    out = str(tmp_path / "run")
    args = [out] if out_by == "argument" else []
    env = {"LEAVES_EXAMPLE_OUT": out} if out_by == "environment" else {}
    stop = subprocess.run(
        [sys.executable, "-c", STOP, str(EXAMPLES / script), *args], cwd=tmp_path,
        env=_environ(tmp_path, LEAVES_EXAMPLE_GAMES=games, **env), capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert stop.returncode == 130 and "Traceback" not in stop.stderr, stop.stderr[-2000:]
    (line,) = stop.stderr.splitlines()
    assert f"LEAVES_EXAMPLE_GAMES={games} " in line, line
    proc, folder = _continued(line, script, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    if out_by != "temporary":
        assert folder == out
    run = tournaments.load(folder)
    assert 0 < len(run.games()) == run.spec["n_games"]  # the stopped run, finished


def _size(namespace: dict[str, object]) -> str:
    """The one line ``size`` ends with, asked for a bad size from code run in ``namespace``."""
    namespace["size"] = load_file(str(EXAMPLES / "run_tournament.py")).size
    with pytest.raises(SystemExit) as stop:
        exec("size('GAMES', 10)", namespace)  # noqa: S102 - a cell's code, as a kernel runs it
    return str(stop.value.code)


def test_a_bad_size_names_the_example_that_reads_it(monkeypatch):
    monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", "abc")
    wrong = "LEAVES_EXAMPLE_GAMES must be a whole number of at least 1, got 'abc'"
    file = {"__name__": "check_my_strategy", "__file__": str(EXAMPLES / "check_my_strategy.py")}
    assert _size(file) == f"check_my_strategy.py: error: {wrong}"  # a pytest file's module
    assert _size({"__name__": "__main__"}) == f"error: {wrong}"  # a notebook's cell: no file


def test_the_docs_property_test_passes_under_hypothesis_defaults():
    """The docs' ``@given(positions(...))`` example as a user writes it, under hypothesis's
    own default settings (deadline and health checks on), not the suite's profiles, which
    turn some of them off."""
    doc = (ROOT / "docs" / "rules-core.md").read_text(encoding="utf-8")
    block = doc.split("## Property-testing your own code", 1)[1].split("```python\n", 1)[1]
    code = block.split("```", 1)[0]
    assert "@given(positions(" in code
    namespace: dict[str, object] = {
        "my_policy": lambda view: view.legal_actions()[-1],  # a user's policy: any legal move
    }
    exec(code, namespace)  # noqa: S102 - the docs' example, as written
    tests = [v for k, v in namespace.items() if k.startswith("test_")]
    assert len(tests) == 1
    defaults = settings(settings.get_profile("default"), database=None, derandomize=True)
    defaults(tests[0])()
