"""Named parameters of the compiled policies: one declaration per built-in.

A compiled policy reads its parameters from a float64 vector (numba cannot take a dict). The
vector's layout is derived from the built-in's one ``declare(...)``: ``ParamSet.index`` is a
namedtuple of positions that the kernel reads (``params[P.threat_weight]``; numba freezes it
to constants), ``ParamSet.vector`` writes values in that same order, and the strategy's
constructor signature and validation come from the same declaration. A tuner reads
``ParamSet.tunable()`` for the numeric parameters and their search ranges.
"""

from __future__ import annotations

import inspect
import math
from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

N_PARAMS = 12
"""Length of every policy's float64 parameter vector (unused entries are zero)."""


@dataclass(frozen=True)
class Param:
    """One strategy parameter: its name, default, validity and, when tunable, a search range.

    The default's type is the parameter's kind: a bool is a flag (1.0/0.0 in a vector), a
    number must be finite (``integer=True``: an int), a str is passed through for the
    strategy to interpret. ``low``/``high`` bound the valid values (None: open). ``range`` =
    (low, high) is where a tuner searches; it is declared for the numeric parameters worth
    tuning and is not a validity bound.
    """

    name: str
    default: bool | int | float | str
    range: tuple[float, float] | None = None
    doc: str = ""
    integer: bool = False
    low: float | None = None
    high: float | None = None

    def __post_init__(self) -> None:
        if self.range is not None:
            low, high = self.range
            if not self.is_number or not low <= self.default <= high:
                raise ValueError(f"{self.name}: default {self.default!r} outside {self.range}")

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    @property
    def is_number(self) -> bool:
        return isinstance(self.default, int | float) and not self.is_flag

    def check(self, strategy: str, value: Any) -> Any:
        """``value`` as this parameter's type, or a one-line ValueError naming it."""
        where = f"{strategy}: parameter {self.name}"
        if self.is_flag:
            if not isinstance(value, bool | np.bool_):
                raise ValueError(f"{where} must be true or false, got {value!r}")
            return bool(value)
        if not self.is_number:
            return value
        if self.integer:
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
                raise ValueError(f"{where} must be an integer, got {value!r}")
            x: int | float = int(value)
        else:
            try:
                if isinstance(value, bool | np.bool_):
                    raise TypeError
                x = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"{where} must be a number, got {value!r}") from None
            if not math.isfinite(x):
                raise ValueError(f"{where} must be finite, got {value!r}")
        if self.low is not None and self.high is not None:
            if not self.low <= x <= self.high:
                raise ValueError(f"{where} must be between {self.low} and {self.high}, got {value}")
        elif self.low is not None and x < self.low:
            raise ValueError(f"{where} must be >= {self.low}, got {value}")
        elif self.high is not None and x > self.high:
            raise ValueError(f"{where} must be <= {self.high}, got {value}")
        return x


class ParamSet:
    """The ordered parameters of one policy; position ``i`` is entry ``i`` of its vector."""

    def __init__(self, params: tuple[Param, ...]) -> None:
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate parameter names in {names}")
        self.params = params
        self.names = tuple(names)
        self.index = namedtuple("Index", names)(*range(len(names)))
        """Position of each parameter in the vector, by name (read by the kernel)."""

    def __iter__(self):
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)

    def signature(self) -> inspect.Signature:
        """The constructor signature: one keyword parameter per declared parameter."""
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        self_param = inspect.Parameter("self", kind)
        return inspect.Signature(
            [self_param] + [inspect.Parameter(p.name, kind, default=p.default) for p in self]
        )

    def constructor(
        self,
        setup: Callable[[Any, dict[str, Any]], None],
        prepare: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> Callable[..., None]:
        """An ``__init__`` whose signature is this declaration, so the class's constructor,
        its help and its validation cannot disagree with the parameters. ``Strategy.__new__``
        has bound the arguments to ``self._params`` (defaults filled); the ``__init__``
        checks them (after ``prepare(name, values)``, e.g. a preset filled in) and hands the
        checked values to ``setup(self, values)``."""
        params = self

        def __init__(strategy: Any, *args: Any, **kwargs: Any) -> None:
            raw = strategy._params if prepare is None else prepare(strategy.name, strategy._params)
            setup(strategy, params.checked(strategy.name, raw))

        __init__.__signature__ = self.signature()  # type: ignore[attr-defined]
        return __init__

    def checked(self, strategy: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter's value (``values``, defaults filled), validated and typed."""
        return {p.name: p.check(strategy, values.get(p.name, p.default)) for p in self}

    def vector(self, values: Mapping[str, Any]) -> np.ndarray:
        """The float64[N_PARAMS] vector of checked ``values`` in declaration order."""
        if len(self) > N_PARAMS:
            raise ValueError(f"a policy vector holds {N_PARAMS} parameters, not {len(self)}")
        vec = np.zeros(N_PARAMS, dtype=np.float64)
        for i, p in enumerate(self):
            vec[i] = float(values[p.name])
        return vec

    def tunable(self) -> dict[str, tuple[float, float]]:
        """{name: (low, high)} of the numeric parameters a tuner may search."""
        return {p.name: p.range for p in self if p.range is not None}

    def defaults(self) -> dict[str, Any]:
        """{name: default} of every parameter."""
        return {p.name: p.default for p in self}


def declare(*params: Param) -> ParamSet:
    """The ``ParamSet`` of a policy (positions follow the order given)."""
    return ParamSet(tuple(params))
