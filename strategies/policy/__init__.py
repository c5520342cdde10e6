"""Parameter declarations, which every game's policies share.

``params``: each built-in declares its parameters once (name, default, tunable range); the
constructor, the validation, the float vector the kernel reads and a tuner's search space are
all derived from that declaration. (A game's board features live with its players.)
"""

from __future__ import annotations

from .params import N_PARAMS, Param, ParamSet, declare

__all__ = ["N_PARAMS", "Param", "ParamSet", "declare"]
