"""Key findings: the report's answers in sentences, generated from its tables.

People read the first lines of a report and stop, so these sentences say who is best, by how
much and how sure that is, then the seat, length and expert effects, each with its 95%
interval. Numbers are rounded for reading (51.0% [50.6, 51.3]); the CSVs keep full precision.
Every sentence comes from a table the report also shows, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from .stats import Z95

__all__ = ["Finding", "key_findings", "pct", "points", "interval", "p_text"]


@dataclass(frozen=True)
class Finding:
    """One sentence of the key findings; ``topic`` names the table it comes from."""

    topic: str
    text: str

    def __str__(self) -> str:
        return self.text


def pct(x: float) -> str:
    """A rate as a percentage with one decimal: 0.51034 -> '51.0%'."""
    return f"{100 * x:.1f}%"


def interval(lo: float, hi: float, scale: float = 100.0) -> str:
    """A 95% interval in percent (or points) with one decimal: '[50.6, 51.3]'."""
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


def _pair(sig: pd.DataFrame, a: str, b: str) -> pd.Series | None:
    """The significance row comparing ``a`` with ``b``, oriented as a - b."""
    if sig is None or not len(sig):
        return None
    row = sig[(sig["a"] == a) & (sig["b"] == b)]
    if len(row):
        return row.iloc[0]
    row = sig[(sig["a"] == b) & (sig["b"] == a)]
    if not len(row):
        return None
    r = row.iloc[0].copy()
    r["a"], r["b"] = a, b
    r["win_rate_a"], r["win_rate_b"] = r["win_rate_b"], r["win_rate_a"]
    r["diff"], r["ci_low"], r["ci_high"] = -r["diff"], -r["ci_high"], -r["ci_low"]
    return r


def _best(tables: Mapping[str, pd.DataFrame], method: str) -> list[Finding]:
    summ = tables["summary"]
    if not len(summ):
        return [Finding("summary", "No strategy has played a game.")]
    top = summ.iloc[0]
    rate = (
        f"{top['strategy']} wins {pct(top['win_rate'])} {interval(top['ci_low'], top['ci_high'])} "
        f"of its games (fair share {pct(top['fair_share'])})"
    )
    if len(summ) == 1:
        return [Finding("summary", f"Only one strategy played: {rate}.")]
    second = summ.iloc[1]
    row = _pair(tables.get("significance"), top["strategy"], second["strategy"])
    other = (
        f"{second['strategy']} wins {pct(second['win_rate'])} "
        f"{interval(second['ci_low'], second['ci_high'])}"
    )  # used when there is no paired comparison
    if row is None:
        return [
            Finding(
                "summary",
                f"{top['strategy']} has the highest win rate: {rate}; next is {other}. "
                "They never met on the same deals, so no paired comparison was made.",
            )
        ]
    paired = "paired by deal" if method.startswith("paired") else "unpaired"
    n_pairs = len(tables["significance"])
    margin = (
        f"{points(row['diff'])} {interval(row['ci_low'], row['ci_high'])} ({paired}, "
        f"{p_text(row['p_value'])}"
    )
    if bool(row["significant"]) and row["diff"] > 0:
        held = (
            "it holds after Holm correction over the "
            f"{n_pairs} pair{'s' if n_pairs != 1 else ''} compared"
        )
        text = (
            f"{top['strategy']} is the best strategy: {rate}. It beats the runner-up, "
            f"{second['strategy']}, by {margin}); {held}."
        )
    else:
        after = "" if row["p_value"] >= 0.05 else " after Holm correction over the pairs compared"
        text = (
            f"No strategy is clearly the best: {top['strategy']} leads with "
            f"{pct(top['win_rate'])} {interval(top['ci_low'], top['ci_high'])} of its games won, "
            f"but its margin over {second['strategy']} ({pct(second['win_rate'])} "
            f"{interval(second['ci_low'], second['ci_high'])}) is {margin}): not "
            f"significant{after}."
        )
    return [Finding("significance", text)]


def _seats(seats: pd.DataFrame) -> list[Finding]:
    if seats is None or not len(seats):
        return []
    n = int(seats.groupby("n_players")["games"].first().idxmax())
    at = seats[seats["n_players"] == n].sort_values("position")
    first = at.iloc[0]
    fair = float(first["fair"])
    if first["ci_low"] > fair:
        verdict = "an advantage"
    elif first["ci_high"] < fair:
        verdict = "a disadvantage"
    else:
        verdict = "no clear effect"
    text = (
        f"Seat: at {n} players the first to play wins {pct(first['win_rate'])} "
        f"{interval(first['ci_low'], first['ci_high'])} of games against a fair share of "
        f"{pct(fair)}: {verdict}"
    )
    if len(at) > 1:
        worst = at.loc[at["win_rate"].idxmin()]
        best = at.loc[at["win_rate"].idxmax()]
        text += (
            f". Best position {int(best['position'])} ({pct(best['win_rate'])}), worst "
            f"position {int(worst['position'])} ({pct(worst['win_rate'])}), counting from the "
            "first player"
        )
    return [Finding("seats", text + ".")]


def _neighbours(nb: pd.DataFrame | None) -> list[Finding]:
    """The strongest neighbour effect, when the report has a neighbours table (per strategy
    and the strategy seated before it: ``win_rate`` with its interval and ``vs_overall``, the
    difference from the strategy's win rate over all its games); omitted otherwise."""
    need = {"strategy", "before", "win_rate", "ci_low", "ci_high", "vs_overall"}
    if nb is None or not len(nb) or not need <= set(nb.columns):
        return []
    nb = nb[nb["vs_overall"].notna()]
    if not len(nb):
        return []
    row = nb.loc[nb["vs_overall"].abs().idxmax()]
    overall = row["win_rate"] - row["vs_overall"]
    # The largest of many pairs is picked, so its p-value is Bonferroni-corrected over them;
    # the standard error is read off the row's 95% interval.
    se = (row["ci_high"] - row["ci_low"]) / (2 * Z95)
    p = float(2 * norm.sf(abs(row["vs_overall"]) / se)) if se > 0 else 1.0
    n = len(nb)
    p_adj = min(1.0, p * n)
    verdict = (
        f"it holds after Bonferroni correction over the {n} pairs"
        if p_adj < 0.05
        else f"not significant after correction over the {n} pairs: it may be chance"
    )
    text = (
        f"Neighbours: {row['strategy']} wins {pct(row['win_rate'])} "
        f"{interval(row['ci_low'], row['ci_high'])} when {row['before']} sits before it, "
        f"against {pct(overall)} over all its games ({100 * row['vs_overall']:+.1f} points, "
        f"{p_text(p)}), the strongest neighbour effect; {verdict}."
    )
    return [Finding("neighbours", text)]


def _lengths(lengths: pd.DataFrame) -> list[Finding]:
    if lengths is None or not len(lengths):
        return []
    rows = lengths[lengths["by"] == "all"].set_index("measure")
    if "turns" not in rows.index:
        return []
    t = rows.loc["turns"]
    text = (
        f"Game length: a game lasts {t['median']:.0f} turns on median (80% of games between "
        f"{t['p10']:.0f} and {t['p90']:.0f})"
    )
    if "rounds" in rows.index:
        text += f", {rows.loc['rounds']['mean']:.1f} rounds on average"
    return [Finding("lengths", text + ".")]


def _expert(ex: pd.DataFrame | None) -> list[Finding]:
    if ex is None or not len(ex):
        return []
    top = ex.iloc[0]
    shared = int(top["shared_wins"])
    text = (
        f"Expert matches: {top['strategy']} wins {pct(top['match_win_rate'])} "
        f"{interval(top['ci_low'], top['ci_high'])} of its matches (shared wins counted as "
        f"wins; {pct(top['match_win_rate_split'])} with each shared win split), fair share "
        f"{pct(top['fair_share'])}; {shared:,} of its {int(top['match_wins']):,} wins "
        f"{'was' if shared == 1 else 'were'} shared."
    )
    return [Finding("expert", text)]


def key_findings(tables: Mapping[str, pd.DataFrame], method: str = "") -> list[Finding]:
    """The key findings of a report's tables (``reports.compute_tables``), most important first:
    a gauntlet's answer (gauntlet runs, instead of) the best strategy and its paired margin over the next, the seat effect, the strongest
    neighbour effect (when a ``neighbours`` table exists), game length, and for expert runs the
    match win split and shared wins."""
    if "gauntlet" in tables:  # not a round robin: the field's ranking answers nothing asked
        from .gauntlet import sentences

        out = [Finding("gauntlet", " ".join(sentences(tables["gauntlet"])))]
    else:
        out = _best(tables, method)
    out += _seats(tables.get("seats"))
    out += _neighbours(tables.get("neighbours"))
    out += _lengths(tables.get("lengths"))
    out += _expert(tables.get("expert"))
    return out
