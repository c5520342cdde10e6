"""The aggregates' per-match counts: expert matches' outcomes, credited to their entrants.

One job: adding a chunk's matches into the arrays ``aggregates.empty`` makes (wins, wins
split among tied winners, points, games per match), the lattice that keeps the split wins'
sums exact (``SHARE_DENOMINATOR``), which matches held a forfeited game (they have no winner,
and the terminal says how many), and which stopped at the cap on games before anyone reached
the target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from gamekit.matches import MAX_GAMES

if TYPE_CHECKING:
    from .game import SeatedMatches

__all__ = ["FORFEITED_MATCHES", "SHARE_DENOMINATOR", "add_matches", "stopped_at_cap"]

FORFEITED_MATCHES = "size_forfeited_matches"
"""The aggregates' count, per table size, of the matches that held a forfeited game: each has
no winner, so it counts as lost by every seat (``tournaments.matches``). Only aggregates
counted so hold it: a run of an earlier version has none, and how many of its matches held
one is then unknown, never 0 (``aggregates.merge`` keeps no count some parts lack)."""

SHARE_DENOMINATOR = math.lcm(*range(1, 17))
"""Every match win split among up to 16 tied seats is a whole number of 1/720,720ths: a sum of
such shares is snapped to that lattice, so it does not depend on how chunks group them (float
sums in another order differ in the last bits)."""


def add_matches(
    agg: dict[str, np.ndarray],
    entrants: Sequence[int],
    matches: SeatedMatches,
    target: int | None = None,
) -> None:
    """Add per-match outcomes at one seating into ``agg`` (games are added by
    ``aggregates.add_batch``).

    ``target``: the points that end a match (matches to a target, not of a set number of
    games); those stopped at the cap on games before anyone reached it are counted too, in
    ``size_capped``, an array only aggregates counted so hold (a run of an earlier version,
    or of other matches, has none: ``aggregates.merge`` keeps no count some parts lack). The
    matches that held a forfeited game are counted in ``FORFEITED_MATCHES``, of any match.
    """
    m = int(matches.match_games.shape[0])
    if target is not None and "size_capped" not in agg:
        agg["size_capped"] = np.zeros_like(agg["size_matches"])
    if FORFEITED_MATCHES not in agg:  # every part of a run of matches holds it, empty or not
        agg[FORFEITED_MATCHES] = np.zeros_like(agg["size_matches"])
    if m == 0:
        return
    k = len(entrants)
    ent = np.asarray(entrants, dtype=np.int64)
    winners = matches.match_winners.astype(bool)
    n_winners = winners.sum(axis=1)
    np.add.at(agg["matches"], ent, m)
    np.add.at(agg["match_wins"], ent, winners.sum(axis=0))
    share = (winners / np.maximum(n_winners, 1)[:, None]).sum(axis=0)
    np.add.at(agg["match_win_share"], ent, share)
    np.add.at(agg["match_points"], ent, matches.match_totals.astype(np.int64).sum(axis=0))
    agg["match_games_sum"][k] += int(matches.match_games.astype(np.int64).sum())
    agg["size_matches"][k] += m
    lost = np.asarray(matches.games.forfeit_seat) >= 0
    held = np.unique(np.asarray(matches.game_match)[lost])  # each match once, however many
    agg[FORFEITED_MATCHES][k] += int(held.size)
    if target is not None:  # the best total then wins (``gamekit.matches``)
        best = matches.match_totals.astype(np.int64).max(axis=1)
        capped = stopped_at_cap(matches.match_games, best, target)
        agg["size_capped"][k] += int(np.count_nonzero(capped))


def stopped_at_cap(games: Any, best: Any, target: int) -> Any:
    """Which matches stopped at the cap on games (``gamekit.matches.MAX_GAMES``) before anyone
    reached ``target`` (``best``: each match's best total); the best total then won."""
    return (games >= MAX_GAMES) & (best < target)
