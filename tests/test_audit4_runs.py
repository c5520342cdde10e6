"""Run folders at their edges: two processes playing into one folder (the lock), the state of a
run whose manifest says "running" (live or killed, told apart by the lock), ``leaves run``
with its output cut short, the sequential gauntlet's progress line without spread, and what
SIGTERM prints."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]
FIELD = ["greedy", "low", "high", "minimal"]
SMALL = [*FIELD, "--players", "4", "--games", "240", "--seed", "3", "--jobs", "1"]

HOLD = """
import sys
import time
from tournaments import storage
with storage.run_lock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""
"""A second process that holds a run's lock, as a live writer does, until its input ends (it
then ends in order) or it is killed."""

PROBE = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_SH)
print("probing", flush=True)
time.sleep(float(sys.argv[2]))
"""
"""A reader's probe of the lock that lasts ``argv[2]`` seconds (a real one lasts microseconds)."""


def _hold(out: Path) -> subprocess.Popen:
    """A process holding the lock of the run in ``out`` (started, lock held)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout.readline() == "held\n"
    return proc


def _end(proc: subprocess.Popen, kill: bool = False) -> None:
    """End the holder: in order (its lock let go and removed), or by SIGKILL."""
    if kill:
        proc.send_signal(signal.SIGKILL)
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()


def _as_killed(run: Path, keep: int) -> int:
    """Make a finished run look as a SIGKILL leaves one: the manifest recording the first
    ``keep`` chunks only, still "running". Returns the games it records."""
    m = json.loads((run / "manifest.json").read_text())
    per_chunk = m["units_done"] // m["spec"]["n_chunks"]
    m["integrity"]["chunks"] = {k: v for k, v in m["integrity"]["chunks"].items()
                                if int(k) < keep}  # fmt: skip
    for rel in m["integrity"]["files"]:
        (run / rel).unlink()
    m["integrity"]["files"] = {}
    m["status"], m["units_done"] = "running", keep * per_chunk
    (run / "manifest.json").write_text(json.dumps(m))
    return m["units_done"]


@pytest.fixture
def finished(tmp_path, capsys) -> Path:
    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--chunk-size", "48", "--out", str(run))[0] == 0
    return run


# ----------------------------------------------------------------------------- the lock
def test_a_second_writer_is_refused_while_another_process_plays_the_run(finished, capsys):
    """Two processes playing into one --out both played everything: a second writer is now
    refused at once, in one line naming the process, and writes nothing."""
    before = (finished / "manifest.json").read_bytes()
    holder = _hold(finished)
    try:
        code, out, err = cli(capsys, "tournament", *SMALL, "--chunk-size", "48", "--resume",
                             "--out", str(finished))  # fmt: skip
    finally:
        _end(holder)
    assert code == 1 and out == "", err
    assert err == (f"leaves: error: another process is playing this run in {finished} (pid "
                   f"{holder.pid}): wait for it to end, or stop it, then try again\n")  # fmt: skip
    assert (finished / "manifest.json").read_bytes() == before


def test_a_run_another_process_plays_is_refused_before_any_advice(finished, capsys):
    """Without --resume, a folder holding a run another process plays said "not empty: pass
    --resume" (or "pass --resume to continue it"), and --resume was then refused by the lock:
    the lock's refusal comes first."""
    holder = _hold(finished)
    try:
        code, out, err = cli(capsys, "tournament", *SMALL, "--chunk-size", "48", "--out",
                             str(finished))  # fmt: skip
    finally:
        _end(holder)
    assert code == 1 and out == "", err
    assert err.startswith("leaves: error: another process is playing this run in "), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", [
    ["tournament", *SMALL],
    ["gauntlet", "greedy", "--against", "low", "--games", "48", "--jobs", "1"],
    ["run", "--games", "1", "--players", "3", "--jobs", "1"],
])  # fmt: skip
def test_a_new_run_is_refused_in_a_folder_another_process_plays(command, tmp_path, capsys):
    """A folder whose lock another process holds (a run that has written no manifest yet)
    takes no second run: refused in one line, nothing written there but the holder's lock."""
    out = tmp_path / "out"
    holder = _hold(out)
    try:
        code, stdout, err = cli(capsys, *command, "--out", str(out))
    finally:
        _end(holder)
    assert code == 1 and stdout == "", err
    assert err.count("\n") == 1 and f"(pid {holder.pid})" in err, err
    assert err.startswith(f"leaves: error: another process is playing this run in {out}")
    assert not out.exists() or os.listdir(out) == []  # the holder removed its lock on ending


def test_a_killed_writer_leaves_no_lock_behind(finished, capsys):
    """The OS lets go of the lock of a process however it ends: a SIGKILLed writer's run is
    resumed at once, and a run that ends in order leaves no lock file."""
    from tournaments import storage

    assert not (finished / storage.LOCK).exists()  # finished in order
    _as_killed(finished, keep=2)
    _end(_hold(finished), kill=True)  # SIGKILL: its lock file stays, held by nobody
    assert (finished / storage.LOCK).exists()
    code, _, err = cli(capsys, "tournament", *SMALL, "--chunk-size", "48", "--resume",
                       "--out", str(finished))  # fmt: skip
    assert code == 0, err
    assert not (finished / storage.LOCK).exists()


def test_an_interrupted_run_lets_go_of_its_lock(tmp_path, monkeypatch):
    """Ctrl-C (or SIGTERM) while playing: the lock is let go and its file removed."""
    from tournaments import Tournament, runner, storage

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "finish", interrupted)
    t = Tournament(FIELD, players=4, games=96, seed=3, chunk_size=48)
    with pytest.raises(KeyboardInterrupt):
        t.run(out=tmp_path / "run")
    assert not (tmp_path / "run" / storage.LOCK).exists()
    assert storage.lock_holder(tmp_path / "run") is None
    with storage.run_lock(tmp_path / "run"):  # free again
        pass


def test_the_lock_is_held_by_one_process_however_often_it_takes_it(tmp_path):
    """A command holds the lock of its run and the library takes it again inside: the same
    process is let in (nested), and only the outermost ending lets go of it."""
    from tournaments import storage

    with storage.run_lock(tmp_path) as held:
        assert held
        with storage.run_lock(tmp_path):
            pass
        assert (tmp_path / storage.LOCK).exists()  # still held: the outer block goes on
        probe = subprocess.run([sys.executable, "-c", HOLD, str(tmp_path)], cwd=ROOT, input="",
                               capture_output=True, text=True, timeout=60)  # fmt: skip
        assert probe.returncode == 1 and "another process is playing" in probe.stderr
        assert f"(pid {os.getpid()})" in probe.stderr
    assert not (tmp_path / storage.LOCK).exists()


def test_a_readers_probe_does_not_keep_a_writer_out(tmp_path):
    """A reader tells a live run from a killed one by trying the lock for a moment: a writer
    starting in that moment waits for it (up to ``LOCK_WAIT_S``) instead of being refused."""
    from tournaments import storage

    with storage.run_lock(tmp_path):
        pass
    (tmp_path / storage.LOCK).write_text("")  # as a killed writer leaves it
    probe = subprocess.Popen([sys.executable, "-c", PROBE, str(tmp_path / storage.LOCK), "0.3"],
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert probe.stdout.readline() == "probing\n"
    try:
        with storage.run_lock(tmp_path) as held:
            assert held
    finally:
        probe.wait(timeout=30)
        probe.stdout.close()


def test_readers_read_a_run_another_process_plays_and_do_not_take_its_lock(
    finished, capsys, tmp_path
):
    """``leaves report``, ``leaves verify`` and ``leaves compare`` read a run that is being
    played without waiting for it, and its writer keeps its lock all the while."""
    from tournaments import storage

    holder = _hold(finished)
    try:
        for args in (["report", str(finished), "--format", "md", "--out", str(tmp_path / "r")],
                     ["verify", str(finished)],
                     ["compare", str(finished), str(finished)]):  # fmt: skip
            code, _, err = cli(capsys, *args)
            assert code == 0, (args, err)
            assert storage.lock_holder(finished) == f"pid {holder.pid}"
    finally:
        _end(holder)


# ----------------------------------------------------------------------------- run state
def test_a_run_said_running_is_told_live_or_killed_by_its_lock(finished, capsys, tmp_path):
    """A manifest saying "running" was said both ways (live, or killed: resume it), as
    nothing told them apart: a held lock says live, a lock nobody holds says killed."""
    from tournaments.run_state import run_state

    recorded = _as_killed(finished, keep=2)
    holder = _hold(finished)
    try:
        first = run_state(finished).lines()[0]
        code, out, _ = cli(capsys, "report", str(finished), "--format", "md", "--out",
                           str(tmp_path / "r"))  # fmt: skip
    finally:
        _end(holder, kill=True)
    head = f"Unfinished run: {recorded:,} of 240 games played (40.0%), and every result covers"
    assert first.startswith(head) and out.splitlines()[0] == first and code == 0
    assert first.endswith(f"it is being played now (pid {holder.pid}): read it again once "
                          "it ends."), first  # fmt: skip
    assert "--resume" not in first
    killed = run_state(finished).lines()[0]
    assert killed.startswith(head)
    assert killed.endswith("nothing plays it any more (a killed run): continue it with "
                           f"'leaves tournament --resume --out {finished}'."), killed  # fmt: skip
    assert "read it again" not in killed


def test_without_locks_a_live_run_and_a_killed_one_are_said_both_ways(finished, monkeypatch):
    """A platform without ``fcntl`` (Windows): runs are played unlocked, and the state of a
    run said running names both ways and why it cannot tell them apart."""
    from tournaments import storage
    from tournaments.run_state import run_state

    monkeypatch.setattr(storage, "fcntl", None)
    _as_killed(finished, keep=2)
    with storage.run_lock(finished) as held:
        assert held is False and not (finished / storage.LOCK).exists()
        first = run_state(finished).lines()[0]
    assert "read it again once it ends, or, if nothing plays it any more (a killed run" in first
    assert "nothing here tells a live run from a killed one" in first
    assert first.endswith(f"continue it with 'leaves tournament --resume --out {finished}'.")


# ----------------------------------------------------------------------------- gauntlet
def test_the_progress_line_of_a_test_without_spread_says_why_it_has_no_llr(tmp_path,
                                                                          capsys):  # fmt: skip
    """Two entrants that play alike: every duplicate set gives the same difference, below half
    the margin: no LLR (it was -inf, then a bare 'LLR -inf' on the progress line), and why."""
    args = ["weighted", "--against", "low", "--baseline", "weighted:w_pass=-18.7",
            "--sequential", "--games", "200", "--max-games", "400", "--jobs", "1",
            "--out", str(tmp_path / "g")]  # fmt: skip
    code, _, err = cli(capsys, "gauntlet", *args)
    line = next(x for x in err.splitlines() if x.startswith("batch 1:"))
    assert code == 0
    assert line.endswith("no LLR: every duplicate set gave the same difference, below half the "
                         "margin, which bounds no error against the margin, so the test plays "
                         "on (stop at -2.94 or 2.94)"), line  # fmt: skip


# ----------------------------------------------------------------------------- stopping
def test_sigterm_says_interrupted_without_a_blank_line_first(tmp_path):
    """SIGTERM (``kill``, ``timeout``, a batch system) raised Ctrl-C's KeyboardInterrupt, and
    click printed the newline that closes a terminal's '^C' before 'leaves: error:
    interrupted': a blank line in a log. No blank line, the same exit code (130)."""
    run = tmp_path / "run"
    args = [*FIELD, "--players", "4", "--games", "2000000", "--seed", "3", "--jobs", "1"]
    cmd = [sys.executable, "-m", "leaves_cli", "tournament", *args, "--out", str(run)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while not list(run.glob("games/part-*.parquet")) and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before its first part: {proc.communicate()[1]}")
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.endswith(f"interrupted: 'leaves tournament --out {run} --resume' continues it\n"
                        "leaves: error: interrupted\n"), err  # fmt: skip
    assert "\n\n" not in err and not err.startswith("\n")


@pytest.mark.parametrize("command", [["tournament", *SMALL], ["run", "--games", "1",
                                     "--players", "3", "--jobs", "1"]])  # fmt: skip
def test_ctrl_c_with_stderr_not_a_terminal_prints_no_blank_line(command, tmp_path, capsys,
                                                                 monkeypatch):  # fmt: skip
    """Where stderr is a file or a pipe there is no '^C' echo for a newline to close."""
    from tournaments import Tournament

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Tournament, "run", interrupted)
    code, _, err = cli(capsys, *command, "--out", str(tmp_path / "out"))
    assert code == 130 and err.endswith(" continues it\nleaves: error: interrupted\n"), err
    assert "\n\n" not in err


# ----------------------------------------------------------------------------- output cut short
def test_leaves_run_piped_into_head_still_plays_and_reports_the_run(tmp_path):
    """``leaves run | head -1``: the reader left after the first line (the strategies), and
    the next line ended the command with exit 0 before a game was played. The output is cut
    short, not the work: the run is played and reported, as ``leaves tournament``'s is."""
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "leaves_cli", "run", "--games", "1", "--players", "3",
           "--jobs", "1", "--format", "md", "--out", str(run)]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and err == b"", err
    assert json.loads((run / "manifest.json").read_text())["status"] == "complete"
    assert (run / "report" / "report.md").is_file()


def test_a_file_system_without_locks_plays_the_run_unlocked(tmp_path, monkeypatch):
    """``flock`` refused by the file system (ENOLCK, as on some network mounts): the run is
    played unlocked, with no lock file left, and its state cannot be told live or killed."""
    import errno

    from tournaments import storage

    def refused(fd, how):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(storage.fcntl, "flock", refused)
    with storage.run_lock(tmp_path / "run") as held:
        assert held is False and list((tmp_path / "run").iterdir()) == []
        (tmp_path / "run" / storage.LOCK).write_text("")
        assert storage.lock_holder(tmp_path / "run") is None
