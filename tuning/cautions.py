"""What a tuning's result tells less than it seems to: the lines ``tune`` adds as warnings
(a verification too small or too wide to tell the difference the search found, a search whose
parameters changed nothing, candidates scored on too few games to be ranked, a verification arm
with forfeited games, a strategy that drew from the global random state), kept apart from the
search that plays the games."""

from __future__ import annotations

import contextlib
import math
import warnings as python_warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from reports.numbers import counted, fixed, in_percentage_points, level_digits
from tournaments.notices import not_replayed

from .checkpoint import VERIFY
from .verify import Verification

MIN_VERIFY_UNITS = 10
"""Fewer paired deals than this and a verification that found no difference is too small to
tell anything (one that found one says so, its interval's width aside)."""

WIDE_VERIFY = 0.05
"""A verification interval wider than this either side of its difference (5 percentage points of
win rate) cannot tell the differences tuning usually finds."""


PAIRED_SHARE = 0.25
"""The share of two independent win rates' variance left to the difference between two
candidates on common deals, at most: an allowance generous to the search (its candidates play
the same deals, so many games go alike), under which a candidate's games still tell apart a
difference of ``WIDE_VERIFY``, the size tuning usually finds, or the search cannot rank."""


def coarse_search(rows: Sequence[dict[str, Any]], games: int, from_budget: bool) -> list[str]:
    """One line where a candidate's ``games`` cannot tell apart differences of ``WIDE_VERIFY``
    (``rows``: the search's evaluations; the start's pooled win rate ``p`` gives the spread):
    the 95% half-width of two candidates' difference, 1.96 sqrt(2 p (1 - p) / games *
    ``PAIRED_SHARE``), wider than it, so the search ranked its candidates by chance as much
    as by play (``from_budget``: the games were worked out from the budget)."""
    start = [r for r in rows if r["kind"] == "start"]
    wins, played = sum(int(r["wins"]) for r in start), sum(int(r["games"]) for r in start)
    if not played or not 0 < wins < played:
        return []  # no spread to tell: said by the lines of no win (tuning.effect)
    p = wins / played
    one = 1.96 * math.sqrt(p * (1 - p) / games)
    apart = one * math.sqrt(2 * PAIRED_SHARE)
    if apart <= WIDE_VERIFY:
        return []
    raise_ = "--budget" if from_budget else "--candidate-games"
    return [
        f"each candidate's win rate rests on {counted(games, 'game')} (+/-"
        f"{in_percentage_points(fixed(100 * one, 0))}): two candidates "
        f"{in_percentage_points(fixed(100 * WIDE_VERIFY, 0))} apart cannot be told apart "
        f"(their difference's 95% interval is +/-{fixed(100 * apart, 1)} even if common deals "
        f"leave {PAIRED_SHARE:g} of its variance), so the search could not rank its "
        f"candidates by differences that size; raise {raise_}"
    ]


def warnings(v: Verification | None, no_effect: bool, names: Sequence[str],
              from_budget: bool = True) -> list[str]:  # fmt: skip
    """One line for each reason the result tells less than it seems to (``from_budget``: the
    verification's size was worked out from the budget, so a larger budget enlarges it). No
    verification (``v`` None: the search came back to the start) has no size to warn of: no
    number of games tells a spec from itself."""
    out = []
    if no_effect:
        out.append(
            f"the parameter(s) {', '.join(names)} changed no decision the win counts show: "
            "every candidate won as many games as the start on its generation's deals, every "
            "finalist as many as the others; try a larger first step (--sigma) or wider "
            "ranges in the strategy's tunable, or check that the strategy reads them"
        )
    return out if v is None else out + _verify_size(v, from_budget)


def _verify_size(v: Verification, from_budget: bool) -> list[str]:
    """A line where the verification is too small to tell anything, or its interval too wide
    to tell the differences tuning usually finds (``warnings``)."""
    raise_ = "--verify-games or --budget" if from_budget else "--verify-games"
    out = []
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


FORFEITED = ("ended by a forfeit{first}: nobody wins such a game, so every win rate counts it "
             "as not won; fix the strategy that raised")  # fmt: skip
"""The words of every forfeit warning of a tuning, after what ended so (``{first}``: which)."""


def forfeit_warnings(out: Path, rows: Sequence[dict[str, Any]] = ()) -> list[str]:
    """One line where games of the search or the selection (``rows``) ended by a strategy
    raising (``search_forfeits``), then one per verification arm whose games did (a forfeit:
    nobody wins it, so the win rates count it as not won), said rather than left silent."""
    from tournaments.run_state import run_state  # start-up: read once the runs are played

    lines = search_forfeits(rows)
    for arm in ("tuned", "start"):
        state = run_state(out / VERIFY / arm)
        if state is None or not state.forfeited:
            continue
        f = state.first or {}
        first = f" (the first, game {f['game']}: {f.get('error')})" if "game" in f else ""
        lines.append(f"{state.forfeited:,} of {counted(state.games, 'game')} of the {arm} arm "
                     + FORFEITED.format(first=first))  # fmt: skip
    return lines


def search_forfeits(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One line where games of the search or the selection (``rows``: every evaluation, in
    the order played; ``forfeits`` each, none in an earlier version's saved rows) ended by a
    forfeit: a candidate that raised scores as one that lost, and the search ranks it so."""
    hit = [r for r in rows if r.get("forfeits")]
    if not hit:
        return []
    lost = sum(int(r["forfeits"]) for r in hit)
    games = sum(int(r["games"]) for r in rows)
    g = hit[0]
    where = "the selection" if g.get("kind") == "finalist" else f"generation {g['generation']}"
    first = (f" ({len(hit):,} of the {counted(len(rows), 'evaluation')}, counted in "
             f"candidates.csv's forfeits; the first, in {where}: {g['spec']})")  # fmt: skip
    return [f"{lost:,} of {counted(games, 'game')} of the search and the selection "
            + FORFEITED.format(first=first)]  # fmt: skip


DREW = not_replayed(("",), ()).split(" (", 1)[0].strip()
"""What the warning of a strategy that drew from the global random state says of it
(``tournaments.notices.not_replayed``, its one wording): 'draws from the global random state'."""


@contextlib.contextmanager
def noticed(state: Any) -> Iterator[list[str]]:
    """The block's play, with each warning shown that a strategy drew from the global random
    state (``DREW``; a tuning's runs say each class once, ``runs_as_one``) kept in
    ``state.notices`` (the saved tuning's: tune.json lists them, a resume that does not play
    again what gave them included), once; yields those shown here, as they come, which the
    result's account does not repeat (``TuneResult.shown``). Shown as before: this only
    watches Python's ``showwarning``, so a warning filtered out is not kept either."""
    shown: list[str] = []
    with python_warnings.catch_warnings():  # puts back the showwarning of before
        before = python_warnings.showwarning

        def show(message: Any, *args: Any, **kwargs: Any) -> None:
            line = str(message)
            if DREW in line:
                shown.append(line)
                if line not in state.notices:
                    state.notices = (*state.notices, line)
            before(message, *args, **kwargs)

        python_warnings.showwarning = show
        yield shown
