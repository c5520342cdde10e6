"""What the manifest keeps of a --precision run (``precision_run``) as its commands go on: a
run killed in a later stage keeps the target and cap each stage's save writes; a plain resume
of it, killed, drops them, so the advice names the resume that was played; a run from before
the entry, resumed with --precision, gains it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.helpers import SMALL_PRECISION, cli, stopped

PRECISION = SMALL_PRECISION
"""A precision run of 6 games a deal, a chunk a deal: 30 games first, 5 chunks; it grows."""

FLAGS = ["--precision", "0.1", "--max-games", "60"]


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


class _Killed(BaseException):
    """A stop no handler sees (SIGKILL, a power cut): the manifest still says "running"."""


def _killed_in_play(capsys, call: int, *args: str) -> None:
    """``leaves ARGS`` killed outright as the runner starts playing its ``call``-th stage."""
    from tournaments.runner import Tournament

    real, calls = Tournament._play, []

    def play(self, pending, runlog, players, progress):
        calls.append(1)
        if len(calls) == call:
            raise _Killed
        return real(self, pending, runlog, players, progress)

    with pytest.MonkeyPatch.context() as mp, pytest.raises(_Killed):
        mp.setattr(Tournament, "_play", play)
        cli(capsys, *args)


def _advice(out: Path) -> list[str]:
    from tournaments.run_state import run_state

    first = run_state(out).lines()[0]
    return shlex.split(re.search(r"continue it with '(.*)'\.$", first)[1])


def _kept(out: Path) -> object:
    return json.loads((out / "manifest.json").read_text()).get("precision_run")


def test_a_run_killed_in_its_second_stage_keeps_its_precision_and_cap(tmp_path, capsys):
    out = tmp_path / "run"
    _killed_in_play(capsys, 2, *PRECISION, "--out", str(out))
    assert json.loads((out / "manifest.json").read_text())["spec"]["n_games"] > 30  # grown
    assert _kept(out) == {"precision": 0.1, "max_games": 60}
    assert _advice(out) == ["leaves", "tournament", "--resume", "--out", str(out), *FLAGS]


def test_a_plain_resume_killed_drops_what_the_precision_run_kept(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = stopped(*PRECISION, "--out", str(out))
    assert code == 130, err
    assert _kept(out) == {"precision": 0.1, "max_games": 60}
    _killed_in_play(capsys, 1, "tournament", "--resume", "--out", str(out), "--jobs", "1")
    assert _kept(out) is None
    assert _advice(out) == ["leaves", "tournament", "--resume", "--out", str(out)]


def test_a_run_from_before_the_entry_resumed_with_a_precision_gains_it(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = stopped(*PRECISION, "--out", str(out))
    assert code == 130, err
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["precision_run"]  # as a run written before the entry holds it
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert _advice(out) == ["leaves", "tournament", "--resume", "--out", str(out)]
    _killed_in_play(capsys, 1, "tournament", "--resume", "--out", str(out), "--jobs", "1",
                    *FLAGS)  # fmt: skip
    assert _advice(out) == ["leaves", "tournament", "--resume", "--out", str(out), *FLAGS]


def test_verify_names_the_command_that_continues_a_gauntlet_and_it_does(tmp_path, capsys):
    """Was: 'run unfinished (--resume finishes it)', and ``leaves tournament --resume`` refuses
    a gauntlet: verify names the command every other advice names (``RunState.command``)."""
    from tournaments.run_state import run_state

    out = tmp_path / "g"
    code, _, err = stopped("gauntlet", "greedy", "--against", "low", "--players", "3", "--seed",
                           "1", "--jobs", "1", "--games", "4000", "--out", str(out))  # fmt: skip
    assert code == 130, err
    code, said, err = cli(capsys, "verify", str(out))
    assert code == 0, err
    found = re.search(r"; run unfinished \('([^']*)' finishes it\)$", said.strip())
    assert found, said
    assert f"continue it with '{found[1]}'" in run_state(out).lines()[0]
    command = shlex.split(found[1])
    assert command == ["leaves", "gauntlet", "--resume", "--out", str(out)]
    code, _, err = cli(capsys, *command[1:], "--jobs", "1")  # --jobs changes no result
    assert code == 0, err
    code, said, err = cli(capsys, "verify", str(out))
    assert code == 0 and said.strip().endswith("run complete"), said
