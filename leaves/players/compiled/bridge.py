"""The Python path into the compiled policies: a decision from a ``PlayerView``."""

from __future__ import annotations

import numpy as np

from gamekit.cbuild import any_cold
from gamekit.jit import needs_compile
from leaves import kernels as K
from leaves.board import public_board

from ..policy.features import WORK_SIZE
from . import engine
from .dispatch import decide


def decide_cold() -> bool | None:
    """Whether numba's decision from a view (``dispatch.decide`` and the kernel RNG's seeding)
    compiles at its first call in this process (None: cannot tell): False once its cache
    holds them for these sources and this machine."""
    return any_cold(needs_compile(k) for k in (decide, K.rng_new))


def decide_view(kind: int, params: np.ndarray, view, seed: int) -> int:
    """The action id policy ``kind`` picks for ``view`` (its owner to act), kernel RNG ``seed``.

    The policy sees ``public_board(view)``: exactly what the owner may know. numba decides
    where the C engine does not play ``kind``, said once on stderr when that is for want of
    the engine and numba compiles first (``gamekit.cbuild.Engine.note_fallback``).
    """
    board, sizes = public_board(view)
    return decide_board(kind, params, board, view.player, sizes, seed)


def decide_board(kind: int, params: np.ndarray, board, seat: int, sizes, seed: int) -> int:
    """``decide_view`` on the owner's public board and sizes (``public_board``) already built:
    a caller holding them (a search's head start) does not build them again."""
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    if engine.covers(kind):  # the C engine: no numba at all
        rng = engine.rng_new(seed)
        return engine.decide(kind, params, board, seat, sizes, rng, work)
    engine.ENGINE.note_fallback(decide_cold)
    rng = K.rng_new(np.uint64(seed))
    return int(decide(int(kind), params, board, int(seat), sizes, rng, work))
