"""Who plays a run's chunks, and how: one options object that ``Tournament.run`` hands through
``parallel.imap_unordered`` to ``local.imap_local`` (rather than a row of arguments that each
layer passes on one by one)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamekit.errors import ParameterError

from .checks import integer

__all__ = ["BACKENDS", "Players", "Salvage", "Workload", "check_scheduler"]

BACKENDS = ("loky", "dask")

REACH_S = 5.0
"""Seconds a Dask scheduler's address has to accept a connection when a run names it."""

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
        something must accept a connection there (``check_scheduler``), so that a run that
        cannot reach its cluster is refused before it writes anything."""
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
    ``http://HOST:8787``) or where nothing accepts a connection within ``REACH_S`` (Dask's
    own client would try for 30 s, then say only that it timed out)."""
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
    try:
        socket.create_connection((host or "localhost", port), timeout=REACH_S).close()
    except OSError as exc:
        why = f"no answer in {REACH_S:g} s" if isinstance(exc, TimeoutError) else exc.strerror
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {why or exc}") from None
