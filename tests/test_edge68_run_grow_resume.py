"""``leaves run --resume --out DIR --games N`` grows the run DIR holds, as ``leaves tournament
--resume --games N`` does: the deals already played are kept, new ones added, and the result
is the run a fresh ``leaves run`` of N games with the same seed plays; its report follows.
Fewer games than the run holds are refused in one line, and more games without --resume name
the command that grows it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, cli_output, named_command

SMALL = ["--players", "3", "--jobs", "1"]  # 720 games a deal: one deal per table
N = 720


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished ``leaves run`` of 720 games with its report (copied by each test)."""
    out = tmp_path_factory.mktemp("grow") / "r"
    code, _, err = cli_output("run", *SMALL, "--games", "1", "--out", str(out))
    assert code == 0, err
    return out


@pytest.fixture
def run(finished, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    shutil.copytree(finished, "r")
    return Path("r")


def _rows(run: Path) -> pd.DataFrame:
    """The run's games, one row each, in game order."""
    return pd.read_parquet(run / "games").sort_values("game").reset_index(drop=True)


def _played(page: Path) -> str:
    """The report's own "played" line, read as a person reads it."""
    return page.read_text(encoding="utf-8").split("<dt>played</dt><dd>", 1)[1].split("<", 1)[0]


@pytest.mark.slow
def test_resume_with_more_games_grows_the_run_into_the_fresh_run_of_that_size(run, capsys):
    before = _rows(run)
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", "--games", str(3 * N),
                            "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert "(balanced; asked 1, grown by 1 more stage of deals)" in stdout
    grown = _rows(run)
    assert len(grown) == 3 * N
    kept = grown[grown["game"].isin(before["game"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, before)  # every game played before, kept as it was
    assert json.loads((run / "manifest.json").read_text())["spec"]["deal_stages"] == [1, 3]
    assert _played(run / "report" / "report.html") == f"{3 * N:,} games (finished)"
    code, _, err = cli(capsys, "run", *SMALL, "--games", str(3 * N), "--out", "fresh")
    assert code == 0, err
    pd.testing.assert_frame_equal(grown, _rows(Path("fresh")))  # the run asked for at once
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", "--games", str(2 * N))
    assert (code, stdout) == (2, "")
    assert err == (f"leaves: error: cannot resume r: --games {2 * N:,} is fewer than the "
                   f"{3 * N:,} games this run holds already (asked 1): a run grows, it never "
                   f"shrinks: resume with --games {3 * N} or more, or drop --games\n")  # fmt: skip
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", "--games", str(3 * N),
                            "--jobs", "1")  # fmt: skip
    assert code == 0, err  # the games it holds: nothing to play
    assert f"nothing to play: r already holds all {3 * N:,} games of this run" in stdout


@pytest.mark.slow
def test_more_games_without_resume_name_the_command_that_grows_the_run(run, capsys):
    code, stdout, err = cli(capsys, "run", *SMALL, "--games", str(2 * N), "--out", "r")
    assert (code, stdout) == (2, "")
    assert err == (f"leaves: error: --out r holds this run with fewer games (games {N:,} there, "
                   f"{2 * N:,} here): 'leaves run --resume --out r --games {2 * N}' grows it, or "
                   "choose another --out\n")  # fmt: skip
    grow = named_command(r"'(leaves run [^']*)' grows it", err)
    code, _, err = cli(capsys, *grow[1:], "--jobs", "1")  # as printed
    assert code == 0, err
    assert len(_rows(run)) == 2 * N
    assert _played(run / "report" / "report.html") == f"{2 * N:,} games (finished)"
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", "r")
    assert code == 0, err
    assert stdout.splitlines()[1] == (
        "to play another: 'leaves run --out NEW' (with --seed N for other deals); to grow this "
        "one: 'leaves run --resume --out r --games N'"
    )
