"""Load (or, on a cold numba cache, compile) only the compiled loop a run needs, up front.

Numba compiles on first call, so without this a fresh install's first run sits silent for
many seconds inside its first batch. ``loop_cached`` says whether the games loop (which
expert matches play in waves too) is already in numba's on-disk cache for this machine, so a
caller can say "compiling (first run only)" only when it will; ``warm_up`` loads or compiles
that loop alone (never ``ismcts``) by playing one tiny game.
"""

from __future__ import annotations

import numpy as np

from .compiled import N_PARAMS, loops

__all__ = ["loop_cached", "warm_up"]


def loop_cached(expert: bool = False) -> bool:
    """True when numba's cache holds the games loop compiled for this machine.

    ``expert`` matches play in waves of that same loop. Reads numba's cache index (not a
    public API): any failure reads as "not cached", which at worst shows the compile notice
    for a load.
    """
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
    """Load or compile the games loop by playing one 3-player game of random play."""
    kinds = np.zeros(3, np.int64)
    params = np.zeros((3, N_PARAMS), np.float64)
    seeds = np.zeros(1, np.uint64)
    loops.play_batch_compiled(kinds, params, seeds, seeds, 1000)
