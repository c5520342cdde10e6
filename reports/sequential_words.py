"""A sequential gauntlet's log-likelihood ratio in words, and the bounds that stop its test
(``tournaments.sequential``), as the batch lines and the final sentence write them."""

from __future__ import annotations

import numpy as np

from .numbers import TOO_FEW, counted, fixed, level_digits

__all__ = ["llr_words", "weighed"]


def _same(alike: bool) -> str:
    """Which duplicate sets gave the same difference where they show no spread: every one
    where they are one stratum (``reports.numbers.one_stratum``), else those of each table."""
    return "every duplicate set" if alike else "within each table every duplicate set"


def _cap(llr: float, flat: int) -> str:
    """What a positive LLR of ``flat`` duplicate sets with no spread is: the test's cap,
    ``(df + 1) / 2`` for their degrees of freedom (``tournaments.sequential.null_llr`` at a
    variance of 0; ``df`` the sets less the tables). At one table that is N/2, the most N sets
    all one way give against 0; at several it is less, and a variance of 0 says only that each
    table's sets agree (8 sets of +50 and 4 of 0 at 3 tables weigh 5, though their own
    differences give at most 4), so the words say what the test counted, not the sets."""
    sets = f"{counted(flat, 'duplicate set')} with no spread"
    if llr == flat / 2:
        return f"N/2 for N = {sets}"
    df = 2 * llr - 1
    if df < 0 or df != int(df):  # not a cap on the sets' degrees of freedom: say no more
        return f"the test's cap for {sets} within each table"
    return (f"the test's cap for {sets} within each table, (df + 1) / 2 at df = {int(df)} "
            "degrees of freedom")  # fmt: skip


def llr_words(llr: float, flat: int = 0, digits: int = 2, alike: bool = False) -> str:
    """The log-likelihood ratio in words: a number (``digits`` decimals, ``weighed``'s);
    where its ``flat`` duplicate sets showed no spread (``tournaments.sequential.llr``), the
    reason: a positive one is the test's cap (``_cap``), below half the margin none (nothing
    bounds beta there: the test plays on); none where there are too few to weigh. ``alike``:
    the sets are one stratum, so every one gave the same difference (else each table's)."""
    if np.isfinite(llr):
        said = f"LLR {fixed(llr, digits)}"
        return f"{said}, {_cap(llr, flat)}" if flat and llr > 0 else said
    if np.isinf(llr):
        return f"LLR {'+' if llr > 0 else '-'}inf, as {_same(alike)} gave the same difference"
    if flat:  # below half the margin (``tournaments.sequential.llr``)
        return (f"no LLR: {_same(alike)} gave the same difference, below half the margin, "
                "which bounds no error against the margin, so the test plays on")  # fmt: skip
    return f"no LLR: {TOO_FEW}"


def weighed(llr: float, lower: float, upper: float, flat: int = 0,
            alike: bool = False) -> tuple[str, str, str]:  # fmt: skip
    """(the LLR's words, the lower bound, the upper bound) that stop its test, all written
    with one count of decimals: two, more while the LLR would read as a bound it is not at
    (``reports.numbers.level_digits``: 'LLR -2.9415' beside '-2.9444', never '-2.94' beside
    '-2.94'). The one source of the LLR and bounds a batch line and the final sentence
    write."""
    k = max(level_digits((llr,), lower), level_digits((llr,), upper))
    return llr_words(llr, flat, k, alike), fixed(lower, k), fixed(upper, k)
