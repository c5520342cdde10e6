"""strategies: the players' protocol and registry every game shares.

``Player`` is every game's base class; ``get(spec)`` builds one from a name or spec string,
``names()``/``filtered(**classifier)`` list them (``listing()`` marks those that cannot
load), ``declare_game`` keeps a game's registry,
``tunables``/``spec_with`` read and write a strategy's tunable parameters.

The default game's players share their base class and play functions through this package
too (``strategies.Strategy``, ``strategies.play_game``, ...): each name its players' module
lists in ``SHARED``, read on first use from the module its entry point (``leaves.players``)
names.

Importing the package loads the protocol and the registry only (numpy, no game). A game's
registry is declared by its players' package (entry point ``leaves.players``) or its
plug-in, loaded when the game is first asked for.
"""

from __future__ import annotations

from typing import Any

from gamekit.lazy_exports import lazy_exports

from .base import Player
from .registry import (
    DEFAULT_GAME,
    declare_game,
    defer,
    filtered,
    get,
    listing,
    names,
    players_module,
    register,
)

_EXPORTS = {
    "Tunable": ".tunable",
    "spec_with": ".tunable",
    "tunables": ".tunable",
}

__all__ = [
    "Player",
    "Tunable",
    "declare_game",
    "defer",
    "filtered",
    "get",
    "listing",
    "names",
    "register",
    "spec_with",
    "tunables",
]

_own, _own_dir = lazy_exports(__name__, _EXPORTS, globals(), __all__)


def __getattr__(name: str) -> Any:
    """One of this package's names (PEP 562: loaded on first use), else one the default
    game's players share through it (their module's ``SHARED``)."""
    try:
        return _own(name)
    except AttributeError:
        if name.startswith("_"):  # a tool probing for a private name loads no game
            raise
        players = players_module(DEFAULT_GAME)
        if players is None or name not in getattr(players, "SHARED", ()):
            raise
    value = getattr(players, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    players = players_module(DEFAULT_GAME)
    return sorted(set(_own_dir()) | set(getattr(players, "SHARED", ())))
