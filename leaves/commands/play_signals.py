"""How a signal that ends the process (SIGTERM, or SIGHUP: the terminal closed) stops a game of
``leaves play``: as Ctrl-C does, where the game's position is at hand to save, and never in
the middle of saving it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from leaves_cli.worker_stop import STOPPING_SIGNALS, terminal_closed


class Signalled(KeyboardInterrupt):
    """SIGTERM (``kill PID``) or SIGHUP (the terminal closed) during the games: they stop
    them as Ctrl-C does (``stops_on_signals``); ``name`` is the signal's."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class _Stops:
    """Where a stopping signal acts: at once while ``armed`` (a game is being played, and its
    position is at hand to save), else ``noted`` (its name) for the next move or game, so
    that it never cuts into the saving of a game being left, nor escapes a game's code."""

    armed = False
    noted: str | None = None
    hung_up = False  # the terminal was found closed (``terminal_hung_up``)


_STOPS = _Stops()


def hold_signals() -> None:
    """From now on a stopping signal is noted, not raised (a game is being left or over)."""
    _STOPS.armed = False


def arm_signals() -> None:
    """From now on a stopping signal stops the game at once; one noted before does now."""
    _STOPS.armed = True
    stop_if_noted()


def stop_if_noted() -> None:
    """Raise ``Signalled`` for a stopping signal noted while none could stop the game."""
    if _STOPS.noted is not None:
        name, _STOPS.noted = _STOPS.noted, None
        raise Signalled(name)


@contextlib.contextmanager
def stops_on_signals() -> Iterator[None]:
    """Inside, ``STOPPING_SIGNALS`` raise ``Signalled`` where a game is played (``arm_signals``;
    elsewhere they are noted, ``stop_if_noted``): the game so far is saved and said, as for
    Ctrl-C. One ignored before stays ignored (SIGHUP under ``nohup``). The handlers before
    come back on the first signal (a second acts as it would have) and on leaving, but for
    SIGHUP's: a closed terminal's comes twice, from the system and from the shell, and the
    second must not end the saving of the game the first stopped. Signals reach the main
    thread only, so elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = [getattr(signal, n) for n in STOPPING_SIGNALS if hasattr(signal, n)]
    before = {n: signal.getsignal(n) for n in numbers if signal.getsignal(n) != signal.SIG_IGN}

    def restore(keep: int | None = None) -> None:
        for number, handler in before.items():
            if number != keep:
                signal.signal(number, handler)

    def stop(signum: int, frame: Any) -> None:
        restore(keep=getattr(signal, "SIGHUP", None))
        name = signal.Signals(signum).name
        if not _STOPS.armed:
            _STOPS.noted = _STOPS.noted or name
            return
        _STOPS.armed = False
        raise Signalled(name)

    _STOPS.armed, _STOPS.noted, _STOPS.hung_up = False, None, False
    for number in before:
        signal.signal(number, stop)
    try:
        yield
    finally:
        sighup = getattr(signal, "SIGHUP", None)
        gone = _STOPS.hung_up and sighup in before  # the terminal closed: a later SIGHUP (the
        restore(keep=sighup if gone else None)  # shell's) must not end the exit it takes
        if gone:
            signal.signal(sighup, signal.SIG_IGN)
        _STOPS.armed, _STOPS.noted, _STOPS.hung_up = False, None, False


def terminal_hung_up(fd: int) -> bool:
    """Whether ``fd`` is a terminal that hung up (closed): it neither reads (end of input)
    nor writes (an input/output error) any more. The system then sends SIGHUP, which may come
    after the end of input it causes: the one is taken for the other. Once one is found
    closed, ``stops_on_signals`` leaves SIGHUP ignored as the command exits."""
    hung_up = terminal_closed(fd)
    _STOPS.hung_up = _STOPS.hung_up or hung_up
    return hung_up
