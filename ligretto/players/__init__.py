"""Ligretto strategies: ``LigrettoStrategy``, the built-ins, and round play.

They live in Ligretto's own registry (a name means one thing per game):
``strategies.names(game="ligretto")``, ``strategies.get("cautious:patience=3", game="ligretto")``.
Third-party packages add them through the entry-point group ``leaves.ligretto_strategies``.
"""

from __future__ import annotations

from . import builtin  # noqa: F401 - registers the built-ins
from .base import GAME, LigrettoStrategy
from .play import play_batch, play_round, resolve

__all__ = ["GAME", "LigrettoStrategy", "play_batch", "play_round", "resolve"]
