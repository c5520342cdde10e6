"""benchmarks/bench_mutation.py, the mutation runner, on a toy module whose every verdict is
known by hand: which mutants it makes of a line, how it names them, how it reads the list of
equivalent ones, and that a run kills what the toy's test catches and reports what it lets
through (a boundary left untested, a loop that never ends)."""

from __future__ import annotations

import importlib.util
import os
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_mutation",
                                                  ROOT / "benchmarks" / "bench_mutation.py")  # fmt: skip
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_mutation"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules["bench_mutation"]


def keys(bench, source: str) -> list[str]:
    return [m.key for m in bench.mutants(textwrap.dedent(source), "toy.py")]


def test_the_kinds_of_mutant(bench):
    assert keys(
        bench,
        """
        def f(x, y):
            return x < y and y >= 1
    """,
    ) == [
        "f: x < y and y >= 1 -> x < y or y >= 1",
        "f: x < y -> x <= y",
        "f: y >= 1 -> y > 1",
        "f: y >= 1 -> y >= 2",
        "f: y >= 1 -> y >= 0",
    ]
    assert keys(bench, "X = a + b - 1\n") == [
        "<module>: a + b - 1 -> a + b + 1", "<module>: a + b -> a - b",
        "<module>: a + b - 1 -> a + b - 2", "<module>: a + b - 1 -> a + b - 0"]  # fmt: skip
    assert keys(bench, "class C:\n    def m(self):\n        return self.v is None or -1\n") == [
        "C.m: self.v is None or -1 -> self.v is None and -1", "C.m: self.v is None -> self.v is not None",
        "C.m: self.v is None or -1 -> self.v is None or -0", "C.m: self.v is None or -1 -> self.v is None or -2"]  # fmt: skip


def test_what_is_left_alone(bench):
    assert (
        keys(
            bench,
            """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            LIMIT = 3
        @decorate(5)
        def f(x: Annotated[int, 2]) -> int:
            raise ValueError(f"x must be below {x + 1}")
        FLAG = True
    """,
        )
        == []
    )


def test_numbers_show_in_their_entry_or_keyword(bench):
    assert keys(bench, "D = {'turn': 0}\nf(limit=2)\n") == [
        "<module>: {'turn': 0} -> {'turn': 1}", "<module>: {'turn': 0} -> {'turn': -1}",
        "<module>: limit=2 -> limit=3", "<module>: limit=2 -> limit=1"]  # fmt: skip


def test_repeated_changes_are_numbered(bench):
    assert keys(bench, "def f(x):\n    return g(x > 0), g(x > 0)\n") == [
        "f: x > 0 -> x >= 0", "f: x > 0 -> x > 1", "f: x > 0 -> x > -1",
        "f: x > 0 -> x >= 0 [2]", "f: x > 0 -> x > 1 [2]", "f: x > 0 -> x > -1 [2]"]  # fmt: skip


def test_a_mutant_compiles_on_its_own_line(bench):
    source = "def f(x):\n    y = 1\n    return x < y\n"
    (m,) = [m for m in bench.mutants(source, "toy.py") if m.after == "x <= y"]
    assert m.line == 3
    namespace: dict = {}
    exec(bench.mutated_code(source, "toy.py", m), namespace)
    assert namespace["f"](1) is True  # 1 <= 1; the original says False


def test_the_list_of_equivalent_mutants(bench):
    text = textwrap.dedent("""
        Some words.

        ### leaves/legal.py

        - `plays_miss: len(PLAYS) >= _CACHE_MAX -> len(PLAYS) > _CACHE_MAX`: a cache one larger.
        - `<module>: 1 << 17 -> 1 << 18`
        not an entry

        ### `reports/clusters.py`
        - `wilson_t: p <= 0 -> p < 0`: a rate is never below 0.
    """)
    assert bench.equivalents(text) == {
        "leaves/legal.py": {
            "plays_miss: len(PLAYS) >= _CACHE_MAX -> len(PLAYS) > _CACHE_MAX": "a cache one larger.",
            "<module>: 1 << 17 -> 1 << 18": "",
        },
        "reports/clusters.py": {"wilson_t: p <= 0 -> p < 0": "a rate is never below 0."},
    }


def test_the_documented_modules_and_their_tests_exist(bench):
    for module, tests in bench.MODULES.items():
        assert (ROOT / module).is_file(), module
        for test in tests:
            assert (ROOT / test).is_file(), test
    listed = bench.equivalents((ROOT / "docs" / "mutation.md").read_text(encoding="utf-8"))
    assert set(listed) <= set(bench.MODULES)
    for module, entries in listed.items():
        live = {m.key for m in bench.mutants((ROOT / module).read_text(encoding="utf-8"), module)}
        assert set(entries) <= live, f"{module}: entries that are no mutant any more"
        assert all(entries.values()), f"{module}: an equivalent mutant without its reason"


TOY = """
def clamp(x, lo, hi):
    if x < lo:
        return lo
    return hi if x > hi else x


def count(n):
    i = 0
    while i < n:
        i += 1
    return i
"""

TOY_TEST = """
from toy_mut_pkg.clamp import clamp, count


def test_toy():
    assert clamp(5, 0, 10) == 5 and clamp(-1, 0, 10) == 0 and clamp(11, 0, 10) == 10
    assert count(3) == 3 and count(0) == 0
"""


@pytest.mark.slow
def test_a_run_on_the_toy(bench, tmp_path, monkeypatch):
    pkg = tmp_path / "toy_mut_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "clamp.py").write_text(TOY)
    (tmp_path / "test_toy.py").write_text(TOY_TEST)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the toy needs no plug-in
    runner = bench.Runner(tmp_path, ("test_toy.py",), prefixes=("toy_mut_pkg",),
                          workdir=tmp_path, min_timeout=1.0)  # fmt: skip
    every = bench.mutants(TOY, "toy_mut_pkg/clamp.py")
    assert len(every) == 7  # two comparisons in clamp; 0 and 1 either way and a < in count
    picked = ["clamp: x < lo -> x <= lo", "clamp: x > hi -> x >= hi", "count: i = 0 -> i = 1",
              "count: i += 1 -> i += 0"]  # fmt: skip
    chosen = [m for m in every if m.key in picked]
    known = {"clamp: x < lo -> x <= lo": "at x == lo both return lo"}
    lines: list[str] = []
    r = bench.run_module(runner, "toy_mut_pkg/clamp.py", chosen, known, echo=lines.append,
                         warm=False)  # fmt: skip
    status = {m.key: s for m, s in r.results}
    assert status == {"clamp: x < lo -> x <= lo": "survived",  # equivalent, and listed so
                      "clamp: x > hi -> x >= hi": "survived",  # clamp(10, 0, 10) is untested
                      "count: i = 0 -> i = 1": "killed",  # count(0) == 1
                      "count: i += 1 -> i += 0": "timeout"}  # fmt: skip
    assert [m.key for m in r.equivalent] == ["clamp: x < lo -> x <= lo"]
    assert [m.key for m in r.survivors] == ["clamp: x > hi -> x >= hi"]
    bench.report(r, echo=lines.append)
    assert lines[0].startswith("toy_mut_pkg/clamp.py: 4 mutants against test_toy.py")
    assert lines[-2].startswith("toy_mut_pkg/clamp.py: killed 2/4, equivalent 1, new survivors 1, "
                                "66.7% of the behaviour-changing killed")  # fmt: skip
    assert lines[-1] == "  survived  line 5  clamp: x > hi -> x >= hi"
    assert "toy_mut_pkg" not in sys.modules or "clamp" not in dir(sys.modules["toy_mut_pkg"])
    assert (pkg / "clamp.py").read_text() == TOY  # nothing written back


NOJIT_TEST = """
import numba


def test_kernels_run_as_python():
    assert not hasattr(numba.njit(lambda x: x + 1), "py_func")  # the function, no dispatcher
"""


@pytest.mark.slow
def test_the_kernels_modules_run_without_the_jit(bench, tmp_path, monkeypatch):
    """``JIT_OFF`` modules' children get numba's JIT disabled (``njit`` hands back the
    function, so a mutant costs no compile); the others keep it."""
    (tmp_path / "test_nojit.py").write_text(NOJIT_TEST)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    assert "leaves/kernels.py" in bench.JIT_OFF and "leaves/kernels.py" in bench.MODULES
    verdicts = []
    for jit in (False, True):
        runner = bench.Runner(tmp_path, ("test_nojit.py",), prefixes=("test_nojit",),
                              workdir=tmp_path, jit=jit)  # fmt: skip
        verdicts.append(runner.run()[0])
    assert verdicts == ["survived", "killed"]


LONG_TEST = """
import pytest


@pytest.mark.slow
def test_a_long_test_that_fails():
    assert False
"""


def test_the_runner_runs_the_long_tests_too(bench, tmp_path, monkeypatch):
    """A long test (marked slow, which a plain pytest run leaves out) kills mutants too."""
    (tmp_path / "conftest.py").write_text("from tests.long_tests import *  # noqa: F403\n")
    (tmp_path / "test_long.py").write_text(LONG_TEST)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    runner = bench.Runner(tmp_path, ("test_long.py",), prefixes=("test_long",), workdir=tmp_path)
    assert runner.run()[0] == "killed"


def test_an_unmutated_run_past_its_limit_names_the_option_that_raises_it(bench, tmp_path,
                                                                         monkeypatch):  # fmt: skip
    """On a busy machine the tests alone can outlast the default minute: the stop says so and
    names ``--baseline-timeout``, which the command line passes to the runner."""
    (tmp_path / "test_toy.py").write_text("import time\n\ndef test_slow():\n    time.sleep(5)\n")
    (tmp_path / "toy.py").write_text(TOY)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    runner = bench.Runner(tmp_path, ("test_toy.py",), prefixes=("toy_mut_pkg",),
                          workdir=tmp_path, timeout=0.5)  # fmt: skip
    with pytest.raises(SystemExit, match=r"\(timeout past 0\.5 s: --baseline-timeout\)"):
        bench.run_module(runner, "toy.py", [], {}, echo=lambda _: None, warm=False)
    seen = []
    done = SimpleNamespace(survivors=[], errors=[])
    monkeypatch.setattr(bench, "run_module", lambda r, *a, **k: seen.append(r.timeout) or done)
    monkeypatch.setattr(bench, "report", lambda r: None)
    for name in ("LEAVES_ENGINE", "HYPOTHESIS_PROFILE"):  # main sets them: undone after
        monkeypatch.setenv(name, os.environ.get(name, ""))
    bench.main(["reports/stats.py", "--baseline-timeout", "240"])
    assert seen == [240.0]
