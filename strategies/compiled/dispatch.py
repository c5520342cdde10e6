"""Which kernel decides for a seat: the built-in policies in kind order, and ``decide``.

A policy kind is a built-in's index in ``POLICIES`` (its class attribute ``kind``). Every
kernel has the same signature ``(board, seat, sizes, params, rng, work)``, so ``decide`` is
one plain ``if`` chain a compiled loop can call for any seat. The C engine's ``decide``
(``csrc/policies.h``) is the same chain in the same order; adding a built-in means its class
in ``strategies.builtin.BUILTINS``, one branch here and one there
(``tests/test_builtins.py`` and ``tests/test_engine_c.py`` check they agree).
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit

from ..builtin import BUILTINS
from ..builtin.counter import policy_counter
from ..builtin.random_ import policy_random
from ..builtin.simple import (
    policy_blocker,
    policy_greedy,
    policy_high,
    policy_low,
    policy_minimal,
    policy_patient,
)
from ..builtin.taker import policy_taker
from ..builtin.weighted import policy_weighted

__all__ = ["ALL_KINDS", "COUNTS", "N_KINDS", "POLICIES", "decide"]

POLICIES = BUILTINS
"""Every compiled built-in, in kind order (``POLICIES[k].kind == k``)."""

N_KINDS = len(POLICIES)
ALL_KINDS = tuple(range(N_KINDS))

COUNTS = np.array([bool(cls.classifier["uses_card_counting"]) for cls in POLICIES])
"""``COUNTS[k]``: kind ``k`` reads the card counts ``play_to_end`` keeps through a game
(``policy.counting``); a table without such a seat skips keeping them."""

for _k, _cls in enumerate(POLICIES):
    if _cls.kind != _k:
        raise RuntimeError(f"{_cls.__name__}.kind is {_cls.kind}, its place in POLICIES is {_k}")


@njit(cache=True, inline="always")
def decide(kind, params, board, seat, sizes, rng, work):
    """Action id chosen by policy ``kind`` for ``seat`` (the seat to act) on ``board``.

    ``params`` float64[N_PARAMS]; ``sizes`` int64[SEAT_SLOTS] public hand sizes; ``rng`` a
    kernel RNG (only stochastic policies draw from it); ``work`` int64[WORK_SIZE] scratch.
    """
    if kind == 0:
        return policy_random(board, seat, sizes, params, rng, work)
    if kind == 1:
        return policy_low(board, seat, sizes, params, rng, work)
    if kind == 2:
        return policy_high(board, seat, sizes, params, rng, work)
    if kind == 3:
        return policy_minimal(board, seat, sizes, params, rng, work)
    if kind == 4:
        return policy_greedy(board, seat, sizes, params, rng, work)
    if kind == 5:
        return policy_patient(board, seat, sizes, params, rng, work)
    if kind == 6:
        return policy_blocker(board, seat, sizes, params, rng, work)
    if kind == 7:
        return policy_counter(board, seat, sizes, params, rng, work)
    if kind == 8:
        return policy_taker(board, seat, sizes, params, rng, work)
    if kind == 9:
        return policy_weighted(board, seat, sizes, params, rng, work)
    return -1
