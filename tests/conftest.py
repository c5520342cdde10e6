"""Test configuration: hypothesis profiles, a headless matplotlib backend, the long tests, what
a test that hangs shows.

``ci`` (chosen when the CI environment variable is set) keeps the whole suite within a few
minutes on 2 cores; ``dev`` is the default; ``thorough`` runs many more examples locally:
``HYPOTHESIS_PROFILE=thorough pytest``.
"""

from __future__ import annotations

import faulthandler
import os
import time
from typing import Any

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

from tests import long_tests
from tests.long_tests import (  # noqa: F401  (pytest finds the hooks here)
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_terminal_summary,
)
from tests.variants_comparison import comparison  # noqa: F401  (a fixture: a module's own)

matplotlib.use("Agg")

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


STDERR = pytest.StashKey[int]()
"""A copy of the terminal's stderr (during a test pytest's capture holds descriptor 2)."""


def pytest_configure(config: pytest.Config) -> None:
    long_tests.pytest_configure(config)
    config.stash[STDERR] = fd = os.dup(2)  # nothing captures it while pytest configures
    config.add_cleanup(lambda: os.close(fd))


class Watchdog:
    """faulthandler's timer for the test that runs: past its limit every thread's stack is
    written to ``file`` and the process ends. Its clock is a thread of its own that needs no
    GIL, so a test stuck holding the GIL ends too. A process forked while the timer runs
    inherits its locks but not its thread, and hangs the next time it sets or cancels one
    (pytest cancels it when a test fails): the timer stops for each fork and starts again
    after it, for the time left."""

    def __init__(self) -> None:
        self.deadline: float | None = None  # time.monotonic() at the limit, while one is set
        self.file = -1
        os.register_at_fork(before=self._pause, after_in_parent=self._resume,
                            after_in_child=self._forget)  # fmt: skip

    def start(self, seconds: float, file: int) -> None:
        self.deadline, self.file = time.monotonic() + seconds, file
        faulthandler.dump_traceback_later(seconds, exit=True, file=file)

    def stop(self) -> None:
        self.deadline = None
        faulthandler.cancel_dump_traceback_later()

    def _pause(self) -> None:
        if self.deadline is not None:
            faulthandler.cancel_dump_traceback_later()

    def _resume(self) -> None:
        if self.deadline is not None:
            left = max(self.deadline - time.monotonic(), 0.001)
            faulthandler.dump_traceback_later(left, exit=True, file=self.file)

    def _forget(self) -> None:
        self.deadline = None


WATCHDOG = Watchdog()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool:
    """A test past its time limit (pytest-timeout's: ``timeout`` in pyproject.toml, a
    ``timeout`` mark, ``--timeout``; 0: none) writes every thread's stack to the terminal's
    stderr, and its process ends (``Watchdog``). The stacks are seen from a pytest-xdist worker
    too (pytest-timeout's own go to the worker's terminal, which no one sees); pytest-xdist
    then names the test ("worker 'gw0' crashed while running ...") and starts another worker.
    (pytest-timeout's signal method would take SIGALRM, which decision timeouts use.) A
    debugging session (--pdb, --trace) is not cut short."""
    if not (item.config.getoption("usepdb") or item.config.getoption("trace")):
        WATCHDOG.start(settings.timeout, item.config.stash[STDERR])
    return True  # pytest-timeout's own timer is not started


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool:
    WATCHDOG.stop()
    return True
