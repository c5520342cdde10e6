"""Load (or, on a cold numba cache, compile) only the compiled loop a run needs, up front.

Numba compiles on first call, so without this a fresh install's first run sits silent for
many seconds inside its first batch. ``loop_cached`` says whether the loop a run needs
(games or expert matches) is already in numba's on-disk cache for this machine, so a
caller can say "compiling (first run only)" only when it will; ``warm_up`` loads or compiles
that loop alone (never ``ismcts`` or the other loop) by playing one tiny game.
"""

from __future__ import annotations

import numpy as np

from . import compiled as C

__all__ = ["loop_cached", "warm_up"]


def _loop(expert: bool):
    return C._matches if expert else C._batch


def loop_cached(expert: bool = False) -> bool:
    """True when numba's cache holds the games (or matches) loop compiled for this machine.

    Reads numba's cache index (not a public API): any failure reads as "not cached", which
    at worst shows the compile notice for a load.
    """
    dispatcher = _loop(expert)
    try:
        if dispatcher.overloads:
            return True
        index = dispatcher._cache._cache_file._load_index()
        magic = dispatcher.targetctx.codegen().magic_tuple()
        return any(key[1] == magic for key in index)
    except Exception:  # noqa: BLE001 - numba internals may change; assume cold
        return False


def warm_up(expert: bool = False) -> None:
    """Load or compile the loop by playing one 3-player game of random play."""
    kinds = np.zeros(3, np.int64)
    params = np.zeros((3, C.N_PARAMS), np.float64)
    seeds = np.zeros(1, np.uint64)
    if expert:
        C.play_matches_compiled(kinds, params, seeds, seeds, 1, 1000)
    else:
        C.play_batch_compiled(kinds, params, seeds, seeds, 1000)
