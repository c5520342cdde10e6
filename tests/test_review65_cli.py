"""The advice on an unfinished run (``tournaments.run_state``: "continue it with '...'") names
a --precision run's target and cap from its manifest (``precision_run``) only where the
resume takes them: a value edited by hand that no resume takes (a target past a float's
range, a cap past a run's most games or below what the run holds) leaves the plain resume,
which works, never a traceback or a command refused; a gauntlet, which has no --precision, is
never told to take one. A cap the resume takes is still named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import SMALL_PRECISION, advice, cli, doc_says, stopped

PRECISION = SMALL_PRECISION
"""A precision run of 6 games a deal, a chunk a deal: 30 games first, 5 chunks."""


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


@pytest.fixture(scope="module")
def cut(tmp_path_factory) -> Path:
    """The precision run stopped by Ctrl-C once 2 of its 5 first chunks are written."""
    out = tmp_path_factory.mktemp("cut") / "run"
    code, _, err = stopped(*PRECISION, "--out", str(out))
    assert code == 130, err
    return out


def _kept(src: Path, dest: Path, kept: object) -> Path:
    """A copy of the run in ``src`` whose manifest keeps ``kept`` as its precision run."""
    out = Path(shutil.copytree(src, dest))
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["precision_run"] = kept
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kept", [
    {"precision": 10**400, "max_games": None},  # a whole number no float holds
    {"precision": 0.1, "max_games": 2**32},  # past a run's most games
    {"precision": 0.1, "max_games": 29},  # below the 30 games the run asked first
])  # fmt: skip
def test_advice_from_a_damaged_precision_run_is_the_plain_resume_that_works(
    cut, tmp_path, capsys, kept
):
    out = _kept(cut, tmp_path / "run", kept)
    command = advice(out)
    assert command == ["leaves", "tournament", "--resume", "--out", str(out)]
    code, said, err = cli(capsys, *command[1:], "--jobs", "1")
    assert code == 0, err
    assert "18 of 30 games in" in said and "precision" not in said, said  # a plain run's
    doc_says(
        "tournaments.md",
        r"a value there that a resume would refuse, as a file edited by "
        r"hand may hold, is left out: the advice is then the plain `--resume`",
    )


def test_a_cap_the_resume_takes_is_still_named_and_followed(cut, tmp_path, capsys):
    """Guards the advice as it was: the run's own cap, and one of its first --games."""
    out = _kept(cut, tmp_path / "run", {"precision": 0.1, "max_games": 30})
    command = advice(out)
    assert command[-4:] == ["--precision", "0.1", "--max-games", "30"], command
    code, said, err = cli(capsys, *command[1:], "--jobs", "1")
    assert code == 0, err
    assert "18 of 30 games in" in said
    assert "precision: 30 games; too few deals for an interval (cap reached)" in said


def test_a_resumed_cap_is_refused_as_the_advice_leaves_it_out(cut, tmp_path, capsys):
    """The refusal and the advice keep to one rule (``run_state.cap_resumes``)."""
    from tournaments.run_state import cap_resumes

    assert not cap_resumes(29, 30, 5, 6) and cap_resumes(30, 30, 5, 6)
    out = Path(shutil.copytree(cut, tmp_path / "run"))
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--precision",
                       "0.1", "--max-games", "29", "--jobs", "1")  # fmt: skip
    assert code == 2
    assert "--max-games (29) must be at least the resumed run's --games (30)" in err


def test_a_gauntlet_is_never_told_to_resume_with_a_precision(tmp_path):
    run = tmp_path / "g"  # 2 chunks a side: stopped after 2, it is unfinished
    code, _, err = stopped("gauntlet", "greedy", "--against", "low", "--players", "3", "--seed",
                           "1", "--jobs", "1", "--games", "4000", "--out", str(run))  # fmt: skip
    assert code == 130, err
    out = _kept(run, tmp_path / "kept", {"precision": 0.5, "max_games": 600})
    assert advice(out) == ["leaves", "gauntlet", "--resume", "--out", str(out)]


class _Killed(BaseException):
    """A stop no handler sees (SIGKILL, a power cut): the manifest still says "running"."""


def test_a_new_run_killed_in_its_first_stage_is_advised_its_precision_and_cap(tmp_path, capsys):
    """docs/tournaments.md: the manifest holds the run's --precision and --max-games from its
    first save (``Tournament.run``'s ``keep``), so a run killed outright in its first stage,
    which no handler of the command's outlives, is advised the command that continues it."""
    from tournaments.runner import Tournament

    def killed(self, pending, runlog, players, progress):
        raise _Killed

    out = tmp_path / "run"
    with pytest.MonkeyPatch.context() as mp, pytest.raises(_Killed):
        mp.setattr(Tournament, "_play", killed)
        cli(capsys, *PRECISION, "--out", str(out))
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    assert advice(out) == ["leaves", "tournament", "--resume", "--out", str(out),
                            "--precision", "0.1", "--max-games", "60"]  # fmt: skip
    doc_says(
        "tournaments.md",
        r"The manifest holds them from the run's first save, so a run killed outright "
        r"\(`kill -9`, a power cut\), even in its first stage, is advised them too",
    )
