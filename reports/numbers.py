"""How a report's sentences write numbers: rates, intervals, differences and p-values.

One place for the formats, so the findings, the gauntlet's answer, the page and the variants'
words round alike (51.0% [50.6, 51.3]; the CSVs keep full precision).
"""

from __future__ import annotations

import numpy as np

__all__ = ["TOO_FEW", "interval", "p_text", "pct", "points"]

TOO_FEW = "too few deals for an interval"
"""What a sentence says where the run was too small to state an interval."""


def pct(x: float) -> str:
    """A rate as a percentage with one decimal: 0.51034 -> '51.0%'."""
    return f"{100 * x:.1f}%"


def interval(lo: float, hi: float, scale: float = 100.0) -> str:
    """A 95% interval in percent (or points) with one decimal: '[50.6, 51.3]'; where the run
    was too small to state one, says so."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"({TOO_FEW})"
    return f"[{scale * lo:.1f}, {scale * hi:.1f}]"


def points(x: float) -> str:
    """A difference of rates in percentage points: 0.031 -> '3.1 points'."""
    v = abs(100 * x)
    return f"{v:.1f} point{'' if f'{v:.1f}' == '1.0' else 's'}"


def p_text(p: float) -> str:
    """A p-value for people: 'p = 0.21', 'p = 0.003', 'p = 4e-06', 'p < 1e-16'."""
    if not np.isfinite(p):
        return "p unknown"
    if p < 1e-16:
        return "p < 1e-16"
    if p < 0.001:
        return f"p = {p:.0e}"
    if p < 0.01:
        return f"p = {p:.3f}"
    return f"p = {p:.2f}"
