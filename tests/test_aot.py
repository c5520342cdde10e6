"""The games loop compiled ahead of time plays exactly the JIT's games, and a run through it
never loads numba.

The module is built once for this file into a temporary cache (a C compiler is needed; the
build takes tens of seconds on a shared machine)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from strategies.builtin import BUILTINS
from strategies.compiled import N_KINDS, N_PARAMS, aot, loops

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The compiled loop, built into a fresh cache folder (LEAVES_AOT on for this module)."""
    cache = tmp_path_factory.mktemp("leaves-cache")
    old = {k: os.environ.get(k) for k in ("LEAVES_AOT", "LEAVES_CACHE_DIR")}
    os.environ["LEAVES_AOT"] = "1"
    os.environ["LEAVES_CACHE_DIR"] = str(cache)
    try:
        if not aot.available():
            pytest.skip("no C compiler: runs use numba's JIT")
        assert aot.loop() is None  # nothing built in a fresh cache
        assert aot.build(), (aot.module_path().parent / aot.FAILED).read_text()
        fn = aot.loop()
        assert fn is not None
        yield {"loop": fn, "cache": cache}
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _params(kinds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each seat's parameter vector: its class's vector with some values drawn in range."""
    out = np.zeros((*kinds.shape, N_PARAMS))
    for idx in np.ndindex(kinds.shape):
        cls = BUILTINS[int(kinds[idx])]
        ranges = cls.PARAMS.tunable()
        values = {k: float(rng.uniform(lo, hi)) for k, (lo, hi) in ranges.items()}
        kind, vector = cls(**{k: type(cls().params[k])(v) for k, v in values.items()}).compiled()
        out[idx][: vector.size] = vector
    return out


@settings(max_examples=25)
@given(
    n=st.integers(3, 6),
    n_seatings=st.integers(1, 4),
    games=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    record=st.booleans(),
)
def test_compiled_module_plays_the_jit_games(built, n, n_seatings, games, seed, record):
    rng = np.random.default_rng(seed)
    kinds = rng.integers(0, N_KINDS, size=(n_seatings, n)).astype(np.int64)
    params = _params(kinds, rng)
    seating = rng.integers(0, n_seatings, size=games).astype(np.int64)
    deal = rng.integers(0, 2**63, size=games).astype(np.uint64)
    play = rng.integers(0, 2**63, size=games).astype(np.uint64)
    args = (kinds, params, deal, play, 1000, record, seating)
    jit = loops._run(*args, loop=loops._batch)
    ahead = loops._run(*args, loop=built["loop"])
    assert len(jit) == len(ahead) == 7
    for a, b in zip(jit, ahead, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_play_batch_uses_the_built_module(built, monkeypatch):
    """With the module built, ``play_batch`` never calls the JIT loop, and plays its games."""
    table = ["weighted", "counter", "random", "taker"]
    deal = np.arange(30, dtype=np.uint64)
    play = deal + np.uint64(99)
    with monkeypatch.context() as m:
        m.setenv("LEAVES_AOT", "0")
        expected = strategies.play_batch(table, deal, play)

    def refuse(*args):
        raise AssertionError("the JIT loop was called")

    monkeypatch.setattr(loops, "_batch", refuse)
    got = strategies.play_batch(table, deal, play)
    np.testing.assert_array_equal(got.cards_left, expected.cards_left)
    np.testing.assert_array_equal(got.turns, expected.turns)
    np.testing.assert_array_equal(got.first_player, expected.first_player)


@pytest.mark.parametrize("kind", ["plain", "expert"])
def test_a_run_through_the_built_module_never_imports_numba(built, tmp_path, kind):
    """A whole tournament (CLI, driver only) without numba, and the same rows as the JIT."""
    script = (
        "import sys\n"
        "from leaves_cli.main import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "print('numba' in sys.modules)\n"
    )
    args = "tournament greedy low counter weighted --players 4 --games 600 --seed 3 --jobs 1"
    if kind == "expert":
        args = args.replace("600", "48") + " --expert"
    outs = {}
    for mode in ("1", "0"):
        out = tmp_path / f"run{mode}"
        env = {**os.environ, "LEAVES_AOT": mode, "LEAVES_CACHE_DIR": str(built["cache"])}
        done = subprocess.run(
            [sys.executable, "-c", script, *args.split(), "--out", str(out), "--no-progress"],
            capture_output=True, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outs[mode] = (out, done.stdout.strip().splitlines()[-1])
    assert outs["1"][1] == "False"  # the built module: numba never imported
    assert outs["0"][1] == "True"  # the JIT path imports it
    import pyarrow.parquet as pq

    for rows in ["games", "matches"] if kind == "expert" else ["games"]:
        key = "game" if rows == "games" else "match"
        a = pq.read_table(outs["1"][0] / rows).sort_by(key)
        b = pq.read_table(outs["0"][0] / rows).sort_by(key)
        assert a.num_rows == b.num_rows > 0
        assert a.equals(b)


def _ticks_inside(loop, games: int = 60_000) -> int:
    """How often another Python thread ran in the middle half of a call of ``loop`` (4
    heuristics, ``games`` games): never while the call holds the GIL."""
    table = [strategies.get(s).compiled() for s in ("greedy", "low", "high", "minimal")]
    kinds = np.array([k for k, _ in table], np.int64)
    params = np.array([p for _, p in table])
    deal = np.arange(games, dtype=np.uint64)
    loops._run(kinds, params, deal[:2], deal[:2], 1000, False, loop=loop)  # loaded
    ticks: list[float] = []
    running = [True]

    def tick() -> None:
        while running[0]:
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.01)
    start = time.perf_counter()
    loops._run(kinds, params, deal, deal + np.uint64(1), 1000, False, loop=loop)
    end = time.perf_counter()
    running[0] = False
    ticker.join()
    quarter = (end - start) / 4
    return sum(start + quarter < t < end - quarter for t in ticks)


def test_the_built_module_releases_the_gil_while_it_plays(built):
    """Other threads run while it plays (a run's player threads play at once)."""
    assert aot.releases_gil() and aot._releases_gil(aot.module_path())
    assert _ticks_inside(built["loop"]) > 0


def test_the_jit_loop_releases_the_gil_while_it_plays():
    assert _ticks_inside(loops._batch) > 0


_PLAIN_BUILD = """
import sys
from pathlib import Path
import numpy as np
from strategies.compiled import aot, loops
out = Path(sys.argv[1])
out.mkdir()
aot._compile("_plain", out, kinds=(1, 4))  # low and greedy: a short build
path = next(out.glob("_plain*"))
print(aot._releases_gil(path))
kinds, params, seeds = np.load(sys.argv[2]).values()
res = loops._run(kinds, params, seeds, seeds + np.uint64(5), 1000, True, loop=aot._import(path, "_plain").batch)
np.savez(sys.argv[3], *res)
"""


def test_another_numba_builds_the_plain_module_and_plays_the_same_games(tmp_path, monkeypatch):
    """Outside the numba versions ``numba_internals`` was written for, the build is numba's
    plain one (generic CPU, holds the GIL: runs keep worker processes), the same games."""
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))
    if not aot.available():
        pytest.skip("no C compiler")
    table = [strategies.get(s).compiled() for s in ("greedy", "low", "low", "greedy")]
    kinds = np.array([k for k, _ in table], np.int64)
    params = np.array([p for _, p in table])
    seeds = np.arange(200, dtype=np.uint64)
    np.savez(tmp_path / "args.npz", kinds, params, seeds)
    env = {**os.environ, "LEAVES_NUMBA_INTERNALS": "0"}
    script = [_PLAIN_BUILD, str(tmp_path / "out"), str(tmp_path / "args.npz"), tmp_path / "res.npz"]
    done = subprocess.run(
        [sys.executable, "-c", *map(str, script)], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]  # holds the GIL
    jit = loops._run(kinds, params, seeds, seeds + np.uint64(5), 1000, True, loop=loops._batch)
    built = np.load(tmp_path / "res.npz")
    for a, b in zip(jit, built.values(), strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_tuned_build_that_fails_builds_the_plain_module(tmp_path):
    calls: list[bool] = []

    def compile_module(tuned: bool) -> None:
        calls.append(tuned)
        (tmp_path / "mod.so").write_bytes(b"half")
        if tuned:
            raise AttributeError("numba moved its internals")

    aot._tuned_or_plain(compile_module, tmp_path, "mod")
    assert calls == [True, False] and (tmp_path / "mod.so").read_bytes() == b"half"


@pytest.mark.parametrize("releases", [True, False])
def test_build_says_whether_the_module_releases_the_gil(tmp_path, monkeypatch, releases):
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))
    if not aot.available():
        pytest.skip("no C compiler")

    def fake(name, out):
        (out / f"{name}.so").write_bytes(b"\0PyEval_SaveThread\0" if releases else b"\0plain\0")

    monkeypatch.setattr(aot, "_compile", fake)
    assert aot.build()
    assert (aot.module_path().parent / aot.GIL_FREE).is_file() is releases
    assert aot.releases_gil() is False  # not a loadable module: no loop, the JIT plays


def test_failed_build_is_remembered(tmp_path, monkeypatch):
    """A machine that cannot build tries once per source version, then uses the JIT."""
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))

    def fail(name, out):
        raise RuntimeError("no toolchain")

    monkeypatch.setattr(aot, "_compile", fail)
    if not aot.available():
        pytest.skip("no C compiler")
    assert aot.build() is False
    assert "no toolchain" in (aot.module_path().parent / aot.FAILED).read_text()
    assert aot.available() is False
    assert aot.loop() is None


def test_background_build_starts_once(tmp_path, monkeypatch):
    """The first run starts one detached build; a run while it goes on starts none."""
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))
    if not aot.available():
        pytest.skip("no C compiler")
    started = []

    class Popen:
        def __init__(self, cmd, **kwargs):
            started.append((cmd, kwargs))

    monkeypatch.setattr(aot.subprocess, "Popen", Popen)
    assert aot.build_in_background() is True
    assert aot.build_in_background() is False  # one is running
    ((cmd, kwargs),) = started
    assert cmd == [sys.executable, "-m", "strategies.compiled.aot"]
    assert kwargs["start_new_session"] and kwargs["stdout"] == aot.subprocess.DEVNULL
    marker = aot.module_path().parent / aot.BUILDING
    os.utime(marker, (0, 0))  # a marker left by a lost build does not block another
    assert aot.build_in_background() is True


def test_disabled_by_environment(monkeypatch):
    monkeypatch.setenv("LEAVES_AOT", "0")
    assert not aot.enabled()
    assert not aot.available()
    assert aot.loop() is None


def test_key_depends_on_the_cpu(monkeypatch):
    """A cache folder shared by two machines never hands one a module built for the other."""
    before = aot._hash()
    monkeypatch.setattr(aot, "host_cpu", lambda: "another cpu")
    assert aot._hash() != before
    monkeypatch.undo()
    assert aot._hash() == before and aot.host_cpu()


def test_key_depends_on_the_kernels_sources(monkeypatch):
    """Editing a kernel source gives another key (another module is built)."""
    before = aot._hash()
    real = Path.read_bytes

    def edited(path):
        data = real(path)
        return data + b"\n# edit\n" if path.name == "simple.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert aot._hash() != before


def test_a_build_prunes_key_folders_unused_for_a_month(tmp_path, monkeypatch):
    """Each edit or upgrade adds a key folder to ``aot/`` and ``loops/``; a build removes the
    ones no run used for ``PRUNE_DAYS`` days, never the current key's nor a recent one."""
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))
    month_ago = time.time() - (aot.PRUNE_DAYS + 1) * 86_400
    folders = {}
    for name, loops_used, aot_used in [
        ("a" * 20, month_ago, month_ago),  # stale in both: removed
        ("b" * 20, month_ago, time.time()),  # its module was loaded lately: kept
        ("c" * 20, month_ago, None),  # a loop without a module, stale: removed
    ]:
        for root, used in (("loops", loops_used), ("aot", aot_used)):
            if used is not None:
                folder = tmp_path / root / name
                folder.mkdir(parents=True)
                os.utime(folder, (used, used))
                folders[root, name] = folder
    other = tmp_path / "aot" / "notes"  # not a key folder: left alone
    other.mkdir()
    os.utime(other, (month_ago, month_ago))

    def fake(name, out):
        (out / f"{name}.so").write_bytes(b"\0plain\0")

    monkeypatch.setattr(aot, "_compile", fake)
    current = aot.module_path().parent
    if not aot.available():
        pytest.skip("no C compiler")
    assert aot.build()
    os.utime(current, (month_ago, month_ago))  # the current key is never pruned
    assert aot.prune() == []
    assert current.is_dir() and other.is_dir()
    assert not folders["loops", "a" * 20].exists() and not folders["aot", "a" * 20].exists()
    assert folders["loops", "b" * 20].is_dir() and folders["aot", "b" * 20].is_dir()
    assert not folders["loops", "c" * 20].exists()


def test_loading_the_module_marks_its_folder_used(tmp_path, monkeypatch):
    monkeypatch.setenv("LEAVES_AOT", "1")
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path))
    path = aot.module_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    month_ago = time.time() - (aot.PRUNE_DAYS + 1) * 86_400
    os.utime(path.parent, (month_ago, month_ago))
    monkeypatch.setattr(aot, "_loaded", {})
    monkeypatch.setattr(aot, "_import", lambda path, name: types.SimpleNamespace(batch=len))
    assert aot.loop() is len
    assert time.time() - path.parent.stat().st_mtime < 60
