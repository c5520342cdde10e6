"""A Dask worker process killed mid-run: no game lost or counted twice, the same results."""

from __future__ import annotations

import os
import signal
import threading
import time

import pandas as pd
import pytest

from tests.toygame import ToyGame
from tournaments import Tournament
from tournaments.verify import verify_run


def _toy(delay: float = 0.0) -> Tournament:
    return Tournament(["a", "p1", "p2", "p3"], players=4, games=960, seed=13, chunk_size=48,
                      game=ToyGame(delay=delay))  # fmt: skip


@pytest.mark.slow
def test_killing_a_dask_worker_process_mid_run_changes_nothing(tmp_path):
    distributed = pytest.importorskip("distributed")
    whole = _toy().run(out=tmp_path / "whole")
    n_chunks = whole.spec["n_chunks"]
    out = tmp_path / "killed"
    killed: dict[str, int] = {}

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        pids = client.run(os.getpid)  # worker address -> process id

        def kill_one_when_under_way() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                done = len(list((out / "chunks").glob("chunk-*.npz"))) if out.exists() else 0
                if done >= 3:
                    pid = sorted(pids.values())[0]
                    killed.update(pid=pid, done=done)
                    os.kill(pid, signal.SIGKILL)  # no chance to clean up or hand back work
                    return
                time.sleep(0.005)

        killer = threading.Thread(target=kill_one_when_under_way)
        killer.start()
        # 20 chunks x 4 seatings x 0.05 s: ~2 s of work over two workers
        res = _toy(delay=0.05).run(backend="dask", scheduler=client, out=out)
        killer.join()

    assert killed and killed["done"] < n_chunks, "the worker was not killed mid-run"
    with pytest.raises(ProcessLookupError):
        os.kill(killed["pid"], 0)
    assert res.complete and verify_run(out).ok
    assert res.manifest["n_chunks_done"] == n_chunks
    games = res.games()
    assert games["game"].tolist() == list(range(len(games)))  # none lost, none twice
    pd.testing.assert_frame_equal(games, whole.games())
    pd.testing.assert_frame_equal(res.summary(), whole.summary())
    for key, value in whole.aggregates().items():
        assert (res.aggregates()[key] == value).all(), key


def test_a_dead_local_worker_is_one_line_saying_resume(tmp_path, capsys, monkeypatch):
    from leaves_cli.main import main

    class TerminatedWorkerError(Exception):  # what joblib raises when a loky worker dies
        pass

    def run(self, *args, **kwargs):
        raise TerminatedWorkerError("A worker process managed by the executor was\nkilled")

    monkeypatch.setattr(Tournament, "run", run)
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "greedy", "low", "high", "--players", "3", "--games", "30",
              "--out", str(tmp_path / "o")])  # fmt: skip
    stderr = capsys.readouterr().err
    err = stderr.splitlines()[-1]  # after the run's two opening lines
    assert exc.value.code == 1 and "Traceback" not in stderr and "executor" not in stderr
    assert err.startswith("leaves: error: a worker process died") and "--resume" in err
