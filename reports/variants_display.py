"""How each measure of a comparison of rule variants is named and shown: its words, its unit,
the scale and digits of its value and of a difference (a share in percent, a difference of
shares in percentage points), for the charts, the tables and the CSV of a sweep alike."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from .numbers import PP, fixed, in_percentage_points
from .variants_words import flat

__all__ = ["Shown", "diff_figure", "diff_text", "label", "shown", "value_text"]

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


class Shown(NamedTuple):
    """A measure's name, the unit of its value and of a difference, scale and digits."""

    name: str
    unit: str
    diff_unit: str
    scale: float
    digits: int


SHOWN = {
    "turns": Shown("turns per game", "turns", "turns", 1.0, 1),
    "rounds": Shown("rounds per game", "rounds", "rounds", 1.0, 2),
    "seat": Shown("edge over the fair share", PP, PP, 100.0, 1),
    "skill_spread": Shown("best less worst win rate", PP, PP, 100.0, 1),
    "best_vs_random": Shown("best ahead of random", "%", PP, 100.0, 1),
    "runner_up": Shown("runner-up's cards left", "cards", "cards", 1.0, 2),
    "unfinished": Shown("unfinished games", "%", PP, 100.0, 1),
    "shared_wins": Shown("shared match wins", "%", PP, 100.0, 1),
    "match_games": Shown("games per match", "games", "games", 1.0, 1),
    "lead_changes": Shown("lead changes per game", "changes", "changes", 1.0, 2),
    "drama": Shown("turns the winner trails", "% of turns", PP, 100.0, 1),
    "comeback": Shown("winner behind at half-time", "% of games", PP, 100.0, 1),
    "decided_at": Shown("winner leads for good from", "% of the game", PP, 100.0, 1),
    "ladder_step": Shown("ladder step", PP, PP, 100.0, 1),
    "restricted": Shown("cost of a restriction", PP, PP, 100.0, 1),
}
"""Per metric (``restricted`` stands for every ``restricted_<name>``)."""


def shown(metric: str) -> Shown:
    key = "restricted" if metric.startswith("restricted_") else metric
    return SHOWN.get(key, Shown(metric.replace("_", " "), "", "", 1.0, 2))


def label(metric: str, n_players: str, position: int, detail: str = "", multi: bool = False
          ) -> str:  # fmt: skip
    """A measure in words, with its seat and table size: "first player's edge (4 players)",
    "turns per game (3 players)", "cost: never plays more than one card (weighted)"."""
    if metric == "seat":
        who = ORDINALS[position] if position < len(ORDINALS) else f"{position + 1}th"
        return f"{who} player's edge ({n_players} players)"
    at = f" ({n_players} players)" if multi and n_players != "all" else ""
    if metric.startswith("restricted_") and detail:
        who, _, what = detail.partition(": ")
        return f"cost: {what} ({who})"
    if metric == "ladder_step" and detail:
        return f"ladder step {detail.replace(' - ', ' over ')}"
    if metric == "skill_spread" and detail:
        return f"best less worst ({detail.replace(' - ', ' over ')})"
    return shown(metric).name + at


def _why(r: pd.Series, col: str) -> str:
    """Why a row has no interval: too few deals, or none of them differing (``flat``)."""
    if {"se", "df"} <= set(r.index) and flat(float(r[col]), float(r["se"]), float(r["df"])):
        return "no spread between deals"
    return "too few deals"


def _in_words(figure: str, unit: str) -> str:
    """A figure with its unit as a sentence writes it: the short ``PP`` of a cell spelled out
    ('+1.0 percentage point', singular for one), '6.8 turns', or the figure alone."""
    return in_percentage_points(figure) if unit == PP else f"{figure} {unit}".rstrip()


def _cell(text: str, unit: str, lo: float, hi: float, k: int, sign: str) -> str:
    """A table cell: the figure, its interval, then its unit, the one order of every cell
    ('+4.8 [+3.1, +6.6] pp', '6.8 [6.5, 7.0] turns'); where it has no interval, the figure
    and its unit."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{text} {unit}".rstrip()
    return f"{text} [{fixed(lo, k, sign)}, {fixed(hi, k, sign)}] {unit}".rstrip()


def value_text(r: pd.Series) -> str:
    """A metrics row's value with its interval, in its unit: "43.9% [43.2, 44.6]",
    "+4.8 [+3.1, +6.6] pp" for a seat's edge (the page defines ``PP`` beside the table)."""
    s = shown(str(r["metric"]))
    v, lo, hi = (s.scale * float(r[c]) for c in ("value", "ci_low", "ci_high"))
    sign = "+" if r["metric"] == "seat" else ""
    figure, unit = fixed(v, s.digits, sign), s.unit
    if unit.startswith("%"):
        figure, unit = f"{figure}%", ""
    text = _cell(figure, unit, lo, hi, s.digits, sign)
    return text if np.isfinite(lo) and np.isfinite(hi) else f"{text} ({_why(r, 'value')})"


def diff_figure(r: pd.Series) -> str:
    """A differences row's signed size in its unit for a sentence, without its interval:
    "+100.0 percentage points" (of a difference every duplicate set gave alike, which has
    none)."""
    s = shown(str(r["metric"]))
    return _in_words(fixed(s.scale * float(r["diff"]), s.digits, "+"), s.diff_unit)


def diff_text(r: pd.Series, star: bool = True) -> str:
    """A differences row as a table cell: its signed size with its interval and unit, '*'
    when clear: "-6.9 [-7.5, -6.3] turns *", "+1.0 [+0.5, +1.5] pp"."""
    s = shown(str(r["metric"]))
    d, lo, hi = (s.scale * float(r[c]) for c in ("diff", "ci_low", "ci_high"))
    text = _cell(fixed(d, s.digits, "+"), s.diff_unit, lo, hi, s.digits, "+")
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{text} ({_why(r, 'diff')})"
    return text + (" *" if star and bool(r["significant"]) else "")
