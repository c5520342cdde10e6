"""How the report page writes a table's cells as people read them: rates in percent, with the
decimals that keep a share that is not 0 from reading as none; differences in percentage
points; p-values in one form; and ``NA`` where a rate measures nothing.

``reports.page``, the document, shows them.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .numbers import (
    NA,
    PP,
    PP_MEANS,
    apart_digits,
    no_valid,
    p_column,
    pct,
    pp_cell,
    share_digits,
)

__all__ = ["P_COLUMNS", "RATE_TABLES", "readable", "unit_note", "void_cells", "void_note"]

RATE_TABLES = ("summary", "significance", "head_to_head", "seats", "neighbours", "expert",
               "outcomes", "completion", "gauntlet", "lengths")  # fmt: skip
"""Tables whose rates, intervals and differences read better as percentages and percentage
points."""
_POINTS = ("diff", "vs_elsewhere", "vs_overall")
P_COLUMNS = ("p_value", "p_holm", "vs_elsewhere_p")
"""The tables' columns of p-values: every one written by ``p_column``, in the key rows and the
full tables alike."""
_SPANS = {"significance": ("diff", "ci_low", "ci_high"),
          "gauntlet": ("diff", "diff_ci_low", "diff_ci_high"),
          "neighbours": ("vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high")}  # fmt: skip
"""Each table's difference with its interval: written with the decimals that set every shown
row's bounds apart (``_digits``), each bound on its own side of 0 (``pp_cell``'s ``bound``):
the sentences' figures, to as many decimals or more."""


def _digits(name: str, df: pd.DataFrame, c: str) -> int:
    """The decimals of the column ``c``: where ``c`` is the table's difference or one of its
    bounds (``_SPANS``), the most any row's interval asks (``apart_digits``), so the column
    writes every row alike ('-0.950' beside '+2.050', never beside '+2.05'); else one."""
    span = _SPANS.get(name, ())
    if c not in span or not set(span) <= set(df.columns):
        return 1
    return max((apart_digits(lo, hi) for lo, hi in zip(df[span[1]], df[span[2]], strict=True)),
               default=1)  # fmt: skip


def readable(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """The key rows as people read them (the CSVs keep full precision): rates in percent (a
    share of the run's units with the decimals that show it, ``_share_digits``),
    differences in percentage points (``pp_cell``; the page defines the short unit beside
    the table, ``unit_note``), a column of p-values in one form (``p_column``: '3.0e-05'
    above '4.9e-02', never above 'p = 0.049'). ``name``: what the table is (``key_rows``)."""
    if name not in RATE_TABLES:
        return df
    out = df.copy()
    for c in out.columns:
        if not pd.api.types.is_float_dtype(out[c]):
            continue
        v = out[c]
        if c in P_COLUMNS:
            out[c] = p_column(v)
        elif c.startswith(_POINTS) or (name == "significance" and c in ("ci_low", "ci_high")):
            bound = c in _SPANS.get(name, ())[1:]  # an interval's: on its own side of 0
            k = _digits(name, df, c)
            out[c] = [pp_cell(x, k, bound=bound) if np.isfinite(x) else "" for x in v]
        elif (
            c.endswith(("rate", "_low", "_high", "fair", "fair_share", "share"))
            or c == "par"  # the seats' and the summary's: a rate
            or "rate" in c.split("_")  # match_win_rate_split, win_rate_a: rates too
            or (name == "head_to_head" and c == "score")
        ):
            k = _share_digits(df, c)
            out[c] = [pct(x, k) if np.isfinite(x) else "" for x in v]
    return out


def _share_digits(df: pd.DataFrame, c: str) -> int:
    """The decimals of a rate column: where it is a share (``x_share``) or a bound of one
    (``x_ci_low``, ``x_ci_high`` beside ``x_share``), the most any of the three columns' cells
    ask (``share_digits``, the findings' rule): 3 blockades in 15,000 rounds read '0.02%',
    never '0.0%', which reads as none; else one."""
    base = c.removesuffix("_share").removesuffix("_ci_low").removesuffix("_ci_high")
    if f"{base}_share" not in df.columns:
        return 1
    group = [f"{base}_{s}" for s in ("share", "ci_low", "ci_high") if f"{base}_{s}" in df.columns]
    return share_digits(*df[group].to_numpy(float).ravel())


def void_cells(name: str, df: pd.DataFrame, top: pd.DataFrame) -> pd.DataFrame:
    """``top`` (the key rows of ``df``, the table ``name``, as ``readable`` writes them), where
    it is the summary, with ``NA`` for the interval of a strategy every game of which ended by
    a forfeit (``valid_games`` of 0): blank bounds would read as a run too small, which more
    games would remedy."""
    bounds = [c for c in ("ci_low", "ci_high") if c in top.columns]
    if name != "summary" or "valid_games" not in df.columns or not bounds:
        return top
    void = df.loc[top.index, "valid_games"] == 0
    out = top.copy()
    out.loc[void, bounds] = NA
    return out


def void_note(name: str, df: pd.DataFrame, unit: str = "game") -> str:
    """What the note above the table ``name`` adds where it is a summary that writes ``NA``
    (``void_cells``): why, in words (``no_valid``); '' elsewhere."""
    if name != "summary" or not {"valid_games", "strategy"} <= set(df.columns):
        return ""
    void = df.loc[df["valid_games"] == 0, "strategy"].astype(str).tolist()
    return f" ({no_valid(void, unit)})" if void else ""


def unit_note(df: pd.DataFrame) -> str:
    """What the note above a table adds where its cells are in the short unit ``PP``
    (``pp_cell``): ' (pp: percentage points, a difference of two rates)', defined beside
    every table that uses it; '' elsewhere."""
    shown = (v for c in df.columns for v in df[c])
    return f" ({PP_MEANS})" if any(isinstance(v, str) and _IN_PP.search(v) for v in shown) else ""


_IN_PP = re.compile(rf"[\d\]] {PP}\b")
"""A figure or an interval in ``PP`` ('+1.2 pp', '-2.9 [-4.7, -1.0] pp *'), wherever the
cell goes on after it (a star, a note)."""
