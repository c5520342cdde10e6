"""A third game, installed from outside the project, goes through every command.

``tests/plugins/climb`` is a small card game that only the tests know; it is installed
through the ``leaves.games`` entry point (its ``climb-1.0.dist-info`` on ``PYTHONPATH``) and
declares everything the runner, reports and command line need: they ask its declaration, so
no file outside its folder names it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "tests" / "plugins"
PRODUCT = ["gamekit", "leaves", "ligretto", "strategies", "tournaments", "reports", "tuning", "interop",
           "leaves_cli"]  # fmt: skip


def leaves(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(PLUGINS)])}
    return subprocess.run([sys.executable, "-m", "leaves_cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("climb") / "run"
    done = leaves("tournament", "--game", "climb", "low", "high", "patient:reach=3", "crash",
                  "--players", "3", "--games", "480", "--seed", "5", "--jobs", "1",
                  "--turn-limit", "150", "--out", str(out), "--record",
                  str(out.parent / "records.jsonl"), cwd=out.parent)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def test_its_own_command_is_listed_and_runs_and_a_taken_name_is_left_out(tmp_path):
    """Its ``leaves.commands`` table adds ``climb-deal`` under its title; the ``report`` it
    also declares is a shared command's name: the shared command keeps it."""
    listing = leaves("--help", cwd=tmp_path).stdout
    own = listing.split("Commands of Climb:")[1].split("\n\n")[0]
    assert own.split() == ["climb-deal", "Show", "the", "hands", "Climb", "deals", "from", "a",
                           "seed."]  # fmt: skip
    assert "leaves climb-deal --seed 3" in listing.split("Examples of Climb:")[1]
    done = leaves("climb-deal", "--seed", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].endswith(" leads") and len(done.stdout.splitlines()) == 4
    done = leaves("report", "--help", cwd=tmp_path)
    assert "Build a report" in done.stdout or "run directory" in done.stdout


@pytest.mark.slow
def test_its_strategies_are_listed(tmp_path):
    done = leaves("strategies", "--game", "climb", "--names", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.split() == [
        "crash", "high", "low", "patient", "random"
    ]  # fmt: skip
    done = leaves("strategies", "--game", "climb", cwd=tmp_path)
    assert "Registered strategies (Climb)" in done.stdout and "patient:reach=3" in done.stdout


@pytest.mark.slow
def test_a_tournament_keeps_the_game_and_its_settings(run):
    spec = json.loads((run / "manifest.json").read_text())["spec"]
    assert spec["game"] == "climb" and spec["game_config"] == {"turn_limit": 150}
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["game_declaration"]["title"] == "Climb"
    assert manifest["versions"]["climb"] == "1.0"


@pytest.mark.slow
def test_the_report_speaks_its_vocabulary(run):
    done = leaves("report", str(run), cwd=run.parent)
    assert done.returncode == 0, done.stderr
    findings = (run / "report" / "findings.txt").read_text()
    assert "low" in findings and "forfeit" in findings.lower()
    assert "turns" in findings  # its length column


@pytest.mark.slow
def test_a_gauntlet_takes_its_default_baseline(tmp_path):
    done = leaves("gauntlet", "patient", "--against", "random,high", "--game", "climb",
                  "--players", "3", "--games", "300", "--jobs", "1", "--out",
                  str(tmp_path / "g"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the baseline low" in done.stderr and "; low, in the same seats" in done.stdout


@pytest.mark.slow
def test_replay_shows_a_forfeited_game_of_the_run_and_a_record(run):
    done = leaves("replay", str(run), "--all", cwd=run.parent)  # the first forfeited game
    assert done.returncode == 0, done.stderr
    assert "crash forfeits: RuntimeError: crash on a 9" in done.stdout
    assert "warning" not in done.stderr  # the replay is the run's game
    done = leaves("replay", str(run.parent / "records.jsonl"), "--game", "2", cwd=run.parent)
    assert done.returncode == 0 and done.stdout.startswith("Game 2 of ")


def test_a_setting_it_does_not_declare_is_one_line(tmp_path):
    done = leaves("tournament", "--game", "climb", "low", "high", "--players", "2",
                  "--decision-timeout", "5", "--out", str(tmp_path / "x"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "--decision-timeout is not a Climb option" in done.stderr


def test_no_file_outside_its_folder_names_it():
    named = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "climb" in path.read_text(encoding="utf-8").lower():
                named.append(str(path.relative_to(ROOT)))
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert not named and "climb" not in text, named
