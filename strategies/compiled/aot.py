"""The games loop compiled ahead of time: a plain extension module that imports without numba.

Through numba's JIT a process pays about a second before its first game, even with the loop
in numba's cache (importing numba, then starting its compiler to load the cached code), in
the driver and in every worker: more than all the games of a small tournament. So the games
loop is compiled once more with ``numba.pycc``, over every built-in policy with the small
ones inlined (``specialize.render(..., inline=True)``: the fastest loop, whose compile time
does not matter here), exported over the NamedTuples of ``layout``, into an extension module that later runs import in a millisecond,
into a cache folder keyed by a hash of the kernels' sources and the Python, numpy and numba
versions (an edit or an upgrade builds anew). The first run compiles the loop for its own
kinds through the JIT (under "compiling (first run only)", ``specialize``) and then starts
the build in a background process (``build_in_background``, at low priority), so the first
run pays nothing more. Both run the same games (a differential test compares them); until
the module is there, without a C compiler, when the build fails, or with ``LEAVES_AOT=0``,
runs use numba's JIT.

The module is built for this machine's CPU (llvmlite's host CPU name and features; pycc
builds for a generic CPU) and releases the GIL while it plays (pycc has no ``nogil``), so a
run plays in threads of one process (``tournaments.local``). Both reach into numba's pycc
(``numba_internals.tuned_pycc``); with another numba, or where that fails, the plain module
is built and runs keep worker processes (``releases_gil``). Without pycc (numba dropped it)
the build fails once and runs use the JIT. The CPU is part of the key, so a cache folder shared between machines
never hands one a module built for another.

The cache folder is ``$LEAVES_CACHE_DIR/aot``, else ``$XDG_CACHE_HOME/leaves/aot``, else
``~/.cache/leaves/aot``. Every edit or upgrade adds a key folder there and in ``loops/``
(``specialize``), so each build removes the key folders no run has used for ``PRUNE_DAYS``
days (``prune``; a run that loads a module marks its folder used, at most once a day).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from gamekit import numba_internals
from gamekit.kernel_cache import cache_root

from . import layout

__all__ = [
    "available",
    "build",
    "build_in_background",
    "cache_dir",
    "cache_root",
    "enabled",
    "key",
    "loop",
    "module_path",
    "prune",
    "releases_gil",
]

EXPORT = "batch"
FAILED = "failed.txt"  # written next to the module when a build fails: why
BUILDING = "building"  # next to the module while a background build runs
STALE_S = 900  # a background build's marker older than this was left by a lost build
GIL_FREE = "releases_gil"  # next to a module whose exported loop releases the GIL
PRUNE_DAYS = 30  # a key folder no run has used for this long is removed by the next build
_USED_EVERY_S = 86_400  # a run marks its module's folder used when the mark is older than this
BUILD = "host-cpu,release-gil,no-nrt"
"""How the module is built (hashed into the key: a module built otherwise is never reused)."""
_ROOT = Path(__file__).resolve().parents[2]
_SOURCES = ("gamekit", "leaves", "strategies/builtin", "strategies/policy", "strategies/compiled")
"""Folders whose ``.py`` files the compiled loop is made of (hashed into the key)."""

_loaded: dict[Path, ModuleType | None] = {}  # by file: None when it was not there
_keys: list[str] = []  # the key, computed once per process
_lock = threading.Lock()  # player threads may look for the module at once


def enabled() -> bool:
    """False when ``LEAVES_AOT=0``: runs then use numba's JIT only."""
    return os.environ.get("LEAVES_AOT", "1") != "0"


def cache_dir() -> Path:
    """Where built modules are kept (see the module docstring)."""
    return cache_root() / "aot"


def key() -> str:
    """Hash of the loop's sources and of what the built module depends on."""
    if not _keys:
        _keys.append(_hash())
    return _keys[0]


def _hash() -> str:
    h = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted((_ROOT / folder).glob("*.py")):
            h.update(path.relative_to(_ROOT).as_posix().encode())
            h.update(path.read_bytes())
    version = numba_internals.numba_version()
    parts = (sys.version, platform.machine(), np.__version__, version, layout.signature_text())
    parts = (*parts, BUILD, str(numba_internals.supported()))
    for part in (*parts, host_cpu()):
        h.update(part.encode())
    return h.hexdigest()[:20]


def host_cpu() -> str:
    """This machine's CPU for the key: model name and feature flags from ``/proc/cpuinfo``
    (else ``platform.processor()``). Cheap: llvmlite's own answer costs a run 0.1 s of
    imports; the build asks llvmlite (``numba_internals.tuned_pycc``)."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = [ln for ln in f if ln.startswith(("model name", "flags", "Features"))]
    except OSError:
        lines = []
    return "".join(sorted(set(lines))) or platform.processor()


def _name(k: str) -> str:
    return f"_leaves_loop_{k}"


def module_path(k: str | None = None) -> Path:
    """The built module's file for key ``k`` (default: the current key)."""
    k = key() if k is None else k
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return cache_dir() / k / f"{_name(k)}{suffix}"


def _import(path: Path, name: str) -> ModuleType | None:
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            return None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module
    except (ImportError, OSError):
        return None


def loop() -> Any:
    """The ahead-of-time compiled ``loops._batch`` if it is built for these sources, else None.
    It takes the same ``layout`` NamedTuples."""
    if not enabled():
        return None
    k = key()
    path = module_path(k)
    if _loaded.get(path) is None:
        with _lock:  # one import of the extension, whichever thread asks first
            if _loaded.get(path) is None:
                _loaded[path] = _import(path, _name(k)) if path.is_file() else None
                if _loaded[path] is not None:
                    _mark_used(path.parent)
    module = _loaded[path]
    return None if module is None else getattr(module, EXPORT)


def _mark_used(folder: Path) -> None:
    """Set ``folder``'s time to now when it is older than a day (``prune`` reads it)."""
    with contextlib.suppress(OSError):
        if time.time() - folder.stat().st_mtime > _USED_EVERY_S:
            os.utime(folder)


def prune(days: float = PRUNE_DAYS) -> list[str]:
    """Remove the key folders of ``aot/`` and ``loops/`` that no run used for ``days`` days
    (a key's last use: the later time of its two folders), never the current key's.
    Returns the keys removed. Other versions of the project sharing the cache lose at most
    a module they have not used for that long, which they build again."""
    now, current = time.time(), key()
    roots = [cache_root() / "aot", cache_root() / "loops"]
    last: dict[str, float] = {}
    for root in roots:
        with contextlib.suppress(OSError):
            for entry in root.iterdir():
                if entry.is_dir() and len(entry.name) == len(current) and entry.name.isalnum():
                    with contextlib.suppress(OSError):
                        t = entry.stat().st_mtime
                        last[entry.name] = max(last.get(entry.name, t), t)
    stale = sorted(k for k, t in last.items() if k != current and now - t > days * 86_400)
    for k in stale:
        for root in roots:
            shutil.rmtree(root / k, ignore_errors=True)
    return stale


def releases_gil() -> bool:
    """True when the built module is there and releases the GIL while it plays."""
    return loop() is not None and (module_path().parent / GIL_FREE).is_file()


def available() -> bool:
    """True when a run can use (or build) the compiled module: enabled, a C compiler, and no
    failed build of these sources (a machine that cannot build tries once)."""
    if not enabled() or (module_path().parent / FAILED).exists():
        return False
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None


def build() -> bool:
    """Compile the loop into the cache (a few seconds to a minute); False when it cannot.

    Concurrent builds (workers, parallel tests) are harmless: each builds in its own folder
    and the finished file is moved into place in one step.
    """
    if not available():
        return False
    k = key()
    target = module_path(k)
    if target.is_file():
        return True
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    except OSError:  # a cache that cannot be written: the JIT, as without a compiler
        return False
    try:
        _compile(_name(k), work)
        built = next(work.glob(f"{_name(k)}*"), None)
        if built is None:
            raise RuntimeError("numba.pycc wrote no module")
        if _releases_gil(built):  # said before the module is there to be loaded
            (target.parent / GIL_FREE).write_text("")
        os.replace(built, target)  # one step: a concurrent reader sees all of it or none
        prune()
    except Exception as exc:  # noqa: BLE001 - any failure leaves the JIT in charge
        with contextlib.suppress(OSError):
            (target.parent / FAILED).write_text(f"{type(exc).__name__}: {exc}\n")
        return False
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return True


def build_in_background() -> bool:
    """Start ``build()`` in a detached low-priority process unless the module is there, being
    built, or cannot be built. True when a build was started."""
    if not available() or loop() is not None:
        return False
    marker = module_path().parent / BUILDING
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        if marker.exists() and time.time() - marker.stat().st_mtime < STALE_S:
            return False
        marker.write_text(str(os.getpid()))
        subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # an interrupted run leaves the build to finish
        )
    except OSError:
        return False
    return True


def _background_main() -> None:
    """The background build: low priority, then the marker goes."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    try:
        build()
    finally:
        with contextlib.suppress(OSError):
            (module_path().parent / BUILDING).unlink()


def _compile(name: str, out: Path, kinds: tuple[int, ...] | None = None) -> None:
    """Build module ``name`` into ``out``: the loop over every kind (``kinds``: a loop for
    those only, which a test builds faster; never loaded by ``loop``)."""
    import warnings

    with warnings.catch_warnings():  # pycc is "pending deprecation", with no replacement yet
        warnings.simplefilter("ignore")
        from numba.pycc import CC

    from . import specialize
    from .dispatch import ALL_KINDS

    # The loop over every kind with the small policies inlined (``specialize.render``):
    # compile time does not matter here, the speed of every later run does.
    path = out / "source" / "loop.py"  # apart from the module the build writes to ``out``
    path.parent.mkdir()
    path.write_text(specialize.render(ALL_KINDS if kinds is None else kinds, inline=True))
    spec = importlib.util.spec_from_file_location(f"{name}_source", path)
    if spec is None or spec.loader is None:  # pragma: no cover - a plain .py file
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def compile_module(tuned: bool) -> None:
        cc = CC(name, source_module=module)
        cc.output_dir = str(out)
        cc.export(EXPORT, layout.numba_signature())(module.play_games.py_func)
        cc.use_nrt = False  # the loop and its callees keep no reference counts
        if not tuned:
            cc.compile()
            return
        with numba_internals.tuned_pycc() as cpu:
            cc.target_cpu = cpu
            cc.compile()

    _tuned_or_plain(compile_module, out, name)


def _tuned_or_plain(compile_module: Callable[[bool], None], out: Path, name: str) -> None:
    """``compile_module(tuned=True)``; where that fails (numba's internals moved, another
    numba: ``numba_internals.Unsupported``), whatever it left is removed and the plain module
    is built."""
    try:
        compile_module(True)
    except Exception:  # noqa: BLE001 - any failure of the tuned build: the plain one
        for path in out.glob(f"{name}*"):
            path.unlink()
        compile_module(False)


def _releases_gil(path: Path) -> bool:
    """True when the module at ``path`` releases the GIL: it calls ``PyEval_SaveThread``
    (numba's wrapper does when built with ``release_gil``; the plain module never does)."""
    return b"PyEval_SaveThread" in path.read_bytes()


if __name__ == "__main__":
    _background_main()
