"""A first compile on two cores: the loop's callees shared with a second process.

numba compiles one function at a time, in one thread, at one to a few CPU-seconds each (most
of it type inference and LLVM), so a first run's loop (the deal, the run's policies, then the
loop itself) takes a core for many seconds while the machine's other cores idle. The loop's
callees do not depend on each other, so ``sharing`` starts a child process that compiles
them into numba's on-disk cache while this process compiles the loop at once. This process
begins with the inner loop (``play_to_end``), whose type inference meets the policies in the
loop's order (the kinds in increasing order), then ``play_games``, which meets the deal; the
child takes them from the other end (the last kind first, the deal last), while this process
runs the loop's front end (bytecode, inlining). Whichever process begins a callee first
claims it (a file created exclusively in a folder both share); the other never compiles it:
the child skips it, this process waits for the child to finish it and loads it from the
cache. Each callee is compiled with exactly the argument types the loop passes it
(``_loop_args``, ``play_to_end_signature``: a differing type would be a second compile),
which a test checks.

This process sees numba reach a callee through a hook on the callee's ``compile``
(``numba_internals.compile_hooks``, numba internals); where that cannot be relied on no child
is started.

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

from gamekit import numba_internals

from . import layout

__all__ = ["DEAL", "claim", "compile_parts", "play_to_end_signature", "sharing"]

DEAL = "deal"
"""The part name of the deal (``kernels.deal_unchecked``); policy kinds are the other parts."""

CHILD_TIMEOUT_S = 300
"""Longest wait for the child to finish a callee it claimed (then this process compiles it)."""
POLL_S = 0.01


def _loop_args() -> tuple[np.ndarray, ...]:
    """(board, sizes, params row, rng, work, deck) with the very types the loop passes: its
    own scratch buffers (``layout.Buffers``) and a row of its params table."""
    seats, games, _, buf = layout.example()
    buf.rng[:] = np.arange(1, 5, dtype=np.uint64)  # any state but all zeros (draws only zeros)
    return buf.board, buf.sizes, seats.params[0, 0], buf.rng, buf.work, buf.deck, games.setup


def play_to_end_signature() -> tuple[Any, ...]:
    """The argument types ``loop_template.play_games`` calls ``play_to_end`` with (its own
    buffers, a seating's row of its kinds and params tables as ``Seats``, a row of its
    actions table, and the literal 0 turns)."""
    from numba import typeof, types

    seats, _, out, buf = layout.example()
    row = layout.Seats(seats.kinds[0], seats.params[0])
    arrays = (buf.board, row, buf.sizes, buf.rng, buf.work, out.actions[0])
    return (*map(typeof, arrays), types.boolean, types.literal(0))


def _dispatcher(part: int | str) -> Any:
    from leaves import kernels as K

    from .dispatch import POLICIES

    d = K.deal_unchecked if part == DEAL else POLICIES[int(part)].policy
    return getattr(d, "dispatcher", d)  # a class attribute may still hold the lazy kernel


def compile_parts(parts: Sequence[int | str]) -> None:
    """Compile (or load from numba's cache) each part: ``DEAL`` or a policy kind."""
    board, sizes, params, rng, work, deck, setup = _loop_args()
    for part in parts:
        if part == DEAL:
            # the loop deals with its games' ``Setup`` and an int64 first player (-1)
            _dispatcher(DEAL)(board, setup, rng, np.int64(-1), deck)
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
    part: int | str, folder: Path, proc: subprocess.Popen[bytes]
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrapper of a dispatcher's ``compile`` that first claims ``part``, or waits for the
    child's claim (``numba_internals.compile_hooks``)."""

    def wrap(compile_: Callable[..., Any]) -> Callable[..., Any]:
        state = {"first": True}

        def compile(sig: Any) -> Any:
            if state["first"]:
                state["first"] = False
                if not claim(folder, part):
                    _wait(folder, part, proc)
            return compile_(sig)  # compiles, or loads what the child put in the cache

        return compile

    return wrap


@contextlib.contextmanager
def sharing(kinds: Sequence[int]) -> Iterator[None]:
    """While the block compiles the loop for ``kinds``, a child process compiles its
    policies from the last kind down, then the deal; the block's compile claims the callees
    it reaches first and loads the rest from numba's cache. No child with one core or where
    numba's compiles cannot be hooked (``numba_internals.can_hook_compile``)."""
    parts = [DEAL, *kinds]
    if (os.cpu_count() or 1) < 2:
        yield
        return
    from gamekit import jit

    jit.activate()  # the callees must be numba dispatchers to be shared
    if not numba_internals.can_hook_compile():
        yield
        return
    folder = Path(tempfile.mkdtemp(prefix="leaves-precompile-"))
    cmd = [sys.executable, "-m", __name__, str(folder), *map(str, reversed(kinds)), DEAL]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:  # cannot start a process: compile everything here
        shutil.rmtree(folder, ignore_errors=True)
        yield
        return
    try:
        with numba_internals.compile_hooks(
            {_dispatcher(part): _claiming(part, folder, proc) for part in parts}
        ):
            yield
    finally:
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
