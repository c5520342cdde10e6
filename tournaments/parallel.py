"""Run chunk tasks on local processes (joblib/loky) or a Dask cluster, results as they finish.

Both backends keep only a bounded number of tasks in flight, so memory stays flat however many
chunks a run has, and both yield results in completion order (the runner never relies on it).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from strategies import global_random

from .local import imap_local, n_workers
from .notices import Watched, said, unwrapping
from .players import BACKENDS, Players, Salvage, unanswered

__all__ = ["BACKENDS", "OnWorker", "WorkerError", "cluster_size", "imap_unordered", "plays_alone",
           "record_cap"]  # fmt: skip


class WorkerError(RuntimeError):
    """The Dask cluster stopped a run it had begun, in one line: a worker could not play a
    task (a strategy's file it cannot load, a process it may not start, a worker that died on
    it every time: the worker's error), no worker joined (``WORKERS_S``), or the scheduler,
    which answered when the run was checked, did not once it was written."""


DAEMONS = (
    "start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False: a plain-Python strategy's "
    "decisions are bounded in a helper process, which a daemon may not start"
)
"""What to do when a cluster's workers are daemons (Dask's default)."""

WORKERS_S = 60.0
"""Seconds a cluster with no worker is given for one to join before the run is refused."""


def imap_unordered(
    fn: Callable[[Any], Any], tasks: Iterable[Any], players: Players
) -> Iterator[Any]:
    """``fn(task)`` for every task, yielded in completion order, by ``players``.

    ``backend="loky"``: ``n_jobs`` local players, this process and ``n_jobs - 1`` threads
    (``threads``: ``fn`` releases the GIL) or worker processes started only when the
    ``workload`` pays for them (``local.imap_local``, which also says what ``prepare``,
    ``ready``, ``stats`` and ``salvage`` do; ``n_jobs=1`` runs in this process, ``-1`` uses
    every core).
    ``backend="dask"``: the Dask cluster at ``scheduler`` (an address such as
    ``tcp://host:8786``, or a ``distributed.Client``); with no scheduler a local cluster of
    ``cluster_size(n_jobs, tasks)`` single-threaded worker processes is started for the run.
    A task that fails on a worker, or a cluster that cannot play, raises ``WorkerError``;
    ``salvage`` receives what was finished but not yielded when the stream is closed early.
    ``stats`` (if given) receives ``played``, the workers that finished a task (by name: one
    lost and started again under its name counts once), and for a local cluster
    ``dask_workers``, the workers started (none for a run with no task), and
    ``jobs_capped_to`` (``record_cap``).

    Whoever plays a run's chunk notes what it showed of the strategies (one drawing from the
    global random state, decisions past the timeout), and the stream warns once of each as
    its chunk comes in (``notices``).
    """
    salvage = unwrapping(players.salvage)
    if players.backend == "dask":
        return said(_dask(Watched(OnWorker(fn)), tasks, players, salvage))
    watched = Watched(fn, compare=not players.threads)
    return said(imap_local(watched, tasks, dataclasses.replace(players, salvage=salvage)))


class OnWorker:
    """``fn(task)`` on a Dask worker, the process's numpy.random state compared around it
    (``global_random.snapshot``, ``drawn``) where the worker plays alone in its process, and
    a change noted for its thread (``global_random.note``), which ``notices.Watched`` takes
    as it takes a decision timeout's helper process's. A worker's thread is not its process's
    main thread, the one a local player compares on, so without this a strategy that drew
    there, with no helper (``--decision-timeout 0``), went unsaid. Python's random module is
    left out (``DASK_DRAWS``). Every task is compared (0.2 ms beside a chunk's 10 ms or more);
    one at a table of built-ins only names no one."""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn

    def __call__(self, task: Any) -> Any:
        before = global_random.snapshot() if plays_alone() else None
        output = self.fn(task)
        if before is not None:
            global_random.note(tuple(s for s in global_random.drawn(before) if s != DASK_DRAWS))
        return output


DASK_DRAWS = global_random.SOURCES[0]
"""Python's random module, which a Dask worker draws from itself, in another thread, as it
sends a message (``dask.sizeof`` samples a long list with ``random.sample``): its change
while a chunk plays there says nothing of the chunk's strategies."""


def plays_alone() -> bool:
    """Whether this thread is a Dask worker's only one and the worker the only one in its
    process (a run's own cluster: one thread a worker process), so nothing else plays beside
    it; False off a worker, or where workers are threads of one process."""
    from distributed import get_worker  # start-up: Dask loads for a cluster only

    try:
        worker = get_worker()
    except ValueError:  # not in a Dask task
        return False
    others = getattr(type(worker), "_instances", ())  # the workers of this process
    return worker.state.nthreads == 1 and len(others) == 1


def cluster_size(n_jobs: int, tasks: int | None = None) -> int:
    """Worker processes of the local Dask cluster a run starts for ``n_jobs`` (-1: one per
    core), capped as local players are (``local.n_workers``), and at one a task where the run
    has only ``tasks`` (at least 1) to play: a worker without one would play nothing."""
    size = n_workers(n_jobs) + 1
    return size if tasks is None else max(1, min(size, tasks))


def record_cap(stats: dict[str, Any], n_jobs: int, size: int | None = None) -> None:
    """Record in ``stats`` (the run's session ``players``) the local Dask cluster's ``size``
    (default ``cluster_size(n_jobs)``) as ``jobs_capped_to`` when it is smaller than
    ``n_jobs`` asked, as ``local.imap_local`` records its cap; nothing otherwise (-1 asks for
    no number)."""
    size = cluster_size(n_jobs) if size is None else size
    stats.pop("jobs_capped_to", None)
    if size < n_jobs:
        stats["jobs_capped_to"] = size


CONNECT_S = 30.0
"""Seconds the run's client has to connect to a scheduler that answered its check."""


@contextmanager
def _client(size: int, scheduler: Any) -> Iterator[Any]:
    """A ``distributed.Client`` of ``scheduler`` (an address, checked by ``Players``, or a
    Client, left open), or of a local cluster of ``size`` workers started for the run and
    closed after it. A scheduler that no longer answers raises ``WorkerError``: the run is
    written by then, and its error says how to resume it."""
    # start-up: Dask loads for a cluster only
    import dask
    from distributed import Client, LocalCluster  # start-up: as above

    if scheduler is None:
        # Its workers may start processes (a plain-Python table's decisions are bounded in
        # a helper process), so they are no daemons; the nanny reads this whenever it starts
        # one, a worker lost included. Their logs would repeat the one-line error as a
        # traceback; the dashboard takes a free port (8787 may be another cluster's).
        with (
            dask.config.set({"distributed.worker.daemon": False}),
            LocalCluster(n_workers=size, threads_per_worker=1,
                         dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster,
            Client(cluster) as client,
        ):  # fmt: skip
            yield client
    elif isinstance(scheduler, str):
        try:
            client = Client(scheduler, timeout=CONNECT_S)
        except Exception as exc:
            raise WorkerError(unanswered(scheduler, exc, CONNECT_S)) from None
        with client:
            yield client
    else:
        yield scheduler


def _dask(fn: Callable[[Any], Any], tasks: Iterable[Any], players: Players,
          salvage: Salvage | None) -> Iterator[Any]:  # fmt: skip
    # start-up: Dask loads for a cluster only
    from distributed import as_completed

    stats = players.stats if players.stats is not None else {}
    stats.pop("dask_workers", None)
    stats["played"] = 0
    size = 0
    if players.scheduler is None:  # no worker beyond the tasks: the first few are read ahead
        stream = iter(tasks)
        head = list(itertools.islice(stream, cluster_size(players.n_jobs)))
        size, tasks = cluster_size(players.n_jobs, len(head)), itertools.chain(head, stream)
        record_cap(stats, players.n_jobs, size)
        stats["dask_workers"] = size if head else 0
        if not head:  # nothing to play: no cluster to start
            return
    played_by: set[Any] = set()  # the workers that finished a task, by name

    def untag(tagged: tuple[Any, Any]) -> Any:
        """A task's output (``_tagged``), its worker noted as one that played."""
        played_by.add(tagged[0])
        stats["played"] = len(played_by)
        return tagged[1]

    keep = None if salvage is None else lambda tagged: salvage(untag(tagged))
    with _client(size, players.scheduler) as client:
        live: set[Any] = set()  # submitted, not yet yielded
        pending = as_completed()

        def submit(task: Any) -> None:
            future = client.submit(_tagged, fn, task, pure=False)
            live.add(future)
            pending.add(future)

        try:
            slots = _slots(client)
            it = iter(tasks)
            for task in it:
                submit(task)
                if len(live) >= 2 * slots:
                    break
            for future in pending:
                live.discard(future)
                result = untag(_result(future))
                task = next(it, None)
                if task is not None:
                    submit(task)
                yield result
        finally:
            pending.clear()
            _settle(client, live, keep)


def _tagged(fn: Callable[[Any], Any], task: Any) -> tuple[Any, Any]:
    """``fn(task)`` on a Dask worker, with the worker's name (its address where it was
    given none), so that the run knows which workers played a part."""
    from distributed import get_worker  # start-up: Dask loads for a cluster only

    return get_worker().name, fn(task)


def _slots(client: Any) -> int:
    """The worker threads of the cluster, once it has any (a scheduler that no worker joins
    within WORKERS_S is refused: its tasks would wait for ever)."""
    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=WORKERS_S)
        except TimeoutError:
            address = client.scheduler.address
            raise WorkerError(f"no Dask worker joined the scheduler at {address} in "
                              f"{WORKERS_S:g} s: start some ('dask worker {address}')") from None  # fmt: skip
    return max(1, sum(client.nthreads().values()))


def _result(future: Any) -> Any:
    """A finished task's result (its future released), or its failure as a WorkerError."""
    try:
        return future.result()
    except Exception as exc:
        text = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        text = " ".join(text.split())  # one line
        if "daemonic processes" in text:  # a worker of a cluster started with the defaults
            text += f"; {DAEMONS}"
        raise WorkerError(f"a Dask worker could not play a chunk: {text}") from exc
    finally:
        future.release()


def _settle(client: Any, live: set[Any], salvage: Salvage | None) -> None:
    """On closing: what finished but was not yielded goes to ``salvage``; the rest is
    cancelled (a cluster the run did not start would otherwise go on playing it)."""
    for future in live:
        if future.status == "finished" and salvage is not None:
            salvage(future.result())
    running = [f for f in live if not f.done()]
    if running:
        client.cancel(running)
    for future in live:
        future.release()
    live.clear()
