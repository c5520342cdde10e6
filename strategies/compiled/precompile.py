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

COST_S = {7: 6.0, 9: 7.0, 8: 2.5, 0: 2.2, DEAL: 2.0}
"""Rough single-core compile seconds of the larger parts (the rest about 1.2): to balance."""
OTHER_S = 1.2
CHILD_START_S = 0.8
"""A child process's own start (Python, numpy, numba) before it compiles anything."""
CHILD_TIMEOUT_S = 300


def _loop_args() -> tuple[np.ndarray, ...]:
    """(board, sizes, params row, rng, work, deck) with the very types the loop passes."""
    from leaves.board import BOARD_ROWS, SEAT_SLOTS
    from leaves.rules import DECK_SIZE, N_VALUES

    from ..policy.features import WORK_SIZE
    from ..policy.params import N_PARAMS

    rng = np.arange(1, 5, dtype=np.uint64)  # any state but all zeros (which draws only zeros)
    return (
        np.zeros((BOARD_ROWS, N_VALUES), np.int32),
        np.zeros(SEAT_SLOTS, np.int64),
        np.zeros((1, N_PARAMS), np.float64)[0],
        rng,
        np.zeros(WORK_SIZE, np.int64),
        np.zeros(DECK_SIZE, np.int64),
    )


def compile_parts(parts: Sequence[int | str]) -> None:
    """Compile (or load from numba's cache) each part: ``DEAL`` or a policy kind."""
    from leaves import kernels as K

    from .dispatch import POLICIES

    board, sizes, params, rng, work, deck = _loop_args()
    for part in parts:
        if part == DEAL:
            # the loop deals with (int64 players, int64 hand size, literal -1, int64 limit)
            K.deal_unchecked(board, 4, 13, rng, np.int64(-1), 1000, deck)
        else:
            # the loop's seat is a board cell: int32
            POLICIES[int(part)].policy(board, np.int32(0), sizes, params, rng, work)


def split(parts: Sequence[int | str]) -> tuple[list[int | str], list[int | str]]:
    """(this process's share, the child's): the costliest first, each to the less loaded side
    (the child's side starts ``CHILD_START_S`` behind)."""
    mine: list[int | str] = []
    child: list[int | str] = []
    load = [0.0, CHILD_START_S]
    for part in sorted(parts, key=lambda p: -COST_S.get(p, OTHER_S)):
        side = 0 if load[0] <= load[1] else 1
        (mine, child)[side].append(part)
        load[side] += COST_S.get(part, OTHER_S)
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
