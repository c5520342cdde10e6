"""Local runs: the driver plays chunks itself, with player threads or worker processes.

When the game says its play runs without holding the GIL (``plays_without_gil``: e.g.
between compiled policies), the other ``n_jobs - 1`` players are threads of this process
(``_Threads``): no start-up, no second import, no pickling, so they start at once and pull
their next task themselves. Otherwise they are loky worker processes, which cost about
``WORKER_START_S`` of CPU before their first game (interpreter, imports, loading numba's
cached code), more than a small run's games: the driver then starts them only once the
work left, on one core, is worth more than ``PAYBACK`` worker start-ups (at once when even
the cheapest games add up to that, else when the chunks it has played say so), keeps
playing while they start and collects whatever they finish; a thread of its own hands the
workers their next task as soon as they finish one (``_Feed``). A chunk's output is a pure
function of its task, so who plays it never matters.

An interrupted stream loses nothing already played: what threads or workers finished but
the driver had not collected goes to ``salvage``; a thread stops at its next chunk
boundary (threads cannot be killed), a busy worker process is killed.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import Any, Protocol

from .players import Players, Salvage, Workload

__all__ = ["PAYBACK", "PLAYERS_PER_CORE", "WORKER_START_S", "Workload", "imap_local", "n_workers"]

WORKER_START_S = 0.9
"""Seconds before a fresh worker plays: the CPU time of what loky starts (the worker's
interpreter, imports, task and compiled loop, about 0.5 s; the resource trackers of a first
executor, about 0.4 s), which on two cores shares the one core the driver leaves; it pays
once the work left on one core is longer. ``python benchmarks/bench_tournament.py
--worker-start`` measured medians of 0.47 and 0.61 s for the worker and 1.14 s for all (a
2-core machine under a load of 3 to 4, which inflates them; the trackers took 0.39 s of a 1M
game run)."""

PAYBACK = 1.0
"""Workers start when the work left would take a core this many worker start-ups."""

QUEUED_PER_WORKER = 2
"""Tasks a worker holds at a time (the one it plays, the next): it never waits for one."""

WORKER_IDLE_S = 300
"""Idle workers stay this long, so the runs of one Python session reuse them."""

PLAYERS_PER_CORE = 4
"""Players a run starts at most per core, whatever ``n_jobs`` asks: the play is CPU-bound, so
more never helps (--jobs 100000 spent 15 s starting threads for a run of 30 games)."""

_END = object()  # no task left
_NOTHING = object()  # no result ready


def n_workers(n_jobs: int) -> int:
    """Worker processes for ``n_jobs`` players (the driver is one; -1: one per core), at most
    ``PLAYERS_PER_CORE`` players a core in all."""
    cores = os.cpu_count() or 1
    if n_jobs == -1:
        n_jobs = cores
    return max(0, min(n_jobs, PLAYERS_PER_CORE * cores) - 1)


def _fewer_than_tasks(others: int, tasks: Iterable[Any]) -> tuple[int, Iterable[Any]]:
    """``others`` players beside the driver (threads or worker processes), fewer if the
    tasks leave some without one once the driver has its own (a process costs a start-up,
    and a player without a task plays nothing: the run would say it played), and the same
    tasks: the first few are read ahead to count them."""
    stream = iter(tasks)
    head = list(itertools.islice(stream, others + 1))
    return min(others, max(0, len(head) - 1)), itertools.chain(head, stream)


def _tagged(fn: Callable[[Any], Any], task: Any) -> tuple[int, Any]:
    """``fn(task)`` in a worker, with the worker's pid: who played what is then known."""
    return os.getpid(), fn(task)


def _pays(seconds_left: float) -> bool:
    return seconds_left > PAYBACK * WORKER_START_S


def imap_local(fn: Callable[[Any], Any], tasks: Iterable[Any], players: Players) -> Iterator[Any]:
    """``fn(task)`` for every task, in completion order, in this process and other players.

    ``players.threads``: the other players are threads of this process (``fn`` must release
    the GIL for most of its work to gain anything); they start at once, after ``prepare()``.
    Otherwise they are loky workers: without a ``workload`` they start at once (the work is
    assumed to pay for them). ``prepare()`` readies this process to play (e.g. loads
    compiled code) before its first task, after any workers are asked for, so that its time
    never counts as playing time. ``ready`` (picklable) readies a worker the same way: a
    worker gets tasks only once it has run it, so tasks never wait for a worker that is
    still starting while the driver could play them. ``stats`` (if given) receives
    ``workers`` and ``threads`` (those started), ``driver_tasks``, ``worker_tasks`` and
    ``thread_tasks``, ``played`` (the players that played a task, the driver included: a
    worker process that was never started, or started too late to get one, plays none), and
    ``jobs_capped_to`` (the players, the driver included) when fewer may play than ``n_jobs``
    asks (-1: the cores): ``n_workers``'s cap, or no thread or worker process beyond the
    tasks. ``salvage`` receives what was finished but not yielded when the stream is closed
    early (an exception or ``close()``).
    """
    counts = players.stats if players.stats is not None else {}
    counts.update(workers=0, threads=0, driver_tasks=0, worker_tasks=0, thread_tasks=0, played=0)
    counts.pop("jobs_capped_to", None)
    others = n_workers(players.n_jobs)
    if others:
        others, tasks = _fewer_than_tasks(others, tasks)
    if others + 1 < (players.n_jobs if players.n_jobs != -1 else os.cpu_count() or 1):
        counts["jobs_capped_to"] = others + 1
    if others == 0:  # the first task loads what it needs
        for task in tasks:
            counts["driver_tasks"] += 1
            counts["played"] = 1
            yield fn(task)
        return
    if players.threads:
        if players.prepare is not None:  # before any thread plays: one load of the compiled code
            players.prepare()
        counts["threads"] = others
        threads = _Threads(fn, tasks, others)
        yield from _drive(fn, threads, counts, "thread_tasks", None, players.salvage)
        return
    work = players.workload
    feed = _Feed(fn, tasks, others, work, ready=players.ready, counts=counts)
    if work is None or _pays(work.units * work.min_unit_s):
        feed.start()  # workers start while this process prepares
    yield from _drive(fn, feed, counts, "worker_tasks", players.prepare, players.salvage)


class _Pool(Protocol):
    """The other players, as the driver's loop sees them (``_Threads``, ``_Feed``)."""

    outstanding: int  # tasks they took whose results were not collected
    played_by: set[int]  # who of them played a task (a thread's number, a worker's pid)

    def take(self) -> Any: ...  # the driver's next task (_END: none left)

    def collect(self, block: bool) -> Any: ...  # a result of theirs (_NOTHING: none ready)

    def played(self, task: Any, spent: float) -> None: ...  # the driver played a task

    def close(self, salvage: Salvage | None) -> None: ...


def _drive(
    fn: Callable[[Any], Any],
    pool: _Pool,
    counts: dict[str, int],
    theirs: str,
    prepare: Callable[[], None] | None,
    salvage: Salvage | None,
) -> Iterator[Any]:
    """The driver's loop: yield what the other players finished, and while nothing is ready
    play the next task itself, until no task is left and every result is in. ``theirs``
    names the count of the others' tasks; ``pool.played`` hears of each task the driver
    played and the CPU time it took."""
    try:
        if prepare is not None:
            prepare()
        while True:
            item = pool.collect(block=False)
            if item is _NOTHING:
                task = pool.take()
                if task is not _END:  # nothing to collect: the driver plays a task itself
                    t0 = time.thread_time()  # this thread's CPU: not the writing thread's, nor load
                    output = fn(task)
                    spent = time.thread_time() - t0
                    counts["driver_tasks"] += 1
                    yield output
                    pool.played(task, spent)
                    continue
                if not pool.outstanding:
                    break
                item = pool.collect(block=True)
            counts[theirs] += 1
            yield item
    finally:
        pool.close(salvage)
        others = min(len(pool.played_by), counts["threads"] + counts["workers"])
        counts["played"] = int(counts["driver_tasks"] > 0) + others


class _Threads:
    """Player threads that take tasks from the shared stream as they finish one.

    Every player plays: the driver's first task and each thread's are set aside before any
    thread starts (the stream holds that many: ``_fewer_than_tasks``), and the driver
    collects nothing before it takes its own; fast threads otherwise took every task before
    a late one or the driver came to one, and a run said it had more players than played.
    Results (or a task's exception) queue up for the driver (``collect``). Threads are
    daemons: an interpreter that exits never waits for one.
    """

    def __init__(self, fn: Callable[[Any], Any], tasks: Iterable[Any], players: int):
        self._fn = fn
        self._tasks = iter(tasks)
        self._lock = threading.Lock()
        self._results: queue.Queue[Any] = queue.Queue()  # (True, output) or (False, exc)
        self._exhausted = False
        self._closed = False
        self.played_by: set[int] = set()
        self._own = self._next()  # the driver's first task (_END: taken, or none)
        firsts = [self._next() for _ in range(players)]
        taken = sum(task is not _END for task in firsts)
        self.outstanding = taken  # tasks taken by threads whose results were not collected
        self.taken = taken  # tasks taken by threads in all
        self._threads = [
            threading.Thread(
                target=self._play, args=(first, i), name=f"leaves-player-{i + 1}", daemon=True
            )
            for i, first in enumerate(firsts)
        ]
        for thread in self._threads:
            thread.start()

    def take(self) -> Any:
        """The next task (``_END`` when there is none left, or the stream is closed): the
        driver's own first."""
        with self._lock:
            own, self._own = self._own, _END
            return self._next() if own is _END else own

    def _next(self) -> Any:
        if self._exhausted or self._closed:
            return _END
        task = next(self._tasks, _END)
        if task is _END:
            self._exhausted = True
        return task

    def _play(self, task: Any, player: int) -> None:
        """Play ``task`` (set aside for this thread), then the stream's next, until none is
        left."""
        while task is not _END:
            try:
                output = self._fn(task)
            except BaseException as exc:  # noqa: BLE001 - handed to the driver, which raises it
                self._results.put((False, exc))
                return
            self.played_by.add(player)  # one call: atomic under the GIL
            self._results.put((True, output))
            task = self._claim()

    def _claim(self) -> Any:
        """A thread's next task from the stream, counted (``_END``: none; a failure of the
        stream's own is handed to the driver)."""
        with self._lock:
            try:
                task = self._next()
            except BaseException as exc:  # noqa: BLE001 - the stream's own failure
                self._exhausted = True
                self.outstanding += 1
                self._results.put((False, exc))
                return _END
            if task is not _END:
                self.outstanding += 1
                self.taken += 1
            return task

    def played(self, task: Any, spent: float) -> None:
        """Nothing to do when the driver played a task: the threads run from the start."""

    def collect(self, block: bool) -> Any:
        """A thread's result (``_NOTHING`` when none is ready and ``block`` is false). Raises
        what its task raised. Nothing before the driver took its own first task."""
        if self._own is not _END:
            return _NOTHING
        try:
            ok, item = self._results.get(block=block)
        except queue.Empty:
            return _NOTHING
        with self._lock:
            self.outstanding -= 1
        if not ok:
            raise item
        return item

    def close(self, salvage: Salvage | None = None) -> None:
        """No thread takes another task; each finishes the one it plays, and every result
        not collected goes to ``salvage``."""
        with self._lock:
            self._closed = True
        for thread in self._threads:
            thread.join()
        while True:
            try:
                ok, item = self._results.get_nowait()
            except queue.Empty:
                return
            if ok and salvage is not None:
                salvage(item)


class _Feed:
    """Hands out the tasks: to the driver when it asks (``take``), and to the workers from a
    thread of its own that tops their queue up as each result arrives, once they are ready.

    The driver is busy playing most of the time (with the GIL held while the compiled loop
    plays a slice), so workers must not wait for it to come round to them: the feeding thread
    submits the next task as soon as one finishes. Each worker holds at most
    ``QUEUED_PER_WORKER`` tasks, so at the end the driver never waits long for tasks it could
    have played.
    """

    def __init__(
        self,
        fn: Callable[[Any], Any],
        tasks: Iterable[Any],
        workers: int,
        workload: Workload | None = None,
        ready: Callable[[], Any] | None = None,
        counts: dict[str, int] | None = None,
    ):
        self._fn = fn
        self._tasks = iter(tasks)
        self._workers = workers
        self._workload = workload
        self._warm = ready  # what readies a worker (None: it is ready at once)
        self._counts = counts if counts is not None else {}
        self._left = None if workload is None else workload.units  # units not yet handed out
        self._ready = 0  # workers ready to play
        self._last = 0  # the size of the last task handed out
        self._cond = threading.Condition()
        self._results: queue.Queue[Any] = queue.Queue()  # finished futures; an exception
        self._running: set[Future] = set()  # submitted, not finished
        self._in_flight = 0  # tasks handed to the executor, not finished
        self._executor: Any = None
        self._thread: threading.Thread | None = None
        self._exhausted = False
        self._closed = False
        self.outstanding = 0  # tasks given to workers whose results were not collected
        self.played_by: set[int] = set()  # the workers' pids, as their results come in

    @property
    def started(self) -> bool:
        return self._executor is not None

    def take(self) -> Any:
        """The next task (``_END`` when there is none left)."""
        with self._cond:
            return self._next()

    def _next(self) -> Any:
        if self._exhausted:
            return _END
        task = next(self._tasks, _END)
        if task is _END:
            self._exhausted = True
        elif self._workload is not None and self._left is not None:
            self._last = self._workload.size(task)
            self._left -= self._last
        return task

    def _slots(self) -> int:
        """Tasks the ready workers may hold now: ``QUEUED_PER_WORKER`` each, one each once the
        tasks left would not give every player (the driver too) that many more, so that the
        run ends with every player busy to the end rather than the driver waiting on a queue.
        """
        players = self._workers + 1
        if self._left is not None and self._left < players * QUEUED_PER_WORKER * self._last:
            return self._ready
        return QUEUED_PER_WORKER * self._ready

    def start(self) -> None:
        """Start the workers (loky's reusable executor) and feed each once it has run
        ``ready`` (if given)."""
        # start-up: loky loads for a process pool only
        from joblib.externals.loky import get_reusable_executor

        self._counts["workers"] = self._workers
        self._executor = get_reusable_executor(max_workers=self._workers, timeout=WORKER_IDLE_S)
        self._thread = threading.Thread(
            target=self._feed, args=(self._warm,), name="leaves-feed", daemon=True
        )
        self._thread.start()

    def played(self, task: Any, spent: float) -> None:
        """The driver played ``task`` in ``spent`` seconds of CPU: start the workers once the
        work left (at that pace, on one core) would pay for them."""
        if self.started or self._workload is None or self._left is None:
            return
        size = self._workload.size(task)
        if size > 0 and _pays(self._left * spent / size):
            self.start()

    def _feed(self, ready: Callable[[], Any] | None) -> None:
        try:
            if ready is None:
                with self._cond:
                    self._ready = self._workers
            for _ in range(self._workers if ready is not None else 0):
                probe = self._executor.submit(ready)
                with self._cond:
                    self._running.add(probe)
                probe.add_done_callback(self._warmed)
            while True:
                with self._cond:
                    while not self._closed and self._in_flight >= self._slots():
                        self._cond.wait()
                    task = _END if self._closed else self._next()
                    if task is _END:
                        return
                    self._in_flight += 1
                    self.outstanding += 1
                future = self._executor.submit(_tagged, self._fn, task)  # never under our lock
                with self._cond:
                    self._running.add(future)
                future.add_done_callback(self._done)  # runs here if it is done already
        except BaseException as exc:  # noqa: BLE001 - handed to the driver, which raises it
            self._results.put(exc)

    def _warmed(self, probe: Future) -> None:
        failed = None if probe.cancelled() else probe.exception()
        with self._cond:
            self._running.discard(probe)
            if not probe.cancelled() and failed is None:
                self._ready += 1
            self._cond.notify_all()
        if failed is not None:
            self._results.put(failed)

    def _done(self, future: Future) -> None:
        with self._cond:
            self._running.discard(future)
            self._in_flight -= 1
            self._cond.notify_all()
        self._results.put(future)

    def collect(self, block: bool) -> Any:
        """A worker's result (``_NOTHING`` when none is ready and ``block`` is false). Raises
        what the task or the feeding raised."""
        try:
            item = self._results.get(block=block)
        except queue.Empty:
            return _NOTHING
        if isinstance(item, BaseException):
            raise item
        with self._cond:
            self.outstanding -= 1
        return self._untag(item.result())

    def _untag(self, tagged: tuple[int, Any]) -> Any:
        """A worker's output (``_tagged``), its pid noted in ``played_by``."""
        pid, output = tagged
        self.played_by.add(pid)
        return output

    def close(self, salvage: Salvage | None = None) -> None:
        """Stop feeding and cancel what is still in flight; results that arrived but were
        not collected go to ``salvage``. Workers still busy then (with a task of an
        interrupted run, or still starting when the driver has played everything) are
        stopped now: neither the run nor the interpreter's exit waits for them."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
        with self._cond:
            running = list(self._running)
        if any(f.running() for f in running):
            # A worker is busy: stop them all. The shutdown fails every future still pending
            # itself; one cancelled here first would make loky's manager thread raise
            # (InvalidStateError, printed as a stray traceback) when it fails it again.
            self._executor.shutdown(wait=False, kill_workers=True)
        elif running:  # none started: cancelled, the idle workers stay for the next run
            for future in running:
                future.cancel()
            if any(not f.done() for f in running):  # one started meanwhile
                self._executor.shutdown(wait=False, kill_workers=True)
        while salvage is not None:
            try:
                item = self._results.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, Future) and not item.cancelled() and item.exception() is None:
                salvage(self._untag(item.result()))
