"""Open a run directory as the result its manifest names: a gauntlet's or a tournament's.

Apart from ``result``, so the results module need not know the gauntlet, which builds on it.
"""

from __future__ import annotations

from pathlib import Path

from .checks import path
from .gauntlet import GauntletResult
from .result import TournamentResult

__all__ = ["load"]


def load(out: str | Path) -> TournamentResult:
    """Open the results of a run directory (complete or not); an empty name ('') is refused
    (``checks.path``), not read as the current folder."""
    out = path(out, "out")
    res = TournamentResult(out)
    if "gauntlet" in res.spec:
        return GauntletResult(out)
    return res
