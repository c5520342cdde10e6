"""The neighbour finding: whom a strategy wants to sit after, from the neighbours table
(``reports.neighbours``), each effect compared within the same deals and corrected over the
pairs compared; where every effect compared is 0, that no neighbour effect was found, not a
strongest one of none.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .finding import Finding
from .numbers import (
    apart_digits,
    counted,
    difference_interval,
    flat_sets,
    interval,
    p_text,
    pct,
    signed_points,
)
from .tables import ranked

__all__ = ["neighbours_finding"]


def _neighbour_pairs(nb: pd.DataFrame | None, summ: pd.DataFrame | None) -> pd.DataFrame:
    """The pairs a neighbour finding may name, largest effect first (the surer of equal
    ones first): those compared with the other strategy elsewhere (a finite p), of two
    strategies the summary ``summ`` ranks (``reports.tables.ranked``: those with a valid
    game), not a strategy after its own copy (which says nothing about whom to sit after)."""
    need = {"strategy", "before", "vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high",
            "vs_elsewhere_p", "elsewhere_rate", "win_rate", "ci_low", "ci_high"}  # fmt: skip
    if nb is None or not len(nb) or not need <= set(nb.columns):
        return pd.DataFrame()
    measured = ranked(summ) if summ is not None else list(nb["strategy"])
    nb = nb[
        nb["vs_elsewhere"].notna()
        & np.isfinite(nb["vs_elsewhere_p"])
        & (nb["strategy"] != nb["before"])
        & nb["strategy"].isin(measured)
        & nb["before"].isin(measured)
    ]
    order = np.lexsort((nb["vs_elsewhere_p"].to_numpy(float), -nb["vs_elsewhere"].abs().to_numpy()))
    return nb.iloc[order]


def _effect(row: pd.Series, where: str = "") -> str:
    """A pair's effect in points with its 95% interval (or why there is none: its sets had no
    spread, too few deals) and p-value: '+5.6 percentage points [+2.0, +9.2]{where}, p =
    0.003'."""
    lo, hi, p = row["vs_elsewhere_low"], row["vs_elsewhere_high"], float(row["vs_elsewhere_p"])
    flat = flat_sets(lo, hi, p, row.get("vs_elsewhere_sets", np.nan))
    k = apart_digits(lo, hi)
    iv = difference_interval(lo, hi, digits=k, flat=flat)
    by = signed_points(row["vs_elsewhere"], k)
    if iv.startswith("["):
        return f"{by} {iv}{where}, {p_text(p)}"
    return f"{by}{where}; {iv[1:-1]}; {p_text(p)}"  # one bracket, not two


def neighbours_finding(nb: pd.DataFrame | None, summ: pd.DataFrame | None) -> list[Finding]:
    """The neighbour effects that hold: sitting directly after a strategy against sharing the
    table with it at another seat, compared within each duplicate set (``vs_elsewhere``, with
    its t-test p-value), each p Bonferroni-corrected over the pairs compared. The sentence
    leads with the largest effect that holds, says how many hold and names the others, and
    a larger one that does not; where none holds, the largest, which may be chance. Without
    that comparison (seatings that never put a strategy both before and elsewhere) no
    finding is made: the win rate after a strategy against all one's games would mix the
    seat with the company. Where every effect compared is 0, none is the strongest: that no
    effect was found (``_none_found``). Pairs as ``_neighbour_pairs`` takes them."""
    pairs = _neighbour_pairs(nb, summ)
    if not len(pairs):
        return []
    if np.allclose(pairs["vs_elsewhere"].to_numpy(float), 0.0, rtol=0, atol=1e-12):
        return [Finding("neighbours", _none_found(pairs))]
    n = len(pairs)
    corrected = np.minimum(1.0, pairs["vs_elsewhere_p"].to_numpy(float) * n)
    held = pairs[corrected < 0.05]
    row = held.iloc[0] if len(held) else pairs.iloc[0]
    after = (
        f"{row['strategy']} wins {pct(row['win_rate'])} "
        f"{interval(row['ci_low'], row['ci_high'])} when {row['before']} sits before it"
    )
    if "shared_rate" in row and pct(row["shared_rate"]) != pct(row["win_rate"]):
        after += (  # some tables put the other strategy nowhere else (two players); said
            # where it reads otherwise than the rate just written, not on the raw gap
            f"; at the tables where {row['before']} can also sit elsewhere it wins "
            f"{pct(row['shared_rate'])}"
        )
    text = (
        f"Neighbours: {after}, against {pct(row['elsewhere_rate'])} when it sits elsewhere at "
        f"the table ({_effect(row, ' within the same deals')}), the strongest neighbour effect"
    )
    return [Finding("neighbours", text + _verdicts(pairs, corrected) + ".")]


def _none_found(pairs: pd.DataFrame) -> str:
    """The neighbour finding where every pair compared has an effect of 0 (to rounding
    error): that none was found, the one pair with its effect, interval and p-value, or how
    many pairs, each of which won as often after the other as with it elsewhere."""
    if len(pairs) == 1:
        row = pairs.iloc[0]
        return (
            f"Neighbours: no neighbour effect was found: {row['strategy']} wins as often when "
            f"{row['before']} sits before it as when {row['before']} sits elsewhere at the table "
            f"({_effect(row, ' within the same deals')}), the only pair compared."
        )
    return (
        f"Neighbours: no neighbour effect was found: in each of the {counted(len(pairs), 'pair')} "
        "compared, the strategy wins as often when the other sits before it as when the other "
        "sits elsewhere at the table (a difference of 0 within the same deals)."
    )


def _verdicts(pairs: pd.DataFrame, corrected: np.ndarray) -> str:
    """What Bonferroni's correction over ``pairs`` (largest first, their ``corrected``
    p-values) says of the finding's lead pair (the first that holds, else the first): that
    it holds, and how many others do (neighbours.csv names them), with the larger pair that
    does not; or that it does not, nor any other, so it may be chance. One pair compared is
    corrected over nothing: said so, not 'over the 1 pairs'."""
    n, held = len(pairs), np.flatnonzero(corrected < 0.05)
    if n == 1:
        alone = "the only pair compared, so no correction"
        return (
            f"; it holds ({alone})"
            if len(held)
            else f"; not significant ({alone}): it may be chance"
        )
    over = f"after Bonferroni correction over the {counted(n, 'pair')}"
    if not len(held):
        return f"; not significant after correction over the {counted(n, 'pair')}: it may be chance"
    others = len(held) - 1
    if held[0] == 0:
        verb = "does" if others == 1 else "do"  # 'as does 1 other pair', 'as do 2 other pairs'
        return f"; it holds {over}" + (f", as {verb} {counted(others, 'other pair')}"
                                       if others else "")  # fmt: skip
    r = pairs.iloc[0]
    text = f" that holds {over} ({p_text(corrected[held[0]])} corrected)"
    if others:
        text += f"; {len(held)} of the {n} pairs hold"
    return (f"{text}; the larger {r['strategy']} after {r['before']} ({_effect(r)}; "
            f"{p_text(corrected[0])} corrected) does not hold: it may be chance")  # fmt: skip
