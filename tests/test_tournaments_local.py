"""Local runs: who plays a chunk (the driver, a player thread or a worker process) never
changes a row.

Also: compiled runs play in threads, others in workers; workers load only what playing
needs, small runs start no workers, the compile notice shows only when numba's cache is cold.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import processes_only, threads_play_at_once, workers_play_at_once
from tournaments import Tournament, local
from tournaments.local import Workload, imap_local, n_workers
from tournaments.players import Players

HEURISTICS = ["greedy", "low", "high", "minimal"]
MIXED = ["random", "counter", "weighted", "taker", "patient"]


def _players(res) -> dict:
    return json.loads((res.out / "manifest.json").read_text())["sessions"][-1]["players"]


def _mixed(**kw) -> Tournament:
    return Tournament(MIXED, players="3,4", games=2400, seed=21, chunk_size=150, **kw)


def _idle(**kw) -> dict[str, int]:
    return {"workers": 0, "threads": 0, "driver_tasks": 0, "worker_tasks": 0, "thread_tasks": 0,
            **kw}  # fmt: skip


@pytest.mark.slow
def test_rows_are_the_same_in_the_driver_in_threads_and_in_workers(tmp_path, monkeypatch):
    one = _mixed().run(n_jobs=1, out=tmp_path / "one")
    with monkeypatch.context() as m:
        threads_play_at_once(m)
        threaded = _mixed().run(n_jobs=2, out=tmp_path / "threads")
    processes_only(monkeypatch)
    small = _mixed().run(n_jobs=2, out=tmp_path / "small")  # too little work: driver only
    workers_play_at_once(monkeypatch)
    both = _mixed().run(n_jobs=2, out=tmp_path / "both")
    n_chunks = one.spec["n_chunks"]
    assert _players(one) == _idle(driver_tasks=n_chunks, played=1)
    assert _players(small)["workers"] == 0
    mix = _players(both)
    assert mix["workers"] == 1 and mix["worker_tasks"] > 0 and mix["threads"] == 0
    assert mix["driver_tasks"] + mix["worker_tasks"] == n_chunks
    played = _players(threaded)
    assert played["threads"] == 1 and played["thread_tasks"] > 0 and played["workers"] == 0
    assert played["driver_tasks"] + played["thread_tasks"] == n_chunks
    base = one.games()
    for other in (small, both, threaded):
        pd.testing.assert_frame_equal(base, other.games())
        for key, value in one.aggregates().items():
            np.testing.assert_array_equal(value, other.aggregates()[key])
    assert base["forfeit"].sum() == 0 and len(base) == _mixed().n_games


@pytest.mark.slow
@pytest.mark.parametrize("players", ["threads", "workers"])
def test_expert_matches_are_the_same_in_the_driver_and_in_other_players(
    tmp_path, monkeypatch, players
):
    def t():
        return Tournament(HEURISTICS, players=3, games=96, seed=5, expert=True, chunk_size=12)

    one = t().run(n_jobs=1, out=tmp_path / "one")
    if players == "threads":
        threads_play_at_once(monkeypatch)
    else:
        processes_only(monkeypatch)
        workers_play_at_once(monkeypatch)
    both = t().run(n_jobs=2, out=tmp_path / "both")
    assert _players(both)[f"{players[:-1]}_tasks"] > 0
    pd.testing.assert_frame_equal(one.games(), both.games())
    pd.testing.assert_frame_equal(
        pd.read_parquet(one.out / "matches"), pd.read_parquet(both.out / "matches")
    )


def test_compiled_entrants_play_in_threads_python_ones_in_workers():
    from leaves.plugin import LeavesGame

    game = LeavesGame()
    crashy = f"{__file__.replace('test_tournaments_local', 'test_tournaments_leaves')}:Crashy"
    assert game.plays_without_gil(MIXED, False) and game.plays_without_gil(HEURISTICS, True)
    assert not game.plays_without_gil(["greedy", crashy], False)
    from ligretto import cengine
    from ligretto.plugin import LigrettoGame

    # Ligretto's rounds release the GIL in its C engine (ctypes), never in numba's loop
    assert LigrettoGame().plays_without_gil(["stack", "cycler"], False) is cengine.available()


def _square(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_imap_local_plays_every_task_once_wherever_it_runs(monkeypatch):
    small = Workload(units=10, size=lambda t: 1, min_unit_s=1e-9)
    stats: dict[str, int] = {}
    out = sorted(imap_local(_square, range(10), Players(2, workload=small, stats=stats)))
    assert [r for r, _ in out] == [x * x for x in range(10)]
    assert {p for _, p in out} == {os.getpid()} and stats["workers"] == 0
    monkeypatch.setattr(local, "PAYBACK", 0.0)
    out = sorted(imap_local(_square, range(40), Players(2, workload=small, stats=stats)))
    assert [r for r, _ in out] == [x * x for x in range(40)]
    assert stats["workers"] == 1 and stats["driver_tasks"] + stats["worker_tasks"] == 40
    assert stats["worker_tasks"] == sum(p != os.getpid() for _, p in out)


def _in_thread(x: int) -> tuple[int, int]:
    return x * x, threading.get_ident()


def test_imap_local_in_threads_plays_every_task_once(monkeypatch):
    """Threads start at once, whatever the work (they cost nothing to start)."""
    threads_play_at_once(monkeypatch)
    small = Workload(units=10, size=lambda t: 1, min_unit_s=1e-9)
    stats: dict[str, int] = {}
    out = sorted(
        imap_local(_in_thread, range(30), Players(3, workload=small, stats=stats, threads=True))
    )
    assert [r for r, _ in out] == [x * x for x in range(30)]
    assert stats["threads"] == 2 and stats["workers"] == 0
    assert stats["driver_tasks"] + stats["thread_tasks"] == 30
    me = threading.get_ident()
    assert stats["thread_tasks"] == sum(t != me for _, t in out) > 0


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 40), jobs=st.integers(1, 4), cost=st.integers(0, 3))
def test_threads_yield_every_task_exactly_once(n, jobs, cost):
    def fn(x: int) -> int:
        time.sleep(cost * 1e-4 * (x % 3))  # uneven tasks: threads finish out of order
        return x

    stats: dict[str, int] = {}
    out = list(imap_local(fn, range(n), Players(jobs, stats=stats, threads=True)))
    assert sorted(out) == list(range(n))
    assert stats["threads"] == min(jobs - 1, max(0, n - 1)) and stats["workers"] == 0
    assert stats["driver_tasks"] + stats["thread_tasks"] == n


def test_a_failed_thread_task_fails_the_stream(monkeypatch):
    threads_play_at_once(monkeypatch)

    def fn(x: int) -> int:
        if x == 3 and threading.current_thread() is not threading.main_thread():
            raise ArithmeticError("task 3 failed")
        time.sleep(0.01)
        return x

    with pytest.raises(ArithmeticError, match="task 3"):
        for _ in imap_local(fn, [0] + [3] * 30, Players(2, threads=True)):
            pass


def test_a_closed_threaded_stream_hands_over_what_its_threads_played(monkeypatch):
    """Closing the stream (an exception in the runner) lets each thread finish the task it
    plays, takes no other, and hands every result not yielded to ``salvage``."""
    pools: list[local._Threads] = []
    real_init = local._Threads.__init__

    def init(self, *args):
        real_init(self, *args)
        pools.append(self)

    monkeypatch.setattr(local._Threads, "__init__", init)
    release = threading.Event()
    taken: list[int] = []

    def fn(x: int) -> int:
        if threading.current_thread() is not threading.main_thread():
            taken.append(x)
            release.wait(60)
        return x

    salvaged: list[int] = []
    stats: dict[str, int] = {}
    stream = imap_local(
        fn, range(50), Players(2, stats=stats, threads=True, salvage=salvaged.append)
    )
    first = next(stream)  # the driver's; the thread holds a task until released
    closer = threading.Thread(target=stream.close)
    closer.start()  # waits for the thread's task
    deadline = time.monotonic() + 60
    while not (taken and pools[0]._closed) and time.monotonic() < deadline:
        time.sleep(0.001)
    release.set()
    closer.join(60)
    assert not closer.is_alive()
    assert taken == salvaged == [taken[0]]  # finished, handed over; no task taken after
    assert first != taken[0] and stats["thread_tasks"] == 0


def test_workers_start_when_measured_work_pays(monkeypatch):
    """Cheap-looking work whose first task is slow starts the workers after that task."""
    calls: list[int] = []
    monkeypatch.setattr(local, "WORKER_START_S", 0.0)  # any measured time pays

    def fn(x: int) -> int:
        calls.append(x)
        return x + 0 * sum(range(20_000))  # some CPU time to measure

    stats: dict[str, int] = {}
    work = Workload(units=6, size=lambda t: 1, min_unit_s=0.0)
    assert sorted(imap_local(fn, range(6), Players(2, workload=work, stats=stats))) == list(
        range(6)
    )
    assert stats["workers"] == 1 and calls[0] == 0


def test_n_workers_counts_the_driver_as_a_player():
    assert n_workers(1) == 0 and n_workers(2) == 1 and n_workers(5) == 4
    assert n_workers(-1) == max(0, (os.cpu_count() or 1) - 1)


def test_a_worker_never_loads_pandas_pyarrow_or_dask(tmp_path):
    """A fresh interpreter that unpickles a chunk task, readies itself and plays the task, as a
    loky worker does."""
    t = Tournament(HEURISTICS + ["counter"], players="3,4", games=200, seed=2, expert=False)
    task = next(t._tasks([0]))
    path = tmp_path / "task.pkl"
    path.write_bytes(pickle.dumps(task))
    code = (
        "import pickle, sys; task = pickle.loads(open(sys.argv[1], 'rb').read()); "
        "from tournaments.work import ready, run_chunk; "
        "ready(task.game, task.payloads, task.expert); out = run_chunk(task); "
        "assert out.games_rows is not None; "
        "print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    loaded = set(eval(done.stdout))  # noqa: S307 - our own subprocess's list of names
    assert "tournaments" in loaded
    assert not loaded & {"pandas", "pyarrow", "dask", "distributed", "matplotlib", "rich"}
    from leaves.players.compiled import engine

    assert ("numba" in loaded) is not engine.available()  # the C engine plays: no numba


def test_summary_columns_match_the_summary_frame(tmp_path):
    res = Tournament(HEURISTICS, players=3, games=300, seed=4).run(out=tmp_path / "o")
    cols = res.summary_columns()
    df = res.summary()
    assert list(df.columns) == list(cols)
    for name, values in cols.items():
        assert df[name].tolist() == values.tolist()


def test_the_compile_notice_shows_only_when_the_cache_is_cold(tmp_path, monkeypatch):
    shown: list[bool] = []
    loads: list[str] = []

    class Notice:
        def __init__(self, enabled):
            shown.append(enabled)

        def __enter__(self):
            loads.append("notice")
            return self

        def __exit__(self, *exc):
            return None

    import tournaments.progress as progress_mod

    monkeypatch.setattr(progress_mod, "compiling", Notice)
    for cold in (False, True):
        t = Tournament(HEURISTICS, players=3, games=30, seed=1)
        monkeypatch.setattr(
            t.game, "warm_up", lambda p, e, cold=cold: (cold, lambda: loads.append("load"))
        )
        t.run(out=tmp_path / f"o{cold}", progress=True)
    # warm (one player): the first chunk loads the loop; cold: it compiles under the notice
    assert shown == [True] and loads == ["notice", "load"]


def test_the_loop_reads_as_cached_once_loaded():
    from leaves.players import warmup

    warmup.warm_up(False)
    assert warmup.loop_cached(False)


def test_the_leaves_plugin_warms_up_only_what_a_run_needs():
    from leaves.plugin import LeavesGame

    game = LeavesGame()
    cold, load = game.warm_up(["greedy", "low"], False)
    load()
    assert game.warm_up(["greedy", "low"], False)[0] is False  # loaded: nothing to compile
    python_only = f"{__file__.replace('test_tournaments_local', 'test_tournaments_leaves')}:Crashy"
    cold, load = game.warm_up([python_only], False)
    assert cold is False and load() is None


def _slow_in_workers(task: tuple[int, int]) -> int:
    x, driver = task
    if os.getpid() != driver:
        time.sleep(60)
    return x


def test_an_interrupted_run_stops_its_workers_at_once(monkeypatch):
    """Closing the stream (as an exception in the runner does) kills busy workers now."""
    monkeypatch.setattr(local, "PAYBACK", 0.0)
    work = Workload(units=20, size=lambda t: 1, min_unit_s=1.0)
    stats: dict[str, int] = {}
    tasks = [(x, os.getpid()) for x in range(20)]
    stream = imap_local(_slow_in_workers, tasks, Players(2, workload=work, stats=stats))
    first = next(stream)  # played by the driver while the worker sleeps on its two tasks
    t0 = time.perf_counter()
    stream.close()
    assert time.perf_counter() - t0 < 10
    assert first in range(20) and stats["workers"] == 1 and stats["worker_tasks"] == 0
