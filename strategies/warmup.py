"""Load (or, on a first run, compile) only the compiled loop a run needs, up front.

Without this a fresh install's first run would sit silent for many seconds inside its first
batch. ``loop_cached`` says whether the games loop (which expert matches play in waves too)
is ready: built ahead of time (``compiled.aot``) or in numba's on-disk cache; a caller then
says "compiling (first run only)" only when it will compile. ``warm_up`` loads that loop
alone (never ``ismcts``), through numba's JIT while the module built ahead of time is not
there, and then starts that build in the background.
"""

from __future__ import annotations

import numpy as np

from .compiled import N_PARAMS, aot, loops

__all__ = ["loop_cached", "warm_up"]


def loop_cached(expert: bool = False) -> bool:
    """True when the games loop is built ahead of time for these sources, or numba's cache
    holds it compiled for this machine.

    ``expert`` matches play in waves of that same loop. Reads numba's cache index (not a
    public API): any failure reads as "not cached", which at worst shows the compile notice
    for a load.
    """
    if aot.loop() is not None:
        return True
    dispatcher = loops._batch
    try:
        if dispatcher.overloads:
            return True
        index = dispatcher._cache._cache_file._load_index()
        magic = dispatcher.targetctx.codegen().magic_tuple()
        return any(key[1] == magic for key in index)
    except Exception:  # noqa: BLE001 - numba internals may change; assume cold
        return False


def warm_up(expert: bool = False) -> None:
    """Load the games loop by playing one 3-player game of random play through it (numba's
    JIT compiles or loads it there when nothing was built ahead of time; that build then
    starts in the background, reusing the numba cache just filled)."""
    kinds = np.zeros(3, np.int64)
    params = np.zeros((3, N_PARAMS), np.float64)
    seeds = np.zeros(1, np.uint64)
    loops.play_batch_compiled(kinds, params, seeds, seeds, 1000)
    if aot.loop() is None:
        aot.build_in_background()
