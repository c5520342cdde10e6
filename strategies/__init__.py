"""strategies: the players' protocol and registry every game shares.

``Player`` is every game's base class (``Strategy``: the default game's); ``get(spec)`` builds
one from a name or spec string, ``names()``/``filtered(**classifier)`` list them,
``declare_game`` keeps a game's registry. ``play_game``/``play_batch``/``play_match_batch``
play the default game (exported from its players' package), ``testing.check_strategy``
checks a user's own strategy.

Importing the package loads the protocol and the registry only (numpy, no game). A game's
registry is declared by its players' package (entry point ``leaves.players``) or its
plug-in, loaded when the game is first asked for; the play functions load when first read.
"""

from __future__ import annotations

from gamekit.lazy_exports import lazy_exports

from .base import Player, Strategy
from .registry import declare_game, defer, filtered, get, names, register

_EXPORTS = {
    "BatchResult": "leaves.players.batch",
    "play_batch": "leaves.players.batch",
    "play_seatings": "leaves.players.batch",
    "MatchBatchResult": "leaves.players.matches",
    "play_match_batch": "leaves.players.matches",
    "GameResult": "leaves.players.play",
    "PublicResult": "leaves.players.play",
    "fresh": "leaves.players.play",
    "play_game": "leaves.players.play",
    "Tunable": ".tunable",
    "spec_with": ".tunable",
    "tunables": ".tunable",
}

__all__ = [
    "BatchResult",
    "GameResult",
    "MatchBatchResult",
    "Player",
    "PublicResult",
    "Strategy",
    "Tunable",
    "declare_game",
    "defer",
    "filtered",
    "fresh",
    "get",
    "names",
    "play_batch",
    "play_game",
    "play_match_batch",
    "play_seatings",
    "register",
    "spec_with",
    "testing",
    "tunables",
]

# ``strategies.testing`` imports hypothesis, ``ismcts`` and ``ligretto`` numba: each loads on
# first use only (any public name that is a submodule does).
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)
