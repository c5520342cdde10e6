"""Which kernel decides for a seat: the built-in policies in kind order, and ``decide``.

A policy kind is a built-in's index in ``POLICIES`` (its class attribute ``kind``). Every
kernel has the same signature ``(board, seat, sizes, params, rng, work)``, so ``decide`` is
one plain ``if`` chain a compiled loop can call for any seat. It is written once, in
``loop_template`` (with the loop that calls it); ``decide`` here is that module's, over every
kind. Adding a built-in means adding its class to ``strategies.builtin.BUILTINS`` and one
branch (and one ``playable`` line) there (``tests/test_builtins.py`` checks both agree).

``playable`` is how a loop for some kinds only binds each kernel (``loop_template``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gamekit.jit import njit

from ..builtin import BUILTINS

POLICIES = BUILTINS
"""Every compiled built-in, in kind order (``POLICIES[k].kind == k``)."""
N_KINDS = len(POLICIES)
ALL_KINDS = tuple(range(N_KINDS))

COUNTS = np.array([bool(cls.classifier["uses_card_counting"]) for cls in POLICIES])
"""``COUNTS[k]``: kind ``k`` reads the card counts ``play_to_end`` keeps through a game
(``policy.counting``); a table without such a seat skips keeping them."""

CALLED = ("counter", "weighted")
"""Built-ins a loop built with ``INLINE`` still calls: every other policy's body is inlined
into its ``decide`` (no call per decision, a fifth faster). These two are large."""

for _k, _cls in enumerate(POLICIES):
    if _cls.kind != _k:
        raise RuntimeError(f"{_cls.__name__}.kind is {_cls.kind}, its place in POLICIES is {_k}")

_KIND_OF = {cls.policy.__name__: cls.kind for cls in POLICIES}


@njit(cache=True, inline="always")
def absent(board, seat, sizes, params, rng, work):
    """The kernel of a kind a loop does not play: never asked (a loop plays only batches
    whose kinds it holds), so compiling the loop compiles no policy it does not play."""
    return -1


def playable(kernel: Any, kinds: Sequence[int], inline: bool) -> Any:
    """The kernel a loop for ``kinds`` calls for policy ``kernel``: ``absent`` for a kind not
    in ``kinds``; with ``inline`` a small policy's body is inlined (``CALLED`` stay calls)."""
    cls = POLICIES[_KIND_OF[kernel.__name__]]
    if cls.kind not in kinds:
        return absent
    if inline and cls.name not in CALLED:
        return njit(inline="always")(kernel.py_func)
    return kernel


@njit(cache=True, inline="always")
def skip_count_start(board, work):
    """``counting.count_start`` in a loop none of whose kinds reads the counts."""
    return None


@njit(cache=True, inline="always")
def skip_count_action(board, aid, work):
    """``counting.count_action`` in a loop none of whose kinds reads the counts."""
    return None


# The one ``decide``, over every kind (the template imports the names above first).
from .loop_template import decide  # noqa: E402

__all__ = [
    "ALL_KINDS",
    "CALLED",
    "COUNTS",
    "N_KINDS",
    "POLICIES",
    "absent",
    "decide",
    "playable",
    "skip_count_action",
    "skip_count_start",
]
