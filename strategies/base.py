"""``Player``, what a strategy of any game is to the registry (a name, its game, a description,
a classifier, keyword parameters that make labelled variants). Each game's players subclass it
with the game's own protocol (what a decision sees and answers).

A strategy sees only its seat's view (its own hand and public information), never the full
state. Its constructor's keyword parameters make variants; they are captured automatically so
that ``params`` and ``label`` tell variants apart in results without any boilerplate in
subclasses. Subclasses that define ``name`` register themselves in ``strategies.registry``.
"""

from __future__ import annotations

import difflib
import enum
import inspect
import re
from typing import Any, ClassVar

import numpy as np

from .spec_values import parse_value

CLASSIFIER_KEYS: tuple[str, ...] = ("stochastic", "uses_card_counting", "search", "compiled")
"""Classifier keys every strategy has (subclasses may add more)."""

DEFAULT_CLASSIFIER: dict[str, Any] = {key: False for key in CLASSIFIER_KEYS}

NAME_RE = re.compile(r"[a-z][a-z0-9_\-]*")
"""Registry names: lowercase, start with a letter, then letters, digits, ``_`` or ``-``
(matched whole: ``fullmatch``, so no trailing newline slips through)."""


def check_name(name: Any, what: str) -> str:
    """``name`` when it is a registry name (``NAME_RE``); ValueError naming ``what`` (the
    argument or attribute that gave it) otherwise."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise ValueError(
            f"{what} must be lowercase letters, digits, '_' or '-' starting with a letter, "
            f"got {name!r}"
        )
    return name


def refuse_unplayable(cls: type[Player], unit: str = "game") -> None:
    """TypeError in one line for a class defined with a name to register that cannot play
    (its game's ``cannot_play``; ``strategies.registry.refusal`` words it), ``unit`` the
    game's word for what it would forfeit ("game", or its plug-in's unit); a bad name is said
    first. Each game's base asks before its own set-up changes what the class plays by."""
    name = check_name(cls.name, f"{cls.__qualname__}.name")
    from .registry import refusal  # circle: strategies.base and strategies.registry

    refused = refusal(cls, name)
    if refused is not None:
        raise TypeError(f"{refused}, so it would forfeit every {unit} it played")


def format_value(value: Any) -> str:
    """A parameter value as it appears in a label; ``strategies.get`` parses it back."""
    if isinstance(value, enum.Enum):  # by name: a spec reads it back (strategies.building)
        return format_value(value.name)
    if isinstance(value, bool | np.bool_):
        return "True" if value else "False"
    if isinstance(value, float | np.floating):
        return repr(float(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    plain = isinstance(value, str) and re.fullmatch(r"[A-Za-z_][\w\-./]*", value)
    if plain and parse_value(value) == value:  # not a word a spec reads as a value: 'off'
        return value
    return repr(value)


def _own_classifier(cls: type) -> dict[str, Any]:
    """The classifier a class sets itself, checked: a misspelt standard key would become a key
    of its own that no filter asks for, and a standard key that is no bool never matches
    ``--filter KEY=true``."""
    own = cls.__dict__.get("classifier", {})
    where = f"{cls.__qualname__}.classifier"
    if not isinstance(own, dict):
        raise TypeError(f"{where} must be a dict of keys to values, got {own!r}")
    for key, value in own.items():
        if not isinstance(key, str):
            raise TypeError(f"{where}: classifier keys must be text, got {key!r}")
        if key in CLASSIFIER_KEYS:
            if not isinstance(value, bool | np.bool_):
                raise TypeError(f"{where}: {key!r} must be a bool (True or False), got {value!r}")
            continue
        near = difflib.get_close_matches(key, CLASSIFIER_KEYS, n=1, cutoff=0.8)
        if near:
            raise ValueError(
                f"{where}: key {key!r} is not a standard key; did you mean {near[0]!r}? "
                f"(standard keys: {', '.join(CLASSIFIER_KEYS)})"
            )
    return own


class Player:
    """What the registry knows of a strategy of any game (each game's own base class adds how
    it plays: what a decision sees and answers).

    Subclasses set the class attributes ``game`` (the id of the game whose registry it joins),
    ``name`` (registry name), ``description`` (one line) and ``classifier`` (merged over the
    base classes' own), and declare their parameters as keyword arguments with defaults in
    ``__init__``. ``tunable`` maps the numeric parameters an optimiser may change to their
    (low, high) range (``strategies.tunables`` reads it; ``leaves tune`` searches it).
    ``class X(Base, register=False)`` opts out of registration (useful for tests and
    throwaway variants).
    """

    name: ClassVar[str]
    game: ClassVar[str]  # the registry it belongs to (a name means one thing per game)
    description: ClassVar[str] = ""
    classifier: ClassVar[dict[str, Any]] = {}
    tunable: ClassVar[dict[str, tuple[float, float]]] = {}

    _params: dict[str, Any]

    def __init_subclass__(cls, register: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        merged: dict[str, Any] = {}
        for base in reversed(cls.__mro__[1:]):
            merged.update(base.__dict__.get("classifier", {}))
        merged.update(_own_classifier(cls))
        cls.classifier = merged
        cls._param_signature = _parameters(cls)
        if "name" in cls.__dict__:
            check_name(cls.name, f"{cls.__qualname__}.name")
            if register:
                # circle: strategies.base and strategies.registry
                from .registry import _register_class

                refuse_unplayable(cls)  # every game's: its base's cannot_play
                _register_class(cls)

    def __new__(cls, *args: Any, **kwargs: Any) -> Player:
        self = super().__new__(cls)
        sig = cls._param_signature
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as exc:
            valid = ", ".join(sig.parameters) or "none"
            raise ValueError(
                f"bad parameters for strategy {cls._display_name()}: {exc} "
                f"(valid parameters: {valid})"
            ) from None
        bound.apply_defaults()
        self._params = dict(bound.arguments)
        return self

    def __init__(self) -> None:
        """Subclasses declare their keyword parameters here; they need not call super()."""

    # ------------------------------------------------------------------ identity
    @property
    def params(self) -> dict[str, Any]:
        """All constructor parameters, defaults filled in (a copy)."""
        return dict(self._params)

    @property
    def label(self) -> str:
        """``name`` or ``name(k=v,...)`` listing the parameters that differ from the defaults."""
        defaults = {
            k: p.default
            for k, p in self._param_signature.parameters.items()
            if p.default is not inspect.Parameter.empty
        }
        shown = [
            f"{k}={format_value(v)}"
            for k, v in self._params.items()
            if k not in defaults or not _same(v, defaults[k])
        ]
        base = self._display_name()
        return f"{base}({','.join(shown)})" if shown else base

    @classmethod
    def cannot_play(cls) -> str | None:
        """Why this class cannot play its game, in words; None when it plays (all this shared
        base can say: it knows no game's protocol). Each game's own base class, which knows
        its protocol, overrides it: the registry, the game's ways into a game and the
        class's definition with a name ask it, so that a class that would forfeit every game
        it played is refused before one (``strategies.registry.refusal`` words the line)."""
        return None

    @classmethod
    def _display_name(cls) -> str:
        """The class's own registry name, else its class name: a subclass of a registered
        strategy that names itself nothing is not that strategy, so it never shows as it."""
        return cls.__dict__.get("name") or cls.__qualname__

    def __repr__(self) -> str:
        return self.label

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return type(self) is type(other) and self.label == other.label

    def __hash__(self) -> int:
        return hash((type(self), self.label))

    def __reduce__(self):
        from .registry import _rebuild  # circle: strategies.base and strategies.registry

        return (_rebuild, (_class_ref(type(self)), self._params), self._extra_state())

    def _extra_state(self) -> dict[str, Any] | None:
        state = {k: v for k, v in self.__dict__.items() if k != "_params"}
        return state or None

    def __setstate__(self, state: dict[str, Any] | None) -> None:
        if state:
            self.__dict__.update(state)


def play_own_code(cls: type, base: type, policy: str, hooks: tuple[str, ...]) -> None:
    """Keep a game's strategy class true to how it plays. ``base`` is the game's own base
    class, whose ``policy`` method gives the compiled loop a policy (None: none), and
    ``hooks`` the methods the Python path plays by. A class that defines a hook below the
    class whose policy it inherits (a subclass of a built-in that decides otherwise) plays by
    its own code: it loses the policy, since the compiled loop, which calls no Python per
    decision, would play the parent's. And a class without a policy is not classified
    ``compiled``, whatever its classifier says."""
    if decides_below_its_policy(cls, policy, hooks):
        setattr(cls, policy, getattr(base, policy))  # (the base's already: nothing changes)
    if getattr(cls, policy) is getattr(base, policy) and cls.classifier.get("compiled"):
        cls.classifier = {**cls.classifier, "compiled": False}


def decides_below_its_policy(cls: type, policy: str, hooks: tuple[str, ...]) -> bool:
    """Does ``cls`` define one of ``hooks`` below the class whose ``policy`` it inherits?"""
    for klass in cls.__mro__:
        if policy in vars(klass):
            return False
        if any(hook in vars(klass) for hook in hooks):
            return True
    return False


def _class_ref(cls: type) -> Any:
    """The class itself, or "file.py:Class" for a class loaded from a user's file."""
    source = cls.__dict__.get("_source_spec")
    return source if source is not None else cls


def _parameters(cls: type) -> inspect.Signature:
    """The constructor's parameters (without ``self``); ``*args``/``**kwargs`` are refused."""
    sig = inspect.signature(cls.__init__)
    params = list(sig.parameters.values())[1:]
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(
                f"{cls.__qualname__}.__init__ must name its parameters (no *args/**kwargs), "
                "so that variants can be labelled and rebuilt"
            )
        if p.kind is p.POSITIONAL_ONLY:  # every game rebuilds it as cls(**params)
            raise TypeError(
                f"{cls.__qualname__}.__init__ must take {p.name!r} by keyword (no '/'), "
                "so that variants can be labelled and rebuilt"
            )
    return sig.replace(parameters=params)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) and type(a) is type(b) or (
            isinstance(a, int | float) and isinstance(b, int | float)
            and not isinstance(a, bool) and not isinstance(b, bool) and a == b
        )  # fmt: skip
    except Exception:
        return a is b


Player._param_signature = inspect.Signature([])
