"""tournaments: round-robin tournaments of many games, in parallel, streamed to Parquet.

The runner is game-agnostic (``GamePlugin``); the default game is the registry's
(``tournaments.games``: 13 Leaves).
"""

from __future__ import annotations

from .declaration import Declaration
from .game import GameBase, GamePlugin, SeatedBatch, SeatedMatches
from .gauntlet import Gauntlet, GauntletResult, gauntlet
from .result import TournamentResult, load
from .runner import Tournament, parse_players
from .schedule import Schedule, make_tables
from .seating import SEATINGS, design
from .seeds import derive_seeds

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
