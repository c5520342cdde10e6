"""Ligretto's round loop in C (``csrc/``): the rounds of the numba kernels with no compile at
first use, called through ctypes.

It plays the very rounds of ``ligretto.round_loop`` (the same splitmix64 streams in the same
order, the same decisions, the same float64 division per reaction time;
``tests/test_ligretto_c.py`` compares them event by event). ``pip install`` builds it
(``setup.py``), an edited checkout rebuilds it in seconds (``gamekit.cbuild``), and numba is
not even imported. ctypes releases the GIL while a call runs, so threads play in parallel.
Where no library can be had (no C compiler) or with ``LEAVES_ENGINE=numba``, ``library()``
is None, ``why_not()`` says why, and callers run the numba kernels as before; the round loop
(``ligretto.compiled``) and the policies' decision (``ligretto.policy``) say so first, once
a process, where they compile (``ENGINE.note_fallback``).

The functions below take the arguments of the numba entry points they replace
(``round_loop.nb_batch``, ``round_loop.nb_round``, ``policy._decide_seen``,
``rng.nb_stream_seed``, ``gamekit.seeding.mix64``).
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np

from gamekit import cbuild

__all__ = ["available", "batch", "decide_seen", "library", "mix64", "round_", "stream_seed",
           "why_not"]  # fmt: skip

CSRC = Path(__file__).with_name("csrc")
NAME = "_engine"

OK, ERR_ZERO_DIVISION, ERR_BAD_INPUT = 0, 1, 2
"""What an export returns (``csrc/rules.h``)."""
N_PARAMS = 8
"""A policy vector's length (``ligretto.policy.N_PARAMS``; restated: no numba import here)."""

_I64, _U64, _PTR = ctypes.c_int64, ctypes.c_uint64, ctypes.c_void_p


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    lib.ligretto_round.restype = _I64
    lib.ligretto_round.argtypes = [_PTR, _I64, _I64, _U64, _U64, _PTR, _I64, _I64, _PTR]
    lib.ligretto_batch.restype = _I64
    lib.ligretto_batch.argtypes = [_PTR, _I64, _I64, _PTR, _PTR, _I64, _PTR]
    lib.ligretto_decide_seen.restype = _I64
    lib.ligretto_decide_seen.argtypes = [_PTR, _PTR, _I64, _PTR, _I64, _I64, _I64, _I64, _I64,
                                         ctypes.POINTER(_U64), ctypes.POINTER(_I64)]  # fmt: skip
    lib.ligretto_stream_seed.restype = _U64
    lib.ligretto_stream_seed.argtypes = [_U64, _I64, _I64]
    lib.ligretto_mix64.restype = _U64
    lib.ligretto_mix64.argtypes = [_U64]
    return lib


ENGINE = cbuild.Engine(CSRC, NAME, _declare)
"""This engine's library, loaded once (``gamekit.cbuild.Engine``)."""

library, available, why_not = ENGINE.library, ENGINE.available, ENGINE.why_not


def _check(code: int) -> None:
    """numba's exceptions for what the C engine reports instead of raising."""
    if code == ERR_ZERO_DIVISION:  # a speed of 0, or a spread of -1
        raise ZeroDivisionError("division by zero")
    if code != OK:
        raise ValueError("the Ligretto engine takes 2 to 12 seats and a row of 1 to 5")


def _params(params: np.ndarray, n: int) -> np.ndarray:
    """The (n, N_PARAMS) float64 policy matrix C reads, contiguous (a copy when it must be)."""
    p = np.ascontiguousarray(params, dtype=np.float64)
    if p.shape != (n, N_PARAMS):
        raise ValueError(f"the policies must be a ({n}, {N_PARAMS}) matrix, got {p.shape}")
    return p


def _out(out: np.ndarray, shape: tuple[int, ...]) -> int:
    """The address of ``out``, which C writes: int64, C-contiguous, of ``shape``."""
    if out.dtype != np.int64 or not out.flags.c_contiguous or out.shape != shape:
        raise ValueError(f"out must be a C-contiguous int64 array of shape {shape}")
    return out.ctypes.data


def batch(params, n, k, deal_seeds, play_seeds, out) -> None:  # noqa: PLR0917
    """``round_loop.nb_batch``: one round per seed pair into ``out`` (G, 3n + 6) int64."""
    p = _params(params, n)
    deal = np.ascontiguousarray(deal_seeds, dtype=np.uint64)
    play = np.ascontiguousarray(play_seeds, dtype=np.uint64)
    g = deal.shape[0]
    if play.shape != (g,):
        raise ValueError("one play seed per deal seed")
    dst = _out(out, (g, 3 * n + 6))
    _check(library().ligretto_batch(p.ctypes.data, n, k, deal.ctypes.data, play.ctypes.data,
                                    g, dst))  # fmt: skip


def round_(params, n, k, deal_seed, play_seed, ev, record, out) -> None:  # noqa: PLR0917
    """``round_loop.nb_round``: one round into ``out`` (3n + 6) int64, its events into ``ev``
    (rows [time, seat, kind, card, pile], int64) while it has room when ``record``."""
    p = _params(params, n)
    rows = ev.shape[0]
    evp = _out(ev, (rows, 5)) if rows else None
    dst = _out(out, (3 * n + 6,))
    _check(library().ligretto_round(p.ctypes.data, n, k, int(deal_seed), int(play_seed), evp,
                                    rows, bool(record), dst))  # fmt: skip


def decide_seen(params, tops, row, stack_top, hand_top, can_flip, idle, state):  # noqa: PLR0917
    """``policy._decide_seen``: (kind, slot, card, pile, looked, the policy stream's next
    state), or None for a view holding no real cards or a short policy vector (numba's kernel
    decides those)."""
    p = np.ascontiguousarray(params, dtype=np.float64)
    if p.ndim != 1 or p.shape[0] < N_PARAMS:
        return None  # numba's kernel reads what it reads
    t = np.ascontiguousarray(tops, dtype=np.int64)
    r = np.ascontiguousarray(row, dtype=np.int64)
    st = _U64(int(state))
    got = (_I64 * 5)()
    code = library().ligretto_decide_seen(p.ctypes.data, t.ctypes.data, t.shape[0], r.ctypes.data,
                                          r.shape[0], int(stack_top), int(hand_top),
                                          bool(can_flip), int(idle), st, got)  # fmt: skip
    if code != OK:
        return None
    return (*got, st.value)


def stream_seed(seed: int, seat: int, purpose: int) -> int:
    """``rng.nb_stream_seed``: the start state of seat ``seat``'s stream for ``purpose``."""
    return library().ligretto_stream_seed(int(seed), int(seat), int(purpose))


def mix64(z: int) -> int:
    """``gamekit.seeding.mix64`` of one uint64 (a Python int)."""
    return library().ligretto_mix64(int(z))
