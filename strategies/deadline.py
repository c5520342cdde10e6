"""Bounded decisions: a plain-Python strategy that takes too long forfeits the game.

A hung ``choose`` (an endless loop, a sleep, a lock that never frees) must not hang a whole
tournament. A watchdog thread with an asynchronous exception cannot interrupt a sleep or a
blocking call, so the bound is a real-time interval timer (``signal.setitimer``): its SIGALRM
interrupts sleeps and waits, and its handler raises ``DecisionTimeout`` in the decision. Signal
handlers run only in the main thread, so a batch started elsewhere (a Dask worker thread) is
played by a helper process of this thread, in that process's main thread (``run_bounded``).
Code that never returns to the interpreter (a C extension, a numba kernel) is interrupted
when it returns: the decision still forfeits, but only then. Time numba spends compiling (or
loading from its cache) does not count: an alarm during compilation waits another period, since
interrupting it would leave the code uncompiled and the next decision compiling again.
"""

from __future__ import annotations

import math
import numbers
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from gamekit.errors import shown

from . import global_random

__all__ = [
    "DEFAULT_DECISION_TIMEOUT",
    "MAX_DECISION_TIMEOUT",
    "DecisionTimeout",
    "Deadline",
    "bounded",
    "can_bound_here",
    "check_timeout",
    "run_bounded",
    "timed_out_after",
]

DEFAULT_DECISION_TIMEOUT = 60.0
"""Seconds a plain-Python decision may take in a tournament: far beyond any sane strategy
(``ismcts`` takes ~20 ms), soon enough that a hung one costs a minute, not the run."""

MAX_DECISION_TIMEOUT = 1e6
"""The longest bound, in seconds (11.6 days): the interval timer cannot be armed for much
more (about 9.2e9 s), and a longer one would fail every game as if the strategies had."""

T = TypeVar("T")


class DecisionTimeout(BaseException):
    """Raised inside a decision that ran out of time.

    A ``BaseException`` (like ``KeyboardInterrupt``), so a strategy's own ``except Exception``
    cannot swallow it.
    """


def check_timeout(seconds: Any, name: str | None = None) -> float | None:
    """A decision timeout in seconds (None or 0: no bound); ValueError for anything else: a
    bool or text (True is not one second, nor "1") as much as a number out of range. Its
    message starts ``NAME: `` where ``name`` (the caller's argument) is given."""
    if seconds is None:
        return None
    if isinstance(seconds, bool | np.bool_) or not isinstance(seconds, numbers.Real):
        raise _bad(name, f"must be a number of seconds, got {shown(seconds)}")
    try:
        value, said = float(seconds), repr(seconds)
    except OverflowError:  # a whole number past any float (its digits would fill the line)
        value = math.inf if seconds > 0 else -math.inf
        said = "a whole number past any float's range"
    if value > MAX_DECISION_TIMEOUT:  # the timer refuses more (inf too): 0 is "no bound"
        raise _bad(name, f"must be at most {MAX_DECISION_TIMEOUT:.0f} s (0: none), got {said}")
    if not value >= 0:
        raise _bad(name, f"must be 0 (none) or positive, got {said}")
    return value or None


def _bad(name: str | None, what: str) -> ValueError:
    return ValueError(f"{name + ': ' if name else ''}the decision timeout {what}")


def can_bound_here() -> bool:
    """Whether this thread can arm the timer (the main thread, on a POSIX system)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


_armed = False  # True only while a bounded call runs: a late alarm after it is ignored
_period = 0.0  # the bound of the call running


def _numba_compiling() -> bool:
    """Whether this thread holds numba's compiler lock (compiling or loading cached code)."""
    lock_module = sys.modules.get("numba.core.compiler_lock")
    return lock_module is not None and bool(lock_module.global_compiler_lock.is_locked())


def _on_alarm(signum: int, frame: Any) -> None:
    global _armed
    if not _armed:
        return
    if _numba_compiling():
        signal.setitimer(signal.ITIMER_REAL, _period)
        return
    _armed = False
    raise DecisionTimeout


class Deadline:
    """Bounds calls to ``seconds`` each; use as ``with Deadline(s) as d: ... with d: call()``.

    The outer ``with`` installs the SIGALRM handler for a batch (and restores the previous
    one); each inner ``with`` arms the timer for one call. A ``DecisionTimeout`` may surface
    as the inner block exits (the alarm raced the return): the call did take too long.
    ``seconds=None`` bounds nothing.
    """

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._previous: Any = None

    def open(self) -> Deadline:
        if self.seconds is not None:
            self._previous = signal.signal(signal.SIGALRM, _on_alarm)
        return self

    def close(self) -> None:
        if self.seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def __enter__(self) -> Deadline:
        global _armed, _period
        if self.seconds is not None:
            _armed, _period = True, self.seconds
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc: Any) -> None:
        global _armed
        if self.seconds is not None:
            _armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)

    def message(self, what: str) -> str:
        """The forfeit's error text: which call ran out of time, and the bound. (Not the time
        measured: the timer fires at the bound, and rows must not depend on the machine.)"""
        return f"{TIMED_OUT}{what}{LONGER}{self.seconds:g} s"


TIMED_OUT = f"{DecisionTimeout.__name__}: "
LONGER = " took longer than "
"""How ``Deadline.message`` words a timeout, which ``timed_out_after`` reads back."""


def timed_out_after(error: str) -> str | None:
    """The bound (``"1 s"``) a forfeit's ``error`` (``Deadline.message``, after the ``seat N
    (LABEL): `` a game puts first) says a decision ran past; None for any other error."""
    _, found, what = str(error).partition(f"): {TIMED_OUT}")
    _, longer, bound = what.rpartition(LONGER)
    return bound if found and longer and bound.endswith(" s") else None


@contextmanager
def bounded(seconds: float | None) -> Iterator[Deadline]:
    """A ``Deadline`` installed for the duration of the block (see ``Deadline``); it bounds
    nothing where no timer can be armed (outside the main thread, or without SIGALRM)."""
    deadline = Deadline(seconds if can_bound_here() else None).open()
    try:
        yield deadline
    finally:
        deadline.close()


_helpers = threading.local()


def _helper() -> ProcessPoolExecutor:
    pool = getattr(_helpers, "pool", None)
    if pool is None:
        import multiprocessing  # start-up: only a decision off the main thread

        # a fresh interpreter (spawn): forking a process that runs threads is unsafe
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        _helpers.pool = pool
    return pool


def run_bounded(seconds: float | None, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` where its decisions can be bounded to ``seconds``: in this thread if it
    is the main one (or nothing is bounded), else in this thread's helper process (started
    once, then reused; arguments and result are pickled, and whether the call drew from the
    helper's global random state is noted for this thread: ``global_random.take_noted``)."""
    if seconds is None or can_bound_here() or not hasattr(signal, "setitimer"):
        return fn(*args)
    # cloudpickle sends by value the classes the helper could not import by name (a class of
    # a script's __main__ sent to a worker)
    import cloudpickle  # start-up: only a decision off the main thread

    try:
        result, drew = _helper().submit(_call, cloudpickle.dumps((fn, args))).result()
    except BrokenProcessPool:
        _helpers.pool = None  # the helper died (killed): the next batch gets a new one
        raise
    global_random.note(drew)
    return result


def _call(sent: bytes) -> tuple[Any, tuple[str, ...]]:
    """In the helper: the call ``run_bounded`` sent, as (function, arguments) cloudpickled;
    its result, and the global random states it drew from (``global_random.drawn``)."""
    import pickle  # start-up: the helper's only

    fn, args = pickle.loads(sent)  # noqa: S301 - sent by this process's own thread
    before = global_random.snapshot()
    result = fn(*args)
    return result, global_random.drawn(before)
