"""Which kernel decides for a seat: the built-in policies in kind order, and ``decide``.

A policy kind is a built-in's index in ``POLICIES`` (its class attribute ``kind``). Every
kernel has the same signature ``(board, seat, sizes, params, rng, work)``, so ``decide``, one
plain ``if`` chain written from ``BUILTINS`` when this module loads, serves a compiled loop
for any seat: a new built-in needs no line here. The C engine's ``decide``
(``csrc/policies.h``) lists the built-ins that have a C form, in the same order
(``tests/test_engine_c.py`` checks it by name); a table with a seat beyond them plays on
numba.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit

from ..builtin import BUILTINS

__all__ = ["ALL_KINDS", "COUNTS", "N_KINDS", "POLICIES", "decide"]

POLICIES = BUILTINS
"""Every compiled built-in, in kind order (``POLICIES[k].kind == k``)."""

N_KINDS = len(POLICIES)
ALL_KINDS = tuple(range(N_KINDS))

COUNTS = np.array([bool(cls.classifier["uses_card_counting"]) for cls in POLICIES])
"""``COUNTS[k]``: kind ``k`` reads the card counts ``play_to_end`` keeps through a game
(``policy.counting``); a table without such a seat skips keeping them."""


def _chain(n_kinds: int) -> str:
    """The source of ``decide``: one ``if`` per kind, calling ``policy_<kind>``."""
    lines = ["def decide(kind, params, board, seat, sizes, rng, work):"]
    for k in range(n_kinds):
        lines += [
            f"    if kind == {k}:",
            f"        return policy_{k}(board, seat, sizes, params, rng, work)",
        ]
    return "\n".join([*lines, "    return -1", ""])


for _k, _cls in enumerate(POLICIES):
    globals()[f"policy_{_k}"] = _cls.policy
# compiled under this file's name, so numba caches it like any kernel written here
exec(compile(_chain(N_KINDS), __file__, "exec"), globals())  # noqa: S102
decide.__doc__ = """Action id chosen by policy ``kind`` for ``seat`` (the seat to act) on ``board``;
-1 for an unknown kind. ``params`` float64[N_PARAMS]; ``sizes`` int64[SEAT_SLOTS] public hand
sizes; ``rng`` a kernel RNG (only stochastic policies draw from it); ``work``
int64[WORK_SIZE] scratch."""  # noqa: F821 (defined by the exec)
decide = njit(cache=True, inline="always")(decide)  # noqa: F821
