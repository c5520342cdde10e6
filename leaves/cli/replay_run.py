"""Replay game N of a tournament run directory from its seeds (``leaves replay RUN --game N``).

A run's per-game rows keep each game's deal seed, play seed and who sat where; the manifest
keeps every entrant's class and parameters and the game's settings (turn limit, decision
timeout). Playing that one game again with ``strategies.play_batch`` (the call the run's plug-in
makes) gives the same game, a forfeited one included: it stops at the failing decision, whose
error comes back with its traceback. The replayed game is checked against the row, so a
strategy whose code changed since the run is said to differ rather than shown as the run's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import CLIError

ROW_COLUMNS = ["game", "deal_seed", "seed", "n_players", "winner_seat", "turns", "forfeit_seat"]


@dataclass(frozen=True)
class RunGame:
    """One game of a run, played again: its record, the replay's error and what differs."""

    record: Any  # leaves.GameRecord
    game: int
    traceback: str | None
    warnings: list[str]


def is_run(path: str) -> bool:
    """True for a tournament run directory (it holds manifest.json)."""
    return Path(path).is_dir() and (Path(path) / "manifest.json").is_file()


def _manifest(run: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((run / "manifest.json").read_text())
    except (OSError, ValueError) as exc:
        raise CLIError(f"cannot read {run / 'manifest.json'}: {exc}") from None
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    if not isinstance(spec, dict):
        raise CLIError(f"{run / 'manifest.json'} is not a tournament manifest")
    if spec.get("game", "13leaves") != "13leaves":
        raise CLIError(f"{run} is a {spec.get('game')} run: only 13 Leaves games replay by number")
    if not spec.get("rows", True):
        raise CLIError(
            f"{run} kept no per-game rows (--no-rows): its games cannot be replayed by number"
        )
    return manifest


def _rows(run: Path) -> Any:
    import pandas as pd

    folder = run / "games"
    if not folder.is_dir() or not any(folder.glob("*.parquet")):
        raise CLIError(f"{run} has no game rows yet: no game of it can be replayed")
    cols = ROW_COLUMNS + [f"seat_{s}" for s in range(6)]
    try:
        return pd.read_parquet(folder, columns=cols)
    except Exception as exc:  # noqa: BLE001 - a damaged file: one line, not a traceback
        raise CLIError(f"cannot read the game rows of {run}: {exc}") from None


def pick_game(run: Path, game: int | None) -> tuple[int, Any]:
    """(game index, its row): ``game`` as numbered in the rows and forfeits.json (from 0);
    None picks the first forfeited game, else game 0."""
    _manifest(run)
    rows = _rows(run)
    if game is None:
        forfeited = rows[rows["forfeit_seat"] >= 0]
        game = int(forfeited["game"].min()) if len(forfeited) else int(rows["game"].min())
    hit = rows[rows["game"] == game]
    if not len(hit):
        raise CLIError(
            f"--game {game}: {run} has no row for game {game} (its {len(rows):,} rows number "
            f"their games {int(rows['game'].min())} to {int(rows['game'].max())}, as its "
            "forfeits.json does)",
            usage=True,
        )
    return game, hit.iloc[0]


def _strategy(entrant: dict[str, Any]) -> Any:
    """The entrant rebuilt from the manifest: its class (from its file, if any), every
    parameter."""
    import strategies

    cls = str(entrant["class"])
    target = f"{entrant['file']}:{cls}" if entrant.get("file") else cls
    try:
        return strategies.get(target, **dict(entrant.get("params") or {}))
    except Exception as exc:  # noqa: BLE001 - a moved file or a removed class: one line
        raise CLIError(f"cannot rebuild {entrant.get('label')} ({target}): {exc}") from None


def _file_changed(entrant: dict[str, Any]) -> bool:
    import hashlib

    if not entrant.get("file") or not entrant.get("file_sha256"):
        return False
    try:
        digest = hashlib.sha256(Path(entrant["file"]).read_bytes()).hexdigest()
    except OSError:
        return True
    return digest != entrant["file_sha256"]


def replay_run_game(run_dir: str, game: int | None) -> RunGame:
    """Play game ``game`` of the run again from its seeds and seats; CLIError when it cannot."""
    import numpy as np

    import strategies

    run = Path(run_dir)
    manifest = _manifest(run)
    game, row = pick_game(run, game)
    spec = manifest["spec"]
    by_label = {e["label"]: e for e in spec.get("entrants", [])}
    n = int(row["n_players"])
    seats = [str(row[f"seat_{s}"]) for s in range(n)]
    missing = [s for s in seats if s not in by_label]
    if missing:
        raise CLIError(f"{run}: the manifest does not describe {', '.join(missing)}")
    warnings = [
        f"{by_label[s]['file']} changed since the run: the replay may differ from its game"
        for s in dict.fromkeys(seats)
        if _file_changed(by_label[s])
    ]
    config = spec.get("game_config") or {}
    seed = np.array([int(row["seed"])], np.uint64)
    deal = np.array([int(row["deal_seed"])], np.uint64)
    res = strategies.play_batch(
        [_strategy(by_label[s]) for s in seats], deal, seed, record=True,
        turn_limit=int(config.get("turn_limit", 1000)),
        decision_timeout=config.get("decision_timeout"),
    )  # fmt: skip
    record = res.records[0]
    ran = (int(res.winner_seat[0]), int(res.turns[0]), int(res.forfeit_seat[0]))
    was = (int(row["winner_seat"]), int(row["turns"]), int(row["forfeit_seat"]))
    if ran != was:
        warnings.append(
            f"the replayed game differs from the run's (winner seat, turns, forfeit seat: "
            f"{ran} here, {was} in the run): a strategy or the code changed since the run"
        )
    return RunGame(record, game, getattr(res.errors[0], "traceback", None), warnings)
