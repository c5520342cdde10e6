"""The answer of a gauntlet run: the strategy's win rate, the baseline's on the same deals and
seats, and their paired difference in one sentence ("my_bot beats weighted by 3.1 points
[2.2, 4.0] against three taker")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .clusters import seat_sums
from .data import ReportError, as_run
from .findings import interval, p_text, pct, points
from .significance import method, paired
from .tables import summary

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def design(data: Any) -> dict[str, Any] | None:
    """The gauntlet (strategy, baseline, field) a run's manifest names, or None for other
    runs."""
    run = as_run(data)
    spec = run.manifest.get("spec", {}) if isinstance(run.manifest, dict) else {}
    d = spec.get("gauntlet") if isinstance(spec, dict) else None
    return d if isinstance(d, dict) else None


def gauntlet(data: Any) -> pd.DataFrame:
    """One row: strategy and baseline win rates with their 95% intervals (the summary's), the
    paired difference (strategy - baseline, duplicate set by duplicate set: the baseline's
    copy of a table is dealt the strategy's cards) with its 95% t interval and p-value, the
    field, table size, games per side and the duplicate sets paired (``deals``). Raises
    ReportError for a run that is not a gauntlet."""
    run = as_run(data)
    d = design(run)
    if d is None:
        raise ReportError("not a gauntlet run: its manifest names no gauntlet")
    g = run.games
    a, b = g.labels.index(d["strategy"]), g.labels.index(d["baseline"])
    r = paired(g, seat_sums(g, g.n_strategies), a, b)
    if r is None:
        raise ReportError("the gauntlet's strategy and baseline never played the same deals")
    summ = summary(g).set_index("strategy")
    mine, base = summ.loc[d["strategy"]], summ.loc[d["baseline"]]
    n_players = int(np.bincount(g.n_players.astype(np.int64)).argmax())
    row = {
        "strategy": d["strategy"],
        "baseline": d["baseline"],
        "field": ",".join(d["field"]),
        "n_players": n_players,
        "games": int(mine["games"]),
        "deals": r["units"],
        "df": r["df"],
        "method": method(g),
        "win_rate": mine["win_rate"],
        "ci_low": mine["ci_low"],
        "ci_high": mine["ci_high"],
        "baseline_win_rate": base["win_rate"],
        "baseline_ci_low": base["ci_low"],
        "baseline_ci_high": base["ci_high"],
        "diff": r["diff"],
        "diff_ci_low": r["ci_low"],
        "diff_ci_high": r["ci_high"],
        "p_value": r["p_value"],
    }
    seq = run.manifest.get("sequential") if isinstance(run.manifest, dict) else None
    if isinstance(seq, dict):  # a sequential gauntlet: its decision, as the command said it
        row.update({f"sequential_{k}": seq.get(k) for k in SEQUENTIAL_KEYS})
    return pd.DataFrame([row])


SEQUENTIAL_KEYS = ("decision", "games_per_side", "llr", "lower", "upper", "margin", "alpha",
                   "beta", "batches")  # fmt: skip


def sequential_sentence(r: pd.Series) -> str | None:
    """The sequential test's decision in words, for a row of a sequential gauntlet."""
    if "sequential_decision" not in r or not isinstance(r["sequential_decision"], str):
        return None
    llr = float(r["sequential_llr"])  # "inf" and "-inf" (JSON has no infinity) read as floats
    m = float(r["sequential_margin"])
    points = f"{m:g} point{'s' if m != 1 else ''}"
    strategy, baseline = r["strategy"], r["baseline"]
    decision = r["sequential_decision"]
    if decision == "better":
        verdict = f"{strategy} is better than {baseline} by at least {points}"
    elif decision == "not better":
        verdict = f"{strategy} is not better than {baseline} by {points}"
    else:
        verdict = f"undecided whether {strategy} is better than {baseline} by {points}"
    n = int(r["sequential_batches"])
    return (
        f"Sequential test: {verdict} ({int(r['sequential_games_per_side']):,} games per side, "
        f"{n} batch{'es' if n != 1 else ''}; LLR {llr:.2f}, bounds "
        f"{float(r['sequential_lower']):.2f} and {float(r['sequential_upper']):.2f}; alpha "
        f"{float(r['sequential_alpha']):g}, beta {float(r['sequential_beta']):g})."
    )


def field_words(field: list[str], n_players: int) -> str:
    """'three taker' for one field strategy, else 'a field of greedy and taker'."""
    seats = n_players - 1
    if len(field) == 1:
        count = NUMBERS[seats] if seats < len(NUMBERS) else str(seats)
        return f"{count} {field[0]}"
    names = ", ".join(field[:-1]) + f" and {field[-1]}"
    return f"a field of {names}"


def sentences(table: pd.DataFrame) -> list[str]:
    """The gauntlet's answer in words: the two win rates, then the paired difference."""
    r = table.iloc[0]
    against = field_words(r["field"].split(","), int(r["n_players"]))
    rates = (
        f"{r['strategy']} wins {pct(r['win_rate'])} {interval(r['ci_low'], r['ci_high'])} of "
        f"{int(r['games']):,} games against {against}; {r['baseline']}, in the same seats on the "
        f"same deals, wins {pct(r['baseline_win_rate'])} "
        f"{interval(r['baseline_ci_low'], r['baseline_ci_high'])}."
    )
    ci = interval(r["diff_ci_low"], r["diff_ci_high"])
    how = f"(paired over {int(r['deals']):,} deals, {p_text(r['p_value'])})"
    if r["diff_ci_low"] > 0:
        verdict = f"{r['strategy']} beats {r['baseline']} by {points(r['diff'])} {ci} {how}."
    elif r["diff_ci_high"] < 0:
        verdict = (
            f"{r['strategy']} loses to {r['baseline']}: the difference is "
            f"{100 * r['diff']:+.1f} points {ci} {how}."
        )
    else:
        verdict = (
            f"No significant difference between {r['strategy']} and {r['baseline']}: "
            f"{100 * r['diff']:+.1f} points {ci} {how}."
        )
    seq = sequential_sentence(r)
    return [rates, verdict] + ([seq] if seq else [])
