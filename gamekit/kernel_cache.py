"""Where the project's caches live, and numba's cache folder keyed by the kernels' sources.

numba's own cache checks only the timestamp of the file a function is written in, so a kernel
that inlines a callee from another module kept its old machine code when only the callee
changed, and a moved module broke the cache with ``ModuleNotFoundError``. ``use_cache_of``
points numba (``NUMBA_CACHE_DIR``, inherited by worker processes) at a folder named by a hash
of every source file of the kernel's package and of ``gamekit`` (whose kernels any may
inline), just before the kernel is made: any edit, an upgrade included, compiles afresh, and
every package that defines kernels, a game's installed from outside included, is keyed
without a list of them. A ``NUMBA_CACHE_DIR`` set by the user is left alone. The few most
recently used folders are kept.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from .cbuild import cache_root

__all__ = ["cache_root", "source_key", "use_cache_of", "use_keyed_cache"]

KEEP = 6
"""Keyed kernel folders kept: the current one and the most recently used others (a few
packages' current folders and their previous ones)."""

_CHOSEN = "LEAVES_KEYED_NUMBA_CACHE"  # set with NUMBA_CACHE_DIR when the folder is ours


def _sources(modules: Iterable[str]) -> list[Path]:
    """Every source file of the top-level packages (or lone modules) of ``modules``."""
    files: set[Path] = set()
    for top in sorted({m.partition(".")[0] for m in modules}):
        mod = sys.modules.get(top)
        path = getattr(mod, "__file__", None)
        if not path:  # not imported yet: found without importing it
            try:
                spec = importlib.util.find_spec(top)
            except (ImportError, ValueError):
                spec = None
            path = spec.origin if spec is not None else None
        if not path or not path.endswith(".py"):
            continue
        path = Path(path)
        if path.name == "__init__.py":
            files.update(p for p in path.parent.rglob("*.py") if "__pycache__" not in p.parts)
        else:
            files.add(path)
    return sorted(files)


def source_key(modules: Iterable[str]) -> str:
    """A hash of the sources of the packages of ``modules``, with Python's version."""
    h = hashlib.sha256(sys.version.encode())
    for path in _sources(modules):
        h.update(str(path).encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            continue
    return h.hexdigest()[:16]


def use_cache_of(module: str) -> Path | None:
    """Point numba's cache at the folder for the kernels of ``module`` about to be made (keyed
    by the sources of its package and of ``gamekit``); None when the user chose
    ``NUMBA_CACHE_DIR``. The key is computed once a package and process."""
    return _point(_folder_of(module.partition(".")[0]))


@functools.cache
def _folder_of(package: str) -> Path:
    return cache_root() / "numba" / source_key((package, "gamekit"))


def use_keyed_cache(modules: Iterable[str]) -> Path | None:
    """Point numba's cache at the folder keyed by the sources of ``modules``' packages
    (before numba compiles anything); None when the user chose ``NUMBA_CACHE_DIR``."""
    return _point(cache_root() / "numba" / source_key(modules))


def _point(folder: Path) -> Path | None:
    current = os.environ.get("NUMBA_CACHE_DIR")
    if current and current != os.environ.get(_CHOSEN):
        return None
    if current != str(folder) and not _enter(folder.parent, folder):
        return None  # numba falls back to its own folders
    os.environ["NUMBA_CACHE_DIR"] = os.environ[_CHOSEN] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported: its config read the variable then
        config.CACHE_DIR = str(folder)
    return folder


def _enter(base: Path, folder: Path) -> bool:
    """Make ``folder`` the most recently used (pruning the oldest others); False when it
    cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
    except OSError:
        return False
    _prune(base, folder)
    return True


def _prune(base: Path, keep: Path) -> None:
    try:
        old = sorted(
            (p for p in base.iterdir() if p.is_dir() and p != keep),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for p in old[KEEP - 1 :]:
        shutil.rmtree(p, ignore_errors=True)
