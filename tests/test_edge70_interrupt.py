"""Interrupted runs: a gauntlet of plain-Python play is chunked as a tournament of it is (one
2,000-game chunk lost everything to a Ctrl-C); a finished chunk is in the manifest within
about 2 s, not once the next chunk ends; SIGHUP stops a run as SIGTERM does (it died as by
kill -9, its manifest left 'running'); the bar's pace is the session's, not a burst's;
``leaves run --resume`` says what it verified and replays; a manifest that cannot be read
gets verify's advice, not "pass --resume", which refuses it."""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]
FIELD = ["greedy", "low", "random"]
NO_MANIFEST = "the run cannot be resumed or grown without it: restore it, or play the run again"


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _done(out: Path) -> set[int]:
    """The chunks the manifest on disk records (none while it is not there yet)."""
    try:
        ranges = _manifest(out).get("chunks_done") or []
    except (OSError, ValueError):
        return set()
    return {c for a, b in ranges for c in range(a, b + 1)}


def _until(ready, seconds: float = 10.0) -> bool:
    """Whether ``ready()`` comes true within ``seconds`` (looked at every 10 ms)."""
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


# ------------------------------------------------------------------ 1. a gauntlet's chunks


def test_a_gauntlet_of_plain_python_play_is_chunked_as_a_tournament_of_it():
    """It took the schedule's default (2,000 games) where the game asks for 48 a chunk."""
    from tournaments import Tournament
    from tournaments.gauntlet import Gauntlet

    g = Gauntlet("ismcts", ["taker"], games=20_000)
    small = g.game.chunk_games(g.payloads)
    assert small is not None and g.schedule.chunk_games == small
    assert Tournament(["ismcts", "taker"], games=20_000).schedule.chunk_games == small
    assert Gauntlet("ismcts", ["taker"], games=20_000, chunk_size=96).schedule.chunk_games == 96


# ------------------------------------------------------------------ 2. recorded as written


@pytest.fixture
def quick_saves(monkeypatch):
    """The manifest rewritten at most every 50 ms, looked at every 10 ms: what takes about
    2 s in a run takes a moment here."""
    from tournaments import session

    monkeypatch.setattr(session, "MANIFEST_EVERY_S", 0.05)
    monkeypatch.setattr(session, "RECORD_POLL_S", 0.01)


def test_a_chunk_is_recorded_while_the_driver_plays_the_next(tmp_path, monkeypatch, quick_saves):
    """The driver recorded a written chunk only once the next one's result came: a run killed
    while it played a long chunk lost every chunk finished since the last one recorded."""
    from tournaments import Tournament, runner

    out, seen = tmp_path / "run", []
    play = runner.run_chunk

    def slow_second(task):
        if task.chunk.id == 1:  # the driver is busy: chunk 0 is recorded all the same
            seen.append(_until(lambda: 0 in _done(out)))
        return play(task)

    monkeypatch.setattr(runner, "run_chunk", slow_second)
    res = Tournament(FIELD, players=3, games=24, seed=1, chunk_size=6).run(out=out)
    assert seen == [True]
    assert res.manifest["n_chunks_done"] == res.manifest["spec"]["n_chunks"]


def test_an_interrupted_run_records_each_chunk_once(tmp_path, monkeypatch, quick_saves):
    """The writing thread records, and an interruption settles what it still writes: a chunk
    both recorded and still queued must not count twice."""
    from tournaments import Tournament, runner

    out = tmp_path / "run"
    play = runner.run_chunk

    def stop_at_third(task):
        if task.chunk.id == 2:
            assert _until(lambda: {0, 1} <= _done(out))
            raise KeyboardInterrupt
        return play(task)

    monkeypatch.setattr(runner, "run_chunk", stop_at_third)
    t = Tournament(FIELD, players=3, games=24, seed=1, chunk_size=6)
    with pytest.raises(KeyboardInterrupt):
        t.run(out=out)
    m = _manifest(out)
    recorded = sorted(int(c) for c in m["integrity"]["chunks"])
    assert m["status"] == "interrupted" and recorded == [0, 1] == sorted(_done(out))
    assert m["units_done"] == sum(t.schedule.chunk(c).n_games for c in recorded)
    assert m["sessions"][-1]["units_played"] == m["units_done"]


class _Log:
    """A run's log as ``Recorder`` sees it: chunks recorded, saves counted."""

    def __init__(self):
        self.done: set[int] = set()
        self.manifest: dict = {"n_chunks_done": 0}
        self.saves = 0

    def record(self, output, files):
        self.done.add(output.chunk_id)

    def save(self):
        self.saves += 1
        self.manifest["n_chunks_done"] = len(self.done)


class _Output:
    def __init__(self, chunk_id: int):
        self.chunk_id = chunk_id


def test_the_recorder_saves_only_what_the_manifest_lacks_and_nothing_once_stopped(monkeypatch):
    from tournaments import session

    monkeypatch.setattr(session, "RECORD_POLL_S", 3600.0)  # its thread never looks: this test does
    log = _Log()
    recorder = session.Recorder(log, lambda output: {f"part-{output.chunk_id}": [1, "x"]})
    recorder.save_late()
    assert log.saves == 0  # nothing recorded since the last save
    assert recorder.write(_Output(3)) == {"part-3": [1, "x"]}
    recorder.save_late()
    recorder.save_late()
    assert (log.done, log.saves) == ({3}, 1)
    recorder.stop()  # the interrupted run's own thread records the rest (``settle``)
    recorder.write(_Output(4))
    recorder.save_late()
    assert (log.done, log.saves) == ({3}, 1)
    recorder.writer.close()


# ------------------------------------------------------------------ 3. SIGHUP


class HungUp(Exception):
    """What SIGHUP raised here before the command took it over."""


@pytest.fixture
def sighup():
    """SIGHUP raising ``HungUp`` (not ending the test process), put back afterwards."""
    before = signal.getsignal(signal.SIGHUP)

    def hung_up(signum, frame):
        raise HungUp

    signal.signal(signal.SIGHUP, hung_up)
    yield
    signal.signal(signal.SIGHUP, before)


def test_sighup_stops_a_run_as_ctrl_c_does_and_a_second_is_ignored(sighup):
    """It ended the process as kill -9 does: nothing said, the manifest left 'running'."""
    from leaves_cli.errors import CLIError
    from leaves_cli.tournament_parts import stops_on_term

    @stops_on_term
    def play():
        signal.raise_signal(signal.SIGHUP)
        return "played on"

    with pytest.raises(CLIError) as stop:
        play()
    assert (stop.value.format_message(), stop.value.exit_code) == ("interrupted", 130)
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN  # the shell's second one


def test_sighup_ignored_before_stays_ignored():
    """Under nohup a closed terminal must not stop the run."""
    from leaves_cli.tournament_parts import stops_on_term

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:

        @stops_on_term
        def play():
            signal.raise_signal(signal.SIGHUP)
            return "played on"

        assert play() == "played on"
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


SLOW_BOT = """
import time
from strategies import Strategy

class Slow(Strategy):
    name = "slowpoke"
    description = "first legal play after a short sleep"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def choose(self, view, legal, rng):
        time.sleep(0.0005)
        plays = [a for a in legal if not a.is_pass]
        return plays[0] if plays else legal[0]
"""


CHILD = (
    "import fcntl, os, sys, termios; os.setsid(); fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "from leaves_cli.main import main; sys.argv[0] = 'leaves'; main(sys.argv[1:])"
)
"""``leaves ARGS`` on a terminal of its own, which it controls (a login's, an ssh session's)."""


@pytest.mark.slow
@pytest.mark.parametrize("again", [None, 0.05])
def test_a_closed_terminal_stops_a_run_that_says_so_and_exits_130(tmp_path, again):
    """The terminal closes (a dropped ssh): the system's SIGHUP (and, ``again`` seconds later,
    the shell's), writes that fail. The run records its chunks, stops its workers and exits
    130, as the docs say; it died as by kill -9, the manifest left 'running'."""
    pty = pytest.importorskip("pty")
    pytest.importorskip("termios")
    bot = tmp_path / "slow.py"
    bot.write_text(SLOW_BOT)
    out = tmp_path / "run"
    args = ["tournament", f"{bot}:Slow", "greedy", "taker", "--games", "9600", "--seed", "3",
            "--jobs", "2", "--progress", "--out", str(out)]  # fmt: skip
    master, slave = pty.openpty()
    proc = subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
        [sys.executable, "-c", CHILD, *args], cwd=ROOT,
        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    deadline = time.monotonic() + 120
    while not _done(out) and time.monotonic() < deadline:  # the bar drawn until a chunk is in
        if select.select([master], [], [], 0.05)[0]:
            try:
                os.read(master, 65536)
            except OSError:
                break
    assert _done(out)
    os.close(master)  # the terminal closes: SIGHUP
    if again is not None:
        time.sleep(again)
        proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=120) == 130
    m = _manifest(out)
    assert m["status"] == "interrupted" and m["n_chunks_done"] >= 1


# ------------------------------------------------------------------ 4. the bar's pace


def test_the_bar_says_the_sessions_pace_when_chunks_finish_in_bursts():
    """4,800 games in 42 s, 100 chunks of 48 arriving at once: it said 153,442 games/s (the
    pace of the burst) and no time left."""
    from rich.console import Console

    from tournaments.progress import RunProgress

    now = [100.0]
    bar = RunProgress(9_600, 0, True, "games", clock=lambda: now[0])
    with bar:
        now[0] = 142.0
        for _ in range(100):
            bar.advance(48)
        now[0] = 142.1
        shown = Console(file=io.StringIO(), width=200)
        shown.print(bar._progress.make_tasks_table(bar._progress.tasks))
    line = shown.file.getvalue()
    assert "4800/9600 games 114 games/s 0:00:42 left 00:42" in line, line


def test_a_resumed_bar_counts_this_sessions_games_only():
    from tournaments.progress import RunProgress

    now = [0.0]
    bar = RunProgress(10_000, 6_000, False, "rounds", clock=lambda: now[0])
    assert (bar.rate_words(), bar.left_words()) == ("", "-:--")
    with bar:
        now[0] = 10.0
        bar.advance(1_000)
        assert (bar.rate_words(), bar.left_words()) == ("100 rounds/s", "00:30")
        now[0] = 20.0
        assert (bar.rate_words(), bar.left_words()) == ("50 rounds/s", "01:00")


# ------------------------------------------------------------------ 6. leaves run --resume


@pytest.mark.parametrize("part", [False, True])
def test_leaves_run_resume_says_what_it_verified_and_replays(tmp_path, capsys, part):
    """It replayed a damaged chunk silently (no ``log``), where the docs say a resume says so
    in one line; a part of the run (its field under today's rules) says it after its folder."""
    from leaves.commands import run as run_cmd
    from leaves_cli.request import Request
    from tournaments import Tournament

    out = tmp_path / "run"
    t = Tournament(FIELD, players=3, games=24, seed=1, chunk_size=6)
    t.run(out=out)
    (out / "games" / "part-000001.parquet").unlink()
    request = Request.of({"jobs": 1, "resume": True, "fmt": "html"})
    capsys.readouterr()
    assert run_cmd._play(t, out, request, echo=False, whole=tmp_path if part else None) == 6
    said = [line for line in capsys.readouterr().err.splitlines() if "resume:" in line]
    lead = f"{out}: " if part else ""
    assert len(said) == 1 and said[0].startswith(f"{lead}resume: 3 of 4 chunks verified, 1 "
                                                 "replayed (missing"), said  # fmt: skip


# ------------------------------------------------------------------ 9. a manifest not JSON


@pytest.fixture
def broken(tmp_path) -> Path:
    """A finished run whose manifest is cut short."""
    from tournaments import Tournament

    out = tmp_path / "run"
    Tournament(FIELD, players=3, games=12, seed=1).run(out=out)
    text = (out / "manifest.json").read_text()
    (out / "manifest.json").write_text(text[: len(text) // 2])
    return out


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_manifest_that_is_not_json_gets_verifys_advice_not_a_resume(broken, capsys, resume):
    """Without --resume it said "pass --resume to continue the run there"; with it, "cannot
    resume" and nothing more: advice that went round in a loop."""
    code, _, err = cli(capsys, "tournament", *FIELD, "--players", "3", "--games", "12",
                       "--seed", "1", "--out", str(broken), *resume)  # fmt: skip
    line = one_error_line(err)
    assert code == 1 and "--resume" not in line, line
    assert f"{broken / 'manifest.json'} is not valid JSON" in line
    assert NO_MANIFEST in line and "new --out" in line


def test_a_manifest_a_resume_refuses_is_not_advised_a_resume(tmp_path, capsys):
    """A field only a resume reads, gone: "pass --resume", then the resume refused it."""
    from tournaments import Tournament

    out = tmp_path / "run"
    Tournament(FIELD, players=3, games=12, seed=1).run(out=out)
    m = _manifest(out)
    del m["spec"]["seed"]
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ValueError) as refused:
        Tournament(FIELD, players=3, games=12, seed=1).run(out=out)
    said = str(refused.value)
    assert said.startswith(f"the manifest of {out} cannot be used: corrupt manifest "), said
    assert "spec.seed is missing" in said and NO_MANIFEST in said and "resume}" not in said
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume")
    assert code == 1 and "spec.seed is missing" in one_error_line(err)
