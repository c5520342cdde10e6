"""Why the registry holds no strategies of a game, in words: a game no one installed, or an
installed game whose plug-in keeps no registry of strategies (it names its entrants itself),
kept apart from ``strategies.registry``, which finds strategies."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Collection

__all__ = ["no_registry"]


def no_registry(game: str, kept: Collection[str], load: Callable[[str], None],
                groups: tuple[str, str]) -> str:  # fmt: skip
    """The line refusing a registry lookup in ``game``, which keeps none among ``kept`` (the
    games whose registries are kept). ``groups``: the entry-point groups of the games' players
    and of their plug-ins; ``load`` loads an installed game's registry, as a lookup does. A
    plug-in installed under ``game`` that loads and declares no registry (nor players of its
    own, which would have declared it) is said to keep none, with how a run names its entrants
    (its own ``resolve`` reads each spec, as ``tournaments.game.GamePlugin`` says); another
    game is unknown, the games that keep a registry offered (every installed one loaded to
    find them: said only on this error)."""
    players = importlib.metadata.entry_points(group=groups[0], name=game)
    plugin = None if players else _plugin(game, groups[1])  # players declared: they failed
    if plugin is not None:
        title = getattr(plugin, "title", game)
        return (f"game {game!r} ({title}) keeps no registry of strategies: its plug-in names "
                "its entrants itself, each spec read by its resolve (tournaments.games."
                f"get_game({game!r}).resolve(spec) gives the label a run plays), so there is "
                "no strategy to build")  # fmt: skip
    installed = {ep.name for g in groups for ep in importlib.metadata.entry_points(group=g)}
    for other in sorted(installed - set(kept)):
        load(other)
    if not kept:
        return f"unknown game {game!r}: no installed game keeps a registry of strategies"
    return f"unknown game {game!r}: choose one of {', '.join(sorted(kept))}"


def _plugin(game: str, group: str) -> object | None:
    """The plug-in installed under ``game`` in ``group``, loaded; None where none is, or where
    it cannot load (then the game is unknown here, as the registry's load found it)."""
    for ep in importlib.metadata.entry_points(group=group, name=game):
        try:
            return ep.load()
        except Exception:  # noqa: BLE001 - the caller says the game is unknown
            return None
    return None
