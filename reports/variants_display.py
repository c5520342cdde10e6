"""How each measure of a comparison of rule variants is named and shown: its words, its unit,
the scale and digits of its value and of a difference (a share in percent, a difference of
shares in percentage points), for the charts, the tables and the CSV of a sweep alike."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from .clusters import Estimates
from .numbers import PP, apart_digits, difference_interval, fixed, in_percentage_points, interval

__all__ = ["Shown", "diff_figure", "diff_text", "flat", "floored", "label", "no_interval",
           "nonnegative", "ordinal", "shown", "value_text", "value_words", "whole"]  # fmt: skip


def flat(value: float, se: float, df: float) -> bool:
    """A standard error of zero on deals enough for an interval: every duplicate set gave the
    same value (a strategy that wins every game it sits in, say). That is no evidence that
    the value cannot vary, so no interval or test is stated on it (``Estimates.flat``, of one
    measure)."""
    one = Estimates(np.array([value], float), np.array([se], float), np.array([df], float),
                    np.zeros(1))  # fmt: skip
    return bool(one.flat()[0])


def _cell_digits(lo: float, hi: float, digits: int) -> int:
    """The decimals of a cell's interval whose bounds are already scaled (``apart_digits``):
    a difference's, and a level's once ``floored`` (a bound at 0 asks for none; one above 0
    that its decimals would write as 0 asks for more, as any bound of a difference does)."""
    return apart_digits(lo, hi, digits, 1.0)


def floored(*figures: float, top: float = np.inf) -> tuple[float, ...]:
    """Figures of a measure that is never below 0 (``nonnegative``) as written: any below 0 at
    0, and any above ``top`` at ``top`` (a share's whole, ``whole``; NaN kept). An interval
    reaching a hair below 0 of a count says no more than one from 0: cut at 0 it holds the
    true value as often, and its bounds read as a level's, unsigned, with the measure's
    decimals ('0.00 [0.00, 0.50] changes', never '-0.0001 [-0.0001, 0.5000] changes', which
    shows a side of 0 the measure has no values on); so a share's, cut at 100%: '99.0%
    [97.0, 100.0]', never '[97.0, 100.4]', a part larger than its whole."""
    return tuple(float(np.minimum(np.maximum(x, 0.0), top)) for x in figures)  # -0.0 at 0.0


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def ordinal(p: int) -> str:
    """A seat's position after the first player in words: 0 -> 'first', 7 -> '8th'."""
    return ORDINALS[p] if p < len(ORDINALS) else f"{p + 1}th"


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


def whole(metric: str) -> float:
    """The largest value a measure's figure takes as written (``shown``'s ``scale`` applied):
    a share's whole, 100 (its unit is one of percent: of games, of turns, of the game); no
    bound for another measure (a count; a difference of rates, ``PP``, is no share)."""
    s = shown(metric)
    return s.scale if s.unit.startswith("%") else np.inf


def nonnegative(metric: str) -> bool:
    """A level that counts or shares something, never below 0 (turns, cards, lead changes, a
    share of games): a unit other than ``PP``, whose measures are differences of rates, and
    known (a measure with no unit may lie either side of 0)."""
    return shown(metric).unit not in (PP, "")


def label(metric: str, n_players: str, position: int, detail: str = "", multi: bool = False
          ) -> str:  # fmt: skip
    """A measure in words, with its seat and table size: "first player's edge (4 players)",
    "turns per game (3 players)", "cost: never plays more than one card (weighted)"."""
    if metric == "seat":
        return f"{ordinal(position)} player's edge ({n_players} players)"
    at = f" ({n_players} players)" if multi and n_players != "all" else ""
    if metric.startswith("restricted_") and detail:
        who, _, what = detail.partition(": ")
        return f"cost: {what} ({who})"
    if metric == "ladder_step" and detail:
        return f"ladder step {detail.replace(' - ', ' over ')}"
    if metric == "skill_spread" and detail:
        return f"best less worst ({detail.replace(' - ', ' over ')})"
    return shown(metric).name + at


def no_interval(still: bool) -> str:
    """Why a cell has no interval, in its words: its deals showed no spread (``still``), or
    there are too few of them."""
    return "no spread within tables" if still else "too few deals"


def _why(r: pd.Series, col: str) -> str:
    """Why a row has no interval: too few deals, or none of them differing (``flat``)."""
    still = {"se", "df"} <= set(r.index) and flat(float(r[col]), float(r["se"]), float(r["df"]))
    return no_interval(still)


def _in_words(figure: str, unit: str) -> str:
    """A figure with its unit as a sentence writes it: the short ``PP`` of a cell spelled out
    ('+1.0 percentage point', singular for one), '6.8 turns', or the figure alone."""
    return in_percentage_points(figure) if unit == PP else f"{figure} {unit}".rstrip()


def _cell(text: str, unit: str, lo: float, hi: float, k: int, sign: str) -> str:
    """A table cell: the figure, its interval, then its unit, the one order of every cell
    ('+4.8 [+3.1, +6.6] pp', '6.8 [6.5, 7.0] turns'); where it has no interval, the figure
    and its unit. ``sign`` "+": a difference's, each bound on its own side of 0 ('[-0.0,
    +2.0]' of [-0.00004, +2.0], ``interval``)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{text} {unit}".rstrip()
    return f"{text} {interval(lo, hi, 1.0, digits=k, sign=sign)} {unit}".rstrip()


def value_text(r: pd.Series, words: bool = False) -> str:
    """A metrics row's value with its interval, in its unit: "43.9% [43.2, 44.6]",
    "+4.8 [+3.1, +6.6] pp" for a seat's edge, signed as every value in ``PP`` (a difference of
    rates: an edge, a spread, a cost; the page defines ``PP`` beside the table); with
    ``words``, as a sentence writes the same cell (``value_words``)."""
    s = shown(str(r["metric"]))
    v, lo, hi = (s.scale * float(r[c]) for c in ("value", "ci_low", "ci_high"))
    if nonnegative(str(r["metric"])):  # a level: never below 0 (a share: above 100%)
        v, lo, hi = floored(v, lo, hi, top=whole(str(r["metric"])))
    sign, k = "+" if s.unit == PP else "", _cell_digits(lo, hi, s.digits)
    figure, unit = fixed(v, k, sign), s.unit
    if unit.startswith("%"):
        figure, unit = f"{figure}%", ""
    text = _cell(figure, unit, lo, hi, k, sign)
    if words and unit == PP:  # the short unit spelled out, where a sentence names it
        text = _in_words(text.removesuffix(f" {PP}"), PP)
    return text if np.isfinite(lo) and np.isfinite(hi) else f"{text} ({_why(r, 'value')})"


def value_words(r: pd.Series) -> str:
    """A metrics row's value as a sentence writes it: its table cell (``value_text``), the
    same figure, sign, interval and digits, with the short ``PP`` spelled out: "+4.8 [+3.1,
    +6.6] percentage points", "44.0 [43.3, 44.6] turns", "12.3% [10.1, 14.5]"."""
    return value_text(r, words=True)


def diff_figure(r: pd.Series) -> str:
    """A differences row's signed size in its unit for a sentence, with the interval its
    table cell states (``diff_text``), if any: "+100.0 percentage points" of a difference
    every duplicate set gave alike, "+100.0 percentage points [+66.8, +100.0]" of two shares
    with no spread, whose interval is Newcombe's (``variants_metrics.difference_intervals``)."""
    s = shown(str(r["metric"]))
    d, lo, hi = (s.scale * float(r[c]) for c in ("diff", "ci_low", "ci_high"))
    k = _cell_digits(lo, hi, s.digits)
    text = _in_words(fixed(d, k, "+"), s.diff_unit)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return text
    return f"{text} {difference_interval(lo, hi, 1.0, k)}"


def diff_text(r: pd.Series, star: bool = True) -> str:
    """A differences row as a table cell: its signed size with its interval and unit, '*'
    when clear: "-6.9 [-7.5, -6.3] turns *", "+1.0 [+0.5, +1.5] pp"."""
    s = shown(str(r["metric"]))
    d, lo, hi = (s.scale * float(r[c]) for c in ("diff", "ci_low", "ci_high"))
    k = _cell_digits(lo, hi, s.digits)  # no bound other than 0 written as 0.0, either side
    text = _cell(fixed(d, k, "+"), s.diff_unit, lo, hi, k, "+")
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{text} ({_why(r, 'diff')})"
    return text + (" *" if star and bool(r["significant"]) else "")
