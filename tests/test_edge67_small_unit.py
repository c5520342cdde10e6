"""13 Leaves' ``min_unit_s``: the lower bound on one game's single-core time by which the
runner judges whether worker processes pay for a run (``tournaments.local``: at once when
the run's games, each at least that long, add up to ``PAYBACK`` worker start-ups). Too high,
and runs too small for them start workers; too low, and runs that need them start them late."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leaves import bench
from leaves.players.compiled import engine as leaves_c
from leaves.plugin import LeavesGame
from tournaments import Tournament, local, parallel

ROOT = Path(__file__).resolve().parent.parent


def _fastest_cheapest_game_s() -> float:
    """Seconds of one compiled game of random play at 3 players (the shortest games) on the
    fastest machine docs/performance.md records, by its rate there ("3p 427k")."""
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    row = next(r for r in text.splitlines() if r.startswith("| compiled random play by player"))
    return 1 / (int(re.search(r"\b3p (\d+)k\b", row)[1]) * 1000)


def test_the_declared_bound_lies_between_the_benchmarks_floor_and_the_fastest_game():
    """No timing: a bound above the fastest recorded game is no lower bound (a run of 13
    Leaves would start workers its games cannot pay for), and one below the benchmark's
    floor (``GAME_MIN_S``, a quarter of the same game) leaves workers unstarted where they pay."""
    assert bench.GAME_MIN_S <= LeavesGame.min_unit_s <= _fastest_cheapest_game_s()


def test_the_runs_that_start_workers_at_once_take_that_long_on_the_fastest_machine():
    """The fewest games at which a run starts workers at once take longer than those
    start-ups even on the fastest machine recorded."""
    least = int(local.PAYBACK * local.WORKER_START_S / LeavesGame.min_unit_s) + 1
    assert local._pays(least * LeavesGame.min_unit_s)
    assert not local._pays((least - 1) * LeavesGame.min_unit_s)
    assert least * _fastest_cheapest_game_s() > local.PAYBACK * local.WORKER_START_S


def test_a_13_leaves_run_is_judged_by_the_declared_bound(monkeypatch):
    """The runner's workload is the run's games at ``min_unit_s`` each (a game that declares
    none would be judged at 0 s: workers never started at once)."""
    seen = []
    real = parallel.imap_local

    def spy(fn, tasks, players):
        seen.append(players.workload)
        return real(fn, tasks, players)

    monkeypatch.setattr(parallel, "imap_local", spy)
    run = Tournament(["random", "greedy"], players=3, games=12, seed=1)
    run.run()
    assert len(seen) == 1 and seen[0].units == run.n_games >= 12
    said = run.n_games * LeavesGame.min_unit_s
    assert seen[0].units * seen[0].min_unit_s == pytest.approx(said, rel=1e-12)


def test_the_declared_bound_is_not_far_above_what_leaves_bench_measures():
    """What ``leaves bench`` measures here for 3 players' random play (its best of three
    runs, wall clock): the declared bound is at most twice one game's time, a margin no
    busy machine breaks (a busy one measures slower) and a bound ten times too high fails."""
    if not leaves_c.available():
        pytest.skip("timed on the C engine (numba's loop, with the JIT off, takes minutes)")
    rate = LeavesGame().bench(3, 20_000, 0, 3, 0).result["games_per_second"]
    assert LeavesGame.min_unit_s <= 2 / rate, rate
