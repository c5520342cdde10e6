"""Who plays a run's chunks, and how: one options object that ``Tournament.run`` hands through
``parallel.imap_unordered`` to ``local.imap_local`` (rather than a row of arguments that each
layer passes on one by one)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamekit.errors import ParameterError

from .checks import integer

__all__ = ["BACKENDS", "Players", "Salvage", "Workload", "check_scheduler", "unanswered"]

BACKENDS = ("loky", "dask")

REACH_S = 5.0
"""Seconds a Dask scheduler's address has to accept a connection, and then to answer as a
Dask scheduler, when a run names it."""

HOST_PORT = ("tcp", "tls", "ws", "wss")
"""The schemes of Dask addresses that name a host and a port, which a run tries to reach."""

Salvage = Callable[[Any], None]
"""Receives, when a stream is closed early, each result finished but never yielded."""


@dataclass(frozen=True)
class Workload:
    """How much work the tasks hold, so the driver can judge whether workers pay.

    ``units`` is the total over all tasks (e.g. games), ``size(task)`` one task's share and
    ``min_unit_s`` a lower bound on one unit's single-core time (the cheapest game).
    """

    units: int
    size: Callable[[Any], int]
    min_unit_s: float


@dataclass(frozen=True)
class Players:
    """Who plays a run's chunks: ``n_jobs`` players (-1: one per core) on ``backend``
    ("loky": this machine; "dask": the cluster at ``scheduler``, or a local one).

    What a local stream also needs (``local.imap_local``): ``threads``, the other players are
    threads of this process (the play releases the GIL), else worker processes, started at
    once without a ``workload`` and otherwise once it pays for them; ``prepare()`` readies
    this process to play, ``ready`` (picklable) a worker; ``stats`` receives who played how
    many tasks; ``salvage`` what was finished but not yielded when the stream closes early.
    """

    n_jobs: int = 1
    backend: str = "loky"
    scheduler: Any = None
    threads: bool = False
    workload: Workload | None = None
    prepare: Callable[[], None] | None = None
    ready: Callable[[], Any] | None = None
    stats: dict[str, int] | None = None
    salvage: Salvage | None = None

    def __post_init__(self) -> None:
        """Check the options, in one line each; a scheduler given by address must be one, and
        a Dask scheduler must answer there (``check_scheduler``), so that a run that cannot
        reach its cluster is refused before it writes anything."""
        what = "a number of workers (a positive integer, or -1 for one per core)"
        object.__setattr__(self, "n_jobs", integer(self.n_jobs, "n_jobs", what))
        if self.backend not in BACKENDS:
            raise ValueError(
                f"unknown backend {self.backend!r}: choose one of {', '.join(BACKENDS)}"
            )
        if self.scheduler is not None and self.backend != "dask":
            raise ParameterError("{scheduler} needs {backend} dask", "scheduler", "backend")
        if self.n_jobs == 0 or self.n_jobs < -1:
            raise ParameterError(
                f"{{n_jobs}} must be a positive number of workers (or -1), got {self.n_jobs}",
                "n_jobs",
            )
        if isinstance(self.scheduler, str):
            check_scheduler(self.scheduler)


def check_scheduler(address: str) -> None:
    """Refuse, in one line, a Dask scheduler ``address`` that is none (``notanaddress``,
    ``http://HOST:8787``), or where no Dask scheduler answers within ``REACH_S`` (nothing
    accepts a connection, or what does is no scheduler: a web server, the dashboard's port, a
    worker's), before a run writes anything: Dask's own client waits 30 s on a closed port to
    say only that it timed out, minutes or for ever on a server that never speaks Dask, and
    takes a worker for its scheduler."""
    # start-up: Dask loads for a cluster only
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend  # start-up: as above

    try:
        scheme, where = parse_address(address)
        get_backend(scheme)
        host, port = parse_host_port(where) if scheme in HOST_PORT else ("", 0)
    except ValueError as exc:
        raise ValueError(
            f"not a Dask scheduler address: {address!r} ({exc}); e.g. tcp://HOST:8786"
        ) from None
    if not port:
        return
    try:  # a closed port at once: Dask's handshake would try it again until its time is up
        socket.create_connection((host or "localhost", port), timeout=REACH_S).close()
    except OSError as exc:
        why = (f"nothing accepts a connection within {REACH_S:g} s"
               if isinstance(exc, TimeoutError) else exc.strerror or str(exc))  # fmt: skip
        raise ValueError(f"no Dask scheduler answers at {address}: {why}") from None
    try:
        _is_scheduler(_identity(address))
    except Exception as exc:
        raise ValueError(unanswered(address, exc)) from None


def unanswered(address: str, exc: BaseException, seconds: float | None = None) -> str:
    """The one line that says no Dask scheduler answers at ``address``, and why: ``exc``,
    raised asking it (a TimeoutError: after ``seconds``, default ``REACH_S``)."""
    if isinstance(exc, TimeoutError):
        why = f"no answer in Dask's protocol within {seconds or REACH_S:g} s"
    elif type(exc).__name__ == "CommClosedError":  # Dask's, told by its name as it is an OSError
        why = "the connection was closed without an answer in Dask's protocol"
    elif isinstance(exc, OSError) and exc.strerror:
        why = exc.strerror
    elif isinstance(exc, NotAScheduler):
        why = str(exc)
    else:
        why = f"{type(exc).__name__}: {exc}"
    return f"no Dask scheduler answers at {address}: {' '.join(why.split())}"


class NotAScheduler(Exception):
    """What answers at an address says it is a Dask server of another kind (a worker)."""


def _is_scheduler(identity: Any) -> None:
    """Raise NotAScheduler unless ``identity`` (a Dask server's ``identity()``) is a
    scheduler's, naming what answered instead (a worker's, with its scheduler)."""
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind == "Scheduler":
        return
    its = identity.get("scheduler") if isinstance(identity, dict) else None
    where = f": its scheduler is {its}" if isinstance(its, str) else ""
    raise NotAScheduler(f"a Dask {kind or 'server'} answers there, not a scheduler{where}")


def _identity(address: str) -> Any:
    """What the Dask server at ``address`` says it is (its ``identity()``), asked on an event
    loop of its own in a thread of its own (the caller may run a loop, as a notebook does),
    within ``REACH_S``: TimeoutError after that, though the asking may hang on (a name that
    does not resolve)."""
    box: dict[str, Any] = {}

    def ask() -> None:
        try:
            box["answer"] = asyncio.run(asyncio.wait_for(_ask(address), REACH_S))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which raises it
            box["error"] = exc

    thread = threading.Thread(target=ask, name="leaves-dask-identity", daemon=True)
    thread.start()
    thread.join(REACH_S + 1.0)
    if "error" in box:
        raise box["error"]
    if "answer" not in box:
        raise TimeoutError
    return box["answer"]


async def _ask(address: str) -> Any:
    """``identity()`` of the Dask server at ``address``, as a client connects to it (the
    configured TLS, where ``address`` is ``tls://``)."""
    from distributed.core import rpc  # start-up: Dask loads for a cluster only
    from distributed.security import Security  # start-up: as above

    remote = rpc(address, timeout=REACH_S, connection_args=Security().get_connection_args("client"))
    try:
        return await remote.identity()
    finally:
        await remote.close_rpc()
