"""The games loop in C (``csrc/``): the built-in policies, the deal and the rules of a turn,
compiled by the install, called through ctypes.

It plays the very games of the numba kernels (the same RNG streams, decisions and float64
scores; ``tests/test_engine_c.py`` compares them game by game), with no compile at first
use: ``pip install`` builds it (``setup.py``), and an edited checkout rebuilds it in seconds
(``gamekit.cbuild``). ctypes releases the GIL while a call runs, so a run plays in threads.
Where no library can be had (no C compiler) or with ``LEAVES_ENGINE=numba``, ``library()``
is None and the loops run on numba (``loops``), which says why once.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np

from gamekit import cbuild
from gamekit.seeding import splitmix64
from leaves.board import BOARD_ROWS
from leaves.rules import N_VALUES

from .dispatch import POLICIES

__all__ = [
    "address",
    "available",
    "covers",
    "deal",
    "decide",
    "library",
    "play_games",
    "play_to_end",
    "kinds",
    "random_games",
    "rng_new",
    "why_not",
]

CSRC = Path(__file__).with_name("csrc")
NAME = "_engine"

_I64 = ctypes.c_int64
_PTR = ctypes.c_void_p


class _Setup(ctypes.Structure):
    _fields_ = [
        ("n_players", _I64),
        ("hand_size", _I64),
        ("turn_limit", _I64),
        ("flags", _I64),
        ("n_cards", _I64),
        ("cards", _PTR),
        ("copies", _PTR),
    ]


class _Batch(ctypes.Structure):
    _fields_ = [
        ("n_games", _I64),
        ("n_players", _I64),
        ("kinds", _PTR),
        ("params", _PTR),
        ("seating", _PTR),
        ("deal_seeds", _PTR),
        ("play_seeds", _PTR),
        ("setup", _Setup),
        ("record_stride", _I64),
        ("first", _PTR),
        ("left", _PTR),
        ("winner", _PTR),
        ("turns", _PTR),
        ("rounds", _PTR),
        ("unfinished", _PTR),
        ("actions", _PTR),
    ]


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    lib.engine_play_games.restype = _I64
    lib.engine_play_games.argtypes = [ctypes.POINTER(_Batch)]
    lib.engine_decide.restype = _I64
    lib.engine_decide.argtypes = [_I64, _PTR, _PTR, _I64, _PTR, _PTR, _PTR]
    lib.engine_play_to_end.restype = _I64
    lib.engine_play_to_end.argtypes = [_PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _I64]
    lib.engine_deal.restype = None
    lib.engine_deal.argtypes = [_PTR, ctypes.POINTER(_Setup), _PTR, _I64]
    lib.engine_random_games.restype = None
    lib.engine_random_games.argtypes = [
        ctypes.POINTER(_Setup),
        _I64,
        ctypes.c_uint64,
        _PTR,
        _PTR,
        _PTR,
    ]
    lib.engine_rng_new.restype = None
    lib.engine_rng_new.argtypes = [ctypes.c_uint64, _PTR]
    lib.engine_n_kinds.restype = _I64
    lib.engine_kind_name.restype = ctypes.c_char_p
    lib.engine_kind_name.argtypes = [_I64]
    return lib


ENGINE = cbuild.Engine(CSRC, NAME, _declare)
"""This engine's library, loaded once (``gamekit.cbuild.Engine``)."""

library, available, why_not = ENGINE.library, ENGINE.available, ENGINE.why_not


_kinds: int | None = None


def kinds() -> int:
    """How many policy kinds, from kind 0, the C engine plays: the leading built-ins of
    ``BUILTINS`` whose C form it has (``csrc/policies.h``), matched by name. 0 without it."""
    global _kinds
    if _kinds is None:
        lib = library()
        names = (
            [] if lib is None else [lib.engine_kind_name(k) for k in range(lib.engine_n_kinds())]
        )
        matched = 0
        for cls, name in zip(POLICIES, names, strict=False):
            if cls.name.encode() != name:
                break
            matched += 1
        _kinds = matched
    return _kinds


def covers(kinds_used: Any) -> bool:
    """True when the C engine plays every policy kind in ``kinds_used`` (an int or array):
    else the numba kernels play them (a built-in without a C form yet)."""
    used = np.asarray(kinds_used)
    return available() and (used.size == 0 or int(used.max()) < kinds())


_from_buffer = ctypes.c_char.from_buffer


def address(a: np.ndarray) -> int:
    """The address of ``a``'s data (C-contiguous): the caller must hold ``a`` until the call
    returns. Read through a ctypes view of its buffer (measured: a third of the time of
    ``a.ctypes.data``, which builds a helper object at each call; a search decision passes
    some forty arrays); an empty or read-only array, which that view refuses, takes that way."""
    try:
        return ctypes.addressof(_from_buffer(a))
    except (TypeError, ValueError):
        return a.ctypes.data


_p = address  # the short name of the calls below


def _setup(setup: Any) -> _Setup:
    """A ``leaves.deal_kernels.Setup`` as the C struct (its arrays must outlive the call)."""
    return _Setup(
        setup.n_players,
        setup.hand_size,
        setup.turn_limit,
        setup.flags,
        setup.cards.shape[0],
        _p(setup.cards),
        _p(setup.copies),
    )


def play_games(seats: Any, games: Any, out: Any, buf: Any = None) -> int:
    """``loops._batch`` over the same ``layout`` structures (``buf`` unused: the
    C loop keeps its scratch on its stack). Arrays must be contiguous, of ``layout``'s types."""
    kinds, params = seats
    record = bool(games.record)
    batch = _Batch(
        games.deal_seeds.shape[0],
        kinds.shape[1],
        _p(kinds),
        _p(params),
        _p(games.seating),
        _p(games.deal_seeds),
        _p(games.play_seeds),
        _setup(games.setup),
        out.actions.shape[1] if record else 0,
        _p(out.first),
        _p(out.left),
        _p(out.winner),
        _p(out.turns),
        _p(out.rounds),
        _p(out.unfinished),
        _p(out.actions),
    )
    return library().engine_play_games(ctypes.byref(batch))


_RNG_WORDS = np.arange(4, dtype=np.uint64)
"""The output indices of splitmix64 that make a kernel RNG's state."""


def rng_new(seed: int) -> np.ndarray:
    """``kernels.rng_new(seed)`` without numba: the xoshiro256** state from splitmix64, seeded
    by the C engine where it is built (measured: a fifth of the time of numpy's four words;
    every decision from a view seeds one, a search decision two or three)."""
    lib = library()
    if lib is None:
        return splitmix64(int(seed) & 0xFFFFFFFFFFFFFFFF, _RNG_WORDS)
    rng = np.empty(4, np.uint64)
    lib.engine_rng_new(int(seed) & 0xFFFFFFFFFFFFFFFF, address(rng))
    return rng


def deal(setup: Any, seed: int, first_player: int = -1) -> np.ndarray:
    """``deal_kernels.deal_board``'s board for a ``Setup`` and a deal seed, dealt in C."""
    board = np.zeros((BOARD_ROWS, N_VALUES), np.int32)
    rng = rng_new(seed)  # held here: C reads it during the call (an address keeps nothing alive)
    library().engine_deal(_p(board), ctypes.byref(_setup(setup)), _p(rng), first_player)
    return board


def decide(kind, params, board, seat, sizes, rng, work) -> int:  # noqa: PLR0917
    """``dispatch.decide``: the action id policy ``kind`` chooses for ``seat`` on ``board``."""
    return library().engine_decide(
        int(kind), _p(params), _p(board), int(seat), _p(sizes), _p(rng), _p(work)
    )


def play_to_end(board, kinds, params, sizes, rng, work, rec, turns) -> int:  # noqa: PLR0917
    """``loops.play_to_end`` at one table: ``kinds`` int64 (n,), ``params`` float64 (n,
    N_PARAMS); ``rec`` an int8 row for the actions, or None."""
    return library().engine_play_to_end(
        _p(board), _p(kinds), _p(params), _p(sizes), _p(rng), _p(work),
        None if rec is None else _p(rec), int(turns),
    )  # fmt: skip


def random_games(setup: Any, n_games: int, seed: int) -> tuple[np.ndarray, ...]:
    """``kernels.random_games`` under ``setup``: (turns, rounds, winners), int64 each."""
    turns, rounds, winners = (np.empty(n_games, np.int64) for _ in range(3))
    library().engine_random_games(
        ctypes.byref(_setup(setup)), n_games, seed, _p(turns), _p(rounds), _p(winners)
    )
    return turns, rounds, winners
