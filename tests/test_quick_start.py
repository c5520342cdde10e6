"""The README's quick start, in order: ``leaves run`` leaves ``leaves-run/`` in the folder it
was started in; every later command there must still do what it says: a bad option is named
before the state of --out, a second ``leaves run`` says where the finished run is (exit 0) and
its advice works, a stopped one is continued with --resume, and --resume refuses in one line a
folder that holds no run of its own.

Everything runs in a fresh folder (``monkeypatch.chdir``): what the suite's own folder holds
never matters.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, cli_output, stopped

SMALL = ["--games", "1", "--players", "3", "--jobs", "1"]  # 720 games: 1 deal per table


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A folder where ``leaves run`` (default --out) has run to the end."""
    folder = tmp_path_factory.mktemp("quick")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        code, _, err = cli_output("run", *SMALL)
    assert code == 0, err
    return folder


def _quoted(line: str) -> list[list[str]]:
    """Every 'leaves ...' command quoted in ``line``, as arguments without 'leaves'."""
    return [shlex.split(part)[1:] for part in line.split("'")[1::2] if part.startswith("leaves ")]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "9"], "--players 9: 13 Leaves is played by 3 to 6 players, got 9"),
        (["--jobs", "0"], "--jobs must be a positive number"),
        (["--rules", "take=maybe"], "--rules: "),
        (
            ["--players", "9", "--resume"],
            "--players 9: 13 Leaves is played by 3 to 6 players, got 9",
        ),
    ],
)
def test_every_option_is_checked_before_the_state_of_out(finished, monkeypatch, capsys, args,
                                                          message):  # fmt: skip
    monkeypatch.chdir(finished)
    before = sorted(p.name for p in (finished / "leaves-run").iterdir())
    code, stdout, err = cli(capsys, "run", *args)
    assert code == 2 and stdout == "" and err.count("\n") == 1
    assert err.startswith(f"leaves: error: {message}"), err
    assert sorted(p.name for p in (finished / "leaves-run").iterdir()) == before


@pytest.mark.slow
def test_a_second_run_says_where_the_finished_one_is_and_its_advice_works(finished, monkeypatch,
                                                                          capsys):  # fmt: skip
    monkeypatch.chdir(finished)
    run = Path("leaves-run")
    n = len(pd.read_parquet(run / "games", columns=["game"]))
    code, stdout, err = cli(capsys, "run", *SMALL)
    assert code == 0 and err == "", err
    first, second = stdout.splitlines()
    page = run / "report" / "report.html"
    assert (
        first == f"{run} already holds this run, finished: {n:,} games, seed 0; its report: {page}"
    )
    assert page.is_file()
    another, grow = _quoted(second)
    assert another == ["run", "--out", "NEW"]  # a new folder: as the first run's was
    code, _, err = cli(capsys, *[a if a != "N" else str(2 * n) for a in grow], "--jobs", "1")
    assert code == 0, err  # the grown run's report written by the same command
    assert len(pd.read_parquet(run / "games", columns=["game"])) == 2 * n  # grown
    assert f"<dt>played</dt><dd>{2 * n:,} games (finished)</dd>" in page.read_text()
    code, stdout, err = cli(capsys, "run", *SMALL)  # the run grown: still this run, finished
    assert code == 0 and err == "", err
    assert stdout.splitlines()[0] == (
        f"{run} already holds this run, finished: {2 * n:,} games, asked 1, grown by 1 "
        f"more stage of deals, seed 0; its report: {page}"
    )


@pytest.mark.slow
def test_a_stopped_run_is_named_and_resume_finishes_it(here, capsys):
    from leaves.commands.run import builtin_heuristics
    from tournaments.runner import Tournament

    code, _, _ = stopped("run", *SMALL)
    assert code == 130
    run = Path("leaves-run")
    done = len(pd.read_parquet(run / "games", columns=["game"]))  # the truth: its rows
    n = Tournament(builtin_heuristics(), players=3, games=1, seed=0).n_games
    assert 0 < done < n
    code, stdout, err = cli(capsys, "run", *SMALL)
    assert code == 2 and stdout == ""
    assert err == (f"leaves: error: --out {run} holds this run unfinished ({done:,} of {n:,} "
                   "games): pass --resume to continue it, or choose another --out\n")  # fmt: skip
    code, stdout, err = cli(capsys, "run", *SMALL, "--resume")
    assert code == 0, err
    assert len(pd.read_parquet(run / "games", columns=["game"])) == n
    assert stdout.splitlines()[-1] == f"report: {run / 'report' / 'report.html'}"


def test_resume_refuses_a_folder_without_a_run_of_its_own(here, capsys):
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "new")
    assert code == 2 and stdout == "" and not Path("new").exists()
    assert err == ("leaves: error: cannot resume new: it holds no run (no manifest.json); "
                   "leave out --resume to start one there\n")  # fmt: skip
    t = Path("t")  # relative, as typed: the line's length is the message's own
    code, _, err = cli(capsys, "tournament", "greedy", "low", "random", "--players", "3",
                       "--games", "12", "--seed", "1", "--jobs", "1", "--out", str(t))  # fmt: skip
    assert code == 0, err
    code, stdout, err = cli(capsys, "run", "--resume", "--out", str(t))
    assert code == 2 and stdout == "" and err.count("\n") == 1 and len(err) < 160, err
    assert err.startswith(f"leaves: error: cannot resume {t}: it holds a run of other "
                          "strategies (greedy, low, random)")  # fmt: skip
    (advice,) = _quoted(err)
    code, stdout, err = cli(capsys, *advice, "--jobs", "1")
    assert code == 0, err
    assert stdout.startswith(f"Nothing to do: {t} already holds all 12 games")


def test_a_gauntlets_folder_is_named_as_one(here, capsys):
    gauntlet = ["gauntlet", "greedy", "--against", "low", "--players", "3", "--games", "12",
                "--jobs", "1", "--out", "g"]  # fmt: skip
    code, _, err = cli(capsys, *gauntlet)
    assert code == 0, err
    code, stdout, err = cli(capsys, "run", "--out", "g")
    assert (code, stdout) == (2, "")
    assert err == "leaves: error: --out g holds a gauntlet: choose another --out\n"
    code, stdout, err = cli(capsys, "run", "--out", "g", "--resume")
    assert (code, stdout) == (2, "")
    assert err == ("leaves: error: cannot resume g: it holds a gauntlet: the same 'leaves "
                   "gauntlet' command with --resume continues it\n")  # fmt: skip
    code, _, err = cli(capsys, *gauntlet, "--resume")  # as it says
    assert code == 0, err
