"""A first compile on two cores: the loop's callees shared with a second process.

numba compiles one function at a time, in one thread, at one to a few CPU-seconds each (most
of it type inference and LLVM), so a first run's loop (the deal, the run's policies, then the
loop itself) takes a core for many seconds while the machine's other cores idle. The loop's
callees do not depend on each other, so ``sharing`` starts a child process that compiles
them into numba's on-disk cache while this process compiles the loop at once. This process
begins with the inner loop (``play_to_end``), whose type inference meets the policies in the
loop's order (the kinds in increasing order), then ``_batch``, which meets the deal; the
child takes them from the other end (the last kind first, the deal last), while this process
runs the loop's front end (bytecode, inlining). Whichever process begins a callee first
claims it (a file created exclusively in a folder both share); the other never compiles it:
the child skips it, this process waits for the child to finish it and loads it from the
cache. Each callee is compiled with exactly the argument types the loop passes it
(``_loop_args``, ``play_to_end_signature``: a differing type would be a second compile),
which a test checks.

Nothing depends on the child: if it fails, is slow or there is one core only, this process
compiles whatever is not claimed or not finished, as it always did.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DEAL", "claim", "compile_parts", "play_to_end_signature", "sharing"]

DEAL = "deal"
"""The part name of the deal (``kernels.deal_unchecked``); policy kinds are the other parts."""

CHILD_TIMEOUT_S = 300
"""Longest wait for the child to finish a callee it claimed (then this process compiles it)."""
POLL_S = 0.01


def _loop_args() -> tuple[np.ndarray, ...]:
    """(board, sizes, params row, rng, work, deck) with the very types the loop passes: its
    own scratch buffers (``loops._buffers``) and a row of its params table."""
    from ..policy.params import N_PARAMS
    from .loops import _buffers

    board, sizes, work, deck, rng = _buffers(1, 4, 1, False)[-5:]
    rng[:] = np.arange(1, 5, dtype=np.uint64)  # any state but all zeros (which draws only zeros)
    return board, sizes, np.zeros((1, N_PARAMS), np.float64)[0], rng, work, deck


def play_to_end_signature() -> tuple[Any, ...]:
    """The argument types ``loops._batch`` calls ``play_to_end`` with (its own buffers, rows
    of its kinds, params and actions tables, and the literal 0 turns)."""
    from numba import typeof, types

    from ..policy.params import N_PARAMS
    from .loops import _buffers

    out = _buffers(1, 4, 1, False)
    actions, board, sizes, work, _, rng = out[6:]
    kinds, params = np.zeros((1, 4), np.int64), np.zeros((1, 4, N_PARAMS), np.float64)
    arrays = (board, kinds[0], params[0], sizes, rng, work, actions[0])
    return (*map(typeof, arrays), types.boolean, types.literal(0))


def _dispatcher(part: int | str) -> Any:
    from leaves import kernels as K

    from .dispatch import POLICIES

    d = K.deal_unchecked if part == DEAL else POLICIES[int(part)].policy
    return getattr(d, "dispatcher", d)  # a class attribute may still hold the lazy kernel


def compile_parts(parts: Sequence[int | str]) -> None:
    """Compile (or load from numba's cache) each part: ``DEAL`` or a policy kind."""
    board, sizes, params, rng, work, deck = _loop_args()
    for part in parts:
        if part == DEAL:
            # the loop deals with int64 players, hand size, first player (-1) and limit
            _dispatcher(DEAL)(board, 4, 13, rng, np.int64(-1), 1000, deck)
        else:
            # the loop's seat is a board cell: int32
            _dispatcher(part)(board, np.int32(0), sizes, params, rng, work)


def claim(folder: Path, part: int | str) -> bool:
    """True when this process is the first to claim ``part`` in ``folder`` (it compiles it)."""
    try:
        os.close(os.open(folder / str(part), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _done(folder: Path, part: int | str) -> Path:
    return folder / f"{part}.done"


def _wait(folder: Path, part: int | str, proc: subprocess.Popen[bytes]) -> None:
    """Wait until the child has finished ``part`` (or stopped, or took too long)."""
    end = time.monotonic() + CHILD_TIMEOUT_S
    while not _done(folder, part).exists() and proc.poll() is None and time.monotonic() < end:
        time.sleep(POLL_S)


def _claiming(
    part: int | str, compile_: Callable[..., Any], folder: Path, proc: subprocess.Popen[bytes]
) -> Callable[..., Any]:
    """A dispatcher's ``compile`` that first claims ``part``, or waits for the child's claim."""
    state = {"first": True}

    def compile(sig: Any) -> Any:
        if state["first"]:
            state["first"] = False
            if not claim(folder, part):
                _wait(folder, part, proc)
        return compile_(sig)  # compiles, or loads what the child put in the cache

    return compile


@contextlib.contextmanager
def sharing(kinds: Sequence[int]) -> Iterator[None]:
    """While the block compiles the loop for ``kinds``, a child process compiles its
    policies from the last kind down, then the deal; the block's compile claims the callees
    it reaches first and loads the rest from numba's cache. One core: no child."""
    parts = [DEAL, *kinds]
    if (os.cpu_count() or 1) < 2:
        yield
        return
    from leaves import jit

    jit.activate()  # the callees must be numba dispatchers to be shared
    folder = Path(tempfile.mkdtemp(prefix="leaves-precompile-"))
    cmd = [sys.executable, "-m", __name__, str(folder), *map(str, reversed(kinds)), DEAL]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:  # cannot start a process: compile everything here
        shutil.rmtree(folder, ignore_errors=True)
        yield
        return
    wrapped = []
    try:
        for part in parts:
            d = _dispatcher(part)
            d.compile = _claiming(part, d.compile, folder, proc)
            wrapped.append(d)
        yield
    finally:
        for d in wrapped:
            with contextlib.suppress(AttributeError):
                del d.compile  # the class's method again
        with contextlib.suppress(OSError):
            for part in parts:  # the child takes no more: every part is claimed
                claim(folder, part)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _main(argv: list[str]) -> None:
    """The child: ``FOLDER PART...``; compiles each part it can claim, in the order given."""
    folder = Path(argv[0])
    for a in argv[1:]:
        part = a if a == DEAL else int(a)
        if not claim(folder, part):
            continue
        compile_parts([part])
        _done(folder, part).touch()


if __name__ == "__main__":
    _main(sys.argv[1:])
