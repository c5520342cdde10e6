"""13 Leaves' players, on the shared players' protocol and registry (``strategies``).

``builtin`` (each built-in heuristic: parameters, numba kernel, class), ``policy`` (the
features and card counting every policy reads the board through), ``compiled`` (the compiled
game loops: dispatch, the C engine, the Python bridge), ``ismcts`` (the search), ``play``
(one game), ``batch`` (games at one table, compiled or Python), ``matches`` (expert matches)
and ``warmup`` (readying the loop a run needs). Each loads on first use: numba and the C
engine only when a game is played.
"""

from __future__ import annotations

from gamekit.lazy_exports import lazy_exports
from strategies.registry import DEFAULT_GAME, ENTRY_POINT_GROUP, declare_game, defer

# the built-ins register on the first use of the registry (they import numba's kernels)
declare_game(DEFAULT_GAME, "13 Leaves", ENTRY_POINT_GROUP, ("leaves.players.builtin",))
# ``ismcts`` loads numba at import: it registers when its name is first asked for
defer("leaves.players.ismcts", ("ismcts",))

__all__ = ["batch", "builtin", "compiled", "ismcts", "matches", "play", "policy", "warmup"]

__getattr__, __dir__ = lazy_exports(__name__, {}, globals(), __all__)
