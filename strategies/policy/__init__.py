"""Building blocks of the compiled built-in policies: parameter declarations and features.

``params``: each built-in declares its parameters once (name, default, tunable range); the
constructor, the validation, the float vector the kernel reads and a tuner's search space are
all derived from that declaration. ``features``: the numba helpers every policy reads the
board through (minimum counts, new ends, card counting, takes), so no two policies repeat a
rule.
"""

from __future__ import annotations

from .params import N_PARAMS, Param, ParamSet, declare

__all__ = ["N_PARAMS", "Param", "ParamSet", "declare"]
