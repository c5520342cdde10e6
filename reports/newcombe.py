"""A difference of two independent shares where one shows no spread: Newcombe's hybrid score
interval on the two shares' own intervals, and the p-value that inverts it.

A share whose duplicate sets show no spread (100% in every set, say) has a standard error of
zero, so a t interval of a difference built on it carries the other share's error alone: 36
wins of 36 games against 97.6% of 1,200 read as a change of -2.4 percentage points [-3.3,
-1.5], though 36 games say little. Each share's own interval still counts its duplicate sets
(``clusters.wilson_t``: Wilson's on the design's t quantile, one trial a set where there is no
spread), and Newcombe's square-and-add (MOVER; Newcombe 1998, method 10) combines the two. For
``d = other - base``, with ``l`` and ``u`` each share's bounds:

    [d - sqrt((other - l_other)^2 + (u_base - base)^2),
     d + sqrt((u_other - other)^2 + (base - l_base)^2)]

the shares taken as independent, as those of runs of other deals are (``leaves variants``
applies it to runs of the same deals too; ``bench_calibration.py --variants`` measures its
coverage there). Its two-sided p-value inverts it: the least ``q`` at which the same interval
at level ``1 - q`` (each share's Wilson interval on the t quantile of that level and of its
own degrees of freedom) excludes 0, found by bisection on ``log q`` (to 1e-200); so ``p <
alpha`` exactly where the ``1 - alpha`` interval excludes 0, and ``p = 1`` where the two
shares are equal.
"""

from __future__ import annotations

import numpy as np

from .clusters import Estimates, wilson_at, wilson_t

__all__ = ["applies", "newcombe"]

LEAST_Q = 1e-200
"""The smallest p-value the bisection resolves: below it the quantiles overflow; a p-value
there is written 'p < 1e-16' all the same (``reports.numbers.P_FLOOR``)."""
STEPS = 64
"""Bisection steps on ``log q`` (460 wide): the p-value to a relative 1e-16."""


def applies(base: Estimates, other: Estimates) -> np.ndarray:
    """Per group: a share of either side shows no spread (``Estimates.no_spread``) and both
    have an interval (deals enough, ``wilson_t``): where a t interval of the difference would
    carry one side's error alone, and Newcombe's replaces it."""
    lb, _ = wilson_t(base)
    lo, _ = wilson_t(other)
    return (base.no_spread() | other.no_spread()) & np.isfinite(lb) & np.isfinite(lo)


def _square_add(base: Estimates, other: Estimates, sides) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's bounds of ``other - base`` from the two shares' intervals ``sides``."""
    (lb, ub), (lo, uo) = sides
    pb, po = np.asarray(base.value, float), np.asarray(other.value, float)
    d = po - pb
    return d - np.hypot(po - lo, ub - pb), d + np.hypot(uo - po, pb - lb)


def _at(base: Estimates, other: Estimates, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The interval at level ``1 - q`` (per group): each share's Wilson interval on its own
    degrees of freedom's t quantile of that level."""
    from scipy.special import stdtrit  # start-up: scipy loads only for a share without spread

    def z(est: Estimates) -> np.ndarray:
        return -stdtrit(np.asarray(est.df, float), q / 2)

    return _square_add(base, other, (wilson_at(base, z(base)), wilson_at(other, z(other))))


def _p_values(base: Estimates, other: Estimates) -> np.ndarray:
    """The least ``q`` whose ``1 - q`` interval excludes 0 (``_at`` narrows as ``q`` grows:
    every Wilson interval does as its quantile falls), by bisection on ``log q``; 1 where the
    shares are equal."""
    d = np.asarray(other.value, float) - np.asarray(base.value, float)
    low, high = np.full(d.shape, np.log(LEAST_Q)), np.zeros(d.shape)
    for _ in range(STEPS):
        mid = (low + high) / 2
        lo, hi = _at(base, other, np.exp(mid))
        clear = (lo > 0) | (hi < 0)
        high, low = np.where(clear, mid, high), np.where(clear, low, mid)
    return np.where(d == 0, 1.0, np.exp(high))


def newcombe(base: Estimates, other: Estimates) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group, the 95% interval of ``other - base`` and its p-value (module docstring);
    NaN where it does not apply (``applies``: both sides with spread, or too few deals)."""
    use = applies(base, other)
    nan = np.full(use.shape, np.nan)
    if not use.any():
        return nan, nan.copy(), nan.copy()
    lo, hi = _square_add(base, other, (wilson_t(base), wilson_t(other)))
    p = _p_values(base.take(np.flatnonzero(use)), other.take(np.flatnonzero(use)))
    full = nan.copy()
    full[use] = p
    return np.where(use, lo, np.nan), np.where(use, hi, np.nan), full
