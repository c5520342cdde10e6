"""Did the search try other parameters, did they change a game, and did any game give a win to
tell them by? Read from its evaluations (the rows of ``candidates.csv``): where not, no
candidate can be called better, and the result says which it was."""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["STEP_UNITS", "no_effect", "no_win", "tiny_steps", "untried"]

STEP_UNITS = 2
"""Candidates no farther from the start than this many rounding units in every parameter took
steps too small to be expected to change a decision: a search of them that changed no win
says the step was too small, not that the parameters do nothing."""


def no_effect(rows: list[dict[str, Any]]) -> bool:
    """True when every candidate won exactly what its generation's start won, and every
    finalist alike: on common deals, the parameters then changed no count of wins (whether
    they changed a decision, the counts cannot say)."""
    df = pd.DataFrame(rows)
    start = df[df["kind"] == "start"].set_index("generation")["wins"]
    cand = df[df["kind"] == "candidate"]
    same = (cand["wins"].to_numpy() == start.loc[cand["generation"]].to_numpy()).all()
    return bool(same) and df.loc[df["kind"] == "finalist", "wins"].nunique() <= 1


def untried(rows: list[dict[str, Any]], start: dict[str, Any]) -> bool:
    """True when every candidate the search drew had the ``start`` values (each step rounded
    back to them): no other parameters were tried, so nothing is known of their effect."""
    cand = pd.DataFrame(rows)
    cand = cand[cand["kind"] == "candidate"]
    return all((cand[name] == value).all() for name, value in start.items())


def no_win(rows: list[dict[str, Any]]) -> bool:
    """True when no evaluation won a game: the start and every candidate scored 0, so equal
    scores say nothing of what the parameters change (a field never beaten, or rules under
    which games end with no winner)."""
    return all(int(r["wins"]) == 0 for r in rows)


def tiny_steps(rows: list[dict[str, Any]], start: dict[str, Any], units: dict[str, float]) -> bool:
    """True when every candidate the search drew lay within ``STEP_UNITS`` rounding ``units``
    of the ``start`` values in every parameter (``--sigma`` finer than a step or two of the
    rounding): such steps tell nothing of what the parameters do over their ranges."""
    cand = pd.DataFrame(rows)
    cand = cand[cand["kind"] == "candidate"]
    return all(
        ((cand[name] - value).abs() <= STEP_UNITS * units[name] * (1 + 1e-9)).all()
        for name, value in start.items()
    )
