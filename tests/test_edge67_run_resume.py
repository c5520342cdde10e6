"""``leaves run`` stopped: the line it ends with names the command that continues it, to copy
as printed (the folder is all a resume needs: its games, players, seed and rules are the
run's, and the options given are checked against them); a run of this command's field
finished by 'leaves tournament --resume' is still this command's run, whatever its size."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, named_command, stopped

SMALL = ["--games", "1", "--players", "3", "--jobs", "1"]  # 720 games: 1 deal per table
N = 720


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _games(run: Path) -> int:
    return len(pd.read_parquet(run / "games", columns=["game"]))


def _stop(out: str, *more: str) -> str:
    """``leaves run`` of 720 games into ``out`` stopped by Ctrl-C after 2 chunks: its
    stderr."""
    code, _, err = stopped("run", *SMALL, "--out", out, *more)
    assert code == 130, err
    assert 0 < _games(Path(out)) < N
    return err


def _stopped(out: str, *more: str) -> list[str]:
    """The command a stopped ``leaves run`` (``_stop``) names in its last words, as a shell
    splits it, without 'leaves'."""
    err = _stop(out, *more)
    command = named_command(r"interrupted: '(.*)' continues it", err)
    assert command[0] == "leaves", err
    return command[1:]


@pytest.mark.slow
def test_the_command_a_stopped_run_names_continues_it_as_printed(here, capsys):
    again = _stopped("ri")
    assert again == ["run", "--resume", "--out", "ri"]  # the folder alone
    code, stdout, err = cli(capsys, *again, "--jobs", "1")  # as printed, on one worker
    assert code == 0, err
    assert _games(Path("ri")) == N
    assert stdout.splitlines()[-1] == f"report: {Path('ri', 'report', 'report.html')}"
    spec = json.loads(Path("ri", "manifest.json").read_text())["spec"]
    assert (spec["players"], spec["seed"], spec["n_games"]) == ([3], 0, N)


@pytest.mark.slow
def test_a_markdown_report_is_asked_for_again_in_the_command(here, capsys):
    again = _stopped("m d", "--format", "md")
    assert again == ["run", "--resume", "--out", "m d", "--format", "md"]
    code, stdout, err = cli(capsys, *again, "--jobs", "1")
    assert code == 0, err
    assert stdout.splitlines()[-1] == f"report: {Path('m d', 'report', 'report.md')}"


@pytest.mark.slow
def test_options_given_with_resume_are_checked_against_the_run(here, capsys):
    _stop("ri")
    refused = [
        (["--seed", "5"], "seed 0 there, 5 here"),
        (["--players", "4"], "players 3 there, 4 here"),  # more --games grows a run: not a refusal
    ]
    for given, said in refused:
        code, stdout, err = cli(capsys, "run", "--resume", "--out", "ri", *given)
        assert (code, stdout) == (2, "")
        flag = given[0]
        assert err == (f"leaves: error: cannot resume ri: it holds another run ({said}): "
                       f"drop {flag} to resume it, or choose another --out\n")  # fmt: skip
    code, _, err = cli(capsys, "run", "--resume", "--out", "ri", "--seed", "0", "--players",
                       "3", "--games", "1", "--jobs", "1")  # fmt: skip
    assert code == 0, err  # the run's own values, typed: as good as left out
    assert _games(Path("ri")) == N


@pytest.mark.slow
def test_a_run_finished_by_tournament_resume_is_this_commands_run(here, capsys):
    _stop("ri")
    code, _, err = cli(capsys, "tournament", "--resume", "--out", "ri", "--jobs", "1")
    assert code == 0, err
    page = Path("ri", "report", "report.html")
    assert not page.exists()  # 'leaves tournament' writes no report
    code, stdout, err = cli(capsys, "run", "--players", "3", "--out", "ri")  # no --games
    assert code == 0 and err == "", err
    assert stdout.splitlines()[0] == (
        f"ri already holds this run, finished: {N:,} games, seed 0; its report, written now: {page}"
    )
    assert f"<dt>played</dt><dd>{N:,} games (finished)</dd>" in page.read_text()
    code, stdout, err = cli(capsys, "run", "--players", "3", "--seed", "1", "--out", "ri")
    assert (code, stdout) == (2, "")  # another setting typed: another run
    assert err == ("leaves: error: --out ri holds another run (seed 0 there, 1 here): choose "
                   "another --out\n")  # fmt: skip
