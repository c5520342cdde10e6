"""What a tuning recommends, in one line: the tuned parameters only where the verification
found them better than the start ("improved"); otherwise the start, and why.

``best.txt`` and ``tune.json``'s ``best_spec``/``best`` hold what this line recommends, so a
reader who takes the file takes what the verdict says; the parameters the search found and
the verification played are kept apart, as ``tuned_spec``/``tuned``."""

from __future__ import annotations

from typing import Any

import numpy as np

from reports.numbers import counted, p_text

from .effect import STEP_UNITS
from .verify import Verification

__all__ = ["headline", "recommends_tuned"]


def recommends_tuned(v: Verification) -> bool:
    """Does the verification recommend the tuned parameters over the start? Only where their
    paired difference's 95% interval lies above zero; worse, not shown better, too few deals
    to tell or no game differing: the start stays."""
    return v.verdict == "improved"


def _difference(v: Verification) -> str:
    """The paired difference in percentage points with its interval and p-value, or no
    interval in words: '-1.2 percentage points [-2.0, -0.4], p = 0.003'."""
    diff = v.difference()
    return diff if not np.isfinite(v.p_value) else f"{diff}, {p_text(v.p_value)}"


def _no_effect(result: Any) -> str:
    """The line for a search whose every candidate won what the start won. Steps within
    ``STEP_UNITS`` rounding units are called too small only where no parameter is a whole
    number: a step of one or two whole units changes the value the strategy plays."""
    s, names = result.settings, ", ".join(result.start)
    same = f"no candidate's wins differed from the start's over {s['games_used']:,} games"
    whole = [k for k, v in result.start.items() if isinstance(v, int) and not isinstance(v, bool)]
    if not s.get("tiny_steps"):
        return f"{same}: the parameter(s) {names} seem to change no decision"
    near = (
        f"every candidate lay within {STEP_UNITS} rounding steps of the start in each parameter "
        f"(a first step, --sigma, of {s['sigma0']} of each range)"
    )
    if whole:
        return (
            f"{same}: the parameter(s) {names} seem to change no decision so near the start; "
            f"{near}, and a larger --sigma tries values farther from it"
        )
    return (
        f"{same}, but {near}: too small a step to change a decision, so nothing is known of "
        f"what the parameter(s) {names} change; raise --sigma"
    )


def headline(result: Any) -> str:
    """What was found and what ``best.txt`` holds, never calling "best" parameters that were
    not shown to play better than the start (``result``: a ``TuneResult``)."""
    v, s, spec, tuned = result.verification, result.settings, result.spec, result.tuned_spec
    names = ", ".join(result.start)
    if s.get("no_win"):
        return (
            f"no candidate can be told from the start: {spec} won none of the "
            f"{s['games_used']:,} games of the search, with the starting parameters or any "
            f"candidate's, so its win rates cannot tell the parameter(s) {names} apart; "
            "best.txt holds the start"
        )
    if s.get("untried"):
        return (
            "no candidate had parameters other than the start's: every step the search drew "
            f"rounded back to the starting values (a first step, --sigma, of {s['sigma0']} of "
            f"each range), so the parameter(s) {names} were never tried; raise --sigma"
        )
    if s.get("no_effect"):
        return _no_effect(result)
    if tuned == spec:  # the selection kept the start's values (the start itself is not
        # replayed there, and a candidate may have beaten it in the search)
        return (
            f"no better parameters found: of the {counted(s['finalists'], 'finalist')} "
            f"replayed on common deals, none scored above the starting parameters ({spec})"
        )
    kept = f"best.txt holds the start ({spec}); the tuned ones are tuned_spec in tune.json"
    if v.games_differing == 0:
        return (
            f"no better parameters found: {tuned} won exactly the games the start won over "
            f"{v.tuned.games:,} verification games, so {kept}"
        )
    if recommends_tuned(v):
        return f"best: {result.best_spec}"
    deals = counted(v.units, "fresh deal")
    why = {
        "worse": f"did worse than the start on {deals} ({_difference(v)})",
        "too few deals to tell": f"were not shown better: {deals} "
        f"{'is' if v.units == 1 else 'are'} too few to tell",
    }.get(v.verdict, f"were not shown better than the start on {deals} ({_difference(v)})")
    return f"keep the start: the tuned parameters ({tuned}) {why}, so {kept}"
