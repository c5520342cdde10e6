"""How many matches to a target stopped at the cap on games before anyone reached it.

One count for a run with per-match rows and one without: the aggregates' (``size_capped``,
counted by ``aggregates.add_matches``), so the two runs of one seed say the same. A run written
before that count is read from its match rows where it kept them; without rows it tells
nothing, and nothing is said rather than a wrong 0.
"""

from __future__ import annotations

from typing import Any

from .aggregates import stopped_at_cap

__all__ = ["capped_matches"]


def capped_matches(result: Any, target: int, seats: int) -> tuple[int, int] | None:
    """(matches stopped at the cap before anyone reached ``target``, matches played) of the run
    ``result`` (a ``TournamentResult`` of matches to ``target`` at tables of up to ``seats``);
    None where neither its aggregates nor its rows tell."""
    agg = result.aggregates()
    if "size_capped" in agg:
        return int(agg["size_capped"].sum()), int(agg["size_matches"].sum())
    if not result.spec.get("rows", True):
        return None
    totals = [f"total_{s}" for s in range(seats)]
    m = result.matches(["games", *totals])
    best = m[totals].max(axis=1)
    return int(stopped_at_cap(m["games"], best, target).sum()), len(m)
