"""Building a strategy from its class and parameters: each parameter's name and simple type
checked against the class's signature, and a constructor's failure said in one line naming the
strategy, for ``strategies.registry.get`` and a spec's parameters."""

from __future__ import annotations

import difflib
import inspect
import re
import sys
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


def _build_failed(cls: type[Player], exc: Exception) -> str:
    """Why ``cls`` could not be built, naming the strategy and where it comes from (its file
    for a user's class) with the exception's message. A ValueError that names the strategy
    already (a built-in's bad parameter value) is kept as it is."""
    name = cls._display_name()
    text = str(exc) or type(exc).__name__
    if isinstance(exc, ValueError) and (text.startswith(f"{name}:") or f"strategy {name}" in text):
        return text
    source = cls.__dict__.get("_source_spec") or f"{cls.__module__}:{cls.__qualname__}"
    kind = "" if isinstance(exc, ValueError) else f"{type(exc).__name__}: "
    return f"cannot build strategy {name} ({source}): {kind}{text}"


def _check_type(cls: type[Player], param: inspect.Parameter, value: Any) -> Any:
    """Coerce int -> float for float parameters and refuse values of the wrong simple type; a
    numpy scalar is read as the Python value it holds (and kept so: a manifest, a label and
    an equality see the plain value). None (a spec's ``none``) is a value only where the
    default is None or the annotation names None: elsewhere the strategy would meet it first
    in a game, and forfeit every one."""
    key, default = param.name, param.default
    if default is inspect.Parameter.empty or default is None:
        return value
    if value is None and _takes_none(param.annotation):
        return value
    value, hint = _plain(value), ""
    expected = next((t for t in (bool, int, float, str) if isinstance(default, t)), None)
    whole = isinstance(value, int) and not isinstance(value, bool)
    if expected is None:
        return value
    if expected is float and whole:
        try:
            return float(value)
        except OverflowError:  # past a float's range: refused as any value of the wrong type
            hint = " (past a float's range, about 1.8e308)"
    elif isinstance(value, expected) and (expected is not int or whole):
        return value
    elif expected is str:
        hint = f" (a spec reads it as a value: quote text, {key}='...')"
    elif expected is int and isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        hint = f" (write it without a point or an exponent: {key}={int(value)})"
    elif isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.replace("_", "")):
        most = sys.get_int_max_str_digits()  # a spec reads a longer number as text
        hint = (
            f" (a number of more digits than Python reads: {most:,})" if len(value) > most else ""
        )
    raise ValueError(f"parameter {key!r} of strategy {cls._display_name()} expects "
                     f"{expected.__name__}, got {shown(value, typed=False)}{hint}")  # fmt: skip


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
