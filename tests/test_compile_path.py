"""How the games loop is built and chosen: one path (the C engine, built by the install or,
after an edit of its sources, at first use), chosen in one place (``loops._run``), numba's
loop only where no C engine can be had; numba's cache keyed by the kernels' sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import strategies
from leaves.players import warmup
from leaves.players.compiled import engine, layout, loops

ROOT = Path(__file__).resolve().parents[1]
TABLE = ["greedy", "low", "high", "minimal"]


def _table(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    compiled = [strategies.get(n).compiled() for n in names]
    return np.array([k for k, _ in compiled], np.int64), np.stack([p for _, p in compiled])


def test_results_name_what_play_batch_compiled_returns():
    kinds, params = _table(TABLE)
    seeds = np.arange(5, dtype=np.uint64)
    res = loops.play_batch_compiled_records(kinds, params, seeds, seeds)
    plain = loops.play_batch_compiled(kinds, params, seeds, seeds)
    assert isinstance(res, layout.Results) and len(plain) == 6
    for a, b in zip(plain, res[:6], strict=True):
        np.testing.assert_array_equal(a, b)
    assert res.actions.shape == (5, 1000) and (res.turns > 0).all()


@pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")
def test_the_loop_is_chosen_in_one_place_and_needs_no_compile(monkeypatch):
    calls = []
    monkeypatch.setattr(engine, "play_games", lambda *a: calls.append(len(a)))
    kinds, params = _table(TABLE)
    seeds = np.arange(3, dtype=np.uint64)
    loops.play_batch_compiled(kinds, params, seeds, seeds)
    assert calls == [4]
    assert warmup.loop_cached() and warmup.loop_releases_gil()


_NUMBA_RUN = """
from leaves.players import warmup
from leaves.players.compiled import engine
print(engine.available(), engine.why_not(), warmup.loop_cached())
"""


def test_leaves_engine_numba_chooses_numbas_loop_and_says_it_must_compile(tmp_path):
    env = {**os.environ, "LEAVES_ENGINE": "numba", "LEAVES_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)  # the quick suite's: with the JIT off nothing compiles
    done = subprocess.run(
        [sys.executable, "-c", _NUMBA_RUN],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True,
    )  # fmt: skip
    assert done.stdout.split() == ["False", "LEAVES_ENGINE=numba", "False"]


_FRESH_RUN = """
import sys
from leaves.players.compiled import engine, loops
import numpy as np
seeds = np.arange(50, dtype=np.uint64)
res = loops.play_batch_compiled([1, 4, 2], np.zeros((3, 12)), seeds, seeds)
print(engine.available(), "numba" in sys.modules, int(res[3].sum()))
"""


@pytest.mark.slow
@pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")
def test_a_first_run_plays_without_importing_numba_and_writes_nothing_in_the_tree(tmp_path):
    before = {p for p in ROOT.rglob("*") if ".venv" not in p.parts}
    env = {**os.environ, "LEAVES_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", _FRESH_RUN],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True,
    )  # fmt: skip
    available, numba_loaded, turns = done.stdout.split()
    assert (available, numba_loaded) == ("True", "False") and int(turns) > 0
    after = {p for p in ROOT.rglob("*") if ".venv" not in p.parts}
    new = [p for p in after - before if "__pycache__" not in p.parts or p.suffix != ".pyc"]
    assert not [p for p in new if p.suffix in (".so", ".nbi", ".nbc", ".o")]


def test_no_numba_cache_file_is_in_the_source_tree():
    found = [
        p.relative_to(ROOT)
        for pattern in ("*.nbi", "*.nbc")
        for p in ROOT.rglob(pattern)
        if ".venv" not in p.parts
    ]
    assert not found, f"numba cache files in the source tree: {found}"


def test_numbas_cache_folder_is_keyed_by_the_kernels_sources(tmp_path, monkeypatch):
    """An edit to any source file of a kernel package gives another cache folder, so a cached
    caller can never run a stale callee; a NUMBA_CACHE_DIR the user set is kept."""
    from gamekit import kernel_cache

    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "callee.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.import_module("kpkg.callee")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("LEAVES_KEYED_NUMBA_CACHE", raising=False)  # restored after the test
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path / "cache"))
    first = kernel_cache.use_keyed_cache(["kpkg.callee"])
    (pkg / "callee.py").write_text("X = 2\n")
    second = kernel_cache.use_keyed_cache(["kpkg.other"])
    assert first != second and first.parent == second.parent == tmp_path / "cache" / "numba"
    assert os.environ["NUMBA_CACHE_DIR"] == str(second)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernel_cache.use_keyed_cache(["kpkg.callee"]) is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")
