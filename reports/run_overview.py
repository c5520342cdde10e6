"""The run in a few lines for the report page's summary box: what was played, how, and where
it is kept (the manifest linked, not printed)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from tournaments.declaration import plural
from tournaments.run_state import RunState

from .data import Run

__all__ = ["overview", "version_change", "version_items"]


def overview(run: Run, out: Path, state: RunState | None = None) -> list[tuple[str, str]]:
    """The run in a few lines (the manifest itself is linked, not printed); with the run's
    ``state``, how much of it was played first."""
    g, man, d = run.games, run.manifest, run.declaration
    items = [("game", d.title)]
    if state is not None:
        items.append(("played", state.extent()))
    items.append((d.units(), f"{len(g):,}"))
    items.append(("strategies", f"{len(g.labels)}: " + ", ".join(g.labels)))
    counts = np.bincount(g.n_players.astype(np.int64))
    items.append(
        ("table sizes", ", ".join(f"{n} players: {c:,}" for n, c in enumerate(counts) if c))
    )
    settings = man.get("game_settings")  # what the game names in words (e.g. its rules)
    if isinstance(settings, dict):
        items += [(str(k), str(v)) for k, v in settings.items()]
    if "seed" in man:
        items.append(("seed", str(man["seed"])))
    seating = man.get("seating_design")
    if isinstance(seating, dict) and seating.get("kind"):
        per_deal = sorted(set((seating.get("seatings_per_deal") or {}).values()))
        each = f", {'/'.join(map(str, per_deal))} seatings per deal" if per_deal else ""
        items.append(("seating", f"{seating['kind']}{each}"))
    items.append(("design", "duplicate deals (deal column)" if g.deal is not None else "own deals"))
    items.append(("unfinished", f"{int(g.unfinished.sum()):,}"))
    items.append(("forfeited", f"{int(g.forfeited.sum()):,}"))
    items += version_items(man, plural(d.match_unit) if run.expert else d.units())
    for key in ("wall_time_s", "wall_time", "wall_s", "elapsed_s"):
        if key in man:
            items.append(("wall time", f"{man[key]} s"))
            break
    for key in ("finished", "created"):
        if man.get(key):
            items.append(("date", str(man[key])))
            break
    if "expert" in man:
        items.append(("expert", str(man["expert"])))
    if run.path is not None:
        items.append(("run directory", str(run.path)))
        if (run.path / "manifest.json").exists():
            link = os.path.relpath(run.path / "manifest.json", out.resolve())
            items.append(("manifest", Path(link).as_posix()))
    return items


def version_items(manifest: Mapping[str, Any], units: str) -> list[tuple[str, str]]:
    """The versions the run began with (the manifest's ``versions``); where a later session
    that played ``units`` recorded others (a release that plays alike resumes a run) or none
    (a version that did not record them), which and how much it played, so a reader can tell
    the part of the run another release played."""
    begun = manifest.get("versions")
    if not isinstance(begun, dict):
        return []
    listed = ", ".join(f"{k} {v}" for k, v in begun.items())
    sessions = manifest.get("sessions")
    sessions = sessions if isinstance(sessions, list) else []
    first = sessions[0] if sessions and isinstance(sessions[0], dict) else {}
    recorded = isinstance(first.get("versions"), dict)  # the run began recording them
    total = manifest.get("units_done")
    of = f" of {total:,}" if isinstance(total, int) and not isinstance(total, bool) else ""
    changes = []
    for number, session in enumerate(sessions[1:], 2):
        played = session.get("units_played") if isinstance(session, dict) else None
        if not isinstance(played, int) or isinstance(played, bool) or played <= 0:
            continue  # nothing of the run's results came from it
        now = session.get("versions")
        if not (recorded or isinstance(now, dict)):
            continue  # an older release's sessions throughout: nothing tells of a change
        change = version_change(begun, now)
        if change:
            changes.append(f"session {number} played {played:,}{of} {units} with {change}")
    if not changes:
        return [("versions", listed)]
    return [("versions", f"{listed} when the run began"), ("versions changed", "; ".join(changes))]


def version_change(begun: Any, now: Any) -> str | None:
    """How the versions a session recorded (``now``) differ from those the run began with
    (``begun``, the manifest's ``versions``), in words ("leaves 0.2.0 (the run began with
    0.1.0)"); "versions it did not record" where it recorded none (an older version's
    session); None where they agree, or the run recorded none to compare."""
    if not isinstance(begun, dict):
        return None
    if not isinstance(now, dict):
        return "versions it did not record (an older version played it)"
    keys = [k for k in begun if k in now and begun[k] != now[k]]  # one side's alone: unknown
    if not keys:
        return None
    each = [f"{k} {now[k]} (the run began with {begun[k]})" for k in keys]
    return ", ".join(each)
