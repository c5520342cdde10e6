"""The key finding that opens a round robin's report: which strategy is best, by how much
and how sure, from the summary and the paired comparison of the top two (``significance``).

A margin is the difference of the two rates at the tables both sat at
(``reports.clusters.rate_differences``), so the sentence names those rates where they are not
the summary's; a tie at the top is no lead, and where the two strategies' fair shares differ
the ranking is said to be against them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from tournaments.declaration import Declaration

from .finding import Finding, and_words
from .numbers import (
    TOO_FEW,
    apart_digits,
    beside_digits,
    counted,
    difference_interval,
    flat_sets,
    interval,
    p_text,
    pct,
    points,
    signed_points,
)
from .tables import ranked

__all__ = ["best_finding"]


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


def _margin(row: pd.Series, flip: bool = False, signed: bool = True) -> str:
    """A significance row's difference (``flip``: B - A; ``signed``: with its sign, else its
    size) with its interval, signed as the table's, or why it has none: too few deals, or no
    spread between its duplicate sets. Both with the decimals that set the bounds apart
    (``apart_digits``)."""
    lo, hi = (-row["ci_high"], -row["ci_low"]) if flip else (row["ci_low"], row["ci_high"])
    k = apart_digits(lo, hi)
    diff = -row["diff"] if flip else row["diff"]
    flat = flat_sets(lo, hi, row["p_value"], row.get("units", np.nan))
    figure = signed_points(diff, k) if signed else points(diff, k)
    return f"{figure} {difference_interval(lo, hi, digits=k, flat=flat)}"


def _shared(row: pd.Series, top: pd.Series, second: pd.Series) -> str:
    """The two rates a paired margin is the difference of, where they are not the summary's
    (a run whose pair shared only some tables, of other sizes or seats): else nothing."""
    gaps = (row["win_rate_a"] - top["win_rate"], row["win_rate_b"] - second["win_rate"])
    if max(abs(g) for g in gaps) < 5e-4:
        return ""
    return (f"; there {top['strategy']} won {pct(row['win_rate_a'])} and {second['strategy']} "
            f"{pct(row['win_rate_b'])}")  # fmt: skip


def _highest(top: pd.Series, second: pd.Series) -> str:
    """What the summary ranks by: the win rate, or against the fair share where the two
    strategies' fair shares differ (other table sizes)."""
    same = abs(top["fair_share"] - second["fair_share"]) < 1e-9
    return "the highest win rate" if same else "the highest win rate against its fair share"


def _tie(tied: pd.DataFrame, row: pd.Series | None, method: str) -> str:
    """Strategies that share the top place exactly: none leads, each rate is said, and the
    top two's paired difference where there is one."""
    names = list(tied["strategy"])
    rates = "; ".join(f"{r.strategy} {pct(r.win_rate)} {interval(r.ci_low, r.ci_high)}"
                      for r in tied.itertuples())  # fmt: skip
    text = f"No strategy leads: {and_words(names)} share {_highest(tied.iloc[0], tied.iloc[1])} ({rates})"
    if row is not None and np.isfinite(row["p_value"]):  # tested: an interval, or no spread
        how = "paired" if method.startswith("paired") else "unpaired"
        text += f"; {row['a']} - {row['b']} = {_margin(row)} ({how}, {p_text(row['p_value'])})"
    return text + "."


def best_finding(tables: Mapping[str, pd.DataFrame], method: str, d: Declaration) -> list[Finding]:
    """The best strategy and its margin over the next, among the strategies with a valid
    game (``reports.tables.ranked``); those without one are said to be left out."""
    summ = tables["summary"]
    if not len(summ):
        return [Finding("summary", f"No strategy has played a {d.unit}.")]
    names = ranked(summ)
    if not names:
        return [Finding("summary", f"No strategy has a valid {d.unit}: every one ended by a "
                                   "forfeit, so none is ranked.")]  # fmt: skip
    void = summ[~summ["strategy"].isin(names)]
    summ = summ[summ["strategy"].isin(names)].reset_index(drop=True)
    top = summ.iloc[0]
    k = beside_digits(top["ci_low"], top["ci_high"], top["fair_share"])  # bounds apart from it
    rate = (
        f"{top['strategy']} wins {pct(top['win_rate'], k)} "
        f"{interval(top['ci_low'], top['ci_high'], digits=k)} "
        f"of its {d.units()} (fair share {pct(top['fair_share'], k)})"
    )
    if len(summ) == 1 and len(void):
        found = Finding("summary", f"{top['strategy']} is the only strategy with a valid "
                                   f"{d.unit}: {rate}.")  # fmt: skip
    elif len(summ) == 1:
        found = Finding("summary", f"Only one strategy played: {rate}.")
    else:
        found = _best(summ, tables, method, d, rate)
    if not len(void):
        return [found]
    one = len(void) == 1
    rate = f"its win rate of {pct(void['win_rate'].iloc[0])}" if one else "their win rates"
    left_out = (
        f" {and_words(list(void['strategy']))} {'is' if one else 'are'} not ranked: every "
        f"{d.unit} {'it' if one else 'they'} sat in ended by a forfeit, so {rate} "
        f"measure{'s' if one else ''} nothing."
    )
    return [Finding(found.topic, found.text + left_out)]


def _tied_with(summ: pd.DataFrame) -> str:
    """'tied with c' where others share the second strategy's place exactly ('' if none): the
    sentence compares the leader with one of them, and says the place is shared."""
    second = summ.iloc[1]
    level = np.isclose(summ["relative"], second["relative"], rtol=0, atol=1e-12)
    others = [s for s in summ.loc[level, "strategy"] if s != second["strategy"]]
    return f"tied with {and_words(others)}" if others else ""


def _best(summ: pd.DataFrame, tables: Mapping[str, pd.DataFrame], method: str, d: Declaration,
          rate: str) -> Finding:  # fmt: skip
    """``best_finding`` where two strategies or more are ranked (``rate``: the leader's)."""
    top = summ.iloc[0]
    second = summ.iloc[1]
    row = _pair(tables.get("significance"), top["strategy"], second["strategy"])
    tied = summ[np.isclose(summ["relative"], top["relative"], rtol=0, atol=1e-12)]
    if len(tied) > 1:
        return Finding("significance", _tie(tied, row, method))
    tie = _tied_with(summ)
    runner = second["strategy"] + (f" ({tie})" if tie else "")
    other = (
        f"{runner} is next with {pct(second['win_rate'])} "
        f"{interval(second['ci_low'], second['ci_high'])}"
    )  # used when there is no paired comparison
    if row is None:
        return Finding(
            "summary",
            f"{top['strategy']} has {_highest(top, second)}: {rate}; {other}. "
            "They never sat at one table on the same deals, so no paired comparison was made.",
        )
    paired = (
        "paired by duplicate set at the tables both sat at"
        if method.startswith("paired")
        else "unpaired"
    )
    n_pairs = len(tables["significance"])
    held = f"it holds after Holm correction over the {counted(n_pairs, 'pair')} compared"
    test = f"{paired}, {p_text(row['p_value'])}"
    shared = f"{test}{_shared(row, top, second)}"
    margin = f"{_margin(row, signed=False)} ({shared})"
    if bool(row["significant"]) and row["diff"] > 0:
        text = (
            f"{top['strategy']} is the best strategy: {rate}. It beats the runner-up, "
            f"{runner}, by {margin}; {held}."
        )
    elif bool(row["significant"]):  # the runner-up is ahead where both sat (other tables)
        text = (
            f"No strategy is clearly the best: {top['strategy']} has {_highest(top, second)}, "
            f"{rate}, but at the tables both sat at {second['strategy']} wins "
            f"{pct(row['win_rate_b'])} against its {pct(row['win_rate_a'])} and beats it by "
            f"{_margin(row, flip=True, signed=False)} ({test}); "
            f"{held}."
        )
    elif not np.isfinite(row["p_value"]):  # no test: too few deals
        text = (
            f"{top['strategy']} has {_highest(top, second)}: {rate}; {other}. The run has "
            f"{TOO_FEW} of their difference: play more {d.units()} to tell them apart."
        )
    else:
        after = "" if row["p_value"] >= 0.05 else " after Holm correction over the pairs compared"
        text = (
            f"No strategy is clearly the best: {top['strategy']} leads with "
            f"{pct(top['win_rate'])} {interval(top['ci_low'], top['ci_high'])} of its "
            f"{d.units()} won, but its margin over {second['strategy']} "
            f"({pct(second['win_rate'])} {interval(second['ci_low'], second['ci_high'])}"
            f"{', ' + tie if tie else ''}) is "
            f"{_margin(row)} ({shared}): "
            f"not significant{after}."
        )
    return Finding("significance", text)
