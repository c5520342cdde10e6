"""A ``leaves tournament --precision`` run plays in stages, each ending with the manifest
"complete"; only once the run stops growing does its ``precision`` record say the target
reached or the cap met. A run killed outright between two stages (after one stage, before
the next one's first save) is therefore unfinished (``run_state.between_stages``): every
advice (the state's lines, ``leaves report``, ``leaves verify``) names the command that
continues it with its kept target and cap, and following it literally finishes the run. A run
that reached its target, or its cap, is complete with no advice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import SMALL_RUN, advice, cli, doc_says

PRECISION = (*SMALL_RUN, "--chunk-size", "6", "--games", "30")
"""A run of 6 games a deal, a chunk a deal: 30 games first (5 chunks)."""

COMMAND = ["--precision", "0.1", "--max-games", "60"]
"""A target 60 games never reach: the cap stops the run at its second stage."""


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


class _Killed(BaseException):
    """A stop no handler sees (SIGKILL, a power cut)."""


def _killed_at_stage(capsys, stage: int, *args: str) -> None:
    """Play ``leaves ARGS``, killed as its ``stage``-th ``Tournament.run`` begins (nothing of
    that stage saved): the stage before it ended with the manifest "complete"."""
    from tournaments.runner import Tournament

    calls, run = [0], Tournament.run

    def killed(self, *a, **kw):
        calls[0] += 1
        if calls[0] == stage:
            raise _Killed
        return run(self, *a, **kw)

    with pytest.MonkeyPatch.context() as mp, pytest.raises(_Killed):
        mp.setattr(Tournament, "run", killed)
        cli(capsys, *args)
    capsys.readouterr()


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _verify(capsys, out: Path) -> str:
    code, said, err = cli(capsys, "verify", str(out))
    assert code == 0, err
    return said


def test_a_run_killed_between_two_stages_is_advised_to_continue(tmp_path, capsys):
    from tournaments.run_state import run_state

    doc_says(
        "tournaments.md",
        r"one killed between two stages \(its manifest \"complete\" before its target was "
        r"recorded reached or its cap met\) is unfinished and advised the same command\.",
    )

    out = tmp_path / "run"
    _killed_at_stage(capsys, 2, *PRECISION, *COMMAND, "--out", str(out))
    manifest = _manifest(out)
    assert manifest["status"] == "complete" and "precision" not in manifest  # as killed
    command = ["leaves", "tournament", "--resume", "--out", str(out), *COMMAND]
    assert advice(out) == command
    first = run_state(out).lines()[0]
    assert first.startswith("Unfinished run: 30 games played by a --precision run stopped "
                            "between two stages"), first  # fmt: skip
    assert run_state(out).extent() == "30 games (unfinished: --precision stopped between stages)"
    assert f"run unfinished ('{' '.join(command)}' finishes it)" in _verify(capsys, out)
    code, said, err = cli(capsys, "report", str(out))
    assert code == 0, err
    assert "Unfinished run: 30 games played" in said + err
    code, said, err = cli(capsys, *command[1:], "--jobs", "1")  # the advice, as printed
    assert code == 0, err
    assert "precision +-0.1 percentage points NOT reached (cap on games): 60 games" in said, said
    assert run_state(out).lines() == [] and run_state(out).extent() == "60 games (finished)"
    assert "run complete" in _verify(capsys, out)


def test_a_run_that_reached_its_target_is_complete(tmp_path, capsys):
    from tournaments.run_state import run_state

    out = tmp_path / "run"
    code, said, err = cli(capsys, *PRECISION, "--precision", "50", "--out", str(out))
    assert code == 0, err
    assert "precision +-50 percentage points reached: 60 games" in said, said
    assert _manifest(out)["precision"]["reached"] is True
    assert run_state(out).lines() == [] and not run_state(out).unfinished
    assert "run complete" in _verify(capsys, out)


def test_a_resume_to_a_lower_target_killed_between_stages_is_unfinished(tmp_path, capsys):
    """The record of the target reached before is no record of the new one."""
    out = tmp_path / "run"
    code, _, err = cli(capsys, *PRECISION, "--precision", "50", "--out", str(out))
    assert code == 0, err
    lower = ["--precision", "0.1", "--max-games", "120"]  # room for a stage past its 60 games
    _killed_at_stage(capsys, 2, "tournament", "--resume", "--out", str(out), "--jobs", "1",
                     *lower)  # fmt: skip
    assert _manifest(out)["precision"]["target"] == 50  # the old record, kept
    command = ["leaves", "tournament", "--resume", "--out", str(out), *lower]
    assert advice(out) == command
    assert f"'{' '.join(command)}' finishes it" in _verify(capsys, out)


def test_verify_names_the_command_from_the_manifest_alone(tmp_path, capsys, monkeypatch):
    """No chunk's aggregates are read to name it: the run's chunks are not merged again."""
    import tournaments.run_state as rs

    out = tmp_path / "run"
    _killed_at_stage(capsys, 2, *PRECISION, *COMMAND, "--out", str(out))

    def unread(*_a, **_k):
        raise AssertionError("the run's results were read")

    monkeypatch.setattr(rs, "_forfeits", unread)
    assert "--precision 0.1 --max-games 60' finishes it" in _verify(capsys, out)
