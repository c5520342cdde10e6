"""Did the search try other parameters, did they change a game, and did any game give a win to
tell them by? Read from its evaluations (the rows of ``candidates.csv``): where not, no
candidate can be called better, and the result says which it was."""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["no_effect", "no_win", "untried"]


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
