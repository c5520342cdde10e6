"""``leaves compare`` refuses a run for the first problem ``leaves verify`` finds in it, in
the same words: a run's folder that lost its manifest is said to be so before any of its
parts is read, and a run that kept no rows is called a run, not "not a run directory"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tournaments import Tournament


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cmp64")
    Tournament(["greedy", "low", "high"], players=3, games=60, seed=1).run(out=d / "a")
    Tournament(["greedy", "low", "high"], players=3, games=60, seed=1, rows=False).run(
        out=d / "norows"
    )
    return d


def _first_problem(capsys, command: str, *args: Path) -> tuple[int, str]:
    code, _, err = cli(capsys, command, *map(str, args))
    return code, one_error_line(err)


@pytest.mark.parametrize("rows", ["truncated", "gone"])
def test_a_lost_manifest_is_said_first_as_verify_says_it(runs, capsys, tmp_path, rows):
    lost = tmp_path / "lost"
    shutil.copytree(runs / "a", lost)
    (lost / "manifest.json").unlink()
    if rows == "truncated":
        part = sorted((lost / "games").rglob("*.parquet"))[0]
        part.write_bytes(part.read_bytes()[:100])
    else:
        shutil.rmtree(lost / "games")
    verify = _first_problem(capsys, "verify", lost)
    assert verify[0] == 2 and "holds a run's files but not its manifest.json" in verify[1]
    assert _first_problem(capsys, "compare", runs / "a", lost) == verify


def test_a_run_without_rows_is_said_to_have_kept_none(runs, capsys):
    code, line = _first_problem(capsys, "compare", runs / "a", runs / "norows")
    assert code == 1
    assert line.startswith(f"leaves: error: {runs / 'norows'} kept no per-game rows (--no-rows)")
