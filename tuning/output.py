"""A finished tuning's result files: ``best.txt``, ``candidates.csv``, ``search.csv``,
``verification.csv`` (where a verification was played: none where the search came back to the
start, which ``tune.json`` then records as null), ``convergence.png`` and, last, ``tune.json``
(written atomically: a folder holding it holds a finished tuning, which ``--resume`` then
refuses to continue)."""

from __future__ import annotations

import json
import platform
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pandas as pd

from tournaments.storage import atomic_write_bytes

from .chart import convergence

__all__ = ["played_as", "write"]


def played_as(game: Any) -> Any:
    """The game a tuning's tournaments play: ``game``, or where none was given (None) the
    runner's default game, so that tune.json names it whichever front end ran the tuning."""
    if game is not None:
        return game
    from tournaments.games import get_game  # start-up: loads the game registry

    return get_game()


def _versions(game: Any = None) -> dict[str, str]:
    """Python's, the optimiser's, numpy's and those the results of ``game`` depend on (the
    game its tournaments play, which declares them; None: the runner's default game)."""
    import cma  # start-up: cma loads to search

    game = played_as(game)
    return {
        "python": platform.python_version(),
        **game.versions(),
        "cma": cma.__version__,
        "numpy": np.__version__,
    }


def write(result: Any, space: Any, game: Any = None) -> None:
    """best.txt (what the verdict recommends), candidates.csv, search.csv, verification.csv
    (where one was played), convergence.png, then tune.json (a ``tuning.TuneResult`` over
    ``space``, its games played as ``game``: None, the runner's default). tune.json keeps the
    SHA-256 of each user's file played: best.txt names a file by its path, and the file may
    change after."""
    out = result.out
    (out / "best.txt").write_text(result.best_spec + "\n")
    result.candidates.to_csv(out / "candidates.csv", index=False)
    result.search.to_csv(out / "search.csv", index=False)
    v = result.verification
    if v is not None:  # None: the tuned parameters are the start's, nothing was verified
        arms = [{"arm": "tuned", **_arm_dict(v.tuned)}, {"arm": "start", **_arm_dict(v.start)}]
        pd.DataFrame(arms).to_csv(out / "verification.csv", index=False)
    doc = {
        "best_spec": result.best_spec,
        "best": result.best,
        "recommended": "tuned" if result.best_spec == result.tuned_spec != result.spec else "start",
        "tuned_spec": result.tuned_spec,
        "tuned": result.tuned,
        "start": result.start,
        "settings": result.settings,
        "verification": None if v is None else v.to_dict(),
        "headline": result.headline(),
        "warnings": result.warnings,
        "versions": _versions(game),
        "files": result.files,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    fig = convergence(result.candidates, result.search, list(space.names), space.low, space.high)
    fig.savefig(out / "convergence.png")
    atomic_write_bytes(out / "tune.json", (json.dumps(doc, indent=1) + "\n").encode())


def _arm_dict(arm: Any) -> dict[str, Any]:
    return {
        "spec": arm.spec,
        "label": arm.label,
        "games": arm.games,
        "wins": arm.wins,
        "win_rate": arm.win_rate,
        "ci_low": arm.ci_low,
        "ci_high": arm.ci_high,
    }
