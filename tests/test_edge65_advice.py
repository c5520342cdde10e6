"""The advice an unfinished run gets wherever its state is said ("continue it with '...'",
``tournaments.run_state``) works when followed to the letter: a --precision run stopped by
Ctrl-C, by a dead worker or killed outright goes on to its target within its cap (the command
without them played the stage it held and stopped, a plain run); a later plain resume drops
them again; a sequential gauntlet goes on to the decision an unstopped one reaches, and one
a dead worker stopped says so in one line that names that same command (it ended in a
traceback's last line, naming no command). The cap
that lets a precision run play on is the same figure in the refusal of a cap below the run
and in the line of a resume that had nothing to do."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import (
    SMALL_RUN,
    TerminatedWorkerError,
    advice,
    cli,
    cli_output,
    ctrl_c_after_two_chunks,
    dead_worker_after_two_chunks,
    named_command,
)

BEGIN = (*SMALL_RUN, "--chunk-size", "6")
"""A small tournament: 6 games a deal (one table of 3, 6 seatings), a chunk a deal."""
PRECISION = (*BEGIN, "--games", "30", "--precision", "0.1", "--max-games", "60")
"""It grows to its cap, 60 games, its target never reached."""


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


def _spec(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["spec"]


def _follow(capsys, command: list[str]) -> str:
    """Run ``command`` as printed (``--jobs 1`` added): its stdout (exit 0)."""
    assert command[:2] == ["leaves", "tournament"] or command[:2] == ["leaves", "gauntlet"]
    code, said, err = cli(capsys, *command[1:], "--jobs", "1")
    assert code == 0, err
    return said


class Killed(BaseException):
    """A stop no handler sees (SIGKILL, a power cut): the manifest still says "running"."""


@contextmanager
def _killed_at_the_first_chunk_to_play():
    """Within it, a run dies as it starts the first chunk it has to play, saying nothing and
    recording no stop."""
    from tournaments import Tournament

    real = Tournament._play

    def killed(self, pending, runlog, players, progress):
        if pending:
            raise Killed
        real(self, pending, runlog, players, progress)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Tournament, "_play", killed)
        yield


@contextmanager
def _stopped_in_the_second_batch(error: BaseException):
    """Within it, a sequential gauntlet stops with ``error`` before its second batch plays a
    chunk (``KeyboardInterrupt``: as Ctrl-C stops it)."""
    from tournaments import Tournament

    real, batches = Tournament._play, []

    def second_stops(self, pending, runlog, players, progress):
        batches.append(1)
        if len(batches) == 2:
            runlog.save("interrupted", force=True)
            raise error
        real(self, pending, runlog, players, progress)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Tournament, "_play", second_stops)
        yield


@pytest.mark.parametrize(("stop", "code"),
                         [(ctrl_c_after_two_chunks, 130), (dead_worker_after_two_chunks, 1)])  # fmt: skip
def test_a_stopped_precision_run_s_advice_continues_it_to_its_cap(tmp_path, capsys, stop, code):
    out = tmp_path / "run"
    with stop():
        stopped, _, err = cli(capsys, *PRECISION, "--out", str(out))
    assert stopped == code and _spec(out)["n_games"] == 30, err
    command = advice(out)
    assert command[-4:] == ["--precision", "0.1", "--max-games", "60"], command
    said = _follow(capsys, command)
    assert _spec(out)["n_games"] == 60
    assert "precision +-0.1 percentage points NOT reached (cap on games): 60 games," in said


def test_a_killed_precision_run_s_advice_continues_it(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = cli(capsys, *PRECISION[:-1], "30", "--out", str(out))  # its first stage
    assert code == 0 and _spec(out)["n_games"] == 30, err
    with _killed_at_the_first_chunk_to_play(), pytest.raises(Killed):
        cli(capsys, "tournament", "--out", str(out), "--resume", "--precision", "0.1",
            "--max-games", "60", "--jobs", "1")  # fmt: skip
    assert _spec(out)["n_games"] > 30
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    said = _follow(capsys, advice(out))
    assert _spec(out)["n_games"] == 60 and "NOT reached (cap on games): 60 games," in said


def test_a_plain_resume_drops_the_precision_from_the_advice(tmp_path, capsys):
    out = tmp_path / "run"
    with ctrl_c_after_two_chunks():
        cli(capsys, *PRECISION, "--out", str(out))
    assert "--precision" in advice(out)
    with ctrl_c_after_two_chunks():
        code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--jobs", "1")
    assert code == 130, err
    note = [ln for ln in err.splitlines() if ln.startswith("note: this run was played to a --pr")]
    assert len(note) == 1 and "--precision" in note[0]  # said once, as the resume starts
    rest = err.replace(note[0], "")
    assert rest.count("continues it") == 1 and "--precision" not in rest
    assert advice(out) == ["leaves", "tournament", "--resume", "--out", str(out)]


def test_a_kept_target_no_command_could_take_is_not_named(tmp_path, capsys):
    from tournaments.run_state import PRECISION_RUN

    out = tmp_path / "run"
    with ctrl_c_after_two_chunks():
        cli(capsys, *PRECISION, "--out", str(out))
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest[PRECISION_RUN] == {"precision": 0.1, "max_games": 60}
    for bad in ({"precision": "0.1"}, {"precision": -1.0}, {"precision": 0.1, "max_games": 0},
                {"precision": True}, []):  # fmt: skip
        path.write_text(json.dumps({**manifest, PRECISION_RUN: bad}))
        assert advice(out) == ["leaves", "tournament", "--resume", "--out", str(out)], bad


GAUNTLET = ("gauntlet", "greedy", "--against", "low", "--players", "3", "--jobs", "1",
            "--sequential", "--games", "120", "--max-games", "480")  # fmt: skip
"""A sequential gauntlet of several batches (40 deals first, 2 chunks a batch)."""


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> dict:
    """The test's record of the gauntlet played unstopped."""
    out = tmp_path_factory.mktemp("whole") / "run"
    code, _, err = cli_output(*GAUNTLET, "--out", str(out))
    assert code == 0, err
    record = json.loads((out / "manifest.json").read_text())["sequential"]
    assert record["finished"] and record["batches"] > 2
    return record


@pytest.mark.parametrize(("error", "code", "said"), [
    (KeyboardInterrupt(), 130, "interrupted: '(.*)' continues it"),
    (TerminatedWorkerError("A worker process managed by the executor was killed"), 1,
     r"leaves: error: a worker process died \(killed, or out of memory\); every finished chunk "
     "is kept: '(.*)' continues it"),
])  # fmt: skip
def test_a_stopped_sequential_gauntlet_s_advice_reaches_the_unstopped_decision(
    tmp_path, capsys, whole, error, code, said
):
    cut = tmp_path / "cut"
    with _stopped_in_the_second_batch(error):
        stopped, _, err = cli(capsys, *GAUNTLET, "--out", str(cut))
    assert stopped == code, err
    command = advice(cut)
    assert command == ["leaves", "gauntlet", "--resume", "--out", str(cut)]
    assert named_command(said, err) == command, err  # one line, traceback-free
    assert "Traceback" not in err and "--debug" not in err, err
    _follow(capsys, command)
    assert json.loads((cut / "manifest.json").read_text())["sequential"] == whole


def test_the_cap_that_plays_on_is_one_figure_in_the_refusal_and_the_nothing_to_do_line(
    tmp_path, capsys
):
    out = tmp_path / "run"
    code, _, err = cli(capsys, *PRECISION, "--out", str(out))
    assert code == 0 and _spec(out)["n_games"] == 60, err
    code, _, refused = cli(capsys, "tournament", "--out", str(out), "--resume", "--precision",
                           "0.1", "--max-games", "40")  # fmt: skip
    assert code == 2, refused
    named = re.search(r"([\d,]+) or more leaves room to play on", refused)[1]
    code, said, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--precision",
                          "0.1", "--max-games", "60", "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert said.count(f"--max-games {named} or more plays on") == 1, said
    _follow(capsys, ["leaves", "tournament", "--out", str(out), "--resume", "--precision", "0.1",
                     "--max-games", named.replace(",", "")])  # fmt: skip
    assert _spec(out)["n_games"] == 66
