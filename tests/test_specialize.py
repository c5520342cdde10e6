"""Loops compiled for the policy kinds a run uses play the games of the loop over every kind,
and a first run compiles only the kernels its kinds need."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from gamekit import numba_internals
from strategies.builtin import BUILTINS
from strategies.compiled import N_PARAMS, loops, precompile, specialize

SIMPLE = (1, 2, 3, 4)  # low, high, minimal, greedy: the kinds of the runs


def _params(kinds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros((*kinds.shape, N_PARAMS))
    for idx in np.ndindex(kinds.shape):
        cls = BUILTINS[int(kinds[idx])]
        values = {k: float(rng.uniform(lo, hi)) for k, (lo, hi) in cls.PARAMS.tunable().items()}
        vector = cls(**{k: type(cls().params[k])(v) for k, v in values.items()}).compiled()[1]
        out[idx][: vector.size] = vector
    return out


@pytest.fixture(scope="module")
def simple_loop():
    return specialize.compile_for(SIMPLE)


@settings(max_examples=20)
@given(
    n=st.integers(3, 6),
    n_seatings=st.integers(1, 3),
    games=st.integers(1, 12),
    seed=st.integers(0, 2**32),
    record=st.booleans(),
    subset=st.sets(st.sampled_from(SIMPLE), min_size=1),
)
def test_specialised_loop_plays_the_games_of_the_loop_over_every_kind(
    simple_loop, n, n_seatings, games, seed, record, subset
):
    rng = np.random.default_rng(seed)
    kinds = rng.choice(sorted(subset), size=(n_seatings, n)).astype(np.int64)
    params = _params(kinds, rng)
    seating = rng.integers(0, n_seatings, size=games).astype(np.int64)
    deal = rng.integers(0, 2**63, size=games).astype(np.uint64)
    play = rng.integers(0, 2**63, size=games).astype(np.uint64)
    args = (kinds, params, deal, play, 1000, record, seating)
    every = loops._run(*args, loop=loops._batch)
    special = loops._run(*args, loop=simple_loop)
    for a, b in zip(every, special, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_play_batch_uses_a_loop_that_covers_its_kinds(simple_loop, monkeypatch):
    table = ["greedy", "low", "high"]
    deal = np.arange(40, dtype=np.uint64)
    play = deal + np.uint64(7)
    expected = loops._run(
        np.array([4, 1, 2]),
        np.stack([strategies.get(s).compiled()[1] for s in table]),
        deal,
        play,
        1000,
        False,
        loop=loops._batch,
    )

    def refuse(*args):
        raise AssertionError("the loop over every kind was called")

    monkeypatch.setattr(loops, "_batch", refuse)
    got = strategies.play_batch(table, deal, play)
    np.testing.assert_array_equal(got.cards_left, expected[1])
    np.testing.assert_array_equal(got.turns, expected[3])


def test_covering_picks_the_smallest_loop_that_holds_every_kind(monkeypatch):
    monkeypatch.setattr(specialize, "_loaded", {(1, 2): "a", (1, 2, 3): "b", (0, 1, 2, 3): "c"})
    monkeypatch.setattr(specialize, "_found", {})
    monkeypatch.setattr(specialize, "_on_disk", lambda: [])
    monkeypatch.setattr(specialize, "is_cached", lambda ks: True)
    assert specialize.covering([2, 1, 2]) == "a"
    assert specialize.covering([3]) == "b"
    assert specialize.covering([0, 3]) == "c"
    assert specialize.covering([7]) is None


def test_generated_module_is_written_once(simple_loop):
    path = specialize.loop_dir() / "loop_1_2_3_4.py"
    stamp = path.stat().st_mtime_ns
    specialize._write(path, "changed = True\n")  # never replaces: numba's cache keys on it
    assert path.stat().st_mtime_ns == stamp
    assert path.read_text() == specialize.render(SIMPLE)


def test_a_loop_whose_kinds_count_no_cards_compiles_no_counting_code(simple_loop):
    # The card counts are kept only for kinds that read them (dispatch.COUNTS): a loop of
    # simple heuristics calls no-ops instead, one with a counting kind the real updates.
    from strategies.compiled import dispatch
    from strategies.policy import counting

    module = simple_loop.py_func.__globals__
    assert not module["COUNTED"]
    assert module["count_action"].py_func is dispatch.skip_count_action.py_func
    assert module["policy_counter"].py_func is dispatch.absent.py_func
    assert module["policy_low"].py_func is strategies.get("low").policy.py_func
    every = loops._batch.py_func.__globals__
    assert every["COUNTED"] and every["count_action"].py_func is counting.count_action.py_func


def test_kinds_are_checked():
    with pytest.raises(ValueError, match="policy kinds"):
        specialize.compile_for([len(BUILTINS)])
    with pytest.raises(ValueError, match="policy kinds"):
        specialize.compile_for([])


def test_first_run_compiles_only_the_policies_of_its_kinds(tmp_path):
    """Empty caches: the loop reads as not cached, warming up compiles it (and only the
    policies of its kinds: never ``counter`` or ``weighted``), then it reads as cached."""
    code = (
        "from numba.core import event\n"
        "from strategies import warmup\n"
        "from strategies.builtin import counter, weighted, simple\n"
        "print(warmup.loop_cached(False, [1]))\n"
        "with event.install_recorder('numba:compile') as rec:\n"
        "    warmup.warm_up(False, [1])\n"
        "print(warmup.loop_cached(False, [1]))\n"
        "print(bool(simple.policy_low.overloads), bool(counter.policy_counter.overloads),"
        " bool(weighted.policy_weighted.overloads))\n"
        "print(','.join(e.data['dispatcher'].py_func.__name__ for _, e in rec.buffer"
        " if e.is_start))\n"
    )
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "LEAVES_CACHE_DIR": str(tmp_path / "leaves"),
        "LEAVES_AOT": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    out = done.stdout.split()
    assert out[:5] == ["False", "True", "True", "False", "False"]
    compiled = out[5].split(",")
    # The callees were compiled with the loop's own argument types (``play_to_end`` first,
    # by its signature, then ``play_games`` found it compiled): each at most once here, and a
    # callee the second process claimed first only loaded
    assert compiled.count("play_games") == 1
    assert compiled.count("play_to_end") == 1
    assert compiled.count("deal_unchecked") <= 1
    assert compiled.count("policy_low") <= 1


def test_an_unwritable_cache_falls_back_to_the_loop_over_every_kind(monkeypatch):
    from strategies import warmup

    def refuse(path, text):
        raise PermissionError("read-only cache")

    monkeypatch.setattr(specialize, "_write", refuse)
    monkeypatch.setattr(specialize, "covering", lambda kinds: None)
    monkeypatch.setattr(numba_internals, "in_cache", lambda dispatcher: False)
    monkeypatch.setattr(specialize, "_loaded", {})
    played = []
    monkeypatch.setattr(warmup, "_play_one", lambda: played.append(True))
    warmup.warm_up(False, [6])
    assert played == [True]


def test_activating_the_kernels_leaves_scipy_linalg_unloaded():
    # numba would import scipy.linalg at its first compile only to check for BLAS
    code = (
        "import sys\n"
        "from gamekit import jit\n"
        "jit.activate()\n"
        "import numba.np.arraymath as a\n"
        "print('scipy.linalg' in sys.modules, a._HAVE_BLAS,"
        " any(type(f).__name__ == '_NoScipy' for f in sys.meta_path))\n"
        "import scipy.linalg\n"
        "print(scipy.linalg.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "False", "scipy.linalg"]


def test_a_claim_is_taken_once(tmp_path):
    assert precompile.claim(tmp_path, 3)
    assert not precompile.claim(tmp_path, 3)
    assert precompile.claim(tmp_path, precompile.DEAL)


def test_the_child_compiles_only_the_parts_it_claims(tmp_path, monkeypatch):
    compiled = []
    monkeypatch.setattr(precompile, "compile_parts", lambda parts: compiled.extend(parts))
    precompile.claim(tmp_path, 2)  # the parent took kind 2
    precompile._main([str(tmp_path), "4", "2", "1"])
    assert compiled == [4, 1]
    assert sorted(p.name for p in tmp_path.glob("*.done")) == ["1.done", "4.done"]


class _Child:
    """A stand-in for the child process: running until ``stopped``."""

    def __init__(self) -> None:
        self.stopped = False

    def poll(self) -> int | None:
        return 0 if self.stopped else None


def test_the_parent_waits_for_a_part_the_child_claimed(tmp_path, monkeypatch):
    child = _Child()
    precompile.claim(tmp_path, 1)  # the child is compiling kind 1
    seen = []

    def compile_(sig):  # the wrapped compile: finds the child's part finished
        seen.append((sig, (tmp_path / "1.done").exists()))
        return "loaded"

    def sleep(seconds):  # the child finishes while the parent waits
        (tmp_path / "1.done").touch()

    monkeypatch.setattr(precompile.time, "sleep", sleep)
    wrapped = precompile._claiming(1, tmp_path, child)(compile_)
    assert wrapped("sig") == "loaded"
    assert seen == [("sig", True)]
    assert wrapped("other") == "loaded"  # later compiles go straight through
    assert seen[-1] == ("other", True)


def test_the_parent_compiles_a_part_nobody_claimed_and_one_whose_child_stopped(tmp_path):
    child = _Child()
    calls = []
    wrapped = precompile._claiming(2, tmp_path, child)(calls.append)
    wrapped("sig")
    assert calls == ["sig"]
    assert not precompile.claim(tmp_path, 2)  # the parent's claim: the child skips it
    precompile.claim(tmp_path, 3)  # the child claimed kind 3, then stopped unfinished
    child.stopped = True
    precompile._claiming(3, tmp_path, child)(calls.append)("sig3")
    assert calls == ["sig", "sig3"]
    assert not (tmp_path / "3.done").exists()
