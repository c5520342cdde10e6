"""Empty names and the --jobs cap in 13 Leaves' own commands (``run``, ``tune``, ``variants``,
``play``), as in ``leaves tournament``: an empty ``--out`` or ``--save`` is said to be empty in
one line (exit 2) and nothing is written; ``--jobs``'s help gives the cap and a command whose
runs played with fewer players than asked says so once; a local Dask cluster records its cap;
a strategy file's name that does not read as itself is quoted when it is a folder."""

from __future__ import annotations

import os

import pytest

from tests.helpers import cli, usage_error
from tournaments import load, local

EMPTY = "an empty name was given, not a"
RUN = ["run", "--games", "6", "--players", "3"]
VARIANTS = ["variants", "low", "high", "--rules", "take=ends", "--players", "3", "--games", "6",
            "--trace-games", "0", "--restricted-games", "0"]  # fmt: skip
TUNE = ["tune", "weighted", "--against", "high", "--players", "3", "--budget", "90",
        "--seed", "1"]  # fmt: skip
COMMANDS = {"run": RUN, "variants": VARIANTS, "tune": TUNE}


# ----------------------------------------------------------------------------- --out ''
@pytest.mark.parametrize("name", ["", "  "], ids=repr)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_empty_out_is_refused_and_nothing_is_written_here(capsys, tmp_path, monkeypatch,
                                                             command, name):  # fmt: skip
    """``--out ''`` played the run, the comparison or the tuning into the current folder."""
    monkeypatch.chdir(tmp_path)
    line = usage_error(capsys, [*COMMANDS[command], "--out", name])
    assert line.startswith(f"leaves: error: --out: {EMPTY} directory"), line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["", "  "], ids=repr)
def test_an_empty_save_is_refused_in_the_words_of_every_empty_name(capsys, tmp_path,
                                                                   monkeypatch, name):  # fmt: skip
    """``--save ''`` had words of its own; ``--save '  '`` saved the game to a file named by
    two spaces."""
    monkeypatch.chdir(tmp_path)
    line = usage_error(capsys, ["play", "--players", "3", "--seed", "1", "--save", name])
    assert line.startswith(f"leaves: error: --save: {EMPTY} file"), line
    assert os.listdir(tmp_path) == []


# ----------------------------------------------------------------------------- --jobs
@pytest.mark.parametrize("command", [*COMMANDS, "play"])
def test_the_jobs_help_names_the_cap(capsys, command):
    code, said, _ = cli(capsys, command, "--help")
    assert code == 0
    text = " ".join(said.split())
    if command == "play":  # a game in the terminal plays on no workers
        assert "--jobs" not in text
        return
    assert "Workers (-1: all)" not in text
    assert f"at most {local.PLAYERS_PER_CORE} a core" in text


def _one_core(monkeypatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)


def _capped_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("--jobs")]


HUGE = f"--jobs 100000: {local.PLAYERS_PER_CORE} players played (at most "
HUGE += f"{local.PLAYERS_PER_CORE} a core)"


ONE_PART = "--jobs 100000: 1 player played (a player for each part of the run left to play)"
"""A command whose runs have one chunk each: one player plays each (threads start no more)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "runs", "line"),
    [
        (RUN, ["."], HUGE),
        ([*RUN, "--rules", "take=ends"], [".", "default-rules"], HUGE),
        (VARIANTS, ["default", "take=ends"], ONE_PART),
        (TUNE, ["verify/tuned", "verify/start"], ONE_PART),
    ],
    ids=["run", "run --rules", "variants", "tune"],
)
def test_a_huge_jobs_is_said_once(capsys, tmp_path, monkeypatch, command, runs, line):
    """The cap was written only to each run's manifest; a command of several runs says it
    once."""
    _one_core(monkeypatch)
    out = tmp_path / "out"
    code, said, err = cli(capsys, *command, "--jobs", "100000", "--out", str(out))
    assert code == 0, err
    most = local.PLAYERS_PER_CORE if line == HUGE else 1
    for run in runs:
        played = load(out / run).manifest["sessions"][-1]["players"]
        assert played["jobs_capped_to"] == most
    assert _capped_lines(said) == [line]


@pytest.mark.parametrize(("command", "jobs"), [(RUN, "2"), (TUNE, "1")], ids=["run", "tune"])
def test_jobs_within_the_cap_says_nothing_of_it(capsys, tmp_path, monkeypatch, command, jobs):
    """(A tuning's verification runs have one chunk each: ``--jobs 2`` plays them with one.)"""
    _one_core(monkeypatch)
    code, said, err = cli(capsys, *command, "--jobs", jobs, "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert _capped_lines(said) == []


def test_a_local_dask_cluster_records_its_cap(capsys, tmp_path, monkeypatch):
    """``--backend dask`` started a capped cluster and recorded nothing of it, so the run
    did not say so. The cluster's workers are threads here (the test starts no process)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster
    sizes = []

    def threaded(**kwargs):
        sizes.append(kwargs["n_workers"])
        return cluster(processes=False, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", threaded)
    monkeypatch.setattr(local, "PLAYERS_PER_CORE", 1)
    _one_core(monkeypatch)
    out = tmp_path / "run"
    args = ["tournament", "low", "high", "greedy", "--players", "3", "--games", "6", "--seed", "1"]
    code, said, err = cli(capsys, *args, "--backend", "dask", "--jobs", "100000", "--out", str(out))
    assert code == 0, err
    assert sizes == [1]
    assert load(out).manifest["sessions"][-1]["players"]["jobs_capped_to"] == 1
    assert _capped_lines(said) == ["--jobs 100000: 1 player played (at most 1 a core)"]


def test_a_dask_cluster_as_large_as_asked_records_no_cap():
    from tournaments import parallel

    stats: dict[str, int] = {"jobs_capped_to": 9}
    parallel.record_cap(stats, 1)
    assert stats == {}


# ----------------------------------------------------------------------------- strategy files
@pytest.mark.parametrize(
    ("name", "said"),
    [("sub ", "'sub '"), (" sub", "' sub'"), ("sub\tx", "'sub\\tx'"), ("sub", "sub")],
    ids=repr,
)
def test_a_folder_named_as_a_strategy_file_is_quoted_as_the_missing_file_is(tmp_path,
                                                                            monkeypatch,
                                                                            name, said):  # fmt: skip
    """``sub :A`` said "sub  is a folder": the space could not be seen."""
    from strategies.user_code import load_file

    monkeypatch.chdir(tmp_path)
    (tmp_path / name).mkdir()
    with pytest.raises(ValueError) as exc:
        load_file(name)
    assert str(exc.value) == f"{said} is a folder, not a strategy file (name a .py file in it)"
