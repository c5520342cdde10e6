"""Did a strategy change between two runs? Per strategy, B - A in win rate with an interval.

Two runs of the same strategies under two code versions, parameters or rule sets: for every
label both runs have, each run's win rate (``reports.clusters``: duplicate sets as clusters,
tables as strata) and the difference B - A. Runs on different deals are independent, so the
difference's variance is the sum of the two stratified variances, with Welch's degrees of
freedom. Runs that played the same deals (the same seed, game, tables, seatings and deal
streams) are paired per duplicate set: per (table, deal) both played, B's wins less A's over
the same seats, a ratio estimate over those sets whose error no longer carries the deals'
luck. p-values are two-sided t tests, Holm-corrected over the strategies compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .clusters import MIN_DF, Estimates, Sums, clusters, ratio_estimates, seat_sums, wilson_t
from .data import Games, ReportError, as_run
from .stats import holm

__all__ = ["Comparison", "compare", "same_deals"]

PAIRING_KEYS = ("game", "game_config", "seed", "seed_keys", "strategies", "players", "repeats",
                "seating", "expert", "target", "deal_streams")  # fmt: skip
"""Spec entries two runs must share for game ``g`` of one to be game ``g`` of the other."""


@dataclass(frozen=True)
class Comparison:
    """The comparison of runs ``a`` and ``b``: ``table`` per shared strategy, whether it is
    ``paired``, the strategies only one run has, and the ``findings`` in words."""

    a: str
    b: str
    table: pd.DataFrame
    paired: bool
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)


def same_deals(spec_a: dict[str, Any], spec_b: dict[str, Any]) -> bool:
    """True when the runs' specs give the same game the same number in both (same deals,
    tables and seatings); one may have more deals than the other."""
    if not spec_a or not spec_b:
        return False
    return all(spec_a.get(k) == spec_b.get(k) for k in PAIRING_KEYS) and "seed" in spec_a


def _keys(g: Games) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster of ``g``: a (deal stream, deal) key comparable across runs, and its id."""
    cl = clusters(g)
    first = cl.first
    table = (np.zeros(len(g), np.int64) if g.table is None else g.table.astype(np.int64))[first]
    deal = g.deal.astype(np.int64)[first]
    return table * (1 << 32) + deal, np.arange(cl.n)


def _paired(ga: Games, gb: Games, codes: list[tuple[int, int]]) -> Estimates:
    """B - A per strategy over the duplicate sets both played, paired set by set (a ratio
    estimate: B's wins less A's over the seats, which are the same in both)."""
    sa, sb = seat_sums(ga, ga.n_strategies), seat_sums(gb, gb.n_strategies)
    key_a, _ = _keys(ga)
    key_b, _ = _keys(gb)
    groups, cl_ids, w, n = [], [], [], []
    for i, (ca, cb) in enumerate(codes):
        ma, mb = sa.group == ca, sb.group == cb
        ka, kb = key_a[sa.cluster[ma]], key_b[sb.cluster[mb]]
        _, ia, ib = np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
        same = sa.n[ma][ia] == sb.n[mb][ib]
        groups.append(np.full(int(same.sum()), i))
        cl_ids.append(sa.cluster[ma][ia][same])
        w.append((sb.w[mb][ib] - sa.w[ma][ia])[same])
        n.append(sa.n[ma][ia][same])
    cat = np.concatenate
    order = np.lexsort((cat(cl_ids), cat(groups)))
    sums = Sums(cat(groups)[order], cat(cl_ids)[order], cat(w)[order], cat(n)[order], len(codes))
    return ratio_estimates(sums, clusters(ga))


def _unpaired(ea: Estimates, eb: Estimates) -> Estimates:
    """B - A of independent runs: variances add; Welch's degrees of freedom."""
    va, vb = ea.se**2, eb.se**2
    with np.errstate(invalid="ignore", divide="ignore"):
        df = (va + vb) ** 2 / (va**2 / ea.df + vb**2 / eb.df)
    small = (ea.df < MIN_DF) | (eb.df < MIN_DF)
    df = np.where(small, np.nan, np.where(np.isfinite(df), df, np.minimum(ea.df, eb.df)))
    return Estimates(eb.value - ea.value, np.sqrt(va + vb), df, np.minimum(ea.units, eb.units),
                     ea.conservative or eb.conservative)  # fmt: skip


def _rates(g: Games, codes: list[int]) -> tuple[Estimates, np.ndarray, np.ndarray]:
    est = ratio_estimates(seat_sums(g, g.n_strategies), clusters(g)).take(codes)
    return (est, *wilson_t(est))


def compare(run_a: Any, run_b: Any, alpha: float = 0.05) -> Comparison:
    """Per strategy both runs have (by label): win rate in A and in B with 95% intervals,
    the difference B - A with its 95% interval, p-value, Holm-adjusted p-value and whether
    it is significant at ``alpha``; paired per duplicate set when the runs played the same
    deals. Raises ReportError (one line) when they share no strategy."""
    ra, rb = as_run(run_a), as_run(run_b)
    ga, gb = ra.games, rb.games
    name_a, name_b = str(ra.path or "A"), str(rb.path or "B")
    shared = sorted(set(ga.labels) & set(gb.labels))
    if not shared:
        raise ReportError(f"cannot compare {name_a} and {name_b}: they share no strategy "
                          f"(A: {', '.join(ga.labels)}; B: {', '.join(gb.labels)})")  # fmt: skip
    codes = [(ga.labels.index(s), gb.labels.index(s)) for s in shared]
    ea, lo_a, hi_a = _rates(ga, [a for a, _ in codes])
    eb, lo_b, hi_b = _rates(gb, [b for _, b in codes])
    paired = bool(same_deals(ra.manifest.get("spec", {}), rb.manifest.get("spec", {}))
                  and ga.deal is not None and gb.deal is not None)  # fmt: skip
    diff = _paired(ga, gb, codes) if paired else _unpaired(ea, eb)
    d_lo, d_hi = diff.interval()
    p = diff.p_value()
    p_holm = holm(p)
    table = pd.DataFrame({
        "strategy": shared, "win_rate_a": ea.value, "ci_low_a": lo_a, "ci_high_a": hi_a,
        "win_rate_b": eb.value, "ci_low_b": lo_b, "ci_high_b": hi_b, "diff": diff.value,
        "ci_low": d_lo, "ci_high": d_hi, "df": diff.df, "units": diff.units.astype(np.int64),
        "p_value": p, "p_holm": p_holm,
    })  # fmt: skip
    table["significant"] = table["p_holm"] < alpha
    table = table.sort_values(["diff", "strategy"], ascending=[False, True], ignore_index=True)
    only_a = sorted(set(ga.labels) - set(gb.labels))
    only_b = sorted(set(gb.labels) - set(ga.labels))
    findings = _findings(table, paired, only_a, only_b)
    return Comparison(name_a, name_b, table, paired, only_a, only_b, findings)


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def _findings(table: pd.DataFrame, paired: bool, only_a: list[str], only_b: list[str]) -> list[str]:
    """The changes that matter, in words: significant ones first, then how it was measured."""
    sig = table[table["significant"]].copy()
    sig = sig.reindex(sig["diff"].abs().sort_values(ascending=False).index)
    parts = [
        f"{r.strategy} wins {abs(100 * r.diff):.1f} points {'more' if r.diff > 0 else 'less'} "
        f"in B [{_points(r.ci_low)}, {_points(r.ci_high)}]"
        for r in sig.itertuples()
    ]
    if not np.isfinite(table["p_value"]).any():
        lines = ["too few deals for an interval: no difference can be told"]
    elif parts:
        rest = "no other strategy changed significantly" if len(sig) < len(table) else ""
        lines = ["; ".join([*parts, rest] if rest else parts)]
    else:
        big = table.iloc[int(table["diff"].abs().to_numpy().argmax())]
        lines = [f"no strategy changed significantly (largest: {big.strategy} "
                 f"{_points(big['diff'])} points [{_points(big.ci_low)}, {_points(big.ci_high)}])"]  # fmt: skip
    sets = int(table["units"].max()) if len(table) else 0
    lines.append(
        f"the runs played the same deals: B - A is paired per duplicate set ({sets:,} sets "
        "both played)"
        if paired
        else "the runs played different deals: B - A is unpaired (the two runs' variances add)"
    )
    if only_a or only_b:
        lines.append(f"not compared: only in A {', '.join(only_a) or '-'}; "
                     f"only in B {', '.join(only_b) or '-'}")  # fmt: skip
    return lines
