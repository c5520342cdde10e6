"""A first compile on two cores: the kernels a games loop calls, split between two processes.

numba compiles one function at a time, in one thread, at one to a few CPU-seconds each (most
of it type inference), so a first run's loop (the deal, the run's policies, then the loop
itself) takes a core for many seconds while the machine's other cores idle. The loop's callees
do not depend on each other, so ``compile_callees`` splits them in two: a child process
compiles one share into numba's on-disk cache while this process compiles the other; the
loop's own compile then loads both from the cache instead of compiling them. Each callee is
compiled with exactly the argument types the loop passes it (``_loop_args``: a differing type
would be a second compile), which a test checks.

Nothing depends on the child: if it fails, is slow or there is one core only, the loop's
compile compiles whatever is missing, as it always did.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

import numpy as np

__all__ = ["DEAL", "compile_callees", "compile_parts", "split"]

DEAL = "deal"
"""The part name of the deal (``kernels.deal_unchecked``); policy kinds are the other parts."""

COST_S = {"counter": 6.0, "weighted": 7.0, "taker": 2.5, "random": 2.2, DEAL: 2.0}
"""Rough single-core compile seconds of the larger parts, by built-in name (the rest about
``OTHER_S``): to balance the two shares."""
OTHER_S = 1.2
CHILD_START_S = 0.8
"""A child process's own start (Python, numpy, numba) before it compiles anything."""
CHILD_TIMEOUT_S = 300


def _loop_args() -> tuple[np.ndarray, ...]:
    """(board, sizes, params row, rng, work, deck) with the very types the loop passes: its
    own scratch buffers (``loops._buffers``) and a row of its params table."""
    from ..policy.params import N_PARAMS
    from .loops import _buffers

    board, sizes, work, deck, rng = _buffers(1, 4, 1, False)[-5:]
    rng[:] = np.arange(1, 5, dtype=np.uint64)  # any state but all zeros (which draws only zeros)
    return board, sizes, np.zeros((1, N_PARAMS), np.float64)[0], rng, work, deck


def compile_parts(parts: Sequence[int | str]) -> None:
    """Compile (or load from numba's cache) each part: ``DEAL`` or a policy kind."""
    from leaves import kernels as K

    from .dispatch import POLICIES

    board, sizes, params, rng, work, deck = _loop_args()
    for part in parts:
        if part == DEAL:
            # the loop deals with int64 players, hand size, first player (-1) and limit
            K.deal_unchecked(board, 4, 13, rng, np.int64(-1), 1000, deck)
        else:
            # the loop's seat is a board cell: int32
            POLICIES[int(part)].policy(board, np.int32(0), sizes, params, rng, work)


def _cost(part: int | str) -> float:
    from .dispatch import POLICIES

    return COST_S.get(part if part == DEAL else POLICIES[int(part)].name, OTHER_S)


def split(parts: Sequence[int | str]) -> tuple[list[int | str], list[int | str]]:
    """(this process's share, the child's): the costliest first, each to the less loaded side
    (the child's side starts ``CHILD_START_S`` behind)."""
    mine: list[int | str] = []
    child: list[int | str] = []
    load = [0.0, CHILD_START_S]
    for part in sorted(parts, key=lambda p: -_cost(p)):
        side = 0 if load[0] <= load[1] else 1
        (mine, child)[side].append(part)
        load[side] += _cost(part)
    return mine, child


def compile_callees(kinds: Sequence[int]) -> None:
    """Compile the deal and the policies ``kinds`` into numba's cache, on two cores when the
    machine has them (a child process takes a share)."""
    parts: list[int | str] = [DEAL, *kinds]
    mine, child = split(parts) if (os.cpu_count() or 1) > 1 else (parts, [])
    proc = None
    if child:
        cmd = [sys.executable, "-m", __name__, *map(str, child)]
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:  # cannot start a process: compile everything here
            mine, proc = parts, None
    compile_parts(mine)
    if proc is not None:
        try:
            proc.wait(timeout=CHILD_TIMEOUT_S)
        except subprocess.TimeoutExpired:  # the loop compiles what is missing
            proc.kill()


def _main(argv: list[str]) -> None:
    compile_parts([a if a == DEAL else int(a) for a in argv])


if __name__ == "__main__":
    _main(sys.argv[1:])
