"""Bounded decisions: a plain-Python strategy that hangs forfeits that game, the run goes on."""

from __future__ import annotations

import json
import threading

import numpy as np
import pandas as pd
import pytest

import strategies
from leaves.plugin import LeavesGame
from leaves_cli.main import main
from strategies.deadline import DecisionTimeout, check_timeout
from tournaments import Tournament

SLEEPY = '''
import time
from strategies import Strategy


class Sleepy(Strategy, register=False):
    """Plays the first legal action, but sleeps forever on a turn-0..2 decision holding a 13."""

    def choose(self, view, legal, rng):
        if view.hand[12] and view.turn < 3:
            time.sleep(10**6)
        return legal[0]


class Stubborn(Strategy, register=False):
    """Loops forever in Python, swallowing every Exception, when holding two 13s."""

    def choose(self, view, legal, rng):
        while view.hand[12] >= 2:
            try:
                sum(range(1000))
            except Exception:
                pass
        return legal[0]


class Slow(Strategy, register=False):
    """Blocks on a lock nobody releases in start_game of every game."""

    def start_game(self, view, rng):
        import threading

        lock = threading.Lock()
        lock.acquire()
        lock.acquire()

    def choose(self, view, legal, rng):
        return legal[0]
'''

SEEDS = np.arange(1, 13, dtype=np.uint64)


@pytest.fixture(scope="module")
def sleepy(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("strats") / "sleepy.py"
    path.write_text(SLEEPY)
    return str(path)


LIMIT = 0.5
"""The decision limit of the hung-decision test: long enough that greedy's and low's decisions
(microseconds) never reach it on a loaded machine (at 0.2 s they did, at a load of 10 on two
cores), short enough for a quick test."""


@pytest.mark.parametrize("cls", ["Sleepy", "Stubborn"])
def test_a_hung_decision_forfeits_only_that_game(sleepy, cls):
    spec = f"{sleepy}:{cls}"
    res = strategies.play_batch([spec, "greedy", "low"], SEEDS, SEEDS, decision_timeout=LIMIT)
    lost = np.flatnonzero(res.forfeit_seat >= 0)
    assert 0 < len(lost) < len(SEEDS) and (res.forfeit_seat[lost] == 0).all()
    assert (res.winner_seat[lost] == -1).all() and (
        res.winner_seat[res.forfeit_seat < 0] >= 0
    ).all()
    for i in lost:
        assert res.errors[i].startswith(f"seat 0 ({cls}): DecisionTimeout: choose at turn ")
        assert res.errors[i].endswith(f"took longer than {LIMIT} s")
    # the seeds replay the forfeit; the other games are those of a strategy that never hangs
    i = int(lost[0])
    again = strategies.play_game([spec, "greedy", "low"], deal_seed=int(SEEDS[i]),
                                 play_seed=int(SEEDS[i]), decision_timeout=LIMIT)  # fmt: skip
    assert again.forfeit_seat == 0 and again.error == res.errors[i]


def test_hooks_are_bounded_too_and_the_timer_is_put_back(sleepy):
    import signal

    before = signal.getsignal(signal.SIGALRM)
    res = strategies.play_batch([f"{sleepy}:Slow", "greedy", "low"], SEEDS[:2], SEEDS[:2],
                                decision_timeout=0.1)  # fmt: skip
    assert res.errors[0] == "seat 0 (Slow): DecisionTimeout: start_game took longer than 0.1 s"
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_bad_timeouts_are_refused():
    assert check_timeout(None) is None and check_timeout(0) is None and check_timeout(2) == 2.0
    for bad in (-1, "soon", float("nan"), float("inf")):
        with pytest.raises(ValueError, match="decision timeout"):
            check_timeout(bad)
    with pytest.raises(ValueError, match="^decision_timeout: "):
        LeavesGame(decision_timeout=-3)
    assert issubclass(DecisionTimeout, BaseException) and not issubclass(DecisionTimeout, Exception)


@pytest.mark.slow
def test_outside_the_main_thread_a_helper_process_bounds_the_decision(sleepy):
    got: dict = {}

    def worker():
        got["res"] = strategies.play_batch([f"{sleepy}:Sleepy", "greedy", "low"], SEEDS, SEEDS,
                                           decision_timeout=0.2)  # fmt: skip

    t = threading.Thread(target=worker)
    t.start()
    t.join(120)
    assert not t.is_alive()
    main_thread = strategies.play_batch([f"{sleepy}:Sleepy", "greedy", "low"], SEEDS, SEEDS,
                                        decision_timeout=0.2)  # fmt: skip
    assert got["res"].errors == main_thread.errors and any(got["res"].errors)
    assert (got["res"].cards_left == main_thread.cards_left).all()


@pytest.mark.slow
def test_cli_decision_timeout_with_loky_workers_then_dask(sleepy, tmp_path, capsys):
    """The acceptance check: sleeping forever in choose forfeits under --decision-timeout 1."""
    out = tmp_path / "loky"
    args = [f"{sleepy}:Sleepy", "greedy", "low", "--players", "3", "--games", "12",
            "--chunk-size", "6", "--seed", "3", "--decision-timeout", "1", "--no-progress"]  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *args, "--jobs", "2", "--out", str(out)])
        raise SystemExit(0)
    stdout, stderr = capsys.readouterr()
    assert exc.value.code in (0, None), stderr
    assert "Partly forfeited: " in stdout and " of 12 games (" in stdout  # said first
    forfeits = json.loads((out / "forfeits.json").read_text())
    assert forfeits and all(f["strategy"] == "Sleepy" for f in forfeits)
    f = forfeits[0]
    assert "DecisionTimeout" in f["error"] and "1 s" in f["error"]
    seats = [f"{sleepy}:Sleepy" if s == "Sleepy" else s for s in f["seats"]]
    again = strategies.play_batch(seats, np.array([f["deal_seed"]], np.uint64),
                                  np.array([f["seed"]], np.uint64), decision_timeout=0.2)  # fmt: skip
    assert again.forfeit_seat[0] == f["seat"]
    assert again.errors[0] == f["error"].replace("1 s", "0.2 s")

    distributed = pytest.importorskip("distributed")
    game = LeavesGame(decision_timeout=1)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:  # tasks run in a worker thread: decisions are bounded in a helper process
        dask = Tournament([f"{sleepy}:Sleepy", "greedy", "low"], players=3, games=12, seed=3,
                          chunk_size=6, game=game).run(
            backend="dask", scheduler=cluster.scheduler_address, out=tmp_path / "dask"
        )  # fmt: skip
    loky = pd.read_parquet(out / "games").sort_values("game").reset_index(drop=True)
    pd.testing.assert_frame_equal(dask.games(), loky)


@pytest.mark.slow
def test_a_class_the_helper_cannot_import_by_name_is_sent_by_value():
    """A class defined in a script's __main__ (here: in a test function, which no pickle finds
    by name either) reached a Dask worker, but the worker's helper process got it by standard
    pickle: 'Can't pickle <class '__main__.MainBot'>'. It is sent by value now."""

    class Local(strategies.Strategy, register=False):
        def choose(self, view, legal, rng):
            return legal[0]

    got: dict = {}

    def worker():
        try:
            got["res"] = strategies.play_batch([Local(), "greedy", "low"], SEEDS, SEEDS,
                                               decision_timeout=5)  # fmt: skip
        except Exception as exc:  # the failure the test looks for
            got["error"] = exc

    t = threading.Thread(target=worker)
    t.start()
    t.join(120)
    assert "error" not in got, got.get("error")
    main_thread = strategies.play_batch([Local(), "greedy", "low"], SEEDS, SEEDS,
                                        decision_timeout=5)  # fmt: skip
    assert (got["res"].cards_left == main_thread.cards_left).all()
