"""Growing a run by stages: the same tournament with more deals, in the same output directory.

A run's schedule lays its chunks stage after stage (``schedule.Schedule``), so a run with
stages ``[D1, D2]`` keeps every chunk of a run with stages ``[D1]`` and adds the chunks of
deals ``D1 .. D2 - 1``. Sequential tests and precision targets grow a run this way: each
stage is decided from the results so far, and every game already played is kept.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from gamekit.errors import ParameterError

from .game import plural
from .schedule import Schedule, check_size, deals_for

__all__ = [
    "GROWN_KEYS", "asked_note", "described_since", "extends", "grown_stages", "grows", "with_stages",
]  # fmt: skip

GROWN_KEYS = frozenset({"games_asked", "n_games", "deals_per_table", "n_chunks", "deal_stages"})
"""Spec entries that legitimately differ between a run and the same run grown by stages."""


def extends(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True when the deal stages of spec ``new`` start with all of spec ``old``'s."""
    before, after = old.get("deal_stages"), new.get("deal_stages")
    if not isinstance(before, list) or not isinstance(after, list) or not before:
        return False
    return len(after) >= len(before) and after[: len(before)] == before


def grows(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True when ``new`` is ``old`` grown by stages: its deal stages extend the old ones (a
    prefix, possibly all of them) and every other entry that determines results is equal."""
    return extends(old, new) and all(old.get(k) == new[k] for k in new if k not in GROWN_KEYS)


def with_stages(tournament: Any, stages: Sequence[int]) -> Any:
    """A copy of ``tournament`` (a Tournament or Gauntlet) whose schedule has ``stages``
    (cumulative deals per table). The first stage must be the run's own (the chunk layout
    comes from it); everything else about the run is unchanged."""
    s = tournament.schedule
    stages = [int(x) for x in stages]
    if not stages or stages[0] != s.stages[0]:
        raise ValueError(f"the stages must start at the run's first stage ({s.stages[0]} deals)")
    grown = copy.copy(tournament)
    grown.schedule = Schedule(
        s.tables, stages[0] * s.seats_per_set, s.chunk_games, s.set_sizes, s.streams, stages,
        units=tournament.units,
    )  # fmt: skip
    return grown


def grown_stages(
    stages: Sequence[int],
    seats_per_set: int,
    games_asked: int,
    games: int | None = None,
    add: int | None = None,
    *,
    units: str = "games",
) -> list[int]:
    """A run's deal ``stages`` grown to ``games`` in all (one new stage when that is more
    deals than the run has, as a run asked for ``games`` at once would deal) or by ``add``
    games more. ``games`` equal to the run's first ask, or to the deals it has, grows nothing;
    fewer is refused (ValueError, one line): a run grows, it never shrinks. ``games`` below 1
    is refused in a new run's words, as ``add`` below 1 is: no run is asked for no games; so
    is either where the run would hold more than a run may (``check_size``, naming it).
    ``units``: what the run counts (``Tournament.units``: "rounds" of a game played in
    rounds), which every refusal counts in."""
    stages = [int(x) for x in stages]
    if games is not None and add is not None:
        raise ParameterError(
            f"give {{games}} (the total) or {{add}} ({units} more), not both", "games", "add"
        )
    if add is not None:
        if add < 1:
            raise ParameterError(f"{{add}} must be at least 1 {_one(units)}, got {add}", "add")
        grown = stages[-1] + deals_for(add, seats_per_set)
        check_size(grown * seats_per_set, stages[-1] * seats_per_set + add, "add", units=units)
        return [*stages, grown]
    if games is not None and games < 1:  # else a run of one deal a table is "grown" to it
        raise ParameterError(f"{{games}} must be at least 1, got {games}", "games")
    if games is None or games == games_asked:
        return stages
    deals = deals_for(games, seats_per_set)
    if deals > stages[-1]:
        check_size(deals * seats_per_set, games, units=units)  # named, before it is laid out
        return [*stages, deals]
    if deals == stages[-1]:
        return stages
    raise ParameterError(
        f"{{games}} {games:,} is fewer than the {stages[-1] * seats_per_set:,} {units} the run "
        f"holds already (asked {games_asked:,}): a run grows, it never shrinks ({{add}} GAMES "
        "adds more)",
        "games", "add",
    )  # fmt: skip


def _one(units: str) -> str:
    """The word for one of ``units`` ("rounds": "round"; "matches": "match"): the word whose
    ``plural`` they are (the plural's one source), else ``units`` as given."""
    return next(
        (w for w in (units[:-3] + "y", units[:-2], units[:-1]) if w and plural(w) == units), units
    )


def asked_note(asked: int, grown: int, played: int, stage: str) -> str:
    """How the games played relate to those asked for: grown by ``grown`` more stages (the
    word ``stage``), or rounded up to whole duplicate sets."""
    note = f"asked {asked:,}"
    if grown:
        note += f", grown by {grown} more {stage if grown == 1 else plural(stage)} of deals"
    elif played != asked:
        note += ", rounded up to whole duplicate sets"
    return note


def described_since(before: Any, after: dict[str, Any]) -> bool:
    """True when an entrant the run recorded by its label alone (its game described no more
    when the run began) is now described in full under the same label: no change to refuse
    on resuming, only a description the run lacked (the resumed manifest then keeps it)."""
    recorded = isinstance(before, dict) and set(before) == {"label"}
    return recorded and before["label"] == after.get("label")
