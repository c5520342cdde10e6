"""Game loops compiled for just the policy kinds a run uses.

``loops._batch`` dispatches over every built-in, so its first compile compiles all of them
(``counter`` and ``weighted`` dominate): most of a minute on a small machine, for a run of
four simple heuristics. A loop for a set of kinds is the same loop, ``loop_template``, with
its ``KINDS`` line set to them (``render``): its ``decide`` binds every other kind to a
kernel that compiles to nothing. The copy is written to a file in the cache folder, keyed
like the ahead-of-time module (``aot.key()``: an edit of any kernel gives a new folder) and
by the kinds, and imported; numba's cache then holds its compiled code like any module's.
Every such loop plays the very games of ``loops._batch`` (a differential test compares them).

``compile_for(kinds)`` writes, loads and compiles the loop for a run (``warmup`` calls it
under "compiling (first run only)"); ``covering(kinds)`` finds a loop already loaded in this
process or compiled in numba's cache whose kinds include those of a batch (a tournament's
chunks hold subsets of its kinds; workers find the loop the driver compiled). A batch with
no such loop uses ``loops._batch``, as before (numba compiles it once and caches it).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gamekit import numba_internals

from . import aot
from .dispatch import POLICIES

__all__ = [
    "compile_for",
    "covering",
    "is_cached",
    "kind_set",
    "loop_dir",
    "play_one",
    "render",
]

TEMPLATE = Path(__file__).with_name("loop_template.py")
"""The one source of every games loop (``loop_template``)."""

_loaded: dict[tuple[int, ...], Any] = {}  # kinds -> the loop's ``play_games`` dispatcher
_found: dict[tuple[int, ...], Any] = {}  # kinds of a batch -> the covering loop found for it
_lock = threading.RLock()  # a run's player threads look loops up at once: one import each


def kind_set(kinds: Iterable[int]) -> tuple[int, ...]:
    """The sorted distinct kinds: the key of a specialised loop."""
    return tuple(sorted({int(k) for k in kinds}))


def loop_dir() -> Path:
    """Folder of the generated loop modules for the current sources."""
    return aot.cache_root() / "loops" / aot.key()


def _stem(ks: tuple[int, ...]) -> str:
    return "loop_" + "_".join(str(k) for k in ks)


def render(ks: tuple[int, ...], inline: bool = False) -> str:
    """The loop for kinds ``ks``: ``TEMPLATE`` with its ``KINDS`` and ``INLINE`` lines set.

    ``inline`` puts the small policies' bodies into ``decide``: a faster loop, a longer
    compile (seconds more for a few kinds), so only the ahead-of-time build (``aot``, in the
    background) asks for it; the JIT's loops call the policies, each compiled and cached once
    for every loop that uses it.
    """
    text = TEMPLATE.read_text()
    for name, value in (("KINDS", tuple(ks)), ("INLINE", bool(inline))):
        text = _set_line(text, name, value)
    return text


def _set_line(text: str, name: str, value: object) -> str:
    """``text`` with its one line ``NAME = ...`` (at the start of a line) set to ``value``."""
    lines = text.splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.startswith(f"{name} = ")]
    if len(at) != 1:
        raise RuntimeError(f"{TEMPLATE.name} must set {name} on exactly one line, not {len(at)}")
    lines[at[0]] = f"{name} = {value!r}  # set by strategies.compiled.specialize.render\n"
    return "".join(lines)


def _write(path: Path, text: str) -> None:
    """Write ``path`` once: a file already there is never replaced (its numba cache is keyed
    by the file's time stamp, so rewriting it would void that cache)."""
    if path.is_file():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".gen-", suffix=".py", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            os.link(tmp, path)  # atomic, and never over a concurrent writer's file
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: a plain rename, if still absent
            if not path.exists():
                os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _import(ks: tuple[int, ...]) -> Any:
    """The loop's ``play_games`` for kinds ``ks`` (its module written first if needed)."""
    with _lock:
        return _import_locked(ks)


def _import_locked(ks: tuple[int, ...]) -> Any:
    if ks in _loaded:
        return _loaded[ks]
    from gamekit import jit

    jit.activate()  # the loop functions' ``njit`` must make real dispatchers
    path = loop_dir() / f"{_stem(ks)}.py"
    _write(path, render(ks))
    name = f"_leaves_{_stem(ks)}_{aot.key()}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:  # pragma: no cover - a plain .py file
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    _loaded[ks] = module.play_games
    return module.play_games


def _check(ks: tuple[int, ...]) -> None:
    if not ks or ks[0] < 0 or ks[-1] >= len(POLICIES):
        raise ValueError(f"policy kinds must be 0..{len(POLICIES) - 1}, got {list(ks)}")


def compile_for(kinds: Iterable[int]) -> Any:
    """Load (compiling on a first run) the loop for ``kinds``; its ``play_games`` dispatcher."""
    ks = kind_set(kinds)
    _check(ks)
    if is_cached(ks):
        batch = _import(ks)
        play_one(batch, ks[0])
    else:  # a first compile: a second process shares the loop's callees
        from . import precompile

        with precompile.sharing(ks):
            batch = _import(ks)
            # the inner loop first: it meets the policies at once, while the child compiles
            # the last of them; the deal, which ``play_games`` meets first, comes last
            batch.py_func.__globals__["play_to_end"].compile(precompile.play_to_end_signature())
            play_one(batch, ks[0])
    _found.clear()  # a loop now covers what none did before
    return batch


def play_one(batch: Any, kind: int = 0) -> None:
    """Compile (or load from numba's cache) the loop ``batch`` by playing one game through
    it (the compile depends on the argument types only, so any kind it covers will do)."""
    import numpy as np

    from ..policy.params import N_PARAMS
    from .loops import _run

    kinds = np.full(3, kind, np.int64)
    params = np.zeros((3, N_PARAMS), np.float64)
    seeds = np.zeros(1, np.uint64)
    _run(kinds, params, seeds, seeds, 1000, False, loop=batch)


def is_cached(kinds: Iterable[int]) -> bool:
    """True when the loop for exactly ``kinds`` is loaded here or compiled in numba's cache."""
    ks = kind_set(kinds)
    if ks in _loaded:
        return numba_internals.in_cache(_loaded[ks])
    if not (loop_dir() / f"{_stem(ks)}.py").is_file():
        return False
    return numba_internals.in_cache(_import(ks))


def _on_disk() -> list[tuple[int, ...]]:
    try:
        names = [p.stem for p in loop_dir().glob("loop_*.py")]
    except OSError:
        return []
    out = []
    for stem in names:
        with contextlib.suppress(ValueError):
            out.append(tuple(int(x) for x in stem.split("_")[1:]))
    return out


def covering(kinds: Iterable[int]) -> Any:
    """The smallest loaded or cached loop whose kinds include ``kinds``, else None."""
    ks = kind_set(kinds)
    if ks in _found:
        return _found[ks]
    with _lock:
        return _covering(ks)


def _covering(ks: tuple[int, ...]) -> Any:
    if ks in _found:
        return _found[ks]
    want = set(ks)
    best = None
    for have in sorted(set(_loaded) | set(_on_disk()), key=lambda h: (len(h), h)):
        if want <= set(have) and is_cached(have):
            best = _loaded[have]
            break
    _found[ks] = best
    return best
