"""The driver's pipeline decides nothing: who plays a chunk (the driver, a thread, a worker), in
how many slices, when its files are written, how the workers are fed. Rows and aggregates stay
the same, and an interrupted run loses no chunk it had played."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import (
    processes_only,
    same_run,
    threads_play_at_once,
    workers_play_at_once,
)
from tests.toygame import ToyGame
from tournaments import Tournament, load, local, rows, runner, session, work
from tournaments.local import Workload, _Feed, imap_local
from tournaments.players import Players
from tournaments.verify import verify_run

HEURISTICS = ["greedy", "low", "high", "minimal"]


# ----------------------------------------------------------------------------- slices
@functools.cache
def _chunk() -> tuple[work.ChunkTask, work.ChunkOutput]:
    """One chunk (4 deals x 24 seatings) and its output played in one slice."""
    task = next(Tournament(HEURISTICS, players=4, games=96, seed=3, chunk_size=96)._tasks([0]))
    return task, work.run_chunk(task)


@settings(max_examples=12, deadline=None)
@given(size=st.integers(1, 100))
def test_a_chunk_played_in_slices_of_any_size_is_the_same_chunk(size):
    task, whole = _chunk()
    assert task.slice_games == 0  # one call for the whole chunk
    out = work.run_chunk(dataclasses.replace(task, slice_games=size))
    names = [(name, kind) for name, kind, _ in whole.games_rows.items]
    assert [(name, kind) for name, kind, _ in out.games_rows.items] == names
    for (name, _, value), (_, _, expected) in zip(
        out.games_rows.items, whole.games_rows.items, strict=True
    ):
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(value, expected, err_msg=name)
        else:
            assert value == expected, name
    for key, value in whole.aggregates.items():
        np.testing.assert_array_equal(out.aggregates[key], value, err_msg=key)


# ----------------------------------------------------------------------------- jobs, chunks
@pytest.mark.parametrize("players", ["threads", pytest.param("workers", marks=pytest.mark.slow)])
def test_rows_and_aggregates_do_not_depend_on_jobs_chunks_or_slices(tmp_path, monkeypatch, players):
    def t(chunk_size=None):
        return Tournament(HEURISTICS, players="3,4", games=1200, seed=11, chunk_size=chunk_size)

    base = t().run(n_jobs=1, out=tmp_path / "base")
    if players == "threads":
        threads_play_at_once(monkeypatch)
    else:
        processes_only(monkeypatch)
        workers_play_at_once(monkeypatch)
    monkeypatch.setattr(work, "PLAY_SLICE_GAMES", 7)  # where the play holds the GIL
    sliced: list[int] = []  # each run's slice_games
    real_tasks = runner.Tournament._tasks

    def tasks(self, pending, slice_games=0):
        sliced.append(slice_games)
        return real_tasks(self, pending, slice_games)

    monkeypatch.setattr(runner.Tournament, "_tasks", tasks)
    for i, (size, jobs) in enumerate([(None, 2), (48, 2), (600, 1), (72, 3)]):
        other = t(size).run(n_jobs=jobs, out=tmp_path / f"o{i}")
        same_run(base, other)
        played = other.manifest["sessions"][-1]["players"]
        assert played[f"{players[:-1]}_tasks"] > 0 or jobs == 1
        assert sliced[-1] == (0 if players == "threads" else 7)
        assert played["threads" if players == "threads" else "workers"] == jobs - 1


# ----------------------------------------------------------------------------- feeding
def _marked(task: tuple[int, int, str]) -> int:
    """In the driver: wait until the worker has finished 6 tasks (files in ``folder``); in the
    worker: mark this task finished."""
    x, driver, folder = task
    if os.getpid() == driver:
        deadline = time.monotonic() + 60
        while len(os.listdir(folder)) < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        Path(folder, f"{x}").write_text("")
    return x


def _ready_now() -> None:
    pass


@pytest.mark.slow
def test_workers_are_fed_while_the_driver_is_busy_with_a_task(tmp_path):
    """The driver's first task waits until the worker has finished 6 tasks: more than it can
    hold at once, so only a feeder that does not wait for the driver lets it get there."""
    tasks = [(x, os.getpid(), str(tmp_path)) for x in range(12)]
    stats: dict[str, int] = {}
    t0 = time.monotonic()
    out = sorted(imap_local(_marked, tasks, Players(2, stats=stats, ready=_ready_now)))
    assert out == list(range(12)) and stats["driver_tasks"] + stats["worker_tasks"] == 12
    assert time.monotonic() - t0 < 50, "the worker was not fed while the driver played"
    assert stats["worker_tasks"] >= 6


def test_near_the_end_a_worker_holds_one_task_at_a_time():
    work_ = Workload(units=100, size=lambda task: 10, min_unit_s=0.0)
    feed = _Feed(lambda task: task, range(10), workers=1, workload=work_)
    feed._ready = 1
    held = []
    while feed.take() is not local._END:
        held.append(feed._slots())
    # 2 players x 2 tasks x 10 units: below 40 units left, one task per worker
    assert held == [2] * 6 + [1] * 4


class _StubFuture:
    """A submitted task: started on a worker (``running``) or still queued."""

    def __init__(self, started: bool):
        self.started, self.was_cancelled = started, False

    def running(self) -> bool:
        return self.started

    def cancel(self) -> bool:
        self.was_cancelled = not self.started
        return self.was_cancelled

    def done(self) -> bool:
        return self.was_cancelled


class _StubPool:
    def __init__(self):
        self.kills: list[bool] = []

    def shutdown(self, wait: bool, kill_workers: bool) -> None:
        self.kills.append(kill_workers)


def test_closing_cancels_no_task_that_the_workers_shutdown_fails_itself():
    # With a worker busy, the workers are stopped, and loky's shutdown fails each queued task
    # itself: a task cancelled before that made its manager thread raise (a stray traceback
    # at the end of an interrupted or failed run)
    feed = _Feed(lambda task: task, range(3), workers=1)
    busy, queued = _StubFuture(started=True), _StubFuture(started=False)
    feed._executor, feed._running = (pool := _StubPool()), {busy, queued}
    feed.close()
    assert pool.kills == [True] and not queued.was_cancelled
    # nothing started: the queued tasks are cancelled and the idle workers kept for the next run
    feed = _Feed(lambda task: task, range(3), workers=1)
    first, second = _StubFuture(started=False), _StubFuture(started=False)
    feed._executor, feed._running = (pool := _StubPool()), {first, second}
    feed.close()
    assert pool.kills == [] and first.was_cancelled and second.was_cancelled


def _slow_start() -> None:
    time.sleep(20)


def _where(x: int) -> tuple[int, int]:
    return x, os.getpid()


def test_tasks_never_wait_for_a_worker_that_is_still_starting():
    """A worker gets tasks only once ready: the driver plays them all meanwhile, and neither
    the stream nor its end waits for the worker."""
    t0 = time.monotonic()
    stats: dict[str, int] = {}
    out = sorted(imap_local(_where, range(8), Players(2, stats=stats, ready=_slow_start)))
    assert out == [(x, os.getpid()) for x in range(8)]
    assert stats["workers"] == 1 and stats["worker_tasks"] == 0
    assert time.monotonic() - t0 < 15


def _none_in_workers(task: tuple[int, int]) -> int | None:
    x, driver = task
    if os.getpid() != driver:
        return None
    time.sleep(0.05)  # the workers' results arrive while the driver plays
    return x


@pytest.mark.slow
def test_a_worker_result_of_none_is_a_result(monkeypatch):
    workers_play_at_once(monkeypatch)
    tasks = [(x, os.getpid()) for x in range(30)]
    stats: dict[str, int] = {}
    out = list(imap_local(_none_in_workers, tasks, Players(2, stats=stats, ready=_ready_now)))
    assert len(out) == 30 and out.count(None) == stats["worker_tasks"] > 0


def _driver_waits(task: tuple[int, int, str]) -> int:
    """In the driver: wait until the worker has finished 2 tasks; in the worker: mark it."""
    x, driver, folder = task
    if os.getpid() == driver:
        deadline = time.monotonic() + 60
        while len(os.listdir(folder)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        Path(folder, f"{x}").write_text("")
    return x


def test_a_closed_stream_hands_over_what_workers_finished(tmp_path, monkeypatch):
    """Results of worker processes that arrived but were not collected when the stream is
    closed go to ``salvage``: an interrupted run writes them too."""
    feeds: list[_Feed] = []
    real_init = _Feed.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        feeds.append(self)

    monkeypatch.setattr(_Feed, "__init__", init)
    tasks = [(x, os.getpid(), str(tmp_path)) for x in range(12)]
    salvaged: list[int] = []
    stream = imap_local(_driver_waits, tasks, Players(2, ready=_ready_now, salvage=salvaged.append))
    first = next(stream)  # the driver's task, once the worker has finished two
    deadline = time.monotonic() + 60
    while feeds[0]._results.qsize() < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    stream.close()
    finished = {int(name) for name in os.listdir(tmp_path)}
    assert len(salvaged) >= 2 and set(salvaged) <= finished and first not in salvaged


def _fails_on_three(x: int) -> int:
    if x == 3:
        raise ArithmeticError("task 3 failed")
    return x


def test_a_failed_worker_task_fails_the_stream(monkeypatch):
    got = []
    with pytest.raises(ArithmeticError, match="task 3"):
        for x in imap_local(_fails_on_three, [3, 0, 1, 2, 4, 5, 6], Players(2)):
            got.append(x)  # the driver plays what it can while the worker fails task 3
    assert 3 not in got


# ----------------------------------------------------------------------------- writing
def _toy(**kw) -> Tournament:
    return Tournament(["a", "p1", "p2", "p3"], players=4, games=480, seed=5, chunk_size=24,
                      game=ToyGame(), **kw)  # fmt: skip


def _slow_writes(monkeypatch, fail_at: int | None = None) -> list[int]:
    """Writes that take a while (so several chunks wait for the writing thread), failing at
    chunk ``fail_at``; returns the chunk ids written, in order."""
    written: list[int] = []
    real = runner.write_chunk

    def slow(out, output, labels, records):
        time.sleep(0.02)
        if output.chunk_id == fail_at:
            raise OSError(28, "No space left on device")
        files = real(out, output, labels, records)
        written.append(output.chunk_id)
        return files

    monkeypatch.setattr(runner, "write_chunk", slow)
    return written


def test_an_interrupted_run_records_every_chunk_it_played(tmp_path, monkeypatch):
    """Ctrl-C while chunks still wait for the writing thread: they are written and recorded
    before the run stops, so resume plays only what was never played."""
    written = _slow_writes(monkeypatch)
    real_run_chunk = runner.run_chunk
    played: list[int] = []

    def run_chunk(task):
        if len(played) == 10:
            raise KeyboardInterrupt
        played.append(task.chunk.id)
        return real_run_chunk(task)

    monkeypatch.setattr(runner, "run_chunk", run_chunk)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        _toy().run(out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["n_chunks_done"] == 10 and sorted(written) == list(range(10))
    assert verify_run(out).ok
    monkeypatch.setattr(runner, "run_chunk", real_run_chunk)
    resumed = _toy().run(out=out, resume=True)
    assert sorted(written) == list(range(_toy().schedule.n_chunks))  # no chunk twice
    same_run(resumed, _toy().run(out=tmp_path / "whole"))


@pytest.mark.slow
@pytest.mark.parametrize("where", ["playing", "writing"])
def test_an_interrupted_threaded_run_records_every_chunk_its_threads_played(
    tmp_path, monkeypatch, where
):
    """Ctrl-C in the driver (while it plays a chunk, or hands one to the writer) while a
    player thread plays a chunk: the thread finishes it, and it is written and recorded
    with every other chunk played, before the run stops."""
    threads_play_at_once(monkeypatch)
    written = _slow_writes(monkeypatch)
    real_run_chunk, real_put = runner.run_chunk, session.Writer.put
    played: list[int] = []
    interrupted: list[bool] = []
    lock = threading.Lock()

    def run_chunk(task):
        in_driver = threading.current_thread() is threading.main_thread()
        with lock:
            if where == "playing" and in_driver and len(played) >= 10:
                raise KeyboardInterrupt
            played.append(task.chunk.id)
        if not in_driver:
            time.sleep(0.05)  # the driver plays too
        return real_run_chunk(task)

    def put(self, output):
        real_put(self, output)
        if where == "writing" and not interrupted and len(self._pending) + len(written) >= 10:
            interrupted.append(True)  # once: the chunks handed over after it are not
            raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_chunk", run_chunk)
    monkeypatch.setattr(session.Writer, "put", put)
    t = functools.partial(Tournament, HEURISTICS, players=3, games=1200, seed=4, chunk_size=24)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        t().run(n_jobs=2, out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["sessions"][-1]["players"]["threads"] == 1
    assert sorted(written) == sorted(played) and manifest["n_chunks_done"] == len(played)
    assert 10 <= len(played) < t().schedule.n_chunks
    assert verify_run(out).ok
    monkeypatch.setattr(runner, "run_chunk", real_run_chunk)
    monkeypatch.setattr(session.Writer, "put", real_put)
    resumed = t().run(out=out, resume=True, n_jobs=2)
    assert sorted(written) == list(range(t().schedule.n_chunks))  # no chunk twice
    same_run(resumed, t().run(out=tmp_path / "whole"))


def test_a_failed_write_stops_the_run_and_resume_finishes_it(tmp_path, monkeypatch):
    written = _slow_writes(monkeypatch, fail_at=6)
    out = tmp_path / "run"
    with pytest.raises(OSError, match="No space left"):
        _toy().run(out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and 6 not in written
    assert manifest["n_chunks_done"] == len(written) >= 6  # those written before it, at least
    assert verify_run(out).ok
    monkeypatch.undo()
    resumed = _toy().run(out=out, resume=True)
    same_run(resumed, _toy().run(out=tmp_path / "whole"))


def test_parts_carry_statistics_only_for_the_index_columns(tmp_path):
    res = Tournament(HEURISTICS, players=3, games=60, seed=1).run(out=tmp_path / "o")
    part = next((res.out / "games").glob("part-*.parquet"))
    meta = pq.ParquetFile(part).metadata.row_group(0)
    with_stats = {
        meta.column(i).path_in_schema
        for i in range(meta.num_columns)
        if meta.column(i).statistics is not None and meta.column(i).statistics.has_min_max
    }
    assert with_stats == {"game", "deal"} == set(rows.STATISTICS) & set(res.games().columns)
    assert load(res.out).games()["game"].tolist() == list(range(res.spec["n_games"]))


def test_index_columns_are_stored_as_differences_and_read_back_exactly(tmp_path):
    """The parts' encodings (differences for the indices, a dictionary for the labels)
    change no value any reader sees."""
    res = Tournament(HEURISTICS, players=3, games=60, seed=1, expert=True).run(out=tmp_path / "o")
    for kind, index in (("games", ["game", "deal", "match"]), ("matches", ["match", "deal"])):
        part = next((res.out / kind).glob("part-*.parquet"))
        meta = pq.ParquetFile(part).metadata.row_group(0)
        encodings = {
            meta.column(i).path_in_schema: set(meta.column(i).encodings)
            for i in range(meta.num_columns)
        }
        assert all("DELTA_BINARY_PACKED" in encodings[name] for name in index), kind
        assert "RLE_DICTIONARY" in encodings["seat_0"]
        assert not any("DELTA_BINARY_PACKED" in e for n, e in encodings.items() if n not in index)
    games = res.games()
    assert games["match"].is_monotonic_increasing
    assert (games["game"] // work.MAX_GAMES_PER_MATCH == games["match"]).all()
    assert res.matches()["match"].tolist() == list(range(res.spec["n_games"]))
