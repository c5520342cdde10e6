"""Local runs: the driver plays chunks itself and starts worker processes only when they pay.

A fresh worker process costs about ``WORKER_START_S`` of CPU before its first game
(interpreter, imports, loading numba's cached code), more than a small run's games. So the
driver is one of the ``n_jobs`` players: it plays chunks in its own process and starts
``n_jobs - 1`` loky workers only once the work left, on one core, is worth more than
``PAYBACK`` worker start-ups (at once when even the cheapest games add up to that, else when
the chunks it has played say so). It keeps playing while they start and collects whatever
they finish. A chunk's output is a pure function of its task, so who plays it never matters.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any

__all__ = ["PAYBACK", "WORKER_START_S", "Workload", "imap_local", "n_workers"]

WORKER_START_S = 1.5
"""CPU seconds a fresh worker spends before its first game (measured on a 2-core VM)."""

PAYBACK = 1.0
"""Workers start when the work left would take a core this many worker start-ups."""

WORKER_IDLE_S = 300
"""Idle workers stay this long, so the runs of one Python session reuse them."""

_END = object()  # no task left


@dataclass(frozen=True)
class Workload:
    """How much work the tasks hold, so the driver can judge whether workers pay.

    ``units`` is the total over all tasks (e.g. games), ``size(task)`` one task's share and
    ``min_unit_s`` a lower bound on one unit's single-core time (the cheapest game).
    """

    units: int
    size: Callable[[Any], int]
    min_unit_s: float


def n_workers(n_jobs: int) -> int:
    """Worker processes for ``n_jobs`` players (the driver is one; -1: one per core)."""
    if n_jobs == -1:
        n_jobs = os.cpu_count() or 1
    return max(0, n_jobs - 1)


def _pays(seconds_left: float) -> bool:
    return seconds_left > PAYBACK * WORKER_START_S


def imap_local(
    fn: Callable[[Any], Any],
    tasks: Iterable[Any],
    n_jobs: int = 1,
    workload: Workload | None = None,
    prepare: Callable[[], None] | None = None,
    stats: dict[str, int] | None = None,
) -> Iterator[Any]:
    """``fn(task)`` for every task, in completion order, in this process and loky workers.

    Without a ``workload`` the workers start at once (the work is assumed to pay for them).
    ``prepare()`` readies this process to play (e.g. loads compiled code) before its first
    task, after any workers are asked for, so that its time never counts as playing time.
    ``stats`` (if given) receives ``workers`` (0 when none were started), ``driver_tasks``
    and ``worker_tasks``.
    """
    counts = stats if stats is not None else {}
    counts.update(workers=0, driver_tasks=0, worker_tasks=0)
    it = iter(tasks)
    workers = n_workers(n_jobs)
    if workers == 0:
        for task in it:
            counts["driver_tasks"] += 1
            yield fn(task)
        return
    left = None if workload is None else workload.units
    executor: Any = None
    inflight: set[Future] = set()
    finished = False

    def start() -> Any:
        from joblib.externals.loky import get_reusable_executor

        counts["workers"] = workers
        return get_reusable_executor(max_workers=workers, timeout=WORKER_IDLE_S)

    def fill() -> None:  # keep two tasks per worker queued
        while executor is not None and len(inflight) < 2 * workers:
            task = next(it, _END)
            if task is _END:
                return
            inflight.add(executor.submit(fn, task))

    if workload is None or _pays(workload.units * workload.min_unit_s):
        executor = start()
    try:
        fill()  # workers start while this process prepares
        if prepare is not None:
            prepare()
        while True:
            fill()
            ready = [f for f in inflight if f.done()]
            if ready:
                for future in ready:
                    inflight.discard(future)
                    counts["worker_tasks"] += 1
                    yield future.result()
                continue
            task = next(it, _END)
            if task is not _END:  # nothing to collect: the driver plays a chunk itself
                t0 = time.process_time()  # CPU time: a busy machine does not inflate it
                output = fn(task)
                spent = time.process_time() - t0
                counts["driver_tasks"] += 1
                yield output
                if executor is None and workload is not None and left is not None:
                    size = workload.size(task)
                    left -= size
                    if size > 0 and _pays(left * spent / size):
                        executor = start()
                continue
            if not inflight:
                break
            wait(inflight, return_when=FIRST_COMPLETED)
        finished = True
    finally:
        if not finished and inflight:
            for future in inflight:
                future.cancel()
            if any(not f.done() for f in inflight):
                # an interrupted run must stop now, not after the chunks in flight
                executor.shutdown(wait=False, kill_workers=True)
