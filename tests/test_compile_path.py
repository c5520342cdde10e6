"""How the games loop is compiled: one checked-in template (``loop_template``), its arguments
as NamedTuples (``layout``), and numba's private APIs in one module (``numba_internals``)
whose fallbacks, taken with another numba, play the same games."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import strategies
from gamekit import numba_internals
from strategies.compiled import (
    dispatch,
    layout,
    loop_template,
    loops,
    precompile,
    specialize,
)

ROOT = Path(__file__).resolve().parents[1]
TABLE = ["greedy", "low", "high", "minimal"]


# ----------------------------------------------------------------------------- the template
def test_the_template_is_the_one_source_of_the_loop_and_of_decide():
    assert loops._batch is loop_template.play_games
    assert loops.play_to_end is loop_template.play_to_end
    assert dispatch.decide is loop_template.decide
    assert loop_template.KINDS == dispatch.ALL_KINDS and loop_template.INLINE is False


def test_the_template_imports_explicitly_and_absolutely():
    """A copy runs from the cache folder as a top-level module: no relative import, no ``*``."""
    tree = ast.parse(specialize.TEMPLATE.read_text())
    imports = [node for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert imports
    for node in imports:
        assert node.level == 0, node.module
        assert all(alias.name != "*" for alias in node.names), node.module


def test_decide_calls_each_kind_by_the_name_playable_binds():
    """Each branch ``kind == k`` of ``decide`` calls the module global that ``playable`` binds
    for the kernel of ``POLICIES[k]``, so a copy's bindings are the kinds it plays."""
    branches = {}
    for node in ast.walk(ast.parse(specialize.TEMPLATE.read_text())):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            kind = node.test.comparators[0].value
            call = node.body[0].value
            branches[kind] = call.func.id
    assert branches == {cls.kind: cls.policy.__name__ for cls in dispatch.POLICIES}


@pytest.mark.parametrize("ks, inline", [((1, 2, 3, 4), False), (dispatch.ALL_KINDS, True)])
def test_a_rendered_loop_is_the_template_with_two_lines_set(ks, inline):
    template = specialize.TEMPLATE.read_text().splitlines()
    rendered = specialize.render(ks, inline).splitlines()
    assert len(rendered) == len(template)
    changed = [(a, b) for a, b in zip(template, rendered, strict=True) if a != b]
    assert [b.split("  #")[0] for _, b in changed] == [f"KINDS = {ks!r}", f"INLINE = {inline!r}"]


def test_rendering_refuses_a_template_without_one_line_to_set():
    with pytest.raises(RuntimeError, match="exactly one line"):
        specialize._set_line("x = 1\n", "KINDS", (1,))
    with pytest.raises(RuntimeError, match="exactly one line"):
        specialize._set_line("KINDS = 1\nKINDS = 2\n", "KINDS", (1,))


def _load(tmp_path: Path, ks: tuple[int, ...], inline: bool) -> types.ModuleType:
    import importlib.util

    from gamekit import jit

    jit.activate()
    name = f"_test_loop_{'_'.join(map(str, ks))}_{int(inline)}"
    path = tmp_path / f"{name}.py"
    path.write_text(specialize.render(ks, inline))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_loop_for_some_kinds_binds_the_others_to_absent(tmp_path):
    module = _load(tmp_path, (1, 4), False)
    for cls in dispatch.POLICIES:
        bound = getattr(module, cls.policy.__name__)
        want = cls.policy if cls.kind in (1, 4) else dispatch.absent
        assert bound.py_func is want.py_func, cls.name
    assert not module.COUNTED and module.count_action.py_func is dispatch.skip_count_action.py_func


def test_an_inlined_loop_inlines_the_small_policies_only(tmp_path):
    module = _load(tmp_path, dispatch.ALL_KINDS, True)
    assert module.COUNTED
    for cls in dispatch.POLICIES:
        bound = getattr(module, cls.policy.__name__)
        assert bound.py_func is cls.policy.py_func
        inlined = bound.targetoptions.get("inline") == "always"
        assert inlined is (cls.name not in dispatch.CALLED), cls.name


# ----------------------------------------------------------------------------- layout
def test_the_loop_is_called_with_the_types_of_its_signature():
    """``numba_signature`` (the module built ahead of time exports it) is the types of the
    arguments ``loops._run`` passes, recorded or not, at one table or several."""
    from numba import typeof

    sig = layout.numba_signature()
    seen = []

    def loop(*args):
        seen.append(tuple(map(typeof, args)))
        assert [type(a) for a in args] == [
            layout.Seats,
            layout.Games,
            layout.Results,
            layout.Buffers,
        ]

    kinds, params = _table(TABLE)
    seeds = np.arange(3, dtype=np.uint64)
    loops._run(kinds, params, seeds, seeds, 1000, False, loop=loop)
    loops._run(np.stack([kinds] * 2), np.stack([params] * 2), seeds, seeds, 50, True,
               np.array([0, 1, 1]), loop=loop)  # fmt: skip
    assert seen == [tuple(sig.args)] * 2
    text = layout.signature_text()
    assert text.startswith("int64(Seats(int64[2d,C], float64[3d,C]), Games(")
    assert "Buffers(int32[2d,C], int64[1d,C], int64[1d,C], int64[1d,C], uint64[1d,C])" in text


def test_results_name_what_play_batch_compiled_returns():
    kinds, params = _table(TABLE)
    seeds = np.arange(5, dtype=np.uint64)
    res = loops.play_batch_compiled_records(kinds, params, seeds, seeds, 1000)
    plain = loops.play_batch_compiled(kinds, params, seeds, seeds, 1000)
    assert isinstance(res, layout.Results) and len(plain) == 6
    for a, b in zip(plain, res[:6], strict=True):
        np.testing.assert_array_equal(a, b)
    assert res.actions.shape == (5, 1000) and (res.turns > 0).all()


# ----------------------------------------------------------------------------- numba internals
def test_the_installed_numba_is_supported_and_others_are_not(monkeypatch):
    assert numba_internals.supported()
    assert numba_internals.NO_REFCOUNTS == {"_nrt": False}
    assert numba_internals._release("0.70.0rc1") == (0, 70)
    monkeypatch.setattr(numba_internals, "numba_version", lambda: "0.99.0")
    assert not numba_internals.supported()
    monkeypatch.undo()
    monkeypatch.setenv("LEAVES_NUMBA_INTERNALS", "0")
    assert not numba_internals.supported()


class _Index:
    def __init__(self, keys):
        self.keys = keys

    def _load_index(self):
        return dict.fromkeys(self.keys, "data")


def _fake(signatures=(), keys=(), magic="here"):
    codegen = types.SimpleNamespace(magic_tuple=lambda: magic)
    return types.SimpleNamespace(
        signatures=list(signatures),
        _cache=types.SimpleNamespace(_cache_file=_Index(keys)),
        targetctx=types.SimpleNamespace(codegen=lambda: codegen),
    )


def test_in_cache_reads_the_index_and_falls_back_to_this_process(monkeypatch):
    assert numba_internals.in_cache(_fake(keys=[("sig", "here")]))
    assert not numba_internals.in_cache(_fake(keys=[("sig", "another machine")]))
    assert numba_internals.in_cache(_fake(signatures=["sig"]))
    moved = _fake(keys=[("sig", "here")])
    del moved._cache._cache_file  # numba moved its index: read as not cached
    assert not numba_internals.in_cache(moved)
    monkeypatch.setattr(numba_internals, "numba_version", lambda: "0.99.0")
    assert not numba_internals.in_cache(_fake(keys=[("sig", "here")]))  # index never read
    assert numba_internals.in_cache(_fake(signatures=["sig"]))


def test_compile_hooks_see_numba_compile_a_callee(monkeypatch):
    """The internal ``precompile`` relies on: typing a caller calls its callee's ``compile``
    (a canary for a numba upgrade); outside the supported versions nothing is hooked."""
    from numba import njit

    @njit
    def callee(x):
        return x + 1

    @njit
    def caller(x):
        return callee(x) * 2

    seen = []

    def wrap(compile_):
        def compile(sig):
            seen.append(sig)
            return compile_(sig)

        return compile

    with numba_internals.compile_hooks({callee: wrap}) as hooked:
        assert hooked
        assert caller(3) == 8
    assert "compile" not in vars(callee)  # the class's method again
    assert seen and {str(s) for s in seen} == {"(int64,)"}  # once or more while typing
    monkeypatch.setattr(numba_internals, "numba_version", lambda: "0.99.0")
    with numba_internals.compile_hooks({callee: wrap}) as hooked:
        assert not hooked and "compile" not in vars(callee)
    assert not numba_internals.can_hook_compile()


@pytest.mark.filterwarnings("ignore:The 'pycc' module is pending deprecation")
def test_the_tuned_build_patches_pycc_inside_only_and_refuses_another_numba(monkeypatch):
    from numba.core import codegen
    from numba.pycc import compiler

    plain = compiler.Flags, codegen.AOTCPUCodegen
    with numba_internals.tuned_pycc() as cpu:
        assert cpu and compiler.Flags().release_gil
        assert issubclass(codegen.AOTCPUCodegen, plain[1])
    assert (compiler.Flags, codegen.AOTCPUCodegen) == plain
    monkeypatch.setattr(numba_internals, "numba_version", lambda: "0.99.0")
    with pytest.raises(numba_internals.Unsupported), numba_internals.tuned_pycc():
        pass
    assert (compiler.Flags, codegen.AOTCPUCodegen) == plain


def test_no_child_shares_a_compile_outside_the_supported_versions(monkeypatch):
    monkeypatch.setattr(numba_internals, "numba_version", lambda: "0.99.0")

    def refuse(*args, **kwargs):
        raise AssertionError("a child process was started")

    monkeypatch.setattr(precompile.subprocess, "Popen", refuse)
    with precompile.sharing([1, 2]):
        pass


def _table(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    compiled = [strategies.get(n).compiled() for n in names]
    return np.array([k for k, _ in compiled], np.int64), np.stack([p for _, p in compiled])


def _digest(names: list[str]) -> str:
    """Totals of a few hundred games at the table ``names``."""
    seeds = np.arange(300, dtype=np.uint64)
    res = strategies.play_batch(names, seeds, seeds * np.uint64(3) + np.uint64(1))
    return f"{res.cards_left.sum()} {res.turns.sum()} {res.winner_seat.sum()} {res.rounds.sum()}"


_FALLBACK_RUN = """
from strategies import warmup
from gamekit import numba_internals
from strategies.compiled import loops, precompile
started = []
real = precompile.subprocess.Popen
precompile.subprocess.Popen = lambda *a, **k: started.append(a) or real(*a, **k)
print(numba_internals.supported(), numba_internals.NO_REFCOUNTS, warmup.loop_cached(False, [1, 4]))
warmup.warm_up(False, [1, 4])
print(warmup.loop_cached(False, [1, 4]), len(started), numba_internals.in_cache(loops._batch))
from tests.test_compile_path import _digest
print(_digest(["greedy", "low", "low", "greedy"]))
"""


def test_a_run_with_every_fallback_plays_the_same_games(tmp_path):
    """With numba's internals refused (as for a numba this was not written for): no cache
    index read, no child sharing the first compile, reference counts kept; the same games."""
    env = {
        **os.environ,
        "LEAVES_NUMBA_INTERNALS": "0",
        "LEAVES_CACHE_DIR": str(tmp_path / "leaves"),
        "LEAVES_AOT": "0",
    }
    done = subprocess.run(
        [sys.executable, "-c", _FALLBACK_RUN],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True,
    )  # fmt: skip
    first, second, digest = done.stdout.strip().splitlines()[-3:]
    assert first == "False {} False"
    assert second == "True 0 False"  # loaded here, no child; the all-kinds loop never asked
    assert digest == _digest(["greedy", "low", "low", "greedy"])


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
