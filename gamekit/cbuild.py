"""Build and load a game's C engine: one way, one key, whether at install or at first use.

A game ships its engine as C sources in a folder (``csrc/``, one translation unit
``engine.c`` that includes the rest). ``pip install`` compiles them with the build's C
compiler into an extension next to them (``setup.py``, which calls ``extension`` here), with
the key of the sources baked in (``engine_key()``). ``load`` opens that library when its key
is the sources' key now; otherwise (an edited checkout, an install without a compiler at
hand then) it compiles the same sources with the same flags into the cache folder named by
that key, in a few seconds, once. The key hashes the sources and the flags, nothing else: a
Python edit anywhere rebuilds nothing.

Stdlib only: ``setup.py`` imports this file before anything is installed.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = [
    "FLAGS",
    "BuildError",
    "Engine",
    "NoCompiler",
    "any_cold",
    "build",
    "cache_root",
    "extension_path",
    "load",
    "source_key",
]

FLAGS = (
    "-O3",
    "-march=native",
    "-funroll-loops",
    "-std=c99",
    "-fPIC",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-fno-wrapv",
)
"""Compile flags of every build. ``-ffp-contract=off``: no fused multiply-add, so a score is
the same float64 sum as numba's reference computes and the same game is played on both.
``-march=native -funroll-loops``: measured 10-20% faster on the heuristics' loop (numba's JIT
also compiles for the host CPU), which is why the host CPU is part of the key. ``-fno-wrapv``:
the install's build (setuptools) puts Python's own flags first, ``-fwrapv`` among them, which
forbids optimizations that assume signed arithmetic does not overflow; undone, the install's
engine played 5-10% faster (interleaved on the same games: ``weighted`` at every seat 0.90
of the time, ``random`` 0.93, an ``ismcts`` decision 0.93), and as fast as a cache's build."""

ENTRY = "engine.c"
"""The one translation unit of a ``csrc`` folder."""

SHARED = Path(__file__).with_name("csrc")
"""Headers every engine includes (``engine_common.h``): on each build's include path."""


class BuildError(RuntimeError):
    """The C engine could not be compiled (no compiler, or it failed): the message says why."""


class NoCompiler(BuildError):
    """No C compiler was found: ``compiler`` is the command looked for (``$CC``, else Python's,
    else ``cc``)."""

    def __init__(self, compiler: str, csrc: Path):
        super().__init__(f"no C compiler ({compiler}) to build the engine in {csrc}")
        self.compiler = compiler


def cache_root() -> Path:
    """``$LEAVES_CACHE_DIR``, else ``$XDG_CACHE_HOME/leaves``, else ``~/.cache/leaves``."""
    root = os.environ.get("LEAVES_CACHE_DIR")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "leaves"


def _host() -> str:
    """The CPU the library is built for (``-march=native``): its model and feature flags."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.machine() + platform.processor()
    lines = [ln for ln in text.splitlines() if ln.startswith(("model name", "flags"))]
    return platform.machine() + "\n".join(sorted(set(lines)))


def _sources(csrc: Path) -> list[Path]:
    """The C files an engine compiles from: its own and the shared headers."""
    return sorted(csrc.glob("*.[ch]")) + sorted(SHARED.glob("*.h"))


def source_key(csrc: Path) -> str:
    """A hash of the C sources of ``csrc``'s engine (names and bytes), ``FLAGS`` and the
    host CPU."""
    h = hashlib.sha256((" ".join(FLAGS) + _host()).encode())
    for path in _sources(csrc):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def extension_path(csrc: Path, name: str) -> Path:
    """Where ``pip install`` puts the library ``name`` built from ``csrc``: next to the folder."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return csrc.parent / f"{name}{suffix}"


def _compiler() -> list[str]:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return cc.split()


def build(csrc: Path, target: Path) -> Path:
    """Compile ``csrc``'s engine into the shared library ``target`` (written atomically)."""
    cmd = _compiler()
    if shutil.which(cmd[0]) is None:
        raise NoCompiler(cmd[0], csrc)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=target.parent)
    os.close(fd)
    key = source_key(csrc)
    args = [*cmd, *FLAGS, "-shared", f"-I{SHARED}", f'-DENGINE_KEY="{key}"', str(csrc / ENTRY),
            "-o", tmp, "-lm"]  # fmt: skip
    try:
        proc = subprocess.run(args, capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BuildError(f"compiling {csrc / ENTRY} failed: {last}")
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def _key_of(lib: ctypes.CDLL) -> str:
    fn = lib.engine_key
    fn.restype = ctypes.c_char_p
    return fn().decode()


def load(csrc: Path, name: str) -> ctypes.CDLL:
    """The engine built from ``csrc``: the installed library ``name`` when it was built from
    these sources, else the one in the cache folder of their key, compiled there first when
    missing (``BuildError`` when it cannot be)."""
    key = source_key(csrc)
    installed = extension_path(csrc, name)
    if installed.exists():
        lib = ctypes.CDLL(str(installed))
        if _key_of(lib) == key:
            return lib
    cached = cache_root() / "engine" / f"{name}-{key}.so"
    if not cached.exists():
        build(csrc, cached)
    lib = ctypes.CDLL(str(cached))
    if _key_of(lib) != key:
        raise BuildError(f"{cached} holds another build of the engine")
    return lib


FALLBACK = "leaves: {why}: playing on numba, which {compiles} for about a minute on first use"
"""What a process says on stderr, once, where numba's kernels play for want of a C engine and
must compile first (``Engine.note_fallback``): a warning about the environment, not progress,
so it is said in a pipe and under ``--no-progress`` as on a terminal."""

NO_COMPILER = "no C compiler found ({compiler})"
"""``FALLBACK``'s reason when no compiler was found; other failures say their error."""

FOR_A_FAST_FIRST_RUN = "; install a C compiler (gcc) for a fast first run"
"""What ``FALLBACK`` advises when no compiler was found."""

_said = False  # whether this process has said FALLBACK (one line, whichever engine fell back)
SAID = "LEAVES_FALLBACK_SAID"
"""Set in the environment once ``FALLBACK`` is said, so that the worker processes a run starts
afterwards (which inherit it) do not say it again, one line per worker."""
_said_lock = threading.Lock()


class Engine:
    """A game's C engine, loaded on first use (once, whatever the threads), or the reason it
    is not: no compiler, a failed build, or ``LEAVES_ENGINE=numba`` (the numba kernels play)."""

    def __init__(self, csrc: Path, name: str, declare: Callable[[ctypes.CDLL], ctypes.CDLL]):
        self.csrc, self.name, self._declare = csrc, name, declare
        self._lib: ctypes.CDLL | None = None
        self._why: str | None = None
        self._error: BuildError | OSError | None = None  # why, when the build or load failed
        self._checked: set[Callable[[], bool | None]] = set()  # the paths asked (note_fallback)
        self._lock = threading.Lock()

    def library(self) -> ctypes.CDLL | None:
        """The library with its functions declared (built first when needed), or None."""
        if self._lib is not None or self._why is not None:
            return self._lib
        with self._lock:
            if self._lib is None and self._why is None:
                if os.environ.get("LEAVES_ENGINE", "").lower() == "numba":
                    self._why = "LEAVES_ENGINE=numba"
                else:
                    try:
                        self._lib = self._declare(load(self.csrc, self.name))
                    except (BuildError, OSError) as err:
                        self._why, self._error = str(err), err
        return self._lib

    def available(self) -> bool:
        """True when the engine plays (its library loaded)."""
        return self.library() is not None

    def why_not(self) -> str | None:
        """Why the engine is not used (None when it is)."""
        self.library()
        return self._why

    def fallback_line(self, cold: bool | None) -> str | None:
        """``FALLBACK`` for this engine, or None where nothing is to be said: the engine plays,
        ``LEAVES_ENGINE=numba`` chose numba, or numba's cache holds the kernels (``cold``
        False; None when that cannot be told: they "may compile")."""
        self.library()
        if self._error is None or cold is False:
            return None
        compiles = "compiles" if cold else "may compile"
        if isinstance(self._error, NoCompiler):
            why = NO_COMPILER.format(compiler=self._error.compiler)
            return FALLBACK.format(why=why, compiles=compiles) + FOR_A_FAST_FIRST_RUN
        return FALLBACK.format(why=f"no C engine ({self._error})", compiles=compiles)

    def note_fallback(self, cold: Callable[[], bool | None]) -> None:
        """Say ``fallback_line`` on stderr, once per process, just before the numba kernels
        play instead of the engine: they compile for about a minute, which is silence where
        no spinner shows. ``cold`` is one path's question (a module-level function: the games
        loop, the search, a deal), asked once: whether numba's cache lacks its kernels. Each
        path asks its own, so a path whose kernels are cached does not silence the next."""
        global _said
        if _said or os.environ.get(SAID) or cold in self._checked:
            return
        if self.library() is not None or self._error is None:
            return
        with _said_lock:
            if cold in self._checked:
                return
            self._checked.add(cold)
        line = self.fallback_line(cold())
        if line is None or sys.stderr is None:
            return
        with _said_lock:
            if _said:
                return
            _said = True
            os.environ[SAID] = "1"
        print(line, file=sys.stderr, flush=True)


def any_cold(answers: Iterable[bool | None]) -> bool | None:
    """Whether a path's kernels compile, from each kernel's ``gamekit.jit.needs_compile``:
    True when any does, False when none does, None when some cannot be told."""
    answers = list(answers)
    return True if True in answers else None if None in answers else False


def extension(csrc: Path, module: str) -> dict[str, object]:
    """``setuptools.Extension`` keyword arguments for the engine in ``csrc`` as ``module``."""
    return {
        "name": module,
        "sources": [str(csrc / ENTRY)],
        "depends": [str(p) for p in _sources(csrc) if p.suffix == ".h"],
        "include_dirs": [str(SHARED)],
        "extra_compile_args": list(FLAGS),
        "define_macros": [("ENGINE_KEY", f'"{source_key(csrc)}"')],
        "optional": True,
    }
