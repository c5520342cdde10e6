"""Building a strategy from its class and parameters: each parameter's name and simple type
checked against the class's signature, and a constructor's failure said in one line naming the
strategy, for ``strategies.registry.get`` and a spec's parameters."""

from __future__ import annotations

import difflib
import enum
import inspect
import re
import sys
import types
import typing
from typing import Any

from gamekit.errors import shown

from .base import Player


def build(cls: type[Player], params: dict[str, Any]) -> Player:
    """``cls(**params)`` with parameter names and simple types checked against the signature."""
    sig = cls._param_signature
    valid = list(sig.parameters)
    for key in params:
        if key not in sig.parameters:
            what = f"valid parameters: {', '.join(valid)}" if valid else "it takes no parameters"
            close = difflib.get_close_matches(key, valid, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(
                f"strategy {cls._display_name()} has no parameter {key!r}{hint}; {what}"
            )
    checked = {k: _check_type(cls, sig.parameters[k], v) for k, v in params.items()}
    try:
        return cls(**checked)
    except Exception as exc:  # noqa: BLE001 - any constructor's failure: one line naming it
        raise ValueError(_build_failed(cls, exc)) from exc
    except SystemExit as exc:  # a run would just stop, saying nothing
        raise ValueError(_build_failed(cls, exc)) from None


def _build_failed(cls: type[Player], exc: BaseException) -> str:
    """Why ``cls`` could not be built, naming the strategy and where it comes from (its file
    for a user's class) with the exception's message. A ValueError that names the strategy
    already (a built-in's bad parameter value) is kept as it is."""
    name = cls._display_name()
    text = str(exc) or type(exc).__name__
    if isinstance(exc, ValueError) and (text.startswith(f"{name}:") or f"strategy {name}" in text):
        return text
    source = cls.__dict__.get("_source_spec") or f"{cls.__module__}:{cls.__qualname__}"
    kind = "" if isinstance(exc, ValueError) else f"{type(exc).__name__}: "
    if isinstance(exc, SystemExit):
        kind, text = (
            "",
            f"it exited as it was built (SystemExit({exc.code!r})): a strategy must not exit",
        )
    return f"cannot build strategy {name} ({source}): {kind}{text}"


def _check_type(cls: type[Player], param: inspect.Parameter, value: Any) -> Any:
    """Coerce int -> float for float parameters, text to an Enum member by name or value, and
    refuse values of the wrong simple type; a numpy scalar is read as the Python value it
    holds (and kept so: a manifest, a label and an equality see the plain value). The types
    come from the default, or where it is None or absent from the annotation's other types
    (``int | None``): a value of no type a strategy expects would play as something else, or
    forfeit every game. None (a spec's ``none``) is a value only where the default is None
    or the annotation names None."""
    default = param.default
    if value is None and (default is None or _takes_none(param.annotation)):
        return value
    kinds = _kinds(cls, param)
    if kinds is None:
        return value
    value = _plain(value)
    for kind in kinds:
        fits, read = _read_as(kind, value)
        if fits:
            return read
    takes_none = default is None or _takes_none(param.annotation)
    raise ValueError(
        _refusal(cls, param.name, (*kinds, type(None)) if takes_none else kinds, value)
    )


_SIMPLE = (bool, int, float, str)
"""The types whose values a spec writes, told apart in this order (a bool is an int)."""


def _kinds(cls: type[Player], param: inspect.Parameter) -> tuple[type, ...] | None:
    """The types a parameter takes: its default's, else its annotation's besides None; None
    when nothing says, or the annotation names a type other than these and Enums (any value
    may be meant). A default of another type takes no text unless its annotation names str."""
    default = param.default
    if default is not inspect.Parameter.empty and default is not None:
        if isinstance(default, enum.Enum):
            return (type(default),)
        simple = next((t for t in _SIMPLE if isinstance(default, t)), None)
        if simple is not None:
            return (simple,)
        named = _annotated(cls, param) or ()
        return None if str in named else (type(default),)
    return _annotated(cls, param)


def _annotated(cls: type[Player], param: inspect.Parameter) -> tuple[type, ...] | None:
    """The types a parameter's annotation names besides None, when all are simple or Enums
    (text under ``from __future__ import annotations`` evaluated as ``typing`` does)."""
    annotation = param.annotation
    if annotation is inspect.Parameter.empty:
        return None
    if isinstance(annotation, str):
        try:
            annotation = typing.get_type_hints(cls.__init__).get(param.name)
        except Exception:  # noqa: BLE001 - a name the module cannot resolve: nothing said
            return None
    members = typing.get_args(annotation) if typing.get_args(annotation) else (annotation,)
    if typing.get_origin(annotation) not in (None, typing.Union, types.UnionType):
        return None
    kinds = tuple(m for m in members if m is not type(None))
    known = all(m in _SIMPLE or (isinstance(m, type) and issubclass(m, enum.Enum)) for m in kinds)
    return kinds if kinds and known else None


def _read_as(kind: type, value: Any) -> tuple[bool, Any]:
    """Whether ``value`` is of ``kind``, and the value it is read as (an int as a float, text
    as an Enum member by name, else by value)."""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        if isinstance(value, kind):
            return True, value
        if isinstance(value, str) and value in kind.__members__:
            return True, kind[value]
        try:
            member = kind(value)
        except (ValueError, TypeError):
            return False, value
        return isinstance(value, bool) == isinstance(member.value, bool), member  # True != 1
    whole = isinstance(value, int) and not isinstance(value, bool)
    if kind is float and whole:
        try:
            return True, float(value)
        except OverflowError:  # past a float's range: refused as any value of the wrong type
            return False, value
    if kind is float and isinstance(value, float):
        return True, value
    if kind is int:
        return whole, value
    fits = isinstance(value, kind) and (kind is not bool or isinstance(value, bool))
    return fits, value


def _refusal(cls: type[Player], key: str, kinds: tuple[type, ...], value: Any) -> str:
    """The one line refusing ``value`` for parameter ``key``: the types it takes and a hint."""
    names = ["None" if k is type(None) else _kind_name(k) for k in kinds]
    expected = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return (f"parameter {key!r} of strategy {cls._display_name()} expects {expected}, "
            f"got {shown(value, typed=False)}{_hint(key, kinds, value)}")  # fmt: skip


def _kind_name(kind: type) -> str:
    """A type as the refusal names it: an Enum with its members' names."""
    if issubclass(kind, enum.Enum):
        return f"{kind.__name__} (one of {', '.join(kind.__members__)})"
    return kind.__name__


def _hint(key: str, kinds: tuple[type, ...], value: Any) -> str:
    """Why a value was refused, where a spec's reading explains it: a near member's name, text
    a spec read as a value, a number past a float's range or written with a point."""
    enums = [k for k in kinds if issubclass(k, enum.Enum)]
    if enums and isinstance(value, str):
        near = difflib.get_close_matches(value, list(enums[0].__members__), n=1, cutoff=0.5)
        near = near or [n for n in enums[0].__members__ if n.lower() == value.lower()]
        return f" (did you mean {near[0]!r}?)" if near else ""
    if str in kinds:
        return f" (a spec reads it as a value: quote text, {key}='...')"
    whole = isinstance(value, int) and not isinstance(value, bool)
    if float in kinds and whole:
        return " (past a float's range, about 1.8e308)"
    if int in kinds and isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f" (write it without a point or an exponent: {key}={int(value)})"
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.replace("_", "")):
        most = sys.get_int_max_str_digits()  # a spec reads a longer number as text
        return (
            f" (a number of more digits than Python reads: {most:,})" if len(value) > most else ""
        )
    return ""


def _takes_none(annotation: Any) -> bool:
    """Does a parameter's annotation name None (``int | None``, ``Optional[int]``, as a type or,
    under ``from __future__ import annotations``, as text)?"""
    if isinstance(annotation, str):
        return re.search(r"\b(None|Optional)\b", annotation) is not None
    return annotation is None or type(None) in typing.get_args(annotation)


def _plain(value: Any) -> Any:
    """A numpy scalar (an array's int, float, bool or str) as the Python value it holds; any
    other value as it is (told apart without importing numpy, which strategies loads late)."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    return value
