"""Clauses the report's section leads add where a run asks for them: why no rate has a 95%
interval (too few deals, or nothing valid), what head to head leaves out (forfeits) and how
the lengths count units a limit stopped. One source each, whichever lead says it."""

from __future__ import annotations

import pandas as pd

from tournaments.declaration import Declaration, plural

from .findings import overall
from .numbers import share_pct

__all__ = ["ALL_FORFEITED", "NO_INTERVALS", "blank", "cut_short", "forfeits_out", "no_intervals"]

Tables = dict[str, pd.DataFrame]

NO_INTERVALS = " No 95% intervals: the run has too few deals for one (play more {units})"
"""What the lead of a chart of rates adds where none has an interval (a tiny run): said, not
drawn (``units``: what the game's rows are, in the plural)."""
ALL_FORFEITED = (" No 95% intervals: every {unit} ended by a forfeit, so none counts toward one "
                 "(fix the strategy and play the run again)")  # fmt: skip
"""``NO_INTERVALS`` of a run whose every unit was forfeited: more of them are no remedy."""


def no_intervals(tables: dict[str, pd.DataFrame], d: Declaration) -> str:
    """Why no rate of the run has an interval, as a lead says it: too few deals, or (every
    unit forfeited, ``completion``) nothing valid to count."""
    row = overall(tables.get("completion"))
    if row is not None and int(row["games"]) and int(row["forfeited"]) >= int(row["games"]):
        return ALL_FORFEITED.format(unit=d.unit)
    return NO_INTERVALS.format(units=d.units())


def blank(tables: Tables, name: str, d: Declaration) -> str:
    """Why a table of rates has no 95% interval in any row (``no_intervals``), where none has:
    said beside it as the summary's and the seats' leads say it; '' where some row has one."""
    table = tables[name]
    bounds = [c for c in ("ci_low", "vs_elsewhere_low") if c in table]
    if not len(table) or not bounds or table[bounds].notna().to_numpy().any():
        return ""
    return no_intervals(tables, d) + "."


def forfeits_out(tables: Tables, d: Declaration) -> str:
    """Where the run had forfeits (``completion``), that head to head leaves them out (as the
    paired comparisons do): a forfeiting seat is behind all by rule, not by its play."""
    row = overall(tables.get("completion"))
    forfeited = 0 if row is None else int(row["forfeited"])
    if not forfeited:
        return ""
    said = f"the {forfeited:,} {plural(d.unit)}" if forfeited > 1 else f"the one {d.unit}"
    return f" It leaves out {said} ended by a forfeit (there the forfeiter is last by rule)."


def cut_short(tables: Tables, d: Declaration) -> str:
    """Where units stopped unfinished (``completion``), that the lengths count them at the
    length they reached, short of their end: a run most of whose units a limit stopped has its
    median at that limit, and a unit would last longer."""
    row = overall(tables.get("completion"))
    cut = 0 if row is None else int(row["unfinished"])
    if not cut:
        return ""
    share = share_pct(cut / max(int(row["games"]), 1))
    return (f" {cut:,} {d.units(cut)} ({share}) stopped unfinished and count at the length "
            f"{'it' if cut == 1 else 'they'} reached, short of {'its' if cut == 1 else 'their'} "
            "end.")  # fmt: skip
