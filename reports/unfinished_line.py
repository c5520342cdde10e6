"""How many of a run's units stopped unfinished at the game's limits, in the findings' words
(``findings.unfinished_words``), for the commands that answer at once: the tournament's
summary, the gauntlet's verdict and a tuning's verification each say it under their numbers,
so a verdict drawn mostly from games that never ended says so where it is read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournaments.aggregates import limit_tests, unfinished_by_limit

from .data import Games, run_declaration
from .findings import overall, unfinished_words
from .tables import completion

__all__ = ["unfinished_clause", "unfinished_counts", "unfinished_line"]

COUNTS = ("games", "unfinished", "unfinished_won")
"""The counts every completion row holds; ``unfinished_at_<i>`` (by limit) where told."""


def unfinished_counts(result: Any, rows: Games | None = None) -> tuple[dict[str, int], Any] | None:
    """The completion counts of ``result`` (a ``tournaments.TournamentResult``): its units,
    those that stopped unfinished, those of them won, and by limit where the run tells them
    apart; and its game's declaration. From ``rows`` (its ``reports.Games``, where read)
    or else from the aggregates; None where neither tells (no rows, aggregates written before
    those counts)."""
    if rows is not None:
        row = overall(completion(rows))
        if row is None:
            return None
        at = [k for k in row.index if str(k).startswith("unfinished_at_")]
        return {k: int(row[k]) for k in (*COUNTS, *at) if k in row}, rows.declaration
    agg = result.aggregates()
    if "size_unfinished" not in agg:
        return None
    declaration = run_declaration(result.manifest)
    by_limit = unfinished_by_limit(agg, limit_tests(declaration.limit_columns)) or ()
    counts = {"games": int(agg["size_games"].sum()),
              "unfinished": int(agg["size_unfinished"].sum()),
              "unfinished_won": int(agg["size_unfinished_won"].sum()),
              **{f"unfinished_at_{i}": n for i, n in enumerate(by_limit)}}  # fmt: skip
    return counts, declaration


def unfinished_clause(results: Sequence[Any]) -> str:
    """The units of ``results`` (runs of one game, e.g. a tuning's two verification arms)
    that stopped unfinished, counted together, in the findings' words ("816 games (85.0%)
    stopped unfinished at ... and count as nobody's win"); "" where none did or no run
    tells. A limit's own count is kept only where every run tells it."""
    told = [c for c in (unfinished_counts(r) for r in results) if c is not None]
    if not told:
        return ""
    keys = set.intersection(*(set(counts) for counts, _ in told))
    pooled = {k: sum(counts[k] for counts, _ in told) for k in sorted(keys)}
    return _words(pooled, told[0][1])


def unfinished_line(result: Any, rows: Games | None = None, who: str = "") -> str:
    """``unfinished_clause`` of one run as a sentence ("816 games (85.0%) stopped ... win."),
    after ``who`` ("Both sides together: "), from ``rows`` where read (``unfinished_counts``);
    "" where none stopped so or nothing tells."""
    if rows is not None and not rows.unfinished.any():  # none: no completion table to sum
        return ""
    told = unfinished_counts(result, rows)
    text = _words(*told) if told is not None else ""
    if not text:
        return ""
    said = who + text
    return said[0].upper() + said[1:] + "."


def _words(counts: dict[str, int], declaration: Any) -> str:
    """``findings.unfinished_words`` of ``counts``; "" where no unit stopped unfinished."""
    if not counts.get("unfinished"):
        return ""
    return unfinished_words(counts, declaration)  # type: ignore[arg-type]  # a row's fields
