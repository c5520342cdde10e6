"""A run in which no game was won ranks nobody by game win rates, but an expert run's matches
are won on their totals, so its match win rates do rank: the finding that no strategy is ranked
is kept to the game win rates there ('No strategy is ranked: ... win rates cannot compare
strategies' stood above 'greedy wins 79.2% [75.2, 82.6] of its matches')."""

from __future__ import annotations

import pandas as pd

from reports.data import default_declaration
from reports.findings_best import best_finding

D = default_declaration()  # 13 Leaves: games, and matches of them
NOBODY = ("No strategy is ranked: no game was won, so every win rate is 0 and win rates cannot "
          "compare strategies, seats or neighbours.")  # fmt: skip


def _summary() -> pd.DataFrame:
    """Two strategies, no game won by either (every one stopped unfinished)."""
    return pd.DataFrame([{"strategy": s, "win_rate": 0.0, "ci_low": 0.0, "ci_high": 0.1,
                          "fair_share": 0.0, "relative": 0.0, "wins": 0} for s in "ab"])  # fmt: skip


def _text(**tables: pd.DataFrame) -> str:
    (found,) = best_finding({"summary": _summary(), **tables}, "paired", D)
    return found.text


def _matches(*wins: int) -> pd.DataFrame:
    return pd.DataFrame({"strategy": ["a", "b"][: len(wins)], "match_wins": list(wins)})


def test_matches_won_rank_where_no_game_was_won():
    assert _text(**{D.match_name: _matches(19, 3)}) == (
        "No strategy is ranked by its game win rate: no game was won, so every game win rate "
        "is 0 and cannot compare strategies, seats or neighbours; match win rates do compare "
        "strategies (Expert matches)."
    )


def test_without_a_match_won_nothing_ranks():
    assert _text() == NOBODY  # no expert run
    assert _text(**{D.match_name: _matches(0, 0)}) == NOBODY  # matches, none won
    assert _text(**{D.match_name: _matches()}) == NOBODY  # an empty table
