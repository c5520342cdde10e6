"""The only module that reaches past numba's public API, each use behind a version check.

Four speed-ups of the games loop need numba internals:

* ``in_cache``: whether numba's on-disk cache holds a dispatcher's code for this machine (it
  reads the cache index), so a run picks a loop it will not have to compile;
* ``compile_hooks``: a wrapper around a dispatcher's ``compile``, which numba calls for each
  callee while it types a caller (``precompile`` shares a first compile with a child process);
* ``tuned_pycc``: the module built ahead of time for this CPU and releasing the GIL (numba's
  pycc builds for a generic CPU and holds the GIL);
* ``NO_REFCOUNTS``: the loop compiled without reference counting (numba's ``_nrt`` option).

They were written for numba ``SUPPORTED`` (tested on the version in the lock file). With
another version, with ``LEAVES_NUMBA_INTERNALS=0``, or where an attribute they use is
missing, each takes its fallback, which is slower and never different: a dispatcher reads as
cached only when compiled in this process (a cached loop is then loaded by compiling it,
which is numba's own cache lookup), a first compile is not shared, the built module is
numba's plain one (generic CPU, holds the GIL: runs use worker processes), the loop counts
references. ``tests/test_compile_path.py`` plays the same games through every fallback.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import os
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = [
    "NO_REFCOUNTS",
    "SUPPORTED",
    "Unsupported",
    "compile_hooks",
    "in_cache",
    "numba_version",
    "supported",
    "tuned_pycc",
]

SUPPORTED = ((0, 59), (0, 69))
"""numba versions ``[first, last)`` (major, minor) the internals below were written for."""


class Unsupported(RuntimeError):
    """numba's internals are not the ones this module was written for: use the fallback."""


@functools.cache
def numba_version() -> str:
    """The installed numba's version, read without importing numba (a run through the module
    built ahead of time never imports it)."""
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - numba is required
        return "0"


def _release(version: str) -> tuple[int, int]:
    """(major, minor) of a version string such as ``0.68.1`` or ``0.70.0rc1``."""
    found = re.match(r"(\d+)\.(\d+)", version)
    return (int(found[1]), int(found[2])) if found else (0, 0)


def supported() -> bool:
    """True when numba's version is in ``SUPPORTED`` and ``LEAVES_NUMBA_INTERNALS`` is not 0."""
    if os.environ.get("LEAVES_NUMBA_INTERNALS", "1") == "0":
        return False
    first, last = SUPPORTED
    return first <= _release(numba_version()) < last


NO_REFCOUNTS: dict[str, Any] = {"_nrt": False} if supported() else {}
"""``njit`` options for code that allocates nothing: no reference counting (numba's private
``_nrt``: every array view and call in the turn loop paid an atomic increment and decrement,
a third of a heuristic table's time); none outside the supported versions."""


def _dispatcher(kernel: Any) -> Any:
    """The numba dispatcher of ``kernel`` (a ``gamekit.jit`` lazy kernel is made real)."""
    return getattr(kernel, "dispatcher", kernel)


def in_cache(kernel: Any) -> bool:
    """True when ``kernel`` is compiled in this process or numba's on-disk cache holds its
    code for this machine. Fallback (other numba, internals moved, any failure): compiled in
    this process only."""
    d = _dispatcher(kernel)
    if d.signatures:
        return True
    if not supported():
        return False
    try:
        index = d._cache._cache_file._load_index()
        magic = d.targetctx.codegen().magic_tuple()
        return any(key[1] == magic for key in index)
    except Exception:  # noqa: BLE001 - numba's internals moved: read as not cached
        return False


def can_hook_compile() -> bool:
    """True when ``compile_hooks`` can see numba compile a caller's callees."""
    if not supported():
        return False
    from numba.core.dispatcher import Dispatcher

    return callable(getattr(Dispatcher, "compile", None)) and hasattr(
        Dispatcher, "get_call_template"
    )


@contextlib.contextmanager
def compile_hooks(
    wrappers: Mapping[Any, Callable[[Callable[..., Any]], Callable[..., Any]]],
) -> Iterator[bool]:
    """Inside: each dispatcher's ``compile`` is ``wrapper(its compile)``, the compile numba
    calls for it as a callee while typing a caller (``Dispatcher.get_call_template``).
    Yields False, hooking nothing, where that cannot be relied on (``can_hook_compile``)."""
    if not can_hook_compile():
        yield False
        return
    hooked = []
    try:
        for kernel, wrapper in wrappers.items():
            d = _dispatcher(kernel)
            d.compile = wrapper(d.compile)  # an instance attribute over the class's method
            hooked.append(d)
        yield True
    finally:
        for d in hooked:
            with contextlib.suppress(AttributeError):
                del d.compile  # the class's method again


@contextlib.contextmanager
def tuned_pycc() -> Iterator[str]:
    """Inside: numba.pycc builds for this CPU (yields its name for ``CC.target_cpu``; pycc
    takes no features, so its code generator is given llvmlite's host features) and its
    exported functions release the GIL (numba issue 6382: ``Flags.release_gil``, which the
    JIT's ``nogil`` sets, is what pycc's compiler never sets). Raises ``Unsupported`` outside
    the supported versions or where the internals moved: the caller builds the plain module."""
    if not supported():
        raise Unsupported(f"numba {numba_version()} is outside {SUPPORTED}")
    import warnings

    import llvmlite.binding as ll
    from numba.core import codegen

    with warnings.catch_warnings():  # pycc is "pending deprecation", with no replacement yet
        warnings.simplefilter("ignore")
        from numba.pycc import compiler

    plain_flags = getattr(compiler, "Flags", None)
    plain_codegen = getattr(codegen, "AOTCPUCodegen", None)
    if plain_flags is None or plain_codegen is None or not hasattr(plain_flags(), "release_gil"):
        raise Unsupported("numba.pycc's compiler flags or code generator moved")
    if not hasattr(plain_codegen, "_customize_tm_features"):
        raise Unsupported("numba's AOT code generator takes no target features")
    cpu, features = ll.get_host_cpu_name(), ll.get_host_cpu_features().flatten()

    class Flags(plain_flags):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    class HostCodegen(plain_codegen):  # type: ignore[misc,valid-type]
        def _customize_tm_features(self) -> str:
            return features

    compiler.Flags, codegen.AOTCPUCodegen = Flags, HostCodegen
    try:
        yield cpu
    finally:
        compiler.Flags, codegen.AOTCPUCodegen = plain_flags, plain_codegen
