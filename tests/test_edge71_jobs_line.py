"""Fewer players than --jobs asks are said as they played: threads and the workers of a local
Dask cluster are capped by the parts of the run left to play, as worker processes were, and
every thread started plays (a run of one chunk that one thread played said "--jobs 100: 8
players played (at most 4 a core)"; ``--jobs 8`` said nothing of it)."""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import cli
from tournaments import load, local, parallel
from tournaments.local import imap_local
from tournaments.players import Players


def _who(x: int) -> tuple[int, str]:
    return x, threading.current_thread().name  # an ident is reused once a thread ends


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), jobs=st.integers(1, 6))
def test_every_thread_started_plays_and_none_waits_for_a_task(n, jobs):
    """Quick tasks: the first threads took them all, and a run of one task started 7."""
    stats: dict[str, int] = {}
    out = list(imap_local(_who, range(n), Players(jobs, stats=stats, threads=True)))
    started = stats["threads"] + 1  # the driver is a player
    assert sorted(x for x, _ in out) == list(range(n))
    assert started == min(jobs, n, local.n_workers(jobs) + 1)
    assert len({who for _, who in out}) == started  # each played
    assert stats["driver_tasks"] >= 1
    assert stats.get("jobs_capped_to", jobs) == started


def test_a_run_of_one_task_records_the_one_player_that_played():
    stats: dict[str, int] = {}
    assert list(imap_local(_who, [7], Players(100, stats=stats, threads=True)))[0][0] == 7
    assert stats["threads"] == 0 and stats["driver_tasks"] == 1
    assert stats["jobs_capped_to"] == 1


def test_a_local_dask_cluster_has_no_worker_beyond_the_tasks():
    most = local.PLAYERS_PER_CORE * (os.cpu_count() or 1)
    assert parallel.cluster_size(100, 1) == 1
    assert parallel.cluster_size(100, 3) == min(3, most)
    assert parallel.cluster_size(100, 10**6) == parallel.cluster_size(100) == most
    stats: dict[str, int] = {}
    parallel.record_cap(stats, 100, parallel.cluster_size(100, 1))
    assert stats == {"jobs_capped_to": 1}


@pytest.mark.slow
def test_a_local_dask_cluster_of_a_one_chunk_run_starts_one_worker(capsys, tmp_path,
                                                                   monkeypatch):  # fmt: skip
    """It started a worker a core and more, and said they played."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster
    sizes = []

    def threaded(**kwargs):
        sizes.append(kwargs["n_workers"])
        return cluster(processes=False, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", threaded)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "counter", "--games",
                          "480", "--backend", "dask", "--jobs", "100", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert sizes == [1]
    assert load(out).manifest["sessions"][-1]["players"] == {"jobs_capped_to": 1, "dask_workers": 1,
                                                             "played": 1}  # fmt: skip
    lines = [line for line in said.splitlines() if line.startswith("--jobs")]
    assert lines == ["--jobs 100: 1 player played (a player for each part of the run left to "
                     "play)"]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["100", "8"])
def test_a_one_chunk_run_says_the_one_player_that_played(capsys, tmp_path, jobs):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "counter", "--games",
                          "480", "--jobs", jobs, "--out", str(out))  # fmt: skip
    assert code == 0, err
    played = load(out).manifest["sessions"][-1]["players"]
    assert played["threads"] + played["workers"] == 0 and played["driver_tasks"] == 1
    lines = [line for line in said.splitlines() if line.startswith("--jobs")]
    assert lines == [f"--jobs {jobs}: 1 player played (a player for each part of the run left "
                     "to play)"]  # fmt: skip
