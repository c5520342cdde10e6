"""Finding strategies by name: the registry, spec strings, entry points and user files.

A spec names a strategy and optionally its parameters:

- ``"greedy"``, ``"taker:group_weight=2.5,harm_weight=0.5"`` or the label form
  ``"greedy(keep_pairs=True)"``
- ``"path/to/file.py:ClassName"`` or ``"package.module:ClassName"`` (``Outer.ClassName``: a
  class defined in another), optionally followed by ``":k=v,..."`` or ``"(k=v,...)"``

Values are read as bool (true/false/yes/no), None, int, float, a quoted string, or else a plain
string. Third-party packages add strategies through the entry-point group each game declares
(``name = "package.module:ClassName"``), imported on use (``listing()`` says which cannot load).

Registries are kept per game (``declare_game``), so a name means one thing per game. A game's
registry is declared by its players' package (entry-point group ``leaves.players``) or by its
plug-in (``leaves.games``): the registry loads it when the game is first asked for. A strategy
class (a ``Player``, through its game's own base class) says its game in ``game``. Modules that
load numba at import register when first needed (``defer``).

Over 400 lines because it is one job: turning what a user writes into a strategy class (files
and modules are imported by ``strategies.user_code``, classes built by ``strategies.building``).
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.metadata
import re
import sys
import warnings
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from gamekit.errors import ParameterError

from .base import CLASSIFIER_KEYS, Player, check_name
from .building import _plain, build
from .registry_errors import no_registry
from .spec_values import FLAG_WORDS, parse_params, parse_value, split_label
from .user_code import USER_MODULE, defined, forget, load_class, load_file, unregister_with

GAME_GROUP = "leaves.games"
"""The entry-point group of installed games (``tournaments.games`` reads it)."""
PLAYERS_GROUP = "leaves.players"
"""The entry-point group of the modules that declare a game's registry (game id -> module),
loaded when the game is first asked for; a game without one declares it in its plug-in."""
DEFAULT_GAME = "leaves"
"""The game a call or command plays when it names none: the project's first game, found like
any other through its entry points. The one place the shared layers name a game (the runner's
``tournaments.games.DEFAULT_GAME`` is this one)."""

_REGISTRIES: dict[str, dict[str, type[Player]]] = {}
_GROUPS: dict[str, str] = {}  # game -> the entry-point group of its strategies
_TITLES: dict[str, str] = {}  # game -> its title in messages
_DEFERRED: dict[str, dict[str, tuple[str, ...]]] = {}
"""Per game, modules whose strategies register when first needed: module -> the names it
registers (empty: any use of the game's registry imports it)."""


def declare_game(game: str, title: str, group: str, deferred: tuple[str, ...] = ()) -> None:
    """Keep a registry for ``game`` (its id, as its plug-in declares it): strategies whose
    class says ``game = ...`` register there, ``group`` is the entry-point group third-party
    strategies of it install under, and ``deferred`` modules register its built-ins when the
    registry is first used. Declaring a game twice keeps what it holds."""
    _REGISTRIES.setdefault(game, {})
    _DEFERRED.setdefault(game, {})
    _GROUPS[game], _TITLES[game] = group, title
    for module in deferred:
        defer(module, game=game)


def games() -> list[str]:
    """The games that have a strategy registry."""
    return list(_REGISTRIES)


def defer(module: str, names: tuple[str, ...] = (), game: str = DEFAULT_GAME) -> None:
    """Import ``module`` (which registers ``names``) only when one of them, or the whole
    registry of ``game``, is first needed: a module that loads numba at import would
    otherwise cost every process half a second, even one that never uses it."""
    _registry(game)
    _DEFERRED[game][module] = tuple(names)


def title(game: str) -> str:
    """A game's title in messages (as its players declared it)."""
    return _TITLES.get(game, game)


def entry_point_group(game: str) -> str:
    """The entry-point group third-party strategies of ``game`` install under."""
    return _GROUPS[_game(game)]


def _load_deferred(game: str, name: str | None = None) -> None:
    """Import the deferred modules of ``game`` that may register ``name`` (None: all)."""
    _game(game)  # an installed game's plug-in declares them when it loads
    for module, provided in list(_DEFERRED.get(game, {}).items()):
        if name is None or not provided or name in provided:
            _DEFERRED[game].pop(module, None)
            importlib.import_module(module)


# ---------------------------------------------------------------------- registration
def _game(game: str) -> str:
    if game not in _REGISTRIES:
        _load_plugin(game)
    if game not in _REGISTRIES:  # an installed game that keeps none is said so, not unknown
        raise ValueError(no_registry(game, _REGISTRIES, _load_plugin, (PLAYERS_GROUP, GAME_GROUP)))
    return game


def _load_plugin(game: str) -> None:
    """Load what declares ``game``'s registry: its players' module (``PLAYERS_GROUP``), else its
    plug-in (``GAME_GROUP``); nothing when neither is installed."""
    for group in (PLAYERS_GROUP, GAME_GROUP):
        for ep in importlib.metadata.entry_points(group=group, name=game):
            try:
                ep.load()
            except Exception:  # noqa: BLE001 - the caller says the game is unknown
                return
        if game in _REGISTRIES:
            return


@functools.cache
def players_module(game: str) -> ModuleType | None:
    """The module that declares ``game``'s players (entry point ``PLAYERS_GROUP``), imported;
    None when the game has none."""
    for ep in importlib.metadata.entry_points(group=PLAYERS_GROUP, name=game):
        return importlib.import_module(ep.value)
    return None


def _registry(game: str) -> dict[str, type[Player]]:
    return _REGISTRIES[_game(game)]


def _register_class(cls: type[Player], name: str | None = None) -> None:
    """Add ``cls`` under ``name`` (default ``cls.name``) in its game's registry; re-registering
    the same class is a no-op."""
    key = name or cls.name
    registry = _registry(cls.game)
    _load_deferred(cls.game, key)
    old = registry.get(key)
    if old is not None and old is not cls and not _takes_name(cls, old):
        raise ValueError(
            f"strategy name {key!r} is already taken by {_qualified(old)}; "
            f"choose another name for {_qualified(cls)}"
        )
    registry[key] = cls


def _takes_name(cls: type, holder: type) -> bool:
    """May ``cls`` take a name ``holder`` holds? Where it is the same class defined again (the
    same qualified name), and in a worker where both are classes of users' files."""
    if _qualified(cls) == _qualified(holder):
        return True
    users = all(c.__module__.startswith(USER_MODULE) for c in (cls, holder))
    return users and _plays_for_another()


def _plays_for_another() -> bool:
    """Is this process a worker that another one started to play its runs (loky's, a Dask
    nanny's)? There a user's file's class takes its name from another file's: the process
    that resolved the run refused a name two files held at once in it, and it plays a user's
    file by its ``file.py:Class`` spec; a worker kept from an earlier run still holds the
    names of the files it loaded then, which may have been unregistered there since."""
    import multiprocessing  # start-up: only a name two users' files declare asks

    return multiprocessing.parent_process() is not None


def _qualified(cls: type) -> str:
    """``module.Class``; for a class of a user's file, ``path/to/file.py:Class``."""
    file = getattr(sys.modules.get(cls.__module__), "__file__", None)
    if cls.__module__.startswith(USER_MODULE) and file:
        return f"{file}:{cls.__qualname__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def register(cls: type[Player] | None = None, *, name: str | None = None) -> Any:
    """Register a Player subclass; use as ``@register`` or ``@register(name="mine")``.

    Needed only for classes declared with ``register=False`` or registered under another name;
    subclasses that define ``name`` register themselves. A class that cannot play is refused
    (TypeError, one line: ``refusal``), as its game refuses it when it is defined with a
    ``name``.
    """

    def decorate(c: type[Player]) -> type[Player]:
        if not (isinstance(c, type) and issubclass(c, Player)):
            raise TypeError(f"register expects a strategies.Player subclass, got {c!r}")
        if name is not None:
            key = check_name(name, "name")
        else:
            key = c.__dict__.get("name") or getattr(c, "name", None)
            if not key:
                raise ValueError(f"{c.__qualname__} has no name: set name = '...' or pass name=")
            check_name(key, f"{c.__qualname__}.name")
        refused = refusal(c, key)
        if refused is not None:  # it would forfeit every game it played
            raise TypeError(refused)
        _register_class(c, key)  # first: a name refused (taken) must not stay on the class
        if "name" not in c.__dict__:
            c.name = key
        return c

    return decorate(cls) if cls is not None else decorate


def refusal(strategy: Player | type[Player], label: str) -> str | None:
    """The line refusing ``strategy`` (a class or an instance), called ``label``, that cannot
    play: "LABEL is no TITLE player: WHY", its game's title and why its class's
    ``cannot_play`` says; None when it plays. Every game's every way in says it so."""
    why = strategy.cannot_play()
    if why is None:
        return None
    return f"{label} is no {title(getattr(strategy, 'game', ''))} player: {why}"


def unregister(name: str, game: str = DEFAULT_GAME) -> None:
    """Remove a registered name (tests and interactive sessions). A class of a user's file
    takes the loader's copy of the file with it: loading the file again registers it again
    (a copy kept would run nothing, and the name would stay unknown)."""
    cls = _registry(game).pop(name, None)
    if cls is not None and cls.__module__.startswith(USER_MODULE):
        forget(cls.__module__)


def unregister_module(module: str) -> None:
    """Remove every name, in every game, that a class of ``module`` holds: a user's file run
    again (the names of its earlier version go, so a class renamed or unregistered in the
    edit leaves none behind) or one whose run failed."""
    for registry in _REGISTRIES.values():
        for name, cls in list(registry.items()):
            if cls.__module__ == module:
                del registry[name]


unregister_with(unregister_module)


def _entry_points(game: str = DEFAULT_GAME) -> dict[str, Any]:
    group = _GROUPS[_game(game)]
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=group)}


def _load_entry_point(name: str, ep: Any, game: str = DEFAULT_GAME) -> type[Player]:
    """The class entry point ``name`` loads, registered under that name as ``register`` does."""
    try:
        cls = ep.load()
    except Exception as exc:
        raise ValueError(f"cannot load strategy {name!r} from entry point {ep.value!r}: "
                         f"{type(exc).__name__}: {exc}") from exc  # fmt: skip
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise ValueError(f"entry point {name!r} ({ep.value}) is not a strategy class (a "
                         "strategies.Player subclass) of this game")  # fmt: skip
    _check_game(cls, game)
    try:  # as ``register`` takes any class: its name checked, one that cannot play refused
        return register(cls, name=name)  # a class with no name of its own is called by it
    except (TypeError, ValueError) as exc:
        raise ValueError(f"entry point {name!r} ({ep.value}): {exc}") from None


# ---------------------------------------------------------------------- queries
def names(game: str = DEFAULT_GAME) -> list[str]:
    """Every strategy name of ``game``, sorted: registered classes and installed entry points,
    unloaded (a name to suggest): one that cannot load is listed too, ``listing`` says which."""
    _load_deferred(game)
    return sorted(set(_registry(game)) | set(_entry_points(game)))


def listing(game: str = DEFAULT_GAME) -> dict[str, str | None]:
    """``names`` with a mark: None for each that plays, else why it cannot, in one line (an
    entry point is loaded here, as ``get`` loads it: its package missing, or no strategy)."""
    said: dict[str, str | None] = dict.fromkeys(names(game))
    for name in said:
        try:
            get_class(name, game)
        except ValueError as exc:
            said[name] = str(exc)
    return said


def get_class(name: str, game: str = DEFAULT_GAME) -> type[Player]:
    """The class registered under ``name`` for ``game``; unknown names get close suggestions."""
    _load_deferred(game, name)
    cls = _registry(game).get(name)
    if cls is not None:
        return cls
    eps = _entry_points(game)
    if name in eps:
        return _load_entry_point(name, eps[name], game)
    owners = _owners(name, game)
    if owners:
        raise OtherGameStrategy(name, game, owners)
    raise ValueError(_unknown_message(name, game))


def _check_game(cls: type[Player], game: str) -> None:
    plays = getattr(cls, "game", None)  # a bare strategies.Player subclass says none
    if plays != game:
        what = "says no game: subclass a game's Strategy class (e.g. strategies.Strategy)"
        if plays:
            what = f"is a {title(plays)} strategy, not a {title(game)} one"
        raise ValueError(f"{cls._display_name()} {what}")


NEAR = 0.6
"""How alike an unknown strategy's name and a known one must be (``difflib``'s ratio) for the
known one to be offered: 'lowe' and 'low' (0.86), 'stak' and 'taker' (0.67) are; 'lowe' and
'blocker' (0.55, three letters in common) are not."""


def _unknown_message(name: str, game: str = DEFAULT_GAME) -> str:
    known = names(game)
    close = difflib.get_close_matches(name, known, n=3, cutoff=NEAR)
    typed = name.lower()
    if not close and len(typed) >= 3:  # a part of a name, or a name with more around it
        close = [k for k in known if typed in k or k in typed][:3]
    hint = (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close
            else f"; known strategies: {', '.join(known) or 'none'}")  # fmt: skip
    what = "strategy" if game == DEFAULT_GAME else f"{title(game)} strategy"
    return f"unknown {what} {name!r}{hint}"


class OtherGameStrategy(ParameterError):
    """A name no strategy of ``game`` has but those of other installed games (``owners``,
    sorted) do: whose strategy it is and how to ask for its game, worded for the caller (the
    parameter ``game``: ``game=`` in the library, its flag on the command line). ``head`` says
    whose it is, for a caller that plays one game only and says so in its own words."""

    def __init__(self, name: str, game: str, owners: tuple[str, ...]) -> None:
        self.name, self.game, self.owners = name, game, owners
        kinds = [f"a {title(o)} strategy" for o in owners]
        whose = " and ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 1 else kinds)
        self.head = f"unknown strategy {name!r}: it is {whose}"
        super().__init__(self.head, "game")

    def __reduce__(self) -> tuple[Any, tuple[str, str, tuple[str, ...]]]:
        """Rebuilt from what it was made of (a worker's error crosses to the parent)."""
        return type(self), (self.name, self.game, self.owners)

    def asks(self, flag: str) -> str:
        """``flag`` with each owner: "--game a or --game b"."""
        return " or ".join(f"{flag} {o}" for o in self.owners)

    def worded(self, names: Mapping[str, str]) -> str:
        flag = names.get("game")
        ask = f"pass {' or '.join(f'game={o!r}' for o in self.owners)} to play it"
        if flag:
            ask = f"commands that take {flag} play it with {self.asks(flag)}"
        return f"{self.head}, not a {title(self.game)} one; {ask}"


def _owners(name: str, game: str) -> tuple[str, ...]:
    """The installed games other than ``game`` whose registries have ``name``, sorted (none:
    empty). Said only for an unknown name: it loads every installed game's players."""
    groups = (PLAYERS_GROUP, GAME_GROUP)
    installed = {ep.name for g in groups for ep in importlib.metadata.entry_points(group=g)}
    found = []
    for other in sorted((installed | set(_REGISTRIES)) - {game}):
        try:
            if name in names(other):
                found.append(other)
        except Exception:  # noqa: BLE001 - a game that cannot load has no strategy to point to
            continue
    return tuple(found)


def is_flag(key: str, classifiers: Iterable[Mapping[str, Any]]) -> bool:
    """Whether ``key`` is a flag: every classifier that has it holds True or False."""
    seen = [c[key] for c in classifiers if key in c]
    return bool(seen) and all(isinstance(v, bool) for v in seen)


def _flag_refusal(key: str, value: Any) -> str:
    """Why ``filtered`` refuses ``value`` for the flag ``key``: text no flag is written as ('1',
    an unclosed quote) also gets the words read, and where (a caller's text goes through
    ``parse_value``; text it reads as one, 'yes', wants the bool itself: the plain line)."""
    line = f"{key} takes True or False (a classifier flag), got {value!r}"
    try:
        if not isinstance(value, str) or isinstance(parse_value(value), bool):
            return line
    except ValueError:
        pass
    return f"{line} (text is read as a flag by strategies.spec_values.parse_value, {FLAG_WORDS})"


def filtered(*, game: str = DEFAULT_GAME, installed: bool = True, **classifier: Any) -> list[str]:
    """Names of the strategies whose classifier matches every given key, e.g. ``compiled=True``.
    ``installed=False`` leaves the entry points' strategies unloaded (a third party's, or one
    whose extra is missing, which would only warn)."""
    registry = _registry(game)
    _load_deferred(game)
    for why in filter(None, listing(game).values() if installed else ()):  # said, left out
        warnings.warn(why, stacklevel=2)
    known_keys = set(CLASSIFIER_KEYS)
    for cls in registry.values():
        known_keys.update(cls.classifier)
    unknown = sorted(set(classifier) - known_keys)
    if unknown:
        raise ValueError(f"unknown classifier key {unknown[0]!r}; known keys: "
                         f"{', '.join(sorted(known_keys))}")  # fmt: skip
    classifier = {k: _plain(v) for k, v in classifier.items()}
    for key, value in classifier.items():  # a flag by "yes" would match nothing, silently
        flag = is_flag(key, (cls.classifier for cls in registry.values()))
        if flag and not isinstance(value, bool):
            raise TypeError(_flag_refusal(key, value))
    return sorted(name for name, cls in registry.items()
                  if all(cls.classifier.get(k) == v for k, v in classifier.items()))  # fmt: skip


# ---------------------------------------------------------------------- building
def get(spec: Any, *, game: str = DEFAULT_GAME, **params: Any) -> Player:
    """Build a strategy from a spec string, a Player subclass or an instance.

    ``get("greedy", keep_pairs=True)`` and ``get("greedy:keep_pairs=true")`` are the same;
    keyword ``params`` override those in the spec. An instance with no ``params`` is returned
    as is. ``game`` picks the registry (a name means one thing per game); a strategy of
    another game is refused.
    """
    if isinstance(spec, Player):
        _check_game(type(spec), game)
        if not params:
            return spec
        return build(type(spec), {**spec.params, **params})
    if isinstance(spec, type) and issubclass(spec, Player):
        _check_game(spec, game)
        return build(spec, params)
    if not isinstance(spec, str):
        raise ValueError(f"a strategy is given by a name, a spec string, a class or an "
                         f"instance, got {spec!r}")  # fmt: skip
    cls, spec_params = resolve(spec, game)
    _check_game(cls, game)
    return build(cls, {**spec_params, **params})


# ---------------------------------------------------------------------- spec strings
_LOADER_RE = re.compile(
    r"^(?P<target>.+?):(?P<cls>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?<!\.py)(?P<rest>(?::.*)?)$"
)
"""``target:Class``: the class by its qualified name (``Outer.Class``, one defined in another),
never a file's name (``a:b.py:Class`` is the file ``a:b.py``)."""
_NAME_PARAMS = re.compile(r"^[A-Za-z_][\w\-]*\s*:\s*[A-Za-z_]\w*\s*=")  # name:key=..., no file


def parse_spec(spec: str, game: str = DEFAULT_GAME) -> tuple[str, dict[str, Any]]:
    """Split a spec into (target, params): target is a name or ``module:Class``/``file.py:Class``."""
    s = spec.strip()
    if not s:
        raise ValueError("empty strategy spec")
    label = split_label(s)
    if label is not None:
        return label[0], parse_params(label[1], spec)
    drive = ""
    if re.match(r"^[A-Za-z]:[\\/]", s):  # a Windows drive letter is not a separator
        drive, s = s[:2], s[2:]
    m = None if _NAME_PARAMS.match(s) else _LOADER_RE.match(s)
    if m and _looks_like_loader(m.group("target"), game):
        rest = m.group("rest")[1:] if m.group("rest") else ""
        return drive + m.group("target") + ":" + m.group("cls"), parse_params(rest, spec)
    name, _, rest = s.partition(":")
    if not (drive + name).strip():
        raise ValueError(f"strategy spec {spec!r} names no strategy (write name:key=value,...)")
    return drive + name.strip(), parse_params(rest, spec)


def _looks_like_loader(target: str, game: str = DEFAULT_GAME) -> bool:
    """A file or module target; a bare registered name followed by ``:x`` is a parameter typo."""
    if target.endswith(".py") or "/" in target or "\\" in target or "." in target:
        return True
    _load_deferred(game, target)
    return target not in _registry(game) and target not in _entry_points(game)


def resolve(spec: str, game: str = DEFAULT_GAME) -> tuple[type[Player], dict[str, Any]]:
    """The class and parameters a spec string names (loading files and modules as needed)."""
    target, params = parse_spec(spec, game)
    where, sep, cls_name = target.rpartition(":")
    if sep and len(where) > 1:  # not just a Windows drive letter
        return load_class(where, cls_name), params
    if target.endswith(".py"):  # a file without its class
        found = defined(load_file(target))
        hint = f" (it defines {', '.join(found)})" if found else ""
        raise ValueError(f"{target} is a file: name the strategy class in it, as "
                         f"{target}:{found[0] if found else 'ClassName'}{hint}")  # fmt: skip
    return get_class(target, game), params


def _rebuild(cls_ref: Any, params: dict[str, Any]) -> Player:
    """Unpickle helper: a class (or a "file.py:Class" reference) and its parameters."""
    if isinstance(cls_ref, str):
        where, _, cls_name = cls_ref.rpartition(":")
        cls_ref = load_class(where, cls_name)
    return cls_ref(**params)
