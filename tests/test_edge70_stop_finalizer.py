"""A SIGTERM whose handler runs inside a finalizer (``__del__``, a weak reference's callback)
is said again a moment later: raised there, the KeyboardInterrupt was printed ("Exception
ignored in: <function WeakSet.__init__.<locals>._remove ...>") and dropped, and the tuning
played on to its end, exit 0."""

from __future__ import annotations

import os
import signal
import time

import pytest

from leaves_cli import worker_stop
from leaves_cli.errors import CLIError


class _Dying:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):  # the handler runs here, inside the finalizer
            pass


def _play():
    _Dying()  # dropped at once: its __del__ runs
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        time.sleep(0.01)
    return "played on"


def test_a_stop_inside_a_finalizer_stops_the_run():
    with pytest.raises(CLIError, match="interrupted"):
        worker_stop._stopping(_play)


def test_a_finalizers_frame_is_told_apart():
    class Frame:
        def __init__(self, name, file):
            self.f_code = type("Code", (), {"co_name": name, "co_filename": file})()

    assert worker_stop._finalizing(Frame("__del__", "mine.py"))
    assert worker_stop._finalizing(Frame("_remove", "/usr/lib/python3.11/_weakrefset.py"))
    assert not worker_stop._finalizing(Frame("play", "mine.py"))
    assert not worker_stop._finalizing(None)
