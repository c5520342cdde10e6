"""The compiled side of the built-in strategies: dispatch, game loops and the Python bridge.

Every built-in is ONE numba policy kernel (in its module under ``leaves.players.builtin``) over
the board array (``leaves.board``) and a float64 parameter vector laid out by its
``declare(...)`` (``strategies.policy.params``). A policy reads only what its seat may know:
its own hand row, the public rows (table, removed, known) and META, plus ``sizes`` (every
seat's public hand size). It never reads another hand or the undealt row, so:

* ``dispatch.decide`` picks the kernel by kind; the compiled loops (``loops``) play whole
  batches of games between any built-ins with it, and ``ismcts`` plays its playouts with it;
  the same loop and policies in C (``engine``, ``csrc/``) play the same games without a
  compile (``docs/architecture.md``, "How the games loop is compiled");
* ``bridge.decide_view`` calls the same kernel on ``leaves.board.public_board(view)`` for a
  built-in's Python ``choose``, so both paths decide alike.
"""

from __future__ import annotations

from strategies.policy.params import N_PARAMS

from ..policy.features import WORK_SIZE
from .bridge import decide_view
from .dispatch import N_KINDS, POLICIES, decide
from .loops import play_batch_compiled, play_batch_compiled_records, play_to_end, track_size

__all__ = [
    "N_KINDS",
    "N_PARAMS",
    "POLICIES",
    "WORK_SIZE",
    "decide",
    "decide_view",
    "play_batch_compiled",
    "play_batch_compiled_records",
    "play_to_end",
    "track_size",
]
