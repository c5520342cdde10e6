"""The tables of the rule-variants page as people read them (the CSVs keep every number at
full precision): every difference at one look, the seats with a difference for each, the
designers' measures, restricted play, the skill ladder, a sweep per value, and the full
measures and differences in words and units with their intervals."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from .numbers import PERCENTAGE_POINTS, apart_digits, fixed, interval, p_column
from .variants_display import diff_text, label, no_interval, shown, value_text
from .variants_forest import forest_rows
from .variants_text import ALPHA, ordinal

__all__ = ["by_rules", "every_differences", "every_metrics", "ladder_rows", "overview_table",
           "seat_table", "sweep_rows"]  # fmt: skip

Key = tuple[str, str, str, int]


def _index(df: pd.DataFrame) -> dict[Key, pd.Series]:
    return {(str(r["rules"]), str(r["metric"]), str(r["n_players"]), int(r["position"])): r
            for _, r in df.iterrows()}  # fmt: skip


def overview_table(metrics: pd.DataFrame, diffs: pd.DataFrame, labels: list[str]
                   ) -> pd.DataFrame:  # fmt: skip
    """A row per measure of the forest plot: the default rules' value with its interval, then
    each variant's difference with its interval and unit ('*': clear after Holm)."""
    m, d = _index(metrics), _index(diffs)
    base = labels[0]
    out = []
    for metric, n, pos, words in forest_rows(diffs):
        row = {"measure": words}
        b = m.get((base, metric, n, pos))
        row[f"{base} (value)"] = value_text(b) if b is not None else ""
        for rules in labels[1:]:
            r = d.get((rules, metric, n, pos))
            row[f"{rules} less {base}"] = diff_text(r) if r is not None else ""
        out.append(row)
    return pd.DataFrame(out)


def by_rules(metrics: pd.DataFrame, diffs: pd.DataFrame, labels: list[str],
             keys: list[tuple[str, str, int]]) -> pd.DataFrame:  # fmt: skip
    """A row per rule set: for each measure ``keys`` (metric, table size, position) its value
    with its interval and its difference to the default rules ('' where not measured)."""
    m, d = _index(metrics), _index(diffs)
    multi = metrics["n_players"].nunique() > 2
    named = {}  # a restriction's words from any rule set that measured it: one column each
    for metric, n, pos in keys:
        found = [m[(rules, metric, n, pos)] for rules in labels if (rules, metric, n, pos) in m]
        detail = str(found[0]["detail"]) if found and metric.startswith("restricted_") else ""
        named[(metric, n, pos)] = label(metric, n, pos, detail, multi)
    out = []
    for rules in labels:
        row = {"rules": rules}
        for metric, n, pos in keys:
            r = m.get((rules, metric, n, pos))
            words = named[(metric, n, pos)]
            row[words] = value_text(r) if r is not None else ""
            dr = d.get((rules, metric, n, pos))
            row[f"{words}: vs default"] = diff_text(dr) if dr is not None else ""
        out.append(row)
    df = pd.DataFrame(out)
    keep = [c for c in df.columns if c == "rules" or (df[c] != "").any()]
    return df[keep]


def seat_table(metrics: pd.DataFrame, diffs: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    """Per table size and rule set each seat's edge over the fair share (percentage points, with its
    interval), then each seat's difference to the default rules."""
    m, d = _index(metrics), _index(diffs)
    sizes = sorted({k[2] for k in m if k[1] == "seat"}, key=int)
    most = max((int(n) for n in sizes), default=0)
    out = []
    for n in sizes:
        for rules in labels:
            row: dict[str, object] = {"rules": rules, "n_players": int(n)}
            for p in range(most):
                r = m.get((rules, "seat", n, p))
                row[ordinal(p)] = value_text(r) if r is not None else ""
            for p in range(most):
                r = d.get((rules, "seat", n, p))
                row[f"vs default: {ordinal(p)}"] = diff_text(r) if r is not None else ""
            out.append(row)
    df = pd.DataFrame(out)
    return df[[c for c in df.columns if not len(df) or (df[c] != "").any()]]


def ladder_rows(ladder: pd.DataFrame) -> pd.DataFrame:
    """The skill ladder per rule set and step, in percentage points, with Holm's p-value, the
    size a step would need to be significant whatever the others, whether it counts as a
    level (``_level``) and the levels told apart at least (a one-sided bound, at least 95%
    sure) of the ladder's strategies."""
    if not len(ladder):
        return pd.DataFrame()
    return pd.DataFrame({
        "rules": ladder["rules"],
        "step": [f"{a} over {b}" for a, b in zip(ladder["upper"], ladder["lower"], strict=True)],
        f"difference ({PERCENTAGE_POINTS})": [_points(r) for _, r in ladder.iterrows()],
        "p (Holm)": p_column(ladder["p_holm"], ALPHA),  # the column in one form
        "significant": ["yes" if s else "no" for s in ladder["significant"]],
        f"significant from ({PERCENTAGE_POINTS})": [f"{100 * v:.1f}" if np.isfinite(v) else ""
                                      for v in ladder["needs"]],
        "a level": [_level(r) for _, r in ladder.iterrows()],
        "levels (at least, of)": [f"{a} of {b}" for a, b in
                                  zip(ladder["levels"], ladder["rungs"], strict=True)],
    })  # fmt: skip


def _level(r: pd.Series) -> str:
    """Whether a step counts as a level, and why not where it is significant: the other way
    (the rule set's order differs from the ladder's there), or up but not kept by Holm over
    the one-sided tests (``designer_measures.ladder_table``)."""
    if bool(r.get("level", False)):
        return "yes"
    if bool(r.get("reversed", False)):
        return "no: significant the other way"
    if bool(r["significant"]) and float(r["ci_low"]) > 0:
        return "no: not kept by Holm over the one-sided tests"
    return "no"


def _points(r: pd.Series) -> str:
    v, lo, hi = (100 * float(r[c]) for c in ("diff", "ci_low", "ci_high"))
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{fixed(v, sign='+')} ({no_interval(bool(r.get('no_spread', False)))})"
    k = apart_digits(lo, hi, shown("ladder_step").digits, 1.0)  # as the step's measure cell
    return f"{fixed(v, k, '+')} {interval(lo, hi, 1.0, digits=k, sign='+')}"  # signed bounds


def sweep_rows(table: pd.DataFrame) -> pd.DataFrame:
    """A row per value of the sweep: the main measures with their intervals."""
    keep = table[(table["n_players"] == "all") | ((table["metric"] == "seat")
                                                  & (table["position"] == 0))]  # fmt: skip
    keep = keep[keep["metric"] != "ladder_step"]
    out = []
    for value, grp in keep.groupby("value", sort=False):
        row = {"value": value, "rules": grp["rules"].iloc[0]}
        for _, r in grp.iterrows():
            shown = r.drop("value").rename({"estimate": "value"})
            row[str(r["measure"])] = value_text(shown)
        out.append(row)
    return pd.DataFrame(out)


def _worded(table: pd.DataFrame) -> Iterator[tuple[pd.Series, dict[str, str], str]]:
    """Each row of a measures table with its first two columns (its rule set, its measure in
    words) and what the measure compares."""
    multi = table["n_players"].nunique() > 2
    for _, r in table.iterrows():
        detail = str(r.get("detail", "") or "")
        measure = label(str(r["metric"]), str(r["n_players"]), int(r["position"]), detail, multi)
        yield r, {"rules": r["rules"], "measure": measure}, detail


def every_differences(diffs: pd.DataFrame) -> pd.DataFrame:
    """The differences table in words and units: the measure, both values, the difference
    with its interval, Holm's p-value (the column in one form, ``p_column``), whether it is
    clear."""
    rows = []
    for (r, words, _), p in zip(_worded(diffs), p_column(diffs["p_holm"], ALPHA), strict=True):
        rows.append({
            **words,
            "difference": diff_text(r, star=False),
            "p (Holm)": p,
            "clear": "yes" if r["significant"] else "no",
            "paired": r["method"],
        })  # fmt: skip
    return pd.DataFrame(rows)


def every_metrics(metrics: pd.DataFrame) -> pd.DataFrame:
    """Every measure per rule set in words and units with its interval and what it rests on."""
    rows = []
    for r, words, detail in _worded(metrics):
        rows.append({
            **words,
            "value": value_text(r),
            "compares": detail,
            "duplicate sets": int(r["deal_sets"]),
            "games": int(r["games"]),
        })  # fmt: skip
    return pd.DataFrame(rows)
