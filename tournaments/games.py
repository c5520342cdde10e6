"""Games as plug-ins: the entry-point group ``leaves.games``.

A game package registers its ``GamePlugin`` class under the game's id, the ``name`` its class
declares (``name = "package.module:Class"``); ``get_game(name, **settings)`` builds one with
its options (the keywords its ``options`` declare). This project's own games register the
same way.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import importlib.metadata
from typing import Any

from gamekit.errors import shown
from strategies.registry import DEFAULT_GAME, GAME_GROUP
from strategies.user_code import exited, failure  # how --load says a module's error: one source

from .declaration import MAX_SEATS
from .game import Declaration, GamePlugin
from .manifest_fields import check_fields

__all__ = [
    "GAME_GROUP", "DEFAULT_GAME", "game_names", "get_game", "game_class",
    "load_spec", "names_game", "plugin_class", "run_game",
]  # fmt: skip


@functools.cache
def _entry_points() -> dict[str, tuple[Any, ...]]:
    """The installed games: each id's entry points, one each class it names (two where two
    distributions install the id: ``_installed`` refuses it). Scanning every distribution's
    metadata takes a few milliseconds: once a process; ``_entry_points.cache_clear()`` after
    installing one at run time."""
    found: dict[str, tuple[Any, ...]] = {}
    for ep in importlib.metadata.entry_points(group=GAME_GROUP):
        held = found.get(ep.name, ())
        if ep.value not in (other.value for other in held):
            found[ep.name] = (*held, ep)
    return found


def _by(ep: Any) -> str:
    """An entry point as a message names it: its class and the distribution that installs it."""
    dist = getattr(getattr(ep, "dist", None), "name", None)
    return f"{ep.value}" + (f" (distribution {dist})" if dist else "")


def _installed(name: str) -> type:
    """The class installed as ``name``, refused (ValueError, one line naming both) where two
    distributions install that id, or the class names itself otherwise: a run would record
    one game and play another."""
    ep, *others = _entry_points()[name]
    if others:
        raise ValueError(f"game {name!r} is installed twice, as {_by(ep)} and as "
                         f"{_by(others[0])}: uninstall one")  # fmt: skip
    try:
        cls = ep.load()
    except Exception as exc:
        raise ValueError(f"cannot load game {name!r}: {type(exc).__name__}: {exc}") from exc
    own = getattr(cls, "name", None)
    if own != name:
        raise ValueError(f"game {name!r} is installed as {_by(ep)}, whose name is "
                         f"{shown(own, typed=False)}: the id must be the class's name")  # fmt: skip
    return cls


def game_names() -> list[str]:
    """Installed games, sorted."""
    return sorted(_entry_points())


def game_class(name: str) -> type:
    """The plug-in class registered as ``name`` (or that names ``name`` among its
    ``former_names``: runs recorded before a game's id changed); unknown names, an id two
    distributions install and a class whose ``name`` is not its id get a one-line error."""
    eps = _entry_points()
    if name not in eps:
        for other in eps:
            try:
                cls = _installed(other)
            except ValueError:  # a broken plug-in is not the one asked for
                continue
            if name in getattr(cls, "former_names", ()):
                return _seated(cls, name)
        lower = {other.lower(): other for other in eps}  # an id in capitals is near it too
        close = difflib.get_close_matches(name.lower(), list(lower), n=1)
        hint = f"; did you mean {lower[close[0]]!r}?" if close else ""
        raise ValueError(f"unknown game {name!r}{hint} (installed: {', '.join(sorted(eps))})")
    return _seated(_installed(name), name)


def setting_note(name: str) -> str:
    """What the help of the setting ``name`` ends with where an installed game does not
    declare it (" A setting of Toy only."): the flag is listed whatever game is asked for,
    and that other game refuses it. A plug-in that cannot load counts for neither."""
    titles, others = [], 0
    for game in game_names():
        try:
            cls = game_class(game)
        except ValueError:  # said where its options are left out
            continue
        if any(o.name == name for o in getattr(cls, "options", ())):
            titles.append(getattr(cls, "title", game))
        else:
            others += 1
    return f" A setting of {' and '.join(titles)} only." if others and titles else ""


def _seated(cls: type, name: str) -> type:
    """``cls``, refused (ValueError) where it declares more seats than ``MAX_SEATS``."""
    most = getattr(cls, "max_players", 0)
    if isinstance(most, int) and most > MAX_SEATS:
        raise ValueError(
            f"game {name!r} declares max_players {most}: at most {MAX_SEATS} "
            f"seats a table (a win tied among them is split exactly)"
        )
    return cls


GAME_METHODS = ("config", "versions", "resolve", "play", "play_matches")
"""Methods every game plug-in class defines (``tournaments.plugin.GamePlugin``)."""


def plugin_class(spec: str) -> type:
    """The class a game spec names: an installed game's id (or former name), or
    ``module:Class`` (a game that is not installed, e.g. a test's, or a variant of an installed
    one: a subclass of its class). ValueError in one line where it cannot load, whatever its
    module raised or exited with."""
    if ":" not in spec:
        return game_class(spec)
    module, _, attr = spec.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr or "Game")
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load {spec!r}: {exc}") from None
    except SystemExit as exc:  # would end the command in silence, with the module's code
        why = exited(exc, "a game's module")
        raise ValueError(f"cannot load {spec!r}: {why}") from None
    except Exception as exc:  # noqa: BLE001 - any error of the module's own code: one line
        raise ValueError(f"cannot load {spec!r}: {failure(exc)}") from None
    if not (isinstance(cls, type) and all(callable(getattr(cls, m, None)) for m in GAME_METHODS)
            and isinstance(getattr(cls, "name", None), str)):  # fmt: skip
        # a record or manifest names it: never call what is not a game (``os:system``)
        raise ValueError(f"cannot load {spec!r}: not a game plug-in class (a GamePlugin "
                         f"with a name and {', '.join(GAME_METHODS)})")  # fmt: skip
    _own_name(cls, spec)
    return _seated(cls, spec)


def _own_name(cls: type, spec: str) -> None:
    """Refuse (ValueError, one line naming both) the class ``spec`` loads where its ``name``
    is an installed game's id but it is neither that game's class nor a variant of it (a
    subclass): the run would take the other game's strategies and record the other game."""
    name = cls.name  # type: ignore[attr-defined]
    if name not in _entry_points():
        return
    try:
        installed = _installed(name)
    except ValueError:
        installed = None
    if installed is None or not issubclass(cls, installed):
        other = _by(_entry_points()[name][0])
        raise ValueError(f"cannot load {spec!r}: its name {name!r} is the id of the installed "
                         f"game {other}: give it a name of its own")  # fmt: skip


def load_spec(game: Any) -> str:
    """How ``plugin_class`` loads ``game``'s class again (a run records it): the id it is
    installed under, else its ``module:Class`` (a game that is not installed, e.g. a test's)."""
    cls, name = type(game), getattr(type(game), "name", None)
    with contextlib.suppress(Exception):  # a broken plug-in of that id is not this game
        if name in _entry_points() and _installed(name) is cls:
            return name
    return f"{cls.__module__}:{cls.__qualname__}"


def names_game(cls: type, stored: Any) -> bool:
    """Does ``stored`` (a run's game, as its manifest names it) name the game class ``cls``:
    its id, a former one, or a ``module:Class`` that loads ``cls``."""
    if not isinstance(stored, str):
        return False
    named = getattr(cls, "named", None)
    if named(stored) if named is not None else stored == getattr(cls, "name", None):
        return True
    try:
        return ":" in stored and plugin_class(stored) is cls
    except ValueError:
        return False


def run_game(manifest: dict[str, Any]) -> str:
    """How the game of the run whose manifest is ``manifest`` loads again, as every command
    that opens the run finds it: the ``game_spec`` the manifest records where that loads the
    game its spec names (``spec.game``, the game's id; a game given as ``module:Class``, not
    installed), else that id (an older run's, which recorded no ``game_spec``). ValueError in
    ``check_manifest``'s words where the spec names no game, or ``game_spec`` is no text."""
    check_fields(manifest, spec=("game",), top=("game_spec",))
    stored, source = manifest["spec"]["game"], manifest.get("game_spec")
    if source is None or source == stored:
        return stored
    try:
        cls = plugin_class(source)
    except ValueError:
        return source  # what cannot load it is what the command says
    return source if names_game(cls, stored) else stored


def get_game(name: str = DEFAULT_GAME, **options: Any) -> GamePlugin:
    """An instance of game ``name`` with ``options`` (e.g. ``turn_limit``, ``rounds``)."""
    game = game_class(name)(**options)
    try:
        ok = isinstance(game, GamePlugin) and Declaration.of(game) is not None
    except AttributeError as exc:  # a declaration attribute missing
        raise ValueError(f"game {name!r} does not declare {exc.name!r}") from None
    if not ok:
        raise ValueError(f"game {name!r} does not implement tournaments.game.GamePlugin")
    return game
