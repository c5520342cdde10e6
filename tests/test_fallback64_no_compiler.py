"""Without a C compiler the runs play numba's loop, which compiles for about a minute: the
process says so in one line on stderr, once, in a pipe as on a terminal; nothing when the C
engine plays, when ``LEAVES_ENGINE=numba`` chose numba, or when numba's cache holds the loop.

No compiler is simulated as the install without one leaves it: the engine's sources with no
library beside them and ``CC`` naming no program."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamekit import cbuild
from leaves.players import warmup
from leaves.players.compiled import engine, loops
from tests.helpers import NO_CC_LINE as LINE
from tests.helpers import NO_CC_MAY as MAY
from tests.helpers import fresh_engine, no_compiler, said_once_then_not_when_cached

ROOT = Path(__file__).resolve().parents[1]


def _play_three_batches(monkeypatch: pytest.MonkeyPatch, cold: bool | None) -> None:
    """Three batches through the loop ``loops`` picks, numba's stubbed (no minute's compile)
    and its cache reading as ``cold``."""
    monkeypatch.setattr(loops, "loop_cold", lambda: cold)
    monkeypatch.setattr(loops, "_batch", lambda seats, games, out, buf: 0)
    seeds = np.arange(2, dtype=np.uint64)
    for _ in range(3):
        loops.play_batch_compiled([1, 4, 2], np.zeros((3, loops.N_PARAMS)), seeds, seeds)


def test_without_a_compiler_the_numba_fallback_is_said_once_on_a_non_tty_stderr(
    tmp_path, monkeypatch, capsys
):
    fresh = no_compiler(tmp_path, monkeypatch, engine)
    _play_three_batches(monkeypatch, cold=True)
    assert not sys.stderr.isatty()
    assert capsys.readouterr().err == LINE + "\n"
    assert "no C compiler" in fresh.why_not()


def test_numbas_cache_unreadable_says_the_loop_may_compile(tmp_path, monkeypatch, capsys):
    no_compiler(tmp_path, monkeypatch, engine)
    _play_three_batches(monkeypatch, cold=None)
    assert capsys.readouterr().err == MAY + "\n"


def test_nothing_is_said_when_numbas_cache_holds_the_loop(tmp_path, monkeypatch, capsys):
    no_compiler(tmp_path, monkeypatch, engine)
    _play_three_batches(monkeypatch, cold=False)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(warmup, "_warm", False)
    assert warmup.loop_cached()  # no spinner's "compiling" either
    monkeypatch.setattr(loops, "loop_cold", lambda: True)
    assert not warmup.loop_cached()


def test_nothing_is_said_when_leaves_engine_numba_chose_numba(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LEAVES_ENGINE", "numba")
    fresh_engine(tmp_path, monkeypatch, engine)
    _play_three_batches(monkeypatch, cold=True)
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_failed_build_says_its_error_and_no_advice_to_install_a_compiler(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("CC", "cc")
    monkeypatch.delenv("LEAVES_ENGINE", raising=False)
    fresh = fresh_engine(tmp_path, monkeypatch, engine, source="this is not C\n")
    _play_three_batches(monkeypatch, cold=True)
    err = capsys.readouterr().err
    assert err == (
        f"leaves: no C engine ({fresh.why_not()}): playing on numba, which compiles for about "
        "a minute on first use\n"
    )
    assert "failed" in err and "install" not in err


@pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")
def test_nothing_is_said_when_the_c_engine_plays(monkeypatch, capsys):
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
    monkeypatch.setattr(loops, "loop_cold", lambda: True)
    seeds = np.arange(2, dtype=np.uint64)
    loops.play_batch_compiled([1, 4, 2], np.zeros((3, loops.N_PARAMS)), seeds, seeds)
    engine.ENGINE.note_fallback(lambda: True)
    assert capsys.readouterr().err == ""


def test_the_readme_quotes_the_line_a_run_without_a_compiler_says(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", "cc")
    monkeypatch.setattr(shutil, "which", lambda cmd: None)  # no compiler on the PATH
    monkeypatch.delenv("LEAVES_ENGINE", raising=False)
    fresh = fresh_engine(tmp_path, monkeypatch, engine)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"`{fresh.fallback_line(True)}`" in readme


_KERNEL = """
from gamekit.jit import njit

@njit(cache=True)
def twice(x):
    return {body}
"""

_CHECK = """
import json
from gamekit.jit import needs_compile
from kpkg.kernel import twice
before = needs_compile(twice)
value = twice(21)
print(json.dumps([before, value, len(twice.stats.cache_hits), len(twice.stats.cache_misses)]))
"""


def _check(tmp_path: Path) -> list:
    env = {**os.environ, "LEAVES_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}  # fmt: skip
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("LEAVES_KEYED_NUMBA_CACHE", None)
    env.pop("NUMBA_DISABLE_JIT", None)  # the quick suite's setting: this test needs numba's JIT
    done = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_needs_compile_tells_what_numba_then_does(tmp_path):
    """Told against numba's own count of cache hits and misses at the call that follows: a
    fresh cache compiles, the next process loads, an edited kernel compiles again."""
    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel.py").write_text(_KERNEL.format(body="2 * x"))
    assert _check(tmp_path) == [True, 42, 0, 1]
    assert _check(tmp_path) == [False, 42, 1, 0]
    (pkg / "kernel.py").write_text(_KERNEL.format(body="x + x"))
    assert _check(tmp_path) == [True, 42, 0, 1]


@pytest.mark.slow
def test_a_leaves_run_in_a_pipe_without_a_compiler_says_so_once_then_not_when_cached(tmp_path):
    """The whole command, stderr a pipe: the first run compiles numba's loop and says so in
    one line; the next finds it in numba's cache and says nothing."""
    said_once_then_not_when_cached(tmp_path, ["run", "--games", "720", "--jobs", "1"], 600)


def test_a_process_started_after_the_line_does_not_say_it_again(tmp_path, monkeypatch, capsys):
    """A run's worker processes start after its driver said the line and inherit its
    environment: one line for the run, not one more per worker."""
    no_compiler(tmp_path, monkeypatch, engine)
    _play_three_batches(monkeypatch, cold=True)
    assert capsys.readouterr().err == LINE + "\n"
    assert os.environ[cbuild.SAID]  # what a worker started now inherits
    monkeypatch.setattr(cbuild, "_said", False)  # a new process: this module loaded afresh
    fresh_engine(tmp_path / "worker", monkeypatch, engine)
    monkeypatch.setenv(cbuild.SAID, "1")
    _play_three_batches(monkeypatch, cold=True)
    assert capsys.readouterr().err == ""
