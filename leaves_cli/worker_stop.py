"""How a run stops short, in one line, for every command that plays runs: stopped by a signal
that ends the process (``stops_on_term``: SIGTERM, SIGHUP) as by Ctrl-C, or by its workers
(``worker_stopped``: a Dask worker's own error, or a local worker process that died, joblib's
``TerminatedWorkerError``, told by its name so neither package loads to tell it), each with
how the run goes on. Any other error is not the workers' and is left to ``main``."""

from __future__ import annotations

import _thread
import contextlib
import errno
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import CLIError

try:
    import termios
except ImportError:  # not POSIX: no terminal is found closed
    termios = None  # type: ignore[assignment]

__all__ = ["STOPPING_SIGNALS", "stops_on_term", "terminal_closed", "to_null", "worker_stopped"]

F = TypeVar("F", bound=Callable[..., Any])


def worker_stopped(exc: Exception, again: str) -> CLIError | None:
    """The one-line error (exit 1) of a run its workers stopped with ``exc``, ending in
    ``again`` (every finished chunk is kept, and the command that continues the run); None
    where ``exc`` is not a worker's."""
    if type(exc).__name__ == "WorkerError":  # a Dask worker's own error, in one line
        return CLIError(f"{exc}; {again}")
    if type(exc).__name__ == "TerminatedWorkerError":  # joblib's: a local worker died
        return CLIError(f"a worker process died (killed, or out of memory); {again}")
    return None


_STOPPING: list[bool] = []
"""Set while a ``stops_on_term`` function runs: one inside it (a command's play step, the
command wrapped whole) leaves the stop to the outer one."""


def stops_on_term(play: F) -> F:
    """``play`` with SIGTERM (``kill PID``, ``timeout``, a batch system ending the job) and
    SIGHUP (a closed terminal, a dropped ssh) raising KeyboardInterrupt in it, as Ctrl-C does:
    the run records every chunk it finished, stops its workers and says how to continue,
    instead of dying with its manifest saying ``running``. A second SIGTERM acts as it would
    have (the handler before is restored on the first); one ignored before stays ignored
    (SIGHUP under ``nohup``), and SIGHUPs after the first are (a closed terminal's comes from
    the system and the shell: the second must not cut the saving short). The stop ends in
    'leaves: error: interrupted' (exit 130; a closed terminal's output goes nowhere), with no
    blank line before it: click's newline closing a terminal's '^C' echo, kept for Ctrl-C on
    a terminal only. A command wrapped whole stops so after its play step too (its summary)."""

    @functools.wraps(play)
    def stopping(*args: Any, **kwargs: Any) -> Any:
        if _STOPPING or threading.current_thread() is not threading.main_thread():
            return play(*args, **kwargs)  # the outer one stops it; signals reach the main thread
        _STOPPING.append(True)
        try:
            return _stopping(play, *args, **kwargs)
        finally:
            _STOPPING.clear()

    return stopping  # type: ignore[return-value]


STOPPING_SIGNALS = ("SIGTERM", "SIGHUP")
"""The signals that end the process and so stop a run as Ctrl-C does (where the system has
them)."""


def _stopping(play: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``play(*args, **kwargs)`` stopped by ``STOPPING_SIGNALS`` as by Ctrl-C."""
    numbers = [getattr(signal, n) for n in STOPPING_SIGNALS if hasattr(signal, n)]
    before = {n: signal.getsignal(n) for n in numbers if signal.getsignal(n) != signal.SIG_IGN}
    hangup, termed = getattr(signal, "SIGHUP", None), []

    def restore() -> None:
        for number, handler in before.items():
            gone = number == hangup and hangup in termed  # the terminal's second SIGHUP
            signal.signal(number, signal.SIG_IGN if gone else handler)

    def stop(signum: int, frame: Any) -> None:
        if _finalizing(frame):  # raised here, it would be printed and dropped: said again soon
            threading.Timer(AGAIN_S, _thread.interrupt_main, args=(signum,)).start()
            return
        termed.append(signum)
        restore()
        if signum == hangup:
            _quiet_closed_terminal()
        raise KeyboardInterrupt

    for number in before:
        signal.signal(number, stop)
    try:
        return play(*args, **kwargs)
    except KeyboardInterrupt:
        if termed or not sys.stderr.isatty():  # no '^C' echoed: no newline to close it
            raise _interrupted() from None
        raise
    finally:
        restore()


AGAIN_S = 0.05
"""How long a stop that came inside a finalizer waits to be said again (``_finalizing``)."""


def _finalizing(frame: Any) -> bool:
    """Whether ``frame`` runs a finalizer: a ``__del__`` or the weak references' own callbacks.
    Python runs a signal's handler between any two steps of the main thread, and an exception
    raised inside a finalizer is printed and dropped, so the run would play on to its end (a
    SIGTERM to a tuning, now and then, inside ``WeakSet``'s ``_remove``)."""
    code = getattr(frame, "f_code", None)
    if code is None:
        return False
    return code.co_name == "__del__" or code.co_filename.endswith(("weakref.py", "_weakrefset.py"))


def _quiet_closed_terminal() -> None:
    """Standard output and error, each where it is a terminal that closed (hung up: it
    answers with an input/output error), to the null device: failing to show what the stop
    says must not replace its exit (130)."""
    for fd in (1, 2):
        if terminal_closed(fd):
            with contextlib.suppress(OSError):
                to_null(fd)


def terminal_closed(fd: int) -> bool:
    """Whether ``fd`` is a terminal that closed (hung up): asked for its settings, it answers
    with an input/output error. False off POSIX and for no such descriptor. The one check of
    every command that stops on a closed terminal (a run's, a game's played at it)."""
    if termios is None:
        return False
    try:
        termios.tcgetattr(fd)
    except termios.error as exc:
        return bool(exc.args) and exc.args[0] == errno.EIO
    except (OSError, ValueError):  # no such descriptor: nothing closed
        return False
    return False


def to_null(fd: int) -> None:
    """Point ``fd`` at the null device, so that writing to a closed terminal fails no more;
    OSError where it cannot be."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def _interrupted() -> CLIError:
    """'leaves: error: interrupted' with Ctrl-C's exit code (130), as a one-line error."""
    error = CLIError("interrupted")
    error.exit_code = 130
    return error
