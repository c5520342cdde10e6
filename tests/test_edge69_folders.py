"""``leaves report`` and ``leaves compare`` given a folder of runs (a comparison of variants,
a tuning) name the runs in it as ``leaves verify`` does, in its words: they said only 'not a
run directory: F holds neither games/ nor manifest.json'."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tournaments import Tournament


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A tuning's layout: two runs two levels down (verify/start, verify/tuned), none in it."""
    top = tmp_path_factory.mktemp("tuning")
    for arm in ("start", "tuned"):
        Tournament(["greedy", "low", "random"], players=3, games=6, seed=1).run(
            out=top / "verify" / arm
        )
    return top


def _line(capsys, *args: str) -> str:
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    return one_error_line(err)


def test_report_and_compare_name_the_runs_in_a_folder_of_runs(folder, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    runs = f"{folder / 'verify' / 'start'}, {folder / 'verify' / 'tuned'}"
    head = f"leaves: error: {folder} holds no run itself (no manifest.json); the runs in it: {runs}"
    verified = _line(capsys, "verify", str(folder))
    assert verified == f"{head}: verify each"
    assert _line(capsys, "report", str(folder)) == f"{head}: report each"
    one = str(folder / "verify" / "start")
    assert _line(capsys, "compare", str(folder), one) == f"{head}: compare one of them"
    assert _line(capsys, "compare", one, str(folder)) == f"{head}: compare one of them"


def test_a_folder_of_no_run_is_still_said_as_before(tmp_path, capsys):
    """A folder holding no run anywhere keeps report's own words (nothing to name)."""
    said = _line(capsys, "report", str(tmp_path))
    assert said == f"leaves: error: not a run directory: {tmp_path} holds neither games/ nor " \
        "manifest.json"  # fmt: skip
