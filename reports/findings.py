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
from scipy.special import ndtr  # the normal CDF, without scipy.stats' 1 s import

from tournaments.game import Declaration, plural

from .data import default_declaration
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


def _best(tables: Mapping[str, pd.DataFrame], method: str, d: Declaration) -> list[Finding]:
    summ = tables["summary"]
    if not len(summ):
        return [Finding("summary", f"No strategy has played a {d.unit}.")]
    top = summ.iloc[0]
    rate = (
        f"{top['strategy']} wins {pct(top['win_rate'])} {interval(top['ci_low'], top['ci_high'])} "
        f"of its {d.units()} (fair share {pct(top['fair_share'])})"
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
                "They never sat at one table on the same deals, so no paired comparison was made.",
            )
        ]
    paired = (
        "paired by deal at the tables both sat at" if method.startswith("paired") else "unpaired"
    )
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
            f"{pct(top['win_rate'])} {interval(top['ci_low'], top['ci_high'])} of its "
            f"{d.units()} won, "
            f"but its margin over {second['strategy']} ({pct(second['win_rate'])} "
            f"{interval(second['ci_low'], second['ci_high'])}) is {margin}): not "
            f"significant{after}."
        )
    return [Finding("significance", text)]


def _seats(seats: pd.DataFrame | None, d: Declaration) -> list[Finding]:
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
        f"{interval(first['ci_low'], first['ci_high'])} of {d.units()} against a fair share of "
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
    and the strategy seated before it: ``win_rate`` with its interval). The effect is
    ``vs_elsewhere`` (against sharing a table with that strategy at another seat) when the
    table has it for some pair, else ``vs_overall`` (against all the strategy's games)."""
    need = {"strategy", "before", "win_rate", "ci_low", "ci_high"}
    if nb is None or not len(nb) or not need <= set(nb.columns):
        return []
    isolated = {"elsewhere_rate", "vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high"} <= set(
        nb.columns
    ) and bool(nb["vs_elsewhere"].notna().any())  # no pair also met elsewhere: fixed seatings
    effect = "vs_elsewhere" if isolated else "vs_overall"
    if effect not in nb.columns:
        return []
    nb = nb[nb[effect].notna()]
    if not len(nb):
        return []
    row = nb.loc[nb[effect].abs().idxmax()]
    # The largest of many pairs is picked, so its p-value is Bonferroni-corrected over them;
    # the standard error is read off the effect's (or the row's) 95% interval.
    if isolated:
        se = (row["vs_elsewhere_high"] - row["vs_elsewhere_low"]) / (2 * Z95)
        against = f"{pct(row['elsewhere_rate'])} when it sits elsewhere at the table"
    else:
        se = (row["ci_high"] - row["ci_low"]) / (2 * Z95)
        against = f"{pct(row['win_rate'] - row['vs_overall'])} over all its games"
    p = float(2 * ndtr(-abs(row[effect]) / se)) if se > 0 else 1.0
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
        f"against {against} ({100 * row[effect]:+.1f} points, {p_text(p)}), the strongest "
        f"neighbour effect; {verdict}."
    )
    return [Finding("neighbours", text)]


def _lengths(lengths: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The first length column's median and 80% range, the second's mean (13 Leaves: turns,
    then rounds)."""
    if lengths is None or not len(lengths):
        return []
    rows = lengths[lengths["by"] == "all"].set_index("measure")
    first, *rest = d.length_columns
    if first not in rows.index:
        return []
    t = rows.loc[first]
    text = (
        f"{d.unit.capitalize()} length: a {d.unit} lasts {t['median']:.0f} {first} on median "
        f"(80% of {d.units()} between {t['p10']:.0f} and {t['p90']:.0f})"
    )
    if rest and rest[0] in rows.index:
        text += f", {rows.loc[rest[0]]['mean']:.1f} {rest[0]} on average"
    return [Finding("lengths", text + ".")]


def _means(means: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The best mean rank value per unit, with its interval (games that declare means)."""
    col = d.rank_value
    if means is None or not len(means) or f"{col}_mean" not in means:
        return []
    top = means.iloc[0]
    name = col.replace("_", " ")
    text = (
        f"{top['strategy']} has the best mean {name} per {d.unit}: {top[f'{col}_mean']:.2f} "
        f"[{top[f'{col}_ci_low']:.2f}, {top[f'{col}_ci_high']:.2f}]"
    )
    if len(means) > 1:
        last = means.iloc[-1]
        text += f"; {last['strategy']} has the worst: {last[f'{col}_mean']:.2f}"
    return [Finding("means", text + ".")]


def _outcomes(out: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The share of every declared yes/no column over all rows (Ligretto: blockades)."""
    if out is None or not len(out):
        return []
    row = out[out["n_players"].astype(str) == "all"].iloc[0]
    found = []
    for c, meaning in d.share_columns.items():
        if f"{c}_share" in out:
            found.append(
                Finding(
                    "outcomes",
                    f"{d.units().capitalize()} {meaning}: {pct(row[f'{c}_share'])} "
                    f"{interval(row[f'{c}_ci_low'], row[f'{c}_ci_high'])} of "
                    f"{int(row[d.units()]):,} {d.units()}.",
                )
            )
    return found


def _expert(ex: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    if ex is None or not len(ex):
        return []
    top = ex.iloc[0]
    shared = int(top["shared_wins"])
    text = (
        f"{d.match_label}: {top['strategy']} wins {pct(top['match_win_rate'])} "
        f"{interval(top['ci_low'], top['ci_high'])} of its {plural(d.match_unit)} (shared "
        "wins counted as "
        f"wins; {pct(top['match_win_rate_split'])} with each shared win split), fair share "
        f"{pct(top['fair_share'])}; {shared:,} of its {int(top['match_wins']):,} wins "
        f"{'was' if shared == 1 else 'were'} shared."
    )
    return [Finding("expert", text)]


def key_findings(tables: Mapping[str, pd.DataFrame], method: str = "",
                 declaration: Declaration | None = None) -> list[Finding]:  # fmt: skip
    """The key findings of a report's tables (``reports.compute_tables``) in the words of the
    game's declaration (default: the default game's), most important first: a gauntlet's
    answer (gauntlet runs, instead of) the best strategy and its paired margin over the next,
    the best mean rank value (games that declare means), the seat effect, the strongest
    neighbour effect (when those tables exist), length, declared outcome shares, and for runs
    of matches the match win split and shared wins."""
    d = declaration or default_declaration()
    if "gauntlet" in tables:  # not a round robin: the field's ranking answers nothing asked
        from .gauntlet import sentences

        out = [Finding("gauntlet", " ".join(sentences(tables["gauntlet"])))]
    else:
        out = _best(tables, method, d)
    out += _means(tables.get("means"), d)
    out += _seats(tables.get("seats"), d)
    out += _neighbours(tables.get("neighbours"))
    out += _lengths(tables.get("lengths"), d)
    out += _outcomes(tables.get("outcomes"), d)
    out += _expert(tables.get(d.match_name), d)
    return out
