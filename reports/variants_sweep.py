"""A sweep over one rule key (``leaves variants --sweep KEY=V1,V2,...``): every measure at
each value with its 95% interval and its difference to the default rules (paired over the same
deal seeds), as one table (``variants_sweep.csv``) and one chart of each measure against the
value (``reports.variants_forest.sweep``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .variants_display import label
from .variants_forest import along_axis

__all__ = ["SWEEP_COLUMNS", "Sweep", "sweep_table"]

SWEEP_COLUMNS = ["key", "value", "x", "rules", "metric", "n_players", "position", "measure",
                 "detail", "estimate", "ci_low", "ci_high", "se", "df", "diff", "diff_ci_low",
                 "diff_ci_high", "p_holm", "significant", "default"]  # fmt: skip


@dataclass(frozen=True)
class Sweep:
    """The key swept and its points: (the value as given, the label of the rule set played
    there; the default rules' label where the value plays as today's at every table size).
    ``todays``: per value, the table sizes at which it plays as today's rules (with
    ``--players 3,5``, ``hand_size=12`` at 3 players and ``hand_size=10`` at 5): a variant's
    run, whose games at those sizes are today's."""

    key: str
    points: list[tuple[str, str]]
    todays: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def plays_today(self, value: str, rules: str, base: str, n_players: str) -> bool:
        """Whether a row of the value (its rule set ``rules``, today's ``base``) at
        ``n_players`` ('all' or a size) is today's rules: the default run's, or a size at
        which the value plays as today's."""
        if rules == base:
            return True
        sizes = {str(n) for n in self.todays.get(value, ())}
        return str(n_players) != "all" and str(n_players) in sizes

    @property
    def numeric(self) -> bool:
        """Every value a number (the chart's axis is then to scale)."""
        try:
            [float(v) for v, _ in self.points]
        except ValueError:
            return False
        return True


def sweep_table(metrics: pd.DataFrame, diffs: pd.DataFrame, sweep: Sweep,
                base: str) -> pd.DataFrame:  # fmt: skip
    """One row per value of the sweep and measure: the estimate with its 95% interval (and
    its standard error and degrees of freedom, which tell why one has none), the difference
    to the default rules (``base``) with its interval, Holm's p-value and whether it is clear
    (0 with no interval where the value plays as today's rules: ``default``, per table size
    where a run mixes them, ``Sweep.plays_today``); ``x``: the value as a
    number where every value is one. The rows come in the page's and the chart's order
    (``along_axis``: from the smallest value up where every value is a number), so the CSV
    reads as the page does, whatever order the sweep gave its values in."""
    d = diffs.set_index(["rules", "metric", "n_players", "position"])
    multi = metrics["n_players"].nunique() > 1 and (metrics["n_players"] != "all").any()
    out = []
    for value, rules in sweep.points:
        x = float(value) if sweep.numeric else np.nan
        for _, r in metrics[metrics["rules"] == rules].iterrows():
            key = (rules, r["metric"], r["n_players"], int(r["position"]))
            row = {"key": sweep.key, "value": value, "x": x, "rules": rules,
                   "metric": r["metric"], "n_players": r["n_players"],
                   "position": int(r["position"]),
                   "measure": label(str(r["metric"]), str(r["n_players"]), int(r["position"]),
                                    str(r.get("detail", "") or ""), multi),
                   "detail": r.get("detail", ""), "estimate": r["value"],
                   "ci_low": r["ci_low"], "ci_high": r["ci_high"], "se": r["se"], "df": r["df"],
                   "default": sweep.plays_today(value, rules, base, r["n_players"])}  # fmt: skip
            if row["default"]:  # today's games: no difference to them
                row.update(diff=0.0, diff_ci_low=np.nan, diff_ci_high=np.nan, p_holm=np.nan,
                           significant=False)  # fmt: skip
            elif key in d.index:
                dr = d.loc[key]
                row.update(diff=dr["diff"], diff_ci_low=dr["ci_low"], diff_ci_high=dr["ci_high"],
                           p_holm=dr["p_holm"], significant=bool(dr["significant"]))  # fmt: skip
            out.append(row)
    return along_axis(pd.DataFrame(out, columns=SWEEP_COLUMNS)).reset_index(drop=True)
