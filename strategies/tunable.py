"""The numeric parameters of a strategy that an optimiser may change, and their ranges.

A strategy class declares them once, as ``tunable = {"name": (low, high), ...}``; this module
reads and checks that declaration (every name a constructor parameter with a numeric default,
low < high) so that a tuner never has to know how a strategy is built.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

from gamekit.errors import shown

from .base import format_value
from .registry import DEFAULT_GAME, get, parse_spec

__all__ = ["Tunable", "spec_with", "tunables"]


@dataclass(frozen=True)
class Tunable:
    """One tunable parameter: its range, its current value, and whether it takes integers."""

    name: str
    low: float
    high: float
    value: float
    integer: bool

    def clip(self, x: float) -> float | int:
        """``x`` inside the range, rounded for integer parameters."""
        x = min(self.high, max(self.low, float(x)))
        return int(round(x)) if self.integer else x


def tunables(strategy: Any, game: str = DEFAULT_GAME) -> tuple[Tunable, ...]:
    """The tunable parameters of a strategy (spec string, class or instance) of ``game`` (the
    registry a name is looked up in), in declared order.

    ``value`` is the parameter's value in that strategy (its default unless the spec sets it).
    Raises ValueError (one line) when the declaration is wrong or declares nothing.
    """
    inst = get(strategy, game=game)
    cls = type(inst)
    declared = getattr(cls, "tunable", {}) or {}
    who = inst.label
    if not isinstance(declared, dict):
        raise ValueError(f"{cls.__qualname__}.tunable must be a dict {{name: (low, high)}}, got "
                         f"{shown(declared)}")  # fmt: skip
    if not declared:
        raise ValueError(
            f"strategy {who} declares no tunable parameters "
            "(a class attribute tunable = {'name': (low, high), ...})"
        )
    signature = cls._param_signature.parameters
    params = inst.params
    out = []
    for name, bounds in declared.items():
        if name not in signature:
            raise ValueError(f"{cls.__qualname__}.tunable names {name!r}, not a parameter")
        default = signature[name].default
        if default is inspect.Parameter.empty or isinstance(default, bool):
            raise ValueError(f"{cls.__qualname__}.tunable: {name!r} needs a numeric default")
        if not isinstance(default, int | float):
            raise ValueError(f"{cls.__qualname__}.tunable: {name!r} needs a numeric default")
        try:  # a string or a mapping iterates too ("12" as 1, 2): a pair is a tuple or list
            if not isinstance(bounds, tuple | list):
                raise TypeError
            low, high = (float(b) for b in bounds)
        except (TypeError, ValueError):
            raise ValueError(
                f"{cls.__qualname__}.tunable[{name!r}] must be a (low, high) pair, got {bounds!r}"
            ) from None
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(
                f"{cls.__qualname__}.tunable[{name!r}] needs finite low < high, got {bounds!r}"
            )
        value = params[name]
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ValueError(f"{who}: parameter {name} is not a number ({value!r})")
        if not low <= float(value) <= high:
            raise ValueError(
                f"{who}: starting value {name}={value} lies outside its tunable range "
                f"[{low:g}, {high:g}]"
            )
        out.append(Tunable(name, low, high, float(value), isinstance(default, int)))
    return tuple(out)


def spec_with(spec: str, values: dict[str, Any], game: str = DEFAULT_GAME) -> str:
    """The spec string ``spec`` (a strategy of ``game``) with ``values`` replacing (or adding)
    some of its parameters.

    The target stays as written (a name, ``module:Class`` or ``file.py:Class``), so the result
    builds the same class anywhere the original spec did.
    """
    target, params = parse_spec(spec, game)
    merged = {**params, **values}
    get(target, game=game, **merged)  # refuses unknown names and wrong types, one line
    if not merged:
        return target
    return target + ":" + ",".join(f"{k}={format_value(v)}" for k, v in merged.items())
