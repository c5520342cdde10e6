"""Small vectorized statistics: Wilson intervals, exact quantiles from histograms, Holm.
(Intervals over a run's correlated games are ``reports.clusters``'.)"""

from __future__ import annotations

from typing import Any

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


RATE_DIFFERENCE = (-1.0, 1.0)
"""The range of a difference of two win rates: an interval of one is kept inside it (a t
interval over few duplicate sets reached "-87.5 points [-101.9, -73.1]")."""


def within(lo, hi, bounds: tuple[float, float] = RATE_DIFFERENCE) -> tuple[Any, Any]:
    """The interval ``[lo, hi]`` (arrays or floats; NaN stays NaN) cut to ``bounds``."""
    return np.clip(lo, *bounds), np.clip(hi, *bounds)


def wilson(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (NaN where there are no trials).

    Chosen over the normal (Wald) interval because it stays inside [0, 1] and keeps its coverage
    for rates near 0 or 1 and for small counts.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 (k = n) the bound is exactly 0 (1); floating point would leave ~1e-18.
    lo = np.where(n > 0, np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
    hi = np.where(n > 0, np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
    return lo, hi


def hist_quantiles(counts: np.ndarray, qs) -> np.ndarray:
    """Quantiles of integer data given as histograms (rows: groups, column v: count of value v).

    Exactly numpy's default ('linear') percentile of the underlying values, without ever
    materializing or sorting them. Returns (groups, len(qs)); NaN for empty groups.
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    qs = np.asarray(qs, dtype=float)
    out = np.full((counts.shape[0], qs.size), np.nan)
    for g, row in enumerate(counts):
        total = int(row.sum())
        if total == 0:
            continue
        cum = np.cumsum(row)
        pos = qs * (total - 1)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, total - 1)
        v_lo = np.searchsorted(cum, lo, side="right")  # value at sorted index lo
        v_hi = np.searchsorted(cum, hi, side="right")
        out[g] = v_lo + (pos - lo) * (v_hi - v_lo)
    return out


def hist_moments(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, mean, sample std) of integer data given as histograms, per row."""
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    values = np.arange(counts.shape[1], dtype=float)
    n = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = counts @ values / n
        var = (counts @ (values * values) - n * mean * mean) / (n - 1)
    return n, mean, np.sqrt(np.maximum(var, 0.0))


def holm(pvalues) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (controls the family-wise error rate). A NaN (a
    comparison too small to test) counts as a test that found nothing (p = 1) and stays NaN."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0:
        return p
    known = np.where(np.isfinite(p), p, 1.0)
    order = np.argsort(known)
    adj = np.maximum.accumulate((m - np.arange(m)) * known[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return np.where(np.isfinite(p), out, np.nan)
