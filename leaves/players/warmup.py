"""Ready the games loop a run needs, up front, and say whether that means compiling.

The loop runs in the C engine (``compiled.engine``), which the install built: nothing to
compile, and ``loop_cached`` is True. Where there is no C engine (no C compiler, or
``LEAVES_ENGINE=numba``) the loop is numba's, which a first run compiles: ``warm_up`` plays
one game through it before the run starts, so the run can say "compiling (first run only)"
instead of sitting silent inside its first batch.
"""

from __future__ import annotations

from collections.abc import Iterable

from .compiled import engine, loops

__all__ = ["loop_cached", "loop_releases_gil", "warm_up"]

_warm = False


def loop_cached(expert: bool = False, kinds: Iterable[int] | None = None) -> bool:
    """True when the games loop needs no compile: the C engine, or numba's loop already
    compiled in this process or held by numba's cache. (``expert`` matches and any ``kinds``
    play in the same loop.)"""
    return _warm or engine.available() or loops.loop_cold() is False


def loop_releases_gil() -> bool:
    """True: the C engine's calls (ctypes) and numba's loop (``nogil``) both release the GIL
    while they play, so a run plays in threads of one process (``tournaments.local``)."""
    return True


def warm_up(expert: bool = False, kinds: Iterable[int] | None = None) -> None:
    """Load the games loop: the C engine, else numba's loop, compiled by one game."""
    global _warm
    if _warm or engine.available():
        return
    loops.play_batch_compiled([1, 1, 1], [[0.0] * loops.N_PARAMS] * 3, [0], [0])
    _warm = True
