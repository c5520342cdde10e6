"""The ``--jobs`` line says who really played: a run whose worker processes never started (the
work did not pay for them) said nothing, as if ``--jobs 2`` had played on 2 processes; a
resume with nothing left to play said "1 player played"; workers started too late to get a
part went unsaid. Each session records ``played`` (the players that played a part); an
earlier version's record, without it, still reads and says only what it can tell."""

from __future__ import annotations

import os
import time

import pytest

from leaves_cli.tournament_parts import jobs_line
from tests.helpers import cli
from tournaments import Tournament, load, local
from tournaments.local import imap_local
from tournaments.players import Players

HOARDER = os.path.join(os.path.dirname(__file__), "..", "examples", "my_strategy.py") + ":Hoarder"
"""A plain-Python strategy: its runs play on worker processes, started once they pay."""


def _line(jobs: int, *records: dict[str, int]) -> str:
    return jobs_line({"sessions": [{"players": r} for r in records]}, 0, jobs)


def _local(played: int | None = None, **counts: int) -> dict[str, int]:
    """A session's record of its local players (``played`` left out: an earlier version's)."""
    record = {"workers": 0, "threads": 0, "driver_tasks": 0, "worker_tasks": 0,
              "thread_tasks": 0, **counts}  # fmt: skip
    return record if played is None else {**record, "played": played}


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


@pytest.fixture
def never_pays(monkeypatch):
    """Worker processes never pay (a slow machine's chunk could otherwise say they would)."""
    monkeypatch.setattr(local, "PAYBACK", 1e9)


ALONE = "this process alone: worker processes would not pay for so little work"
PARTS = "a player for each part of the run left to play"


@pytest.mark.parametrize(("jobs", "record", "said"), [
    (2, _local(1, driver_tasks=2), f"--jobs 2: 1 player played ({ALONE})"),
    (8, _local(1, driver_tasks=3, jobs_capped_to=3), f"--jobs 8: 1 player played ({ALONE})"),
    (2, _local(1, driver_tasks=1, jobs_capped_to=1), f"--jobs 2: 1 player played ({PARTS})"),
    (8, _local(3, driver_tasks=1, threads=2, thread_tasks=2, jobs_capped_to=3),
     f"--jobs 8: 3 players played ({PARTS})"),
    (100, _local(8, driver_tasks=9, threads=7, thread_tasks=50, jobs_capped_to=8),
     "--jobs 100: 8 players played (at most 4 a core)"),
    (2, _local(1, driver_tasks=5, workers=1),
     "--jobs 2: 1 player played (the worker process started found no part left to play)"),
    (100, _local(3, driver_tasks=5, workers=7, worker_tasks=9, jobs_capped_to=8),
     "--jobs 100: 3 players played (5 of the 7 worker processes started found no part left "
     "to play)"),
    (2, _local(0, jobs_capped_to=1), ""),  # a resume with nothing left: no one played
    (2, _local(2, driver_tasks=1, workers=1, worker_tasks=1), ""),  # as many as asked
    (-1, _local(1, driver_tasks=2), ""),  # one a core: no number asked
    (100, {"jobs_capped_to": 1}, f"--jobs 100: 1 player played ({PARTS})"),  # a Dask cluster's
], ids=["never-paid", "never-paid-capped", "one-part", "threads", "a-core", "late-worker",
        "late-workers", "nothing-left", "as-asked", "one-a-core", "dask"])  # fmt: skip
def test_each_sentence_says_what_the_record_says(two_cores, jobs, record, said):
    assert _line(jobs, record) == said


@pytest.mark.parametrize(("record", "said"), [
    (_local(driver_tasks=2), f"--jobs 2: 1 player played ({ALONE})"),
    (_local(jobs_capped_to=1), ""),
    (_local(driver_tasks=4, workers=1), "--jobs 2: 1 player played (the worker process "
                                        "started found no part left to play)"),
    (_local(driver_tasks=2, workers=1, worker_tasks=3), ""),
], ids=["never-paid", "nothing-left", "late-worker", "as-asked"])  # fmt: skip
def test_an_earlier_versions_record_says_what_it_can_tell(two_cores, record, said):
    assert _line(2, record) == said


def test_an_earlier_versions_record_of_several_workers_says_a_bound(two_cores):
    record = _local(driver_tasks=3, workers=6, worker_tasks=2, jobs_capped_to=7)
    assert _line(8, record) == (
        "--jobs 8: at most 3 players played (at least 4 of the 6 worker "
        "processes started found no part left to play)"
    )
    record = _local(driver_tasks=3, workers=2, worker_tasks=5, jobs_capped_to=3)
    assert _line(8, record) == f"--jobs 8: at most 3 players played ({PARTS})"


def test_sessions_that_played_nothing_say_nothing_of_the_others(two_cores):
    assert _line(2, _local(0, jobs_capped_to=1), _local(1, driver_tasks=2)).endswith(ALONE + ")")
    assert _line(2, _local(1, driver_tasks=2), _local(2, driver_tasks=1, threads=1,
                                                      thread_tasks=1)) == ""  # fmt: skip


def _asleep() -> None:
    time.sleep(20)


def test_a_worker_still_starting_when_the_driver_played_everything_played_nothing():
    stats: dict[str, int] = {}
    assert sorted(imap_local(abs, range(6), Players(2, stats=stats, ready=_asleep))) == list(
        range(6))  # fmt: skip
    assert stats["workers"] == 1 and stats["worker_tasks"] == 0 and stats["played"] == 1
    said = jobs_line({"sessions": [{"players": stats}]}, 0, 2)
    assert said == "--jobs 2: 1 player played (the worker process started found no part left " \
                   "to play)"  # fmt: skip


def test_every_player_that_played_is_counted():
    stats: dict[str, int] = {}
    list(imap_local(abs, range(3), Players(1, stats=stats)))
    assert stats["played"] == 1
    list(imap_local(abs, [], Players(2, stats=stats)))
    assert stats["played"] == 0 and stats["jobs_capped_to"] == 1
    list(imap_local(abs, range(30), Players(2, stats=stats, threads=True)))
    assert stats["played"] == stats["threads"] + 1 == 2


def _jobs_lines(said: str) -> list[str]:
    return [line for line in said.splitlines() if line.startswith("--jobs")]


@pytest.mark.slow
def test_a_run_the_workers_would_not_pay_for_says_this_process_played_it(capsys, tmp_path,
                                                                         never_pays):  # fmt: skip
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", HOARDER, "greedy", "low", "high", "--games", "48",
                          "--chunk-size", "24", "--jobs", "2", "--out", str(out))  # fmt: skip
    assert code == 0, err
    players = load(out).manifest["sessions"][-1]["players"]
    assert players["workers"] == 0 and players["driver_tasks"] == 2 and players["played"] == 1
    assert _jobs_lines(said) == [f"--jobs 2: 1 player played ({ALONE})"]


@pytest.mark.slow
def test_a_resume_with_nothing_left_says_no_one_played(capsys, tmp_path):
    out = tmp_path / "run"
    args = ("tournament", "greedy", "low", "high", "counter", "--games", "8", "--jobs", "2",
            "--out", str(out))  # fmt: skip
    code, said, err = cli(capsys, *args)
    assert code == 0, err
    assert _jobs_lines(said) == [f"--jobs 2: 1 player played ({PARTS})"]
    code, said, err = cli(capsys, *args, "--resume")
    assert code == 0, err
    assert load(out).manifest["sessions"][-1]["players"]["played"] == 0
    assert _jobs_lines(said) == []


@pytest.mark.slow
def test_a_threaded_run_records_every_player_that_played(capsys, tmp_path):
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "counter", "--games",
                          "96", "--chunk-size", "8", "--jobs", "2", "--out", str(out))  # fmt: skip
    assert code == 0, err
    players = load(out).manifest["sessions"][-1]["players"]
    assert players["threads"] == 1 and players["played"] == 2
    assert _jobs_lines(said) == []


def test_the_library_records_who_played(tmp_path, never_pays):
    t = Tournament([HOARDER, "greedy", "low", "high"], players=4, games=48, seed=1,
                   chunk_size=24)  # fmt: skip
    result = t.run(n_jobs=2, out=tmp_path / "run")
    session = result.manifest["sessions"][-1]
    assert session["jobs"] == 2  # what was asked
    assert session["players"] == {
        "workers": 0,
        "threads": 0,
        "driver_tasks": 2,
        "worker_tasks": 0,
        "thread_tasks": 0,
        "played": 1,
    }
    assert "jobs" not in repr(result) and "worker" not in repr(result)


def test_each_thread_that_played_counts_once_though_a_finished_ones_ident_is_reused():
    """A thread that ends hands its ident on to the next one started: counted by idents,
    a run of a few quick tasks said "1 of the 3 threads started found no part left to play"."""
    for n in [1, 2, 3, 4, 6] * 10:
        stats: dict[str, int] = {}
        assert sorted(imap_local(abs, range(n), Players(4, stats=stats, threads=True))) == list(
            range(n))  # fmt: skip
        assert stats["played"] == stats["threads"] + 1 == min(n, local.n_workers(4) + 1)


def test_a_record_edited_by_hand_says_nothing():
    assert _line(2, {**_local(1, driver_tasks=2), "workers": "x"}) == ""
    assert _line(2, {"played": True, "workers": 0}) == ""
