"""examples/train_reinforce.py names its agent as docs/research.md writes the spec
(``observation:policy=examples/train_reinforce.py.act``), not by a path of this machine."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import doc_text

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_reinforce.py"


def _example() -> ModuleType:
    pytest.importorskip("pettingzoo")
    spec = importlib.util.spec_from_file_location("edge67_train_reinforce", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_spec_names_the_file_relative_to_the_working_directory(monkeypatch, tmp_path):
    """The spec held ``Path(__file__).resolve()``: the label printed began with this machine's
    folders. Under the working directory it is the docs' relative path; elsewhere absolute."""
    here = _example().here
    monkeypatch.chdir(ROOT)
    assert here() == "examples/train_reinforce.py"
    assert f"observation:policy={here()}.act" in doc_text("research.md")
    monkeypatch.chdir(ROOT / "examples")
    assert here() == "train_reinforce.py"
    monkeypatch.chdir(tmp_path)
    assert here() == str(SCRIPT)


@pytest.mark.slow
def test_the_label_printed_is_the_docs_spec(tmp_path):
    """Run from the repository as the docs show it: the agent's label holds the relative
    path, and the gauntlet plays it."""
    pytest.importorskip("pettingzoo")
    env = {**os.environ, "LEAVES_EXAMPLE_GAMES": "60", "LEAVES_EXAMPLE_OUT": str(tmp_path / "r"),
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    env.pop("NUMBA_DISABLE_JIT", None)  # the example as a user runs it
    proc = subprocess.run([sys.executable, "examples/train_reinforce.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("observation(policy=examples/train_reinforce.py.act) wins ")
    assert str(ROOT) not in proc.stdout
