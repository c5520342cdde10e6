"""``Estimates.no_spread``'s bound, on both sides, worked by hand: a standard error is no spread
up to 1e-12 times the value's size, and never less than 1e-12 (a rate, below 1, is held to
1e-12 itself); an exact zero and a rounding leftover at a value of 0 are no spread too."""

from __future__ import annotations

import numpy as np

from reports.clusters import Estimates


def _no_spread(values: list[float], ses: list[float]) -> list[bool]:
    n = len(values)
    est = Estimates(np.array(values), np.array(ses), np.full(n, 72.0), np.full(n, 75))
    return [bool(x) for x in est.no_spread()]


def test_a_rate_s_bound_is_1e_12_itself_inclusive():
    # 0.5: max(1, 0.5) = 1, so the bound is 1e-12: at it no spread, 1.5e-12 a spread
    assert _no_spread([0.5, 0.5, 0.5], [1e-12, 1.5e-12, 0.0]) == [True, False, True]


def test_a_value_of_0_or_none_keeps_the_bound_of_1e_12():
    # 0 and NaN read as size 1: 1e-17 and 9e-13 are rounding, 2e-12 is not
    assert _no_spread([0.0, 0.0, np.nan, 0.0], [1e-17, 9e-13, 9e-13, 2e-12]) == [
        True, True, True, False]  # fmt: skip


def test_a_larger_value_scales_the_bound():
    # 5 points (a difference of 5.0): the bound is 5e-12; 4e-12 under it, 6e-12 over it
    assert _no_spread([5.0, -5.0, 5.0], [4e-12, 4e-12, 6e-12]) == [True, True, False]
