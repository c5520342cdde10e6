"""tournaments: round-robin tournaments of many games, in parallel, streamed to Parquet.

The runner is game-agnostic (``GamePlugin``); the default game is the registry's
(``tournaments.games.DEFAULT_GAME``). The names below are imported on first use (PEP 562): a
report, which reads only a run's declaration (``tournaments.declaration``) and results,
loads neither the runner nor the strategies.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from gamekit.lazy_exports import lazy_exports

_EXPORTS = {
    "Declaration": ".declaration",
    "GameBase": ".game",
    "GamePlugin": ".game",
    "SeatedBatch": ".game",
    "SeatedMatches": ".game",
    "Gauntlet": ".gauntlet",
    "GauntletResult": ".gauntlet",
    "TournamentResult": ".result",
    "load": ".loading",
    "Tournament": ".runner",
    "parse_players": ".schedule",
    "Schedule": ".schedule",
    "make_tables": ".schedule",
    "SEATINGS": ".seating",
    "design": ".seating",
    "derive_seeds": ".seeds",
}

__all__ = [
    "Declaration",
    "GameBase",
    "GamePlugin",
    "SEATINGS",
    "Gauntlet",
    "GauntletResult",
    "Schedule",
    "SeatedBatch",
    "SeatedMatches",
    "Tournament",
    "TournamentResult",
    "derive_seeds",
    "design",
    "gauntlet",
    "load",
    "make_tables",
    "parse_players",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)


class _Package(types.ModuleType):
    """``tournaments.gauntlet`` is the function ``gauntlet.gauntlet``, as it was when this
    package imported its parts at once, though the submodule of that name now loads later
    (and the import system records a loaded submodule as an attribute of its package)."""

    @property
    def gauntlet(self) -> Any:
        return importlib.import_module(f"{__name__}.gauntlet").gauntlet

    @gauntlet.setter
    def gauntlet(self, module: Any) -> None:
        """The import system recording the submodule: the function stays the attribute."""


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:  # what type checkers and editors see
    from .declaration import Declaration
    from .game import GameBase, GamePlugin, SeatedBatch, SeatedMatches
    from .gauntlet import Gauntlet, GauntletResult, gauntlet
    from .loading import load
    from .result import TournamentResult
    from .runner import Tournament
    from .schedule import Schedule, make_tables, parse_players
    from .seating import SEATINGS, design
    from .seeds import derive_seeds
