"""Load (or, on a first run, compile) only the compiled loop a run needs, up front.

Without this a fresh install's first run would sit silent for many seconds inside its first
batch. ``loop_cached`` says whether a games loop for the run's policy kinds (which expert
matches play in waves too) is ready: built ahead of time (``compiled.aot``), or a loop that
covers those kinds in numba's on-disk cache (``compiled.specialize``, or the loop over every
kind); a caller then says "compiling (first run only)" only when it will compile.
``warm_up`` loads that loop alone (never ``ismcts``): a loop already cached that covers the
kinds, else it compiles the loop for exactly those kinds (seconds for a few simple
heuristics, not the minute every built-in takes), and then starts the ahead-of-time build in
the background.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamekit import numba_internals

from .compiled import N_KINDS, aot, engine, loops, specialize

__all__ = ["loop_cached", "loop_releases_gil", "warm_up"]


def _kinds(kinds: Iterable[int] | None) -> tuple[int, ...]:
    """The run's kinds; ``None`` (not said) means every kind."""
    return tuple(range(N_KINDS)) if kinds is None else specialize.kind_set(kinds)


def loop_cached(expert: bool = False, kinds: Iterable[int] | None = None) -> bool:
    """True when the games loop for policy ``kinds`` (default: every kind) is built ahead of
    time for these sources, or a loop covering them is loaded or in numba's cache.

    ``expert`` matches play in waves of that same loop.
    """
    if engine.available() or aot.loop() is not None:
        return True
    ks = _kinds(kinds)
    if specialize.covering(ks) is not None:
        return True
    return numba_internals.in_cache(loops._batch)


def loop_releases_gil() -> bool:
    """True when the games loop runs use releases the GIL while it plays: the module built
    ahead of time when it is there (``aot.releases_gil``), else numba's JIT loops, which
    are compiled with ``nogil``."""
    if engine.available():
        return True
    return aot.releases_gil() if aot.loop() is not None else True


def warm_up(expert: bool = False, kinds: Iterable[int] | None = None) -> None:
    """Load the games loop for policy ``kinds`` (default: every kind), compiling it if no
    loop covering them is cached; then start the ahead-of-time build in the background."""
    if engine.available():
        return
    ks = _kinds(kinds)
    if aot.loop() is None and specialize.covering(ks) is None:
        if kinds is None or numba_internals.in_cache(loops._batch):
            _play_one()  # the loop over every kind
        else:
            try:
                specialize.compile_for(ks)
            except OSError:  # a cache folder it cannot write: the loop over every kind
                _play_one()
    if aot.loop() is None:
        aot.build_in_background()


def _play_one() -> None:
    """One game through ``loops._batch`` itself (numba compiles or loads it)."""
    specialize.play_one(loops._batch)
