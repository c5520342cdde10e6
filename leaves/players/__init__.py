"""13 Leaves' players, on the shared players' protocol and registry (``strategies``).

``builtin`` (each built-in heuristic: parameters, numba kernel, class), ``policy`` (the
features and card counting every policy reads the board through), ``compiled`` (the compiled
game loops: dispatch, the C engine, the Python bridge), ``ismcts`` (the search), ``play``
(one game), ``batch`` (games at one table, compiled or Python), ``matches`` (expert matches),
``warmup`` (readying the loop a run needs) and ``testing`` (``check_strategy``, the
conformance check of a strategy). Each loads on first use: numba and the C
engine only when a game is played.
"""

from __future__ import annotations

from gamekit.lazy_exports import lazy_exports
from strategies.registry import declare_game, defer

GAME = "leaves"
"""This game's id: its registry, entry points, ``--game`` and manifests name it so."""
ENTRY_POINT_GROUP = "leaves.strategies"
"""Where third-party strategies of this game install (``name = "package.module:Class"``)."""

# the built-ins register on the first use of the registry (they import numba's kernels)
declare_game(GAME, "13 Leaves", ENTRY_POINT_GROUP, ("leaves.players.builtin",))
# ``ismcts`` loads numba at import: it registers when its name is first asked for
defer("leaves.players.ismcts", ("ismcts",))

_EXPORTS = {
    "Strategy": ".base",
    "BatchResult": ".batch",
    "play_batch": ".batch",
    "play_seatings": ".batch",
    "MatchBatchResult": ".matches",
    "play_match_batch": ".matches",
    "GameResult": ".play",
    "PublicResult": ".play",
    "fresh": ".play",
    "play_game": ".play",
}

SHARED = tuple(_EXPORTS)
"""What ``strategies`` offers of this game's players while it is the default game
(``strategies.Strategy``, ``strategies.play_game``, ...)."""

__all__ = [*_EXPORTS, "base", "batch", "builtin", "compiled", "ismcts", "matches", "play",
           "policy", "testing", "warmup"]  # fmt: skip

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)
