"""A resume's refusals name each value where it came from: a flag typed by its flag, a config
file's value by its key in the file ("games in c.toml"), never by a flag no one typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves_cli.main import main

THREE = ["greedy", "low", "high"]


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def cli(capsys, *args: object) -> tuple[int, str]:
    """The exit status and what the command wrote to stderr."""
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def run(tmp_path, capsys) -> Path:
    """A finished run of 30 games (10 deals of 3 seats)."""
    out = tmp_path / "run"
    args = ["tournament", *THREE, "--players", "3", "--games", "30", "--jobs", "1"]
    assert cli(capsys, *args, "--seed", "7", "--out", out)[0] == 0
    return out


def _resume(capsys, out: Path, *extra: object, config: str | None = None) -> tuple[int, str]:
    if config is None:
        return cli(capsys, "tournament", "--out", out, "--resume", "--jobs", "1", *extra)
    path = out.parent / "c.toml"
    path.write_text(f'{config}\nout = "{out}"\nresume = true\njobs = 1\n')
    return cli(capsys, "tournament", "--config", path, *extra)


GROW = [
    ("0", "must be at least 1, got 0"),
    ("12", "12 is fewer than the 30 games the run holds already (asked 30): a run grows, it "
           "never shrinks (--add GAMES adds more)"),
]  # fmt: skip


@pytest.mark.parametrize(("games", "said"), GROW)
def test_a_typed_games_is_named_by_its_flag(run, capsys, games, said):
    code, err = _resume(capsys, run, "--games", games)
    assert code == 2
    assert f"leaves: error: cannot resume {run}: --games {said}" in err


@pytest.mark.parametrize(("games", "said"), GROW)
def test_a_config_files_games_is_named_by_its_key(run, capsys, games, said):
    """It said "--games must be at least 1, got 0", a flag no one typed."""
    code, err = _resume(capsys, run, config=f"games = {games}")
    assert code == 2
    config = run.parent / "c.toml"
    assert f"leaves: error: cannot resume {run}: games in {config} {said}" in err
    assert "--games" not in err


def test_a_typed_flag_over_the_file_is_named_as_typed(run, capsys):
    code, err = _resume(capsys, run, "--games", "0", config="games = 60")
    assert code == 2
    assert f"cannot resume {run}: --games must be at least 1, got 0" in err


@pytest.mark.parametrize(
    ("option", "config", "said"),
    [
        ("--seed", "seed = 8", "seed 8 differs from this run's seed 7"),
        ("--target", "target = 99", "target 99 differs from this run, which has no target"),
        ("--players", "players = 4", "players 4 differs from this run's players 3"),
    ],
)
def test_a_disagreeing_setting_is_named_where_it_came_from(run, capsys, option, config, said):
    key, value = config.split(" = ")
    typed = _resume(capsys, run, option, value)
    assert typed[0] == 2
    assert f"cannot resume {run}: {option} {said.removeprefix(key + ' ')}" in typed[1]
    filed = _resume(capsys, run, config=config)
    assert filed[0] == 2
    where = run.parent / "c.toml"
    assert f"cannot resume {run}: {key} in {where} {said.removeprefix(key + ' ')}" in filed[1]
    assert option not in filed[1]
