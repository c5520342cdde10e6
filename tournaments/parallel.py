"""Run chunk tasks on local processes (joblib/loky) or a Dask cluster, results as they finish.

Both backends keep only a bounded number of tasks in flight, so memory stays flat however many
chunks a run has, and both yield results in completion order (the runner never relies on it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .local import imap_local
from .players import BACKENDS, Players

__all__ = ["BACKENDS", "imap_unordered"]


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
    ``n_jobs`` single-threaded worker processes is started for the run.
    """
    if players.backend == "dask":
        return _dask(fn, tasks, players.n_jobs, players.scheduler)
    return imap_local(fn, tasks, players)


def _dask(
    fn: Callable[[Any], Any], tasks: Iterable[Any], n_jobs: int, scheduler: Any
) -> Iterator[Any]:
    try:
        # start-up: Dask loads for a cluster only
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask[distributed] is a dependency
        raise ValueError("the dask backend needs dask.distributed installed") from None

    own: list[Any] = []
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=max(1, n_jobs), threads_per_worker=1, dashboard_address=None
        )
        own.append(cluster)
        client = Client(cluster)
        own.insert(0, client)
    elif isinstance(scheduler, str):
        try:
            client = Client(scheduler, timeout="30s")
        except OSError as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        own.append(client)
    else:
        client = scheduler
    try:
        slots = max(1, sum(client.nthreads().values()))
        it = iter(tasks)
        pending = as_completed()
        for task in it:
            pending.add(client.submit(fn, task, pure=False))
            if pending.count() >= 2 * slots:
                break
        for future in pending:
            result = future.result()
            future.release()
            task = next(it, None)
            if task is not None:
                pending.add(client.submit(fn, task, pure=False))
            yield result
    finally:
        for thing in own:
            thing.close()
