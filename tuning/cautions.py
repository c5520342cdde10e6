"""What a tuning's result tells less than it seems to: the lines ``tune`` adds as warnings
(a verification too small or too wide to tell the difference the search found, a search whose
parameters changed nothing, a verification arm with forfeited games), kept apart from the
search that plays the games."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from reports.numbers import counted, fixed, in_percentage_points, level_digits

from .verify import Verification

MIN_VERIFY_UNITS = 10
"""Fewer paired deals than this and a verification that found no difference is too small to
tell anything (one that found one says so, its interval's width aside)."""

WIDE_VERIFY = 0.05
"""A verification interval wider than this either side of its difference (5 percentage points of
win rate) cannot tell the differences tuning usually finds."""


def warnings(v: Verification, no_effect: bool, names: Sequence[str],
              from_budget: bool = True) -> list[str]:  # fmt: skip
    """One line for each reason the result tells less than it seems to (``from_budget``: the
    verification's size was worked out from the budget, so a larger budget enlarges it)."""
    raise_ = "--verify-games or --budget" if from_budget else "--verify-games"
    out = []
    if no_effect:
        out.append(
            f"the parameter(s) {', '.join(names)} changed no decision the win counts show: "
            "every candidate won as many games as the start on its generation's deals, every "
            "finalist as many as the others; try a larger first step (--sigma) or wider "
            "ranges in the strategy's tunable, or check that the strategy reads them"
        )
    width = (v.diff_high - v.diff_low) / 2
    if v.games_differing == 0:  # identical arms: a zero-width interval, so the arms' own
        width = max((a.ci_high - a.ci_low) / 2 for a in (v.tuned, v.start))
    small = v.units < MIN_VERIFY_UNITS or not (np.isfinite(width) or v.flat)
    if small and v.verdict not in ("improved", "worse"):  # a test found one: not "nothing"
        out.append(
            f"the verification is too small to tell anything ({counted(v.units, 'deal')}, "
            f"{counted(v.tuned.games, 'game')} an arm): raise {raise_}"
        )
    elif width > WIDE_VERIFY:  # written on its side of the limit: 5.004 never as '5.0'
        k = level_digits((width,), WIDE_VERIFY, 1, 100.0)
        out.append(
            f"the verification's interval is +/-{in_percentage_points(fixed(100 * width, k))} "
            f"wide ({v.units:,} deals): only a larger difference would show; raise {raise_}"
        )
    return out


def forfeit_warnings(out: Path) -> list[str]:
    """One line per verification arm whose games a strategy ended by raising (a forfeit:
    nobody wins it, so the win rates count it as not won), said rather than left silent."""
    from tournaments.run_state import run_state  # start-up: read once the runs are played

    lines = []
    for arm in ("tuned", "start"):
        state = run_state(out / "verify" / arm)
        if state is None or not state.forfeited:
            continue
        f = state.first or {}
        first = f" (the first, game {f['game']}: {f.get('error')})" if "game" in f else ""
        lines.append(f"{state.forfeited:,} of {counted(state.games, 'game')} of the {arm} arm "
                     f"ended by a forfeit{first}: nobody wins such a game, so every win rate "
                     f"counts it as not won; fix the strategy that raised")  # fmt: skip
    return lines
