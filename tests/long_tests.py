"""The long tests (``@pytest.mark.slow``): left out of a plain run, run when asked for.

A test that plays end to end (a command or a run through to its report and charts, child
processes that play, worker pools, a browser), calibrates an interval over many runs or
compares a whole compiled loop with its reference takes seconds to a minute; together they are
most of the suite's time. The quick half keeps the rest: the rules, players, tables, words and
pages tested in the process, and child processes that only check what an import loads. A plain ``pytest tests`` leaves them out so the
suite stays quick; ``-m slow`` runs them alone, ``--slow`` adds them, a node id runs that one.
CI runs both halves (``.ci/run``).

A plain run also turns numba's JIT off (``NUMBA_DISABLE_JIT=1``, unless the variable is set):
numba's kernels, the reference the C engine is compared with and the fallback of a machine
without a C compiler, then run as Python, their rules checked without waiting for the
compiler. The tests that need them compiled (whole loops, ``ismcts`` searches, numba's own
semantics) are long tests and run compiled.
"""

from __future__ import annotations

import os

import pytest

MARKER = (
    "slow: a long test (end to end: a command or run through to its report, child processes"
    " that play, worker pools, a browser; a calibration over many runs; a whole compiled loop"
    " against its reference); left out unless asked for"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)
    if _plain(config):  # before any test imports numba; xdist's workers inherit it
        os.environ.setdefault("NUMBA_DISABLE_JIT", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow", action="store_true", help="also run the long tests (marked slow); CI does"
    )


def _plain(config: pytest.Config) -> bool:
    """No long test asked for and no test named: the quick suite, or files of it."""
    return not _asked_for(config) and not any("::" in a for a in config.args)


def _asked_for(config: pytest.Config) -> bool:
    """``--slow`` or any ``-m`` expression: the run chooses for itself."""
    return bool(config.getoption("--slow") or config.option.markexpr)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _asked_for(config):
        return
    named = [a.split("::", 1)[1] for a in config.args if "::" in a]
    keep: list[pytest.Item] = []
    slow: list[pytest.Item] = []
    for item in items:
        left_out = item.get_closest_marker("slow") and not any(n in item.nodeid for n in named)
        (slow if left_out else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    # a rule, not a count: under xdist the controller never sees which tests were left out
    if not _asked_for(config):
        terminalreporter.write_line(
            "Long tests (marked slow) run only when asked for: `-m slow` runs them alone,"
            " `--slow` adds them (CI runs both)."
        )
