"""The run in a few lines for the report page's summary box: what was played, how, and where
it is kept (the manifest linked, not printed)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from tournaments.run_state import RunState

from .data import Run

__all__ = ["overview"]


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
    if isinstance(man.get("versions"), dict):
        items.append(("versions", ", ".join(f"{k} {v}" for k, v in man["versions"].items())))
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
