"""A misspelt strategy is offered names close to it only; a resume that disagrees with the run
groups the counts it names; a run stopped once every game is played says that nothing is left
to play and only the summary was cut short (the resume prints it), not that it continues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tournaments.runner as runner_mod
from tests.helpers import cli, one_error_line

GAUNTLET = ["gauntlet", "low", "--against", "taker", "--baseline", "high", "--players", "3",
            "--games", "12", "--seed", "2", "--jobs", "1", "--no-progress"]  # fmt: skip
TOURNAMENT = ["tournament", "low", "high", "--players", "3", "--games", "12", "--seed", "2",
              "--jobs", "1", "--no-progress"]  # fmt: skip


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("lowe", "did you mean 'low'?"),  # it offered 'low' or 'blocker'
        ("blok", "did you mean 'blocker'?"),  # and 'low'
        ("tker", "did you mean 'taker'?"),  # and 'counter' or 'blocker'
        ("stak", "did you mean 'taker'?"),
        ("gredy", "did you mean 'greedy'?"),
        ("count", "did you mean 'counter'?"),
        ("a", "known strategies: "),  # it offered three holding an 'a'
        ("xyz", "known strategies: "),
    ],
)  # fmt: skip
def test_a_misspelt_strategy_is_offered_close_names_only(capsys, typed, offered, tmp_path):
    code, _, err = cli(capsys, "tournament", typed, "high", "--out", str(tmp_path / "o"))
    line = one_error_line(err)
    assert code == 2 and line.startswith(f"leaves: error: unknown strategy '{typed}'; {offered}")
    assert "did you mean" not in offered or line.endswith(offered)
    if "known" in offered:  # every name, in order (a file loaded by an earlier test may add one)
        assert ", blocker, counter, " in f", {line.partition(offered)[2]}", line


def test_a_resume_names_the_runs_games_with_grouped_digits(capsys, tmp_path):
    out = tmp_path / "run"
    assert cli(capsys, *GAUNTLET, "--out", str(out))[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["spec"]["games_asked"] = 20_000_000  # as a big run holds it
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--games", "1000")
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: --games 1,000 differs from this run's games "
        "20,000,000: resume with --games 20000000, or drop --games"
    )  # it said "games 20000000"


def _interrupt_summing_up(monkeypatch) -> None:
    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod, "finish", stop)  # merging the totals of every chunk


@pytest.mark.parametrize(("args", "command"), [(GAUNTLET, "gauntlet"), (TOURNAMENT, "tournament")])
def test_a_run_interrupted_while_summing_up_says_nothing_is_left_to_play(
    capsys, monkeypatch, tmp_path, args, command
):
    out = tmp_path / "run"
    assert cli(capsys, *args, "--out", str(out))[0] == 0
    with monkeypatch.context() as patch:
        _interrupt_summing_up(patch)
        code, _, err = cli(capsys, command, "--resume", "--out", str(out))
    assert code == 130
    assert err.splitlines()[-2:] == [
        f"interrupted: nothing is left to play in {out}, only the summary was cut short "
        f"('leaves {command} --resume --out {out}' prints it)",
        "leaves: error: interrupted",
    ]  # it said "'leaves gauntlet --resume --out RUN' continues it"
    code, said, err = cli(capsys, command, "--resume", "--out", str(out))
    assert code == 0 and "low" in said, err  # the summary, printed by the resume


def test_a_run_interrupted_with_games_left_names_what_continues_it(capsys, monkeypatch, tmp_path):
    out = tmp_path / "run"

    def stop(self, pending, *args, **kwargs):
        if pending:
            raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod.Tournament, "_play", stop)
    code, _, err = cli(capsys, *GAUNTLET, "--out", str(out))
    assert code == 130
    assert (
        err.splitlines()[-2] == f"interrupted: 'leaves gauntlet --resume --out {out}' continues it"
    )


def test_a_fresh_run_interrupted_after_its_last_game_says_nothing_is_left(capsys, monkeypatch,
                                                                      tmp_path):  # fmt: skip
    out = tmp_path / "run"
    _interrupt_summing_up(monkeypatch)
    code, _, err = cli(capsys, *TOURNAMENT, "--out", str(out))
    assert code == 130 and err.splitlines()[-2].startswith(
        f"interrupted: nothing is left to play in {out}"
    )
    assert Path(out / "manifest.json").is_file()
