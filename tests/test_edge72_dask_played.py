"""A Dask run's ``--jobs`` line says who really played: its session recorded only the local
cluster's size, so a worker of it that played no part was said to have played (the line took
the cluster's size for the players), and a run on a cluster of its own (``--scheduler``)
recorded nothing of who played. Each finished task now names its worker: the record holds
``played`` (the workers that finished a part) and, for a local cluster, ``dask_workers``."""

from __future__ import annotations

import time

import pytest

from leaves_cli.tournament_parts import jobs_line
from tests.helpers import cli
from tournaments import load
from tournaments.parallel import imap_unordered
from tournaments.players import Players

distributed = pytest.importorskip("distributed")

PARTS = "a player for each part of the run left to play"


def _line(jobs: int, record: dict[str, int]) -> str:
    return jobs_line({"sessions": [{"players": record}]}, 0, jobs)


@pytest.mark.parametrize(("jobs", "record", "said"), [
    (2, {"dask_workers": 2, "played": 1},
     "--jobs 2: 1 player played (1 of the 2 Dask workers started found no part left to play)"),
    (8, {"jobs_capped_to": 3, "dask_workers": 3, "played": 1},
     "--jobs 8: 1 player played (2 of the 3 Dask workers started found no part left to play)"),
    (100, {"jobs_capped_to": 1, "dask_workers": 1, "played": 1},
     f"--jobs 100: 1 player played ({PARTS})"),
    (2, {"dask_workers": 2, "played": 2}, ""),  # as many as asked
    (2, {"jobs_capped_to": 1, "dask_workers": 0, "played": 0}, ""),  # nothing left to play
    (2, {"played": 1}, ""),  # a cluster the run did not start: --jobs does not count its workers
    (100, {"jobs_capped_to": 1}, f"--jobs 100: 1 player played ({PARTS})"),  # an earlier record
], ids=["one-idle", "two-idle", "one-part", "as-asked", "nothing-left", "scheduler",
        "earlier"])  # fmt: skip
def test_a_dask_record_says_who_played(jobs, record, said):
    assert _line(jobs, record) == said


def _name(x: int) -> tuple[int, object]:
    return x, distributed.get_worker().name


@pytest.fixture
def in_process(monkeypatch):
    """The run's own local cluster as threads of this process (quick to start), its workers
    named in ``paused`` paused once started: the scheduler gives them no task. No memory
    limit: a worker's memory monitor would resume a worker paused with memory to spare (under
    load, before the run's tasks were given out: one played)."""
    real, paused = distributed.LocalCluster, []

    def cluster(**kwargs):
        started = real(processes=False, memory_limit=0, **kwargs)
        for name in paused:
            _pause(started, name)
        return started

    monkeypatch.setattr(distributed, "LocalCluster", cluster)
    return paused


def _pause(cluster, name) -> None:
    from distributed.core import Status  # Dask's, loaded with the cluster

    worker = cluster.workers[name]
    cluster.loop.add_callback(setattr, worker, "status", Status.paused)
    deadline = time.monotonic() + 10
    while cluster.scheduler.workers[worker.address].status != Status.paused:
        assert time.monotonic() < deadline, "the scheduler never heard of the pause"
        time.sleep(0.01)


def test_the_record_names_each_worker_that_finished_a_task(in_process):
    stats: dict[str, int] = {}
    out = list(imap_unordered(_name, range(12), Players(2, "dask", stats=stats)))
    assert sorted(x for x, _ in out) == list(range(12))
    assert stats["dask_workers"] == 2 and "jobs_capped_to" not in stats
    assert stats["played"] == len({name for _, name in out})


def test_a_worker_that_played_no_part_is_not_said_to_have_played(in_process):
    in_process.append(1)
    stats: dict[str, int] = {}
    out = list(imap_unordered(_name, range(6), Players(2, "dask", stats=stats)))
    assert {name for _, name in out} == {0}
    assert stats == {"dask_workers": 2, "played": 1}
    assert _line(2, stats) == (
        "--jobs 2: 1 player played (1 of the 2 Dask workers started found no part left to play)"
    )


def test_a_run_with_nothing_to_play_starts_no_cluster(monkeypatch):
    def refused(**kwargs):
        raise AssertionError("a cluster was started for nothing")

    monkeypatch.setattr(distributed, "LocalCluster", refused)
    stats: dict[str, int] = {}
    assert list(imap_unordered(abs, [], Players(2, "dask", stats=stats))) == []
    assert stats == {"jobs_capped_to": 1, "dask_workers": 0, "played": 0}
    assert _line(2, stats) == ""


def test_a_cluster_the_run_did_not_start_records_who_played():
    """A cluster of 2 workers and a run of one task: 1 played (and the line, on a cluster
    that --jobs does not size, says nothing)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:  # fmt: skip
        stats: dict[str, int] = {}
        players = Players(2, "dask", cluster.scheduler_address, stats=stats)
        assert [x for x, _ in imap_unordered(_name, [5], players)] == [5]
        assert stats == {"played": 1}
        assert list(imap_unordered(_name, range(8), players))
        assert 1 <= stats["played"] <= 2 and "dask_workers" not in stats
    assert _line(2, {"played": 1}) == ""


def test_what_a_closed_stream_salvages_counts_its_worker(in_process):
    stats: dict[str, int] = {}
    salvaged: list[tuple[int, object]] = []
    players = Players(1, "dask", stats=stats, salvage=salvaged.append)
    stream = imap_unordered(_name, range(2), players)
    first = next(stream)
    time.sleep(1.5)  # the other finishes while the driver holds the first
    stream.close()
    assert sorted([first, *salvaged]) == [(0, 0), (1, 0)]  # outputs, not tagged twice
    assert stats == {"dask_workers": 1, "played": 1}


def test_a_tournament_on_a_local_cluster_says_its_idle_worker(capsys, tmp_path, in_process):
    in_process.append(1)
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "counter", "--games",
                          "96", "--chunk-size", "24", "--backend", "dask", "--jobs", "2",
                          "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert load(out).manifest["sessions"][-1]["players"] == {"dask_workers": 2, "played": 1}
    lines = [line for line in said.splitlines() if line.startswith("--jobs")]
    assert lines == ["--jobs 2: 1 player played (1 of the 2 Dask workers started found no part "
                     "left to play)"]  # fmt: skip
