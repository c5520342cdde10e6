"""One difference between rule variants in words, shared by the comparison's findings
(``variants_text``) and the designers' measures (``designer_text``): its size, unit and
direction with its interval ('6.8 turns shorter [+6.5, +7.1]'), and the clear differences of a
set of measures, each in its own phrase."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .numbers import (
    PERCENTAGE_POINTS,
    TOO_FEW,
    apart_digits,
    difference_interval,
    fixed,
    in_percentage_points,
    no_spread_value,
    one_stratum,
)
from .variants_display import flat, shown

__all__ = [
    "EVERY_GAME",
    "RATES",
    "UNITS",
    "apart",
    "apart_ends",
    "in_brackets",
    "change",
    "clear_when",
    "diff_digits",
    "flat",
    "in_finished",
    "is_clear",
    "missing",
    "no_win_to_lose",
    "others",
    "points",
    "with_unit",
]


UNITS = {"turns": "turns", "rounds": "rounds", "runner_up": "cards", "match_games": "games",
         "skill_spread": PERCENTAGE_POINTS, "ladder_step": PERCENTAGE_POINTS,
         "lead_changes": "times"}  # fmt: skip
RATES = ("seat", "unfinished", "shared_wins", "best_vs_random", "drama", "comeback", "decided_at")
"""Measures shown in percent (shares, and means of shares of a game), their differences in
percentage points."""


def points(metric: str) -> bool:
    """A difference of win rates, shown in percentage points: the skill spread, a ladder step,
    the cost of a restriction."""
    return metric in ("skill_spread", "ladder_step") or metric.startswith("restricted_")


def with_unit(figure: str, unit: str) -> str:
    """A written figure with its unit ('6.8 turns'; '1.0 percentage point', singular for
    one), or the figure alone where it has none."""
    if unit == PERCENTAGE_POINTS:
        return in_percentage_points(figure)
    return f"{figure} {unit}".rstrip()


def in_brackets(lo: float, hi: float, k: int, missing: str = f"({TOO_FEW})") -> str:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return missing
    return f"[{fixed(lo, k)}, {fixed(hi, k)}]"


def apart(lo: float, hi: float, k: int, scale: float = 1.0) -> int:
    """The decimals of an interval (``k``, scaled by ``scale`` when written) whose bounds
    read apart, each bound other than 0 on its own side of 0, clear of 0 or across it
    (``numbers.apart_digits``): '[0.02, 0.04]' where one decimal writes '[0.0, 0.0]',
    '[-0.04, +0.20]' where it writes '[+0.0, +0.2]'. A level's bounds are ``floored`` first
    (``variants_display``): one at 0 asks for none."""
    return apart_digits(lo, hi, k, scale)


def diff_digits(r: pd.Series) -> int:
    """The decimals a sentence writes a difference with, and the two values beside it: those
    of the difference's table cell (``variants_display.diff_text``: the measure's own,
    ``shown``, more where a bound other than 0 would round onto 0, on either side of it, or
    the two bounds would read alike, ``apart``), so a sentence never rounds what the table
    beside it writes otherwise."""
    s = shown(str(r["metric"]))
    return apart(float(r["ci_low"]), float(r["ci_high"]), s.digits, s.scale)


def change(r: pd.Series, less: str, more: str) -> str:
    """A difference as its size, unit and direction, then its interval in that direction:
    '6.8 turns shorter [6.5, 7.1]', '2.0 percentage points less [1.4, 2.6]'. The words carry
    the direction, so the interval is of the size, unsigned (the table's '-6.8 [-7.1, -6.5]'
    turned round where the difference is a decrease; never '[+6.5, +7.1]' beside it, which
    reads as an increase); one that crosses 0 keeps its signs (``difference_interval``), as
    the size's direction is not shown then."""
    metric = str(r["metric"])
    d, lo, hi = float(r["diff"]), float(r["ci_low"]), float(r["ci_high"])
    size, lo, hi = (d, lo, hi) if d >= 0 else (-d, -hi, -lo)
    scale = 100.0 if metric in RATES or points(metric) else 1.0
    unit = PERCENTAGE_POINTS if scale == 100.0 else UNITS.get(metric, "")
    k = diff_digits(r)
    words = " ".join(w for w in (with_unit(fixed(scale * size, k), unit),
                                 more if d > 0 else less) if w)  # fmt: skip
    if not (np.isfinite(lo) and np.isfinite(hi)):  # why none: too few deals, or no spread
        return f"{words} ({missing(r, 'diff')})"
    if lo < 0:  # across 0: each bound on its own side, signed
        return f"{words} {difference_interval(lo, hi, scale, k)}"
    return f"{words} {in_brackets(scale * lo, scale * hi, k)}"


def missing(r: Any, col: str = "value") -> str:
    """Why a measure (or, ``col`` "diff", a difference) has no interval, in words: too few
    deals, or no spread between them: in every duplicate set where they are one stratum
    (its ``deal_sets`` and ``df``, ``one_stratum``), else within each table."""
    if not flat(r[col], r["se"], r["df"]):
        return TOO_FEW
    sets = r.get("deal_sets", np.nan) if hasattr(r, "get") else np.nan
    return no_spread_value(one_stratum(sets, r["df"]))


def is_clear(r: pd.Series | None) -> bool:
    return r is not None and bool(r["significant"])


def apart_ends(ladder: pd.DataFrame | None, rules: str, detail: str) -> str:
    """What the skill ladder (``designer_measures.ladder_table``) leaves open of the best and
    the worst a spread names (``detail``: 'low - random'): '; low not clearly ahead of greedy'
    where the step below that best was tested and is not significant (so too '; random not
    clearly behind greedy' at the bottom), '' where the steps tell them apart, were not
    tested or are not the ladder's ends. A best or worst is named bare only where its step
    says so."""
    steps = None if ladder is None else ladder[ladder["rules"] == rules].sort_values("step")
    best, _, worst = str(detail).partition(" - ")
    if steps is None or not len(steps) or not worst:
        return ""
    top, bottom = steps.iloc[0], steps.iloc[-1]
    notes = []
    if top["upper"] == best and _open(top):
        notes.append(f"{best} not clearly ahead of {top['lower']}")
    said = len(steps) == 1 and notes  # one step, said already from the top
    if bottom["lower"] == worst and _open(bottom) and not said:
        notes.append(f"{worst} not clearly behind {bottom['upper']}")
    return "".join(f"; {n}" for n in notes)


def _open(step: pd.Series) -> bool:
    """A ladder step tested and not significant (one untested, for too few deals or no
    spread, says why where its figure is written)."""
    return not step["significant"] and bool(np.isfinite(step["p_holm"]))


EVERY_GAME = " (over every game, an unfinished one nobody's win)"
"""How a restriction's detail ends where its cost counts every game, some unfinished (a file
written before ``designer_measures.FINISHED``): the words say so, as the others count the
finished games."""
IN_FINISHED = " in finished games"
"""What a win rate the skill measures count says of its games where some were unfinished:
the spread, the ladder's steps and a restriction's cost count the games someone won, as the
seats' edges do (``variants_sets.decided_sums``)."""


def in_finished(look: Any, rules: str, detail: str = "") -> str:
    """``IN_FINISHED`` where some game of ``rules`` ended unfinished (nobody's win, left out
    of the win rates it qualifies), else '' (every game counted: nothing to say); '' too for
    a measure whose ``detail`` says it counted every game (``EVERY_GAME``)."""
    r = look.m.get((rules, "unfinished", "all", -1))
    if r is None or not r["value"] > 0 or str(detail).endswith(EVERY_GAME):
        return ""
    return IN_FINISHED


def no_win_to_lose(who: str) -> str:
    """Why a restriction's cost is not measured under a rule set, in the findings' and the
    page's words alike."""
    return f"no replayed game was won by {who}, restricted or not, so there was no win to lose"


def clear_when(family: str) -> str:
    """What makes a difference clear (``reports.variants._diff_rows``), in the words of the
    findings and of the page alike: a difference called more or less is never one whose
    interval crosses 0."""
    return f"significant after Holm's correction over {family} and its interval excludes 0"


def others(look: Any, rules: str, base: str, phrases: dict) -> list[tuple[str, list[str]]]:
    """The clear differences of the measures ``phrases`` words (measure: (a decrease, its
    word), (an increase, its word), the figures), each with its metric."""
    out = []
    for metric, (less, more, figures) in phrases.items():
        key_v, key_b = (rules, metric, "all", -1), (base, metric, "all", -1)
        r = look.d.get(key_v)
        if not is_clear(r):
            continue
        what = less if r["diff"] < 0 else more
        # the values as the difference is written (not '0.0% against 0.0%'); the variant's,
        # with its interval, as its table cell at the least (never '[0.0, 0.3]' of 0.04%)
        k = max(diff_digits(r), look.cell_digits(key_v))
        shown = figures.format(v=look.shown(key_v, k=k), b=look.shown(key_b, bracket=False, k=k))
        out.append((f"{what[0]}: {shown}, {change(r, less[1], more[1])}", [metric]))
    return out
