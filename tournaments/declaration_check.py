"""The declaration check of ``check_game``, this module's one job: what a game plug-in
declares, checked before it plays a game (what is checked: the ``declaration`` entry of
``tournaments.testing``'s list). Each check raises an ``AssertionError`` of one line, which
``check_game`` reports as the declaration check's failure.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pickle
import re
import typing
from collections.abc import Callable, Sequence
from typing import Any

from gamekit.errors import shown

from .declaration import OPTIONAL, Declaration, check_columns, declared
from .game import GameOption, GamePlugin
from .seating import SEATINGS

__all__ = ["COMMAND_PARAMETERS", "check_declaration", "check_protocol", "load_viewer",
           "option_clash"]  # fmt: skip

ENTRANTS = 4  # strategies the check's tournaments seat (fewer when the game lists fewer)

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # an entry point name, --game, a file stem

COMMAND_PARAMETERS: dict[str, tuple[str, ...]] = {
    "add": ("--add",), "against": ("--against",), "alpha": ("--alpha",),
    "backend": ("--backend",), "baseline": ("--baseline",), "beta": ("--beta",),
    "chunk_size": ("--chunk-size",), "config": ("--config",), "expert": ("--expert",),
    "game_spec": ("--game",), "games": ("--games",), "help": ("--help",),
    "jobs": ("-j", "--jobs"), "load": ("--load",), "margin": ("--margin",),
    "max_games": ("--max-games",), "out": ("--out",), "players": ("--players",),
    "precision": ("--precision",), "progress": ("--progress", "--no-progress"),
    "record": ("--record",), "record_sample": ("--record-sample",), "repeats": ("--repeats",),
    "resume": ("--resume",), "rounds": ("--rounds",), "rows": ("--rows", "--no-rows"),
    "scheduler": ("--scheduler",), "seating": ("--seating",), "seed": ("--seed",),
    "sequential": ("--sequential",), "spec": (), "specs": (), "strategies": (),
    "target": ("--target",),
}  # fmt: skip
"""The parameters of the commands that take a game's options (``leaves tournament``, ``leaves
gauntlet``) by name, with their flags; ``strategies`` is the config file's key of ``specs``. A
game option named like one (``seed``) would shadow the command's own: the command line leaves
it out, and ``check_game`` fails it (``option_clash``)."""


def check_declaration(game: Any, wanted: Sequence[Any] | None) -> tuple[Declaration, list[Any]]:
    """Check what ``game`` declares; return its declaration and the check's entrants
    (``wanted``, else picked from those it lists)."""
    d = _check_attributes(game)
    _check_consistency(game, d)
    _check_options(game)
    return d, _check_strategies(game, wanted)


def option_clash(option: GameOption) -> str | None:
    """Why the command line cannot offer the game option ``option``: its flag or its name is
    a command's own (``COMMAND_PARAMETERS``); None where it can."""
    for name, flags in COMMAND_PARAMETERS.items():
        if option.flag in flags:
            return f"{option.flag} is a flag of the commands' own"
        if option.name == name:
            own = f" ({', '.join(flags)})" if flags else ""
            return f"{option.name!r} names a parameter of the commands' own{own}"
    return None


def check_protocol(game: Any) -> Declaration:
    """The declaration of the plug-in ``game`` as a run reads it (``declared``, in its words),
    and the rest of the protocol as ``check_game`` checks it (every attribute of its type,
    ``max_length`` and ``default_seating`` among them, every method, what they name
    consistent; in its words): what a command checks of the game it is given before it
    announces or writes anything. ValueError in one line."""
    d = declared(game)
    try:
        _check_consistency(game, _check_attributes(game))
    except AssertionError as exc:
        raise ValueError(str(exc)) from None
    return d


def _v(value: Any) -> str:
    """A declared value in a check's line, as every error shows one (``shown``): a message is
    written before its check is made, so writing it must never fail (a whole number past the
    digits Python writes) nor spill the line."""
    return shown(value, typed=False)


def _conforms(value: Any, hint: Any) -> bool:
    """``value`` is of the annotated type (strings not blank, ints not bools)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return isinstance(value, tuple) and all(_conforms(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items()
        )
    if hint in (int, float) and isinstance(value, bool):
        return False
    if hint is float:
        return isinstance(value, int | float)
    if hint is str:
        return isinstance(value, str) and value.strip() != ""
    return isinstance(value, hint)


_WORDS = {int: "a whole number", float: "a number", bool: "True or False", str: "non-blank text",
          type(None): "None"}  # fmt: skip


def _kind(hint: Any) -> str:
    """What a value of the annotated type is, in words (``max_length`` is a whole number)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return f"a tuple of {_kind(args[0])}"
    if origin is dict:
        return f"a dict of {_kind(args[0])} to {_kind(args[1])}"
    if args:  # a union: ``str | None``
        return " or ".join(_kind(a) for a in args)
    return _WORDS.get(hint, getattr(hint, "__name__", str(hint)))


def _check_attributes(game: Any) -> Declaration:
    """Every attribute of the protocol (the annotations of ``GamePlugin`` and ``Declaration``:
    the one list; ``OPTIONAL`` ones may be left out) present and of its type, methods callable."""
    hints = {**typing.get_type_hints(Declaration), **typing.get_type_hints(GamePlugin)}
    methods = [k for k, v in vars(GamePlugin).items() if callable(v) and k[0] != "_"]
    for key, hint in hints.items():
        assert hasattr(game, key) or key in OPTIONAL, f"it does not declare {_v(key)}"
        value = getattr(game, key, OPTIONAL.get(key))
        assert _conforms(value, hint), f"{key} = {_v(value)} is not {_kind(hint)}"
    for key in methods:
        assert callable(getattr(game, key, None)), f"it has no method {_v(key)}"
    assert isinstance(game, GamePlugin), "it does not implement tournaments.game.GamePlugin"
    return Declaration.of(game)


def _check_consistency(game: Any, d: Declaration) -> None:
    """What the declared names refer to exists (``check_columns``, as a command checks it);
    numbers in range; ids usable as ids."""
    former = getattr(game, "former_names", ())
    columns = (("seat_columns", d.seat_columns), ("game_columns", d.game_columns))
    rules = [(_ID.fullmatch(d.name), f"name {_v(d.name)} is not an id"),
             (_ID.fullmatch(d.match_name), f"match_name {_v(d.match_name)} is not a file stem"),
             *((len(set(c)) == len(c) > 0, f"{k} {_v(c)} is empty or repeats")
               for k, c in columns)]  # fmt: skip
    for ok, why in rules:
        assert ok, why
    try:
        check_columns(d)
    except ValueError as exc:  # its line, less the words the check's failure says before it
        raise AssertionError(str(exc).removeprefix("the game declaration's ")) from None
    rules = [(game.max_length >= 1, f"max_length {_v(game.max_length)} is under 1"),
             (d.match_target >= 1, f"match_target {_v(d.match_target)} is under 1"),
             (game.default_seating in SEATINGS, f"default_seating {_v(game.default_seating)} is "
                                                f"none of {', '.join(SEATINGS)}"),
             (former == () or _conforms(former, tuple[str, ...]), f"former_names {_v(former)}"),
             (d.name not in former, f"former_names {_v(former)} hold its own name")]  # fmt: skip
    for ok, why in rules:
        assert ok, why


def _check_options(game: Any) -> None:
    """Options are constructor keywords of a known type; ``config()`` rebuilds the game, is
    kept by a pickled copy, and ``versions()`` names the rules core."""
    cls, params = type(game), inspect.signature(type(game)).parameters
    keywords = None if any(p.kind is p.VAR_KEYWORD for p in params.values()) else set(params)
    options = getattr(game, "options", ())
    for option in options:
        assert isinstance(option, GameOption), f"option {_v(option)} is not a GameOption"
        ok = keywords is None or option.name in keywords
        assert ok, f"option {_v(option.name)} is no keyword of {cls.__name__}"
        assert option.type in (int, float, str), (
            f"option {_v(option.name)} has type {_v(option.type)}"
        )
    assert len({o.name for o in options}) == len(options), f"options {_v(options)} repeat"
    for option in options:  # the command line leaves such an option out: no flag sets it
        clash = option_clash(option)
        assert clash is None, f"option {_v(option.name)} cannot be a flag: {clash}"
    config = game.config()
    assert _conforms(config, dict[str, object]), f"config() {_v(config)} is not a dict by name"
    json.dumps(config)  # the manifest keeps it
    again = cls(**config)
    assert again.config() == config, f"{cls.__name__}(**config()) has config {_v(again.config())}"
    assert Declaration.of(again) == Declaration.of(game), "config() does not rebuild it"
    assert pickle.loads(pickle.dumps(game)).config() == config, "a pickled copy differs"
    versions, core = game.versions(), getattr(game, "rules_core", None)
    assert _conforms(versions, dict[str, str]), f"versions() {_v(versions)} is not names: versions"
    assert core is None or core in versions, (
        f"versions() {_v(versions)} omits rules_core {_v(core)}"
    )
    if (viewer := getattr(game, "replay_viewer", None)) is not None:
        assert callable(load_viewer(viewer)), f"replay_viewer {_v(viewer)} is not callable"


def load_viewer(spec: str) -> Callable[..., Any]:
    """The function a ``replay_viewer`` spec ("module:function") names, imported."""
    module, sep, function = str(spec).partition(":")
    assert sep and function, f"replay_viewer {_v(spec)} is not 'module:function'"
    return getattr(importlib.import_module(module), function)


def _check_strategies(game: Any, wanted: Sequence[Any] | None) -> list[Any]:
    """Every listed strategy builds, under a label of its own (but one whose optional package
    is not installed); returns the check's entrants."""
    infos = game.strategy_infos() if hasattr(game, "strategy_infos") else []
    assert infos or wanted, "it lists no strategy (strategy_infos) and none was given"
    built: dict[str, Any] = {}
    for info in infos:
        try:
            label, payload = game.resolve(info.name)
        except ValueError as exc:
            if isinstance(exc.__cause__, ImportError):
                continue  # an extra not installed: no defect of the game
            raise AssertionError(f"strategy {_v(info.name)} does not build: {exc}") from exc
        assert _conforms(label, str), f"strategy {_v(info.name)} has label {_v(label)}"
        assert label not in built, (
            f"strategies {_v(built[label].name)}, {_v(info.name)} share a label"
        )
        built[label] = info
        pickle.dumps(payload)  # payloads travel to workers
    baseline = getattr(game, "default_baseline", None)
    for spec in {getattr(game, "spec_example", None), baseline} - {None}:
        game.resolve(spec)
    return list(wanted) if wanted else _pick(list(built.values()), baseline)


def _pick(infos: Sequence[Any], baseline: str | None) -> list[str]:
    """The baseline, a stochastic strategy, then the cheapest (no search, compiled first)."""

    def cost(i: Any) -> tuple[bool, bool, str]:
        return bool(i.classifier.get("search")), not i.classifier.get("compiled", True), i.name

    ranked = sorted(infos, key=cost)
    first = [i for i in ranked if i.name == baseline][:1]
    first += [i for i in ranked if i.classifier.get("stochastic") and i not in first][:1]
    return [i.name for i in [*first, *(i for i in ranked if i not in first)][:ENTRANTS]]
