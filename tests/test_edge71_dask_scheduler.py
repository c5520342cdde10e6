"""A ``--scheduler`` where no Dask scheduler answers is refused in one line within seconds,
before a run writes anything: a server that never speaks Dask (a run waited on a web server
for minutes), one that closes the connection, a worker's port (Dask's client then failed on
an argument of its scheduler's). What can fail only once the run is written (the client's
connection, no worker joining) says how to resume it."""

from __future__ import annotations

import http.server
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.helpers import cli
from tests.toygame import ToyGame
from tournaments import Tournament, parallel, players
from tournaments.parallel import WorkerError

REACH_S = 0.5
"""The time the tests give an address to answer (the command gives it REACH_S)."""


class _Silent(socketserver.BaseRequestHandler):
    """Accepts a connection and says nothing until the client hangs up."""

    def handle(self) -> None:
        self.request.settimeout(30)
        while self.request.recv(1024):
            pass


class _Closing(socketserver.BaseRequestHandler):
    """Accepts a connection and closes it at once."""

    def handle(self) -> None:
        self.request.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        """No line on stderr for each request."""


@contextmanager
def _serving(handler: type) -> Iterator[str]:
    """The tcp:// address of a server on this machine answering with ``handler``."""
    cls = http.server.ThreadingHTTPServer if handler is _Quiet else socketserver.ThreadingTCPServer
    server = cls(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def _quick(monkeypatch):
    monkeypatch.setattr(players, "REACH_S", REACH_S)


def _toy() -> Tournament:
    return Tournament(["a", "p1", "p2"], players=3, games=12, seed=5, chunk_size=6,
                      game=ToyGame())  # fmt: skip


@pytest.mark.parametrize("handler", [_Silent, _Quiet], ids=["tcp", "http"])
def test_a_server_that_never_speaks_dask_is_refused_within_seconds(tmp_path, handler):
    """A web server held the run for minutes, after it was written."""
    out = tmp_path / "o"
    with _serving(handler) as address:
        start = time.monotonic()
        with pytest.raises(ValueError) as exc:
            _toy().run(backend="dask", scheduler=address, out=out)
        assert time.monotonic() - start < REACH_S + 1.5
    assert str(exc.value) == (
        f"no Dask scheduler answers at {address}: no answer in Dask's protocol within 0.5 s"
    )
    assert not out.exists()  # a rerun needs no --resume


def test_the_command_refuses_a_web_server_in_one_line_before_writing(tmp_path, capsys):
    """It said "results in o" and wrote the manifest, then waited for ever."""
    out = tmp_path / "o"
    with _serving(_Quiet) as address:
        code, said, err = cli(capsys, "tournament", "greedy", "low", "--games", "100",
                              "--backend", "dask", "--scheduler", address, "--out", str(out))  # fmt: skip
    assert code == 2
    assert err.strip().splitlines() == [
        f"leaves: error: no Dask scheduler answers at {address}: no answer in Dask's protocol "
        "within 0.5 s"
    ]
    assert said == "" and not out.exists()


def test_a_server_that_closes_the_connection_is_refused_saying_so(tmp_path):
    """A dashboard's port said "cannot reach the Dask scheduler" minutes later, although the
    connection was made."""
    with _serving(_Closing) as address, pytest.raises(ValueError) as exc:
        players.check_scheduler(address)
    assert str(exc.value) == (
        f"no Dask scheduler answers at {address}: the connection was closed without an "
        "answer in Dask's protocol"
    )


def test_a_workers_identity_is_refused_naming_its_scheduler():
    with pytest.raises(players.NotAScheduler) as exc:
        players._is_scheduler({"type": "Worker", "id": "w", "scheduler": "tcp://head:8786"})
    said = players.unanswered("tcp://node:40000", exc.value)
    assert said == ("no Dask scheduler answers at tcp://node:40000: a Dask Worker answers "
                    "there, not a scheduler: its scheduler is tcp://head:8786")  # fmt: skip
    players._is_scheduler({"type": "Scheduler", "n_workers": 0})  # a scheduler passes


def test_a_client_that_cannot_connect_once_the_run_is_written_says_it_as_a_stop(monkeypatch):
    """Dask's client raised what the run caught as no failure of its own (a TypeError of a
    worker's identity: a traceback), or waited past its 30 s. Once the run is written, its
    failure is a WorkerError, which the command says with the --resume that continues it."""
    distributed = pytest.importorskip("distributed")

    def failing(*args, **kwargs):
        raise TypeError("Server.identity() got an unexpected keyword argument 'n_workers'")

    monkeypatch.setattr(distributed, "Client", failing)
    with pytest.raises(WorkerError) as exc, parallel._client(0, "tcp://127.0.0.1:1"):
        pass
    assert str(exc.value) == (
        "no Dask scheduler answers at tcp://127.0.0.1:1: TypeError: Server.identity() got an "
        "unexpected keyword argument 'n_workers'"
    )


@pytest.mark.slow
def test_a_schedulers_address_passes_and_a_workers_is_refused():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:  # fmt: skip
        players.check_scheduler(cluster.scheduler_address)
        worker = next(iter(cluster.workers.values())).address
        with pytest.raises(ValueError) as exc:
            players.check_scheduler(worker)
    assert str(exc.value) == (
        f"no Dask scheduler answers at {worker}: a Dask Worker answers there, not a "
        f"scheduler: its scheduler is {cluster.scheduler_address}"
    )


@pytest.mark.slow
def test_no_worker_joining_a_written_run_names_its_resume(tmp_path, capsys, monkeypatch):
    """It said only "no Dask worker joined ..." (exit 2), and a rerun was refused: the run's
    folder was not empty."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "WORKERS_S", 1.0)
    out = tmp_path / "o"
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:  # fmt: skip
        address = cluster.scheduler_address
        code, _, err = cli(capsys, "tournament", "greedy", "low", "--games", "100",
                           "--backend", "dask", "--scheduler", address, "--out", str(out))  # fmt: skip
    assert code == 1, err
    assert err.strip().splitlines()[-1] == (
        f"leaves: error: no Dask worker joined the scheduler at {address} in 1 s: start some "
        f"('dask worker {address}'); every finished chunk is kept: 'leaves tournament --out "
        f"{out} --resume' continues it"
    )
