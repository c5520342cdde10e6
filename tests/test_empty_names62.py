"""Empty names and the --jobs cap on the command line: an empty name given for a file or a
folder (``--out ''``, ``--config ''``, ``--record ''``, a run's ``''``) is said to be empty in
one line (exit 2) and nothing is written, not read as the current folder or left out; a
strategy file's name that does not read as itself is quoted; a run that plays with fewer
players than ``--jobs`` asked says so in one line."""

from __future__ import annotations

import os

import pytest

from tests.helpers import cli, one_error_line, processes_only, usage_error
from tournaments import load, local

RUN = ["low", "high", "greedy", "--players", "3", "--games", "6", "--seed", "1"]
PARTS = ["low", "high", "greedy", "--players", "3", "--games", "24", "--seed", "1",
         "--chunk-size", "6"]  # fmt: skip
"""A run of 4 parts: as many players as one core starts play it."""
PARTS_LINE = "(a player for each part of the run left to play)"
EMPTY = "an empty name was given, not a"


# ----------------------------------------------------------------------------- --out ''
@pytest.mark.parametrize(
    "command",
    [
        ["tournament", *RUN],
        ["gauntlet", "low", "--against", "high", "--players", "3", "--games", "6"],
        ["report", "runs/a"],
        ["compare", "runs/a", "runs/b"],
    ],
    ids=lambda c: c[0],
)
def test_an_empty_out_is_refused_and_nothing_is_written_here(capsys, tmp_path, monkeypatch,
                                                             command):  # fmt: skip
    """``--out ''`` wrote the tournament into the current folder (it was empty)."""
    monkeypatch.chdir(tmp_path)
    line = usage_error(capsys, [*command, "--out", ""])
    assert f"--out: {EMPTY} directory" in line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["", "  "], ids=repr)
def test_an_empty_config_is_refused_not_left_out(capsys, tmp_path, name):
    """``--config ''`` was ignored: the run went ahead with the defaults."""
    out = tmp_path / "run"
    line = usage_error(capsys, ["tournament", *RUN, "--config", name, "--out", str(out)])
    assert f"--config: {EMPTY} file" in line
    assert not out.exists()


def test_an_empty_record_is_said_to_be_empty(capsys, tmp_path):
    """It said "cannot write to : Is a directory (--record)"."""
    out = tmp_path / "run"
    line = usage_error(capsys, ["tournament", *RUN, "--record", "", "--out", str(out)])
    assert f"--record: {EMPTY} file" in line
    assert not out.exists()


@pytest.mark.parametrize(
    ("key", "value", "noun"),
    [("out", '""', "directory"), ("record", '""', "file"), ("load", '[""]', "file")],
)
def test_an_empty_name_in_a_config_file_is_said_to_be_empty(capsys, tmp_path, monkeypatch,
                                                             key, value, noun):  # fmt: skip
    """``out = ""`` in the file wrote the run into the current folder."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "t.toml"
    lines = ['strategies = ["low", "high", "greedy"]', "players = 3", "games = 6"]
    lines += [f"{key} = {value}"] + ([] if key == "out" else ['out = "run"'])
    config.write_text("\n".join(lines) + "\n")
    line = usage_error(capsys, ["tournament", "--config", str(config)])
    assert f"--config: {key} in {config}: {EMPTY} {noun}" in line
    assert os.listdir(tmp_path) == ["t.toml"]


# ----------------------------------------------------------------------------- a run's ''
@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["replay", ""], f"RECORD.jsonl|RUN_DIR: {EMPTY} record file or run directory"),
        (["report", ""], f"RUN_DIR: {EMPTY} run directory"),
        (["verify", ""], f"RUN_DIR: {EMPTY} run directory"),
        (["compare", "", "runs/b"], f"RUN_A: {EMPTY} run directory"),
        (["compare", "runs/a", " "], f"RUN_B: {EMPTY} run directory"),
    ],
    ids=lambda c: " ".join(map(repr, c)) if isinstance(c, list) else "",
)
def test_an_empty_run_name_is_said_to_be_empty(capsys, tmp_path, monkeypatch, command, said):
    """``replay ''`` said " is a directory but not a tournament run"; ``report ''`` talked
    about "."; ``verify ''`` listed the runs of the current folder."""
    monkeypatch.chdir(tmp_path)
    line = usage_error(capsys, command)
    assert line.startswith(f"leaves: error: {said} (see 'leaves {command[0]} --help')"), line
    assert os.listdir(tmp_path) == []


# ----------------------------------------------------------------------------- strategy files
def test_a_strategy_file_name_with_a_trailing_space_is_quoted(capsys, tmp_path, monkeypatch):
    """It said "no such strategy file: sub/bot.py " where the space cannot be seen."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bot.py").write_text("")
    args = ["tournament", "sub/bot.py :A", "low", "--players", "2", "--games", "4"]
    code, _, err = cli(capsys, *args, "--out", str(tmp_path / "run"))
    assert code == 2
    assert one_error_line(err).endswith("no such strategy file: 'sub/bot.py '")


def test_a_strategy_file_name_that_reads_as_itself_is_not_quoted():
    from strategies.user_code import load_file

    with pytest.raises(ValueError, match=r"^no such strategy file: sub/none\.py$"):
        load_file("sub/none.py")


# ----------------------------------------------------------------------------- --jobs
def _one_core(monkeypatch) -> None:
    """This machine has one core: a run starts at most ``PLAYERS_PER_CORE`` players."""
    monkeypatch.setattr(os, "cpu_count", lambda: 1)


def _capped_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("--jobs")]


def test_a_huge_jobs_says_how_many_players_played(capsys, tmp_path, monkeypatch):
    """The cap was written only to the manifest."""
    _one_core(monkeypatch)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", *PARTS, "--jobs", "100000", "--out", str(out))
    assert code == 0, err
    most = local.PLAYERS_PER_CORE
    assert _capped_lines(said) == [f"--jobs 100000: {most} players played (at most {most} a core)"]
    assert load(out).manifest["sessions"][-1]["players"]["jobs_capped_to"] == most


def test_fewer_parts_than_jobs_says_one_player_a_part(capsys, tmp_path, monkeypatch):
    """Worker processes: one chunk to play starts no worker beyond the driver."""
    _one_core(monkeypatch)
    processes_only(monkeypatch)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", *RUN, "--jobs", "3", "--out", str(out))
    assert code == 0, err
    assert load(out).manifest["sessions"][-1]["players"]["jobs_capped_to"] == 1
    assert _capped_lines(said) == [
        "--jobs 3: 1 player played (a player for each part of the run left to play)"
    ]


@pytest.mark.parametrize("jobs", ["1", "2", "-1"])
def test_jobs_within_the_cap_says_nothing_of_it(capsys, tmp_path, monkeypatch, jobs):
    _one_core(monkeypatch)
    code, said, err = cli(capsys, "tournament", *PARTS, "--jobs", jobs,
                          "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    assert _capped_lines(said) == []


def test_a_gauntlet_with_a_huge_jobs_says_so_too(capsys, tmp_path, monkeypatch):
    _one_core(monkeypatch)
    out = tmp_path / "g"
    args = ["gauntlet", "low", "--against", "high", "--players", "3", "--games", "12"]
    code, said, err = cli(capsys, *args, "--jobs", "100000", "--out", str(out))
    assert code == 0, err
    parts = 2  # its run: 24 games (12 a side) in 2 chunks, fewer than a core's 4 players
    assert load(out).manifest["sessions"][-1]["players"]["jobs_capped_to"] == parts
    assert _capped_lines(said) == [f"--jobs 100000: {parts} players played {PARTS_LINE}"]


@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
def test_the_jobs_help_names_the_cap(capsys, command):
    code, said, _ = cli(capsys, command, "--help")
    assert code == 0
    assert f"at most {local.PLAYERS_PER_CORE} a core" in " ".join(said.split())


def test_the_docs_say_the_cap_as_the_run_says_it(monkeypatch):
    """docs/tournaments.md and docs/cli.md quote the line a run on two cores prints."""
    from pathlib import Path

    from leaves_cli.tournament_parts import jobs_line

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    most = 2 * local.PLAYERS_PER_CORE
    said = jobs_line({"sessions": [{"players": {"jobs_capped_to": most}}]}, 0, 100_000)
    docs = Path(__file__).resolve().parents[1] / "docs"
    tournaments = (docs / "tournaments.md").read_text(encoding="utf-8")
    assert f"at most {local.PLAYERS_PER_CORE} players a core" in tournaments
    assert f"on two cores\n`{said}`" in tournaments
    assert f"(`{said}`)" in (docs / "cli.md").read_text(encoding="utf-8")
