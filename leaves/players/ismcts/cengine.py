"""The search's kernels on the C engine (``leaves/players/compiled/csrc/ismcts.h``), through ctypes.

A decision of ``ismcts`` calls four compiled kernels: ``tree.search``,
``inference.refit_models``, ``carry.carry_deal`` and (replaying the history into evidence)
``kernels.apply``, plus the kernel RNG's seeding. The C engine holds the same kernels, step
for step (the same RNG draws, decisions and float64 sums: ``tests/test_ismcts_c.py`` compares
the trees, counters, deals and RNG states), and these functions take the very arguments of
the numba ones (the namedtuples of ``inference`` and ``tree``). ``kernels()`` gives the set a
decision uses: the C one when ``leaves.players.compiled.engine.library()`` is there (nothing is
compiled at first use, and ctypes releases the GIL while a search runs), else numba's.
"""

from __future__ import annotations

import ctypes
import threading
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from gamekit import cbuild
from gamekit.jit import needs_compile
from leaves import kernels as K
from leaves.board import BOARD_ROWS, SEAT_SLOTS
from leaves.rules import N_ACTION_IDS, N_VALUES
from strategies.policy.params import N_PARAMS

from ..compiled import engine
from ..compiled.dispatch import N_KINDS
from .carry import carry_deal as _numba_carry_deal
from .inference import N_STATS
from .inference import refit_models as _numba_refit_models
from .tree import search as _numba_search

__all__ = ["C_KERNELS", "NUMBA_KERNELS", "Kernels", "kernels", "library", "numba_cold", "search",
           "searcher"]  # fmt: skip

_I64 = ctypes.c_int64
_F64 = ctypes.c_double
_PTR = ctypes.c_void_p
_BOARD = (BOARD_ROWS, N_VALUES)

Kernels = namedtuple("Kernels", ["searcher", "refit_models", "carry_deal", "rng_new", "apply"])
"""The compiled calls of one decision, by name: ``searcher(pos, cfg, models, ev, rng, state)``
(``tree.search`` on those arguments as ``run(n_iter)``), ``refit_models`` and ``carry_deal``
(the signatures of ``inference.refit_models`` and ``carry.carry_deal``), ``rng_new(seed)``
(``kernels.rng_new``) and ``apply(board, aid)`` (``kernels.apply``)."""


class _Position(ctypes.Structure):
    _fields_ = [("pub", _PTR), ("seat", _I64), ("sizes", _PTR)]


class _Models(ctypes.Structure):
    _fields_ = [("kinds", _PTR), ("params", _PTR)]


class _Evidence(ctypes.Structure):
    _fields_ = [(f, _PTR) for f in ("boards", "sizes", "seats", "actions", "offsets", "starts")]
    _fields_ += [("n", _I64)]


class _Memo(ctypes.Structure):
    _fields_ = [("keys", _PTR), ("vals", _PTR), ("size", _I64)]


class _Tree(ctypes.Structure):
    _fields_ = [(f, _PTR) for f in ("first_child", "next_sibling", "action", "actor")]
    _fields_ += [(f, _PTR) for f in ("visits", "avail", "total")] + [("capacity", _I64)]


class _Config(ctypes.Structure):
    _fields_ = [
        ("c", _F64),
        ("shaping", _F64),
        ("rollout_depth", _I64),
        ("dealt", _F64),
        ("infer_lambda", _F64),
        ("playouts", _I64),
        ("max_depth", _I64),
        ("model_opponents", _I64),
        ("infer_tries", _I64),
        ("infer_steps", _I64),
        ("stop_early", _I64),
        ("prior_action", _I64),
        ("prior_visits", _F64),
        ("warm_deal", _I64),
        ("widen", _F64),
        ("stop_margin", _F64),
    ]


class _Search(ctypes.Structure):
    _fields_ = [
        ("pos", _Position),
        ("cfg", _Config),
        ("models", _Models),
        ("ev", _Evidence),
        ("rng", _PTR),
        ("tree", _Tree),
        ("stats", _PTR),
        ("deal", _PTR),
        ("memo", _Memo),
    ]


class _Refit(ctypes.Structure):
    _fields_ = [
        ("pos", _Position),
        ("rng", _PTR),
        ("ev", _Evidence),
        ("cand_kinds", _PTR),
        ("cand_params", _PTR),
        ("n_cands", _I64),
        ("tries", _I64),
        ("steps", _I64),
        ("fit", _PTR),
        ("deals", _PTR),
        ("since", _PTR),
        ("warm", _I64),
    ]


_lock = threading.Lock()
_declared: Any = None  # the library whose search exports are declared
_lacking: Any = None  # a library without them


def library() -> ctypes.CDLL | None:
    """The C engine with the search's exports declared, or None (``engine.why_not``; or a
    library built without ``ismcts.h``: then numba searches)."""
    global _declared, _lacking
    lib = engine.library()
    if lib is None or _declared is lib:
        return lib
    if _lacking is lib:
        return None
    with _lock:
        try:
            _declare(lib)
        except AttributeError:  # no search exports in this build
            _lacking = lib
            return None
        _declared = lib
    return lib


def _declare(lib: ctypes.CDLL) -> None:
    lib.engine_ismcts_search.restype = _I64
    lib.engine_ismcts_search.argtypes = [ctypes.POINTER(_Search), _I64]
    lib.engine_ismcts_refit_models.restype = _I64
    lib.engine_ismcts_refit_models.argtypes = [ctypes.POINTER(_Refit)]
    lib.engine_ismcts_carry_deal.restype = None
    lib.engine_ismcts_carry_deal.argtypes = [_PTR, _PTR, _PTR, _I64, _PTR, _PTR, _PTR]
    lib.engine_ismcts_apply.restype = None
    lib.engine_ismcts_apply.argtypes = [_PTR, _I64]
    lib.engine_ismcts_legal.restype = _I64
    lib.engine_ismcts_legal.argtypes = [_PTR, _PTR]
    lib.engine_ismcts_is_legal.restype = _I64
    lib.engine_ismcts_is_legal.argtypes = [_PTR, _I64]
    lib.engine_ismcts_constants.restype = None
    lib.engine_ismcts_constants.argtypes = [_PTR, _PTR]


def _p(a: Any, dtype: Any, shape: tuple | None = None, name: str = "array") -> int:
    """The address of ``a``, checked to be what C reads: a C-contiguous ``dtype`` array (of
    ``shape``): C would read a wrong one silently, or past its end."""
    if not isinstance(a, np.ndarray) or a.dtype != dtype or not a.flags.c_contiguous:
        raise ValueError(f"{name} must be a C-contiguous {np.dtype(dtype)} array")
    if shape is not None and a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    return engine.address(a)


def _position(pub: np.ndarray, seat: int, sizes: np.ndarray) -> _Position:
    return _Position(
        _p(pub, np.int32, _BOARD, "pub"), int(seat), _p(sizes, np.int64, (SEAT_SLOTS,), "sizes")
    )


def _models(models: Any, what: str = "models", shape: tuple | None = (SEAT_SLOTS,)) -> _Models:
    """An ``inference.Models``: one per seat (``shape``), or per candidate (``shape`` None);
    kinds checked, since an unknown kind decides no legal action."""
    kinds, params = models
    ptr = _p(kinds, np.int64, shape, what)
    if kinds.ndim != 1 or kinds.size == 0 or kinds.min() < 0 or kinds.max() >= N_KINDS:
        raise ValueError(f"{what}: policy kinds must be 0..{N_KINDS - 1}, got {kinds}")
    return _Models(ptr, _p(params, np.float64, (kinds.shape[0], N_PARAMS), what))


def _evidence(ev: Any) -> _Evidence:
    e = ev.seats.shape[0]
    return _Evidence(
        _p(ev.boards, np.int32, (e, *_BOARD), "evidence boards"),
        _p(ev.sizes, np.int64, (e, SEAT_SLOTS), "evidence sizes"),
        _p(ev.seats, np.int64, (e,), "evidence seats"),
        _p(ev.actions, np.int64, (e,), "evidence actions"),
        _p(ev.offsets, np.int64, (e, N_VALUES), "evidence offsets"),
        _p(ev.starts, np.int64, (SEAT_SLOTS + 1,), "evidence starts"),
        e,
    )


def _tree(tree: Any) -> _Tree:
    cap = tree.first_child.shape
    ints = [_p(a, np.int64, cap, "tree") for a in tree[:4]]
    floats = [_p(a, np.float64, cap, "tree") for a in tree[4:]]
    return _Tree(*ints, *floats, cap[0])


def _memo(memo: Any) -> _Memo:
    size = memo.keys.shape[0]
    if size & (size - 1):
        raise ValueError(f"a memo's size must be a power of two or 0, got {size}")
    return _Memo(_p(memo.keys, np.int64, (size,)), _p(memo.vals, np.int64, (size,)), size)


def _config(cfg: Any) -> _Config:
    """A ``settings.Config`` field by field (booleans as 0/1), each as its C type."""
    return _Config(
        *(
            float(x) if t is _F64 else int(x)
            for (_, t), x in zip(_Config._fields_, cfg, strict=True)
        )
    )


def searcher(
    pos: Any, cfg: Any, models: Any, ev: Any, rng: Any, state: Any
) -> Callable[[int], None]:
    """``tree.search`` in C on these arguments, as ``run(n_iter)``: each call runs ``n_iter``
    more iterations. A time budget searches in chunks of a few iterations: the arguments are
    checked and converted once, not per chunk."""
    tree, stats, deal, memo = state
    s = _Search(
        _position(*pos),
        _config(cfg),
        _models(models),
        _evidence(ev),
        _p(rng, np.uint64, (4,), "rng"),
        _tree(tree),
        _p(stats, np.int64, (N_STATS,), "stats"),
        _p(deal, np.int32, _BOARD, "deal"),
        _memo(memo),
    )
    lib = library()

    def run(n_iter: int) -> None:
        lib.engine_ismcts_search(ctypes.byref(s), int(n_iter))

    run.arrays = (pos, models, ev, rng, state)  # what the struct points into stays alive
    return run


def search(pos: Any, n_iter: int, cfg: Any, models: Any, ev: Any, rng: Any, state: Any) -> None:
    """``tree.search`` in C: ``n_iter`` iterations growing ``state.tree``."""
    searcher(pos, cfg, models, ev, rng, state)(n_iter)


def _numba_searcher(
    pos: Any, cfg: Any, models: Any, ev: Any, rng: Any, state: Any
) -> Callable[[int], None]:
    """``searcher`` on numba's ``tree.search``."""

    def run(n_iter: int) -> None:
        _numba_search(pos, n_iter, cfg, models, ev, rng, state)

    return run


def refit_models(
    pos: Any, rng: Any, ev: Any, cands: Any, tries: int, steps: int, fit: Any, carry: Any
) -> None:
    """``inference.refit_models`` in C: ``fit[m, p]`` and ``carry.deals[m]`` per candidate."""
    m = cands.kinds.shape[0]
    models = _models(cands, "candidates", None)
    r = _Refit(
        _position(*pos),
        _p(rng, np.uint64, (4,), "rng"),
        _evidence(ev),
        models.kinds,
        models.params,
        m,
        int(tries),
        int(steps),
        _p(fit, np.int64, (m, SEAT_SLOTS), "fit"),
        _p(carry.deals, np.int32, (m, *_BOARD), "carried deals"),
        _p(carry.since, np.int64, (SEAT_SLOTS, N_VALUES), "since"),
        int(bool(carry.warm)),
    )
    if library().engine_ismcts_refit_models(ctypes.byref(r)) != 0:
        raise MemoryError("ismcts: no memory for the model fit's memo")


def carry_deal(old: Any, since: Any, pub: Any, seat: int, sizes: Any, rng: Any, out: Any) -> None:
    """``carry.carry_deal`` in C: ``out`` is a deal of ``pub`` keeping what fits of ``old``."""
    library().engine_ismcts_carry_deal(
        _p(old, np.int32, _BOARD, "old"),
        _p(since, np.int64, (SEAT_SLOTS, N_VALUES), "since"),
        _p(pub, np.int32, _BOARD, "pub"),
        int(seat),
        _p(sizes, np.int64, (SEAT_SLOTS,), "sizes"),
        _p(rng, np.uint64, (4,), "rng"),
        _p(out, np.int32, _BOARD, "out"),
    )


def apply(board: np.ndarray, aid: int) -> None:
    """``kernels.apply`` in C: the legal action ``aid`` on ``board`` in place."""
    library().engine_ismcts_apply(_p(board, np.int32, _BOARD, "board"), int(aid))


def legal_actions(board: np.ndarray, out: np.ndarray) -> int:
    """``kernels.legal_actions`` in C (``out``: int64[N_ACTION_IDS + 8]); how many."""
    return library().engine_ismcts_legal(
        _p(board, np.int32, _BOARD, "board"), _p(out, np.int64, (N_ACTION_IDS + 8,), "out")
    )


def constants() -> tuple[list[int], list[float]]:
    """The C search's constants (``engine_ismcts_constants``), to check against Python's."""
    ints = np.zeros(16, np.int64)
    floats = np.zeros(4, np.float64)
    library().engine_ismcts_constants(ints.ctypes.data, floats.ctypes.data)
    return ints.tolist(), floats.tolist()


C_KERNELS = Kernels(searcher, refit_models, carry_deal, engine.rng_new, apply)
"""The search's kernels in C."""
NUMBA_KERNELS = Kernels(_numba_searcher, _numba_refit_models, _numba_carry_deal, K.rng_new, K.apply)
"""The search's kernels in numba (no C engine, or ``LEAVES_ENGINE=numba``)."""


def numba_cold() -> bool | None:
    """Whether numba's search kernels compile at their first call in this process (None:
    cannot tell): False once its cache holds them for these sources and this machine."""
    searched = (_numba_search, _numba_refit_models, _numba_carry_deal, K.rng_new, K.apply)
    return cbuild.any_cold(needs_compile(k) for k in searched)


def kernels(kinds: Any = ()) -> Kernels:
    """The kernels a decision calls: C's when the engine is there and plays every policy kind
    in ``kinds`` (the search's playout and model kinds), else numba's, said once on stderr
    when they play for want of the C engine and compile first (``Engine.note_fallback``)."""
    if library() is not None and engine.covers(kinds):
        return C_KERNELS
    engine.ENGINE.note_fallback(numba_cold)
    return NUMBA_KERNELS
