"""A test that hangs ends in its time limit, every thread's stack shown, also under pytest-xdist.

The limit is pytest-timeout's (``timeout`` in pyproject.toml, a ``timeout`` mark); the
conftest keeps it with faulthandler, whose dump reaches the terminal from an xdist worker too.
These tests run pytest on a test that never ends, with the suite's conftest and settings.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import WATCHDOG

ROOT = Path(__file__).resolve().parents[1]

HANGS = """
import threading

import pytest


def _waits(event):
    event.wait()


def test_quick():
    pass


@pytest.mark.timeout({limit})
def test_hangs():
    event = threading.Event()
    threading.Thread(target=_waits, args=(event,), daemon=True).start()
    event.wait()


def test_after():
    pass
"""


def _pytest(tmp_path: Path, *args: str, limit: float) -> tuple[str, str, int, float]:
    """pytest run on HANGS with the suite's conftest and settings: (stdout, stderr, exit
    status, seconds)."""
    (tmp_path / "test_hangs_here.py").write_text(HANGS.format(limit=limit))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
               "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), *args,
               str(tmp_path / "test_hangs_here.py")]  # fmt: skip
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    return done.stdout, done.stderr, done.returncode, time.monotonic() - start


def _stacks_shown(err: str, limit: str) -> None:
    assert f"Timeout ({limit})!" in err, err
    lines = HANGS.splitlines()
    waits = [n for n, line in enumerate(lines, 1) if line.strip() == "event.wait()"]
    assert f'test_hangs_here.py", line {waits[1]} in test_hangs' in err, err  # the test
    assert f'test_hangs_here.py", line {waits[0]} in _waits' in err, err  # every other thread


def test_every_test_has_a_time_limit(pytestconfig):
    assert pytestconfig.pluginmanager.hasplugin("timeout")  # pytest-timeout: the test extra
    assert float(pytestconfig.getini("timeout")) > 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork here")
def test_a_process_forked_in_a_test_sets_and_cancels_a_timer_of_its_own():
    """faulthandler's timer, forked while it runs, hung the child at its next set or cancel
    (pytest cancels it when a test fails: a mutant's child process waited for ever)."""
    assert WATCHDOG.deadline is not None  # this test's limit runs
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        faulthandler.dump_traceback_later(60)
        faulthandler.cancel_dump_traceback_later()
        os._exit(0)
    deadline = time.monotonic() + 20
    while not (done := os.waitpid(pid, os.WNOHANG))[0] and time.monotonic() < deadline:
        time.sleep(0.01)
    if not done[0]:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert done[0] == pid and os.waitstatus_to_exitcode(done[1]) == 0, "the child hung"
    assert WATCHDOG.deadline is not None  # and the limit runs on


def test_a_hanging_test_ends_in_its_limit_with_every_threads_stack(tmp_path):
    out, err, status, took = _pytest(tmp_path, "-n", "0", limit=1)
    assert status == 1, out
    _stacks_shown(err, "0:00:01")
    assert took < 60


@pytest.mark.slow
def test_under_xdist_the_hanging_test_is_named_and_the_others_run(tmp_path):
    out, err, status, took = _pytest(tmp_path, "-n", "2", limit=2)
    assert status == 1, out
    _stacks_shown(err, "0:00:02")
    assert "crashed while running 'test_hangs_here.py::test_hangs'" in out, out
    assert "1 failed, 2 passed" in out, out
    assert took < 90
