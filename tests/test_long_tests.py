"""The long tests are left out of a plain run and run when asked for, and a plain run turns\nnumba's JIT off (``tests/long_tests.py``)."""

from __future__ import annotations

import os

import pytest

pytest_plugins = ["pytester"]

MODULE = """
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_long():
    pass
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)  # and back as it was afterwards
    pytester.makeconftest("from tests.long_tests import *  # noqa: F403")
    pytester.makepyfile(test_two=MODULE)
    return pytester


@pytest.mark.parametrize(
    "args, ran, jit_off",
    [
        ((), {"test_quick"}, True),
        (("test_two.py",), {"test_quick"}, True),
        (("-m", "slow"), {"test_long"}, False),
        (("--slow",), {"test_quick", "test_long"}, False),
        (("-m", "not slow"), {"test_quick"}, False),
        (("test_two.py::test_long",), {"test_long"}, False),
    ],
)
def test_a_plain_run_leaves_the_long_tests_out_and_asking_runs_them(suite, args, ran, jit_off):
    result = suite.runpytest("--strict-markers", "-p", "no:cacheprovider", *args)
    passed = {r.nodeid.split("::")[-1] for r in result.reprec.getreports("pytest_runtest_logreport")
              if r.when == "call" and r.passed}  # fmt: skip
    assert passed == ran
    said = "Long tests (marked slow) run only when asked for" in result.stdout.str()
    assert said == (not args or args[0].startswith("test_two.py"))
    # a plain run plays numba's kernels as Python; a run that asks for tests compiles them
    assert (os.environ.get("NUMBA_DISABLE_JIT") == "1") == jit_off
