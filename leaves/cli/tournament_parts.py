"""The parts of ``leaves tournament`` that are not the command itself: the TOML config file
(``--config``) and its keys, the game plug-in a ``--game`` spec names, and the summary table
printed at the end of a run."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import CLIError

__all__ = ["CONFIG_KEYS", "load_game", "read_config", "summary_table"]

# config-file key -> (click parameter name, expected type)
CONFIG_KEYS: dict[str, tuple[str, tuple[type, ...]]] = {
    "strategies": ("specs", (list,)),
    "players": ("players", (int, str, list)),
    "games": ("games", (int,)),
    "seed": ("seed", (int,)),
    "jobs": ("jobs", (int,)),
    "out": ("out", (str,)),
    "resume": ("resume", (bool,)),
    "expert": ("expert", (bool,)),
    "target": ("target", (int,)),
    "repeats": ("repeats", (bool,)),
    "seating": ("seating", (str,)),
    "rows": ("rows", (bool,)),
    "record": ("record", (str,)),
    "record_sample": ("record_sample", (int,)),
    "backend": ("backend", (str,)),
    "scheduler": ("scheduler", (str,)),
    "chunk_size": ("chunk_size", (int,)),
    "turn_limit": ("turn_limit", (int,)),
    "decision_timeout": ("decision_timeout", (int, float)),
    "game": ("game_spec", (str,)),
    "load": ("load", (list,)),
    "rounds": ("rounds", (int,)),
    "precision": ("precision", (int, float)),
    "max_games": ("max_games", (int,)),
}


def read_config(path: str) -> dict[str, Any]:
    """Options from a TOML file (top level or a ``[tournament]`` table), keyed like the CLI."""
    import tomllib

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise CLIError(f"--config: no such file: {path}", usage=True) from None
    except tomllib.TOMLDecodeError as exc:
        raise CLIError(f"--config: {path} is not valid TOML: {exc}", usage=True) from None
    data = data.get("tournament", data)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in CONFIG_KEYS:
            known = ", ".join(sorted(CONFIG_KEYS))
            raise CLIError(f"--config: unknown key {key!r} in {path} (known: {known})", usage=True)
        name, types = CONFIG_KEYS[key]
        if not isinstance(value, types) or (bool in (type(value),) and bool not in types):
            want = " or ".join(t.__name__ for t in types)
            raise CLIError(f"--config: {key} must be {want} in {path}", usage=True)
        if key in ("strategies", "load"):
            value = tuple(str(v) for v in value)
        if key == "players" and isinstance(value, list):
            value = ",".join(str(v) for v in value)
        out[name] = value
    return out


def load_game(spec: str, turn_limit: int | None, decision_timeout: float | None) -> Any:
    """A registered game (entry-point group leaves.games) or ``module:Factory``."""
    from tournaments.games import game_class

    if spec == "13leaves":  # the 13 Leaves plug-in's own name, as manifests store it
        spec = "leaves"
    options: dict[str, Any] = {}
    if turn_limit is not None or decision_timeout is not None:
        if spec != "leaves":
            raise CLIError("--turn-limit and --decision-timeout are 13 Leaves options", usage=True)
        if turn_limit is not None:
            options["turn_limit"] = turn_limit
        if decision_timeout is not None:
            options["decision_timeout"] = decision_timeout
    if ":" not in spec:
        try:
            cls = game_class(spec)
        except ValueError as exc:
            raise CLIError(f"--game: {exc}", usage=True) from None
        try:
            return cls(**options)
        except ValueError as exc:
            raise CLIError(str(exc), usage=True) from None
    module, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module), attr or "Game")
    except (ImportError, AttributeError) as exc:
        raise CLIError(f"--game: cannot load {spec!r}: {exc}", usage=True) from None
    return factory()


def _percent(rate: float) -> str:
    """A rate as the reports print it: a percentage with one decimal ("20.0%")."""
    return "n/a" if rate != rate else f"{100 * rate:.1f}%"


def summary_table(result: Any) -> None:
    """The run's summary: seats taken (a game counts once per seat), wins, win rates in %."""
    from .plain_table import print_table

    cols = result.summary_columns()  # numpy: the command never needs pandas
    expert = result.spec["expert"]
    rank = f"{result.manifest.get('rank_value', 'rank')}_mean"
    declared = result.manifest.get("game_declaration", {})
    unit, match_unit = declared.get("unit", "game"), declared.get("match_unit", "match")
    columns = [("strategy", "left")]
    columns += [(f"{unit} seats" if expert else "seats", "right"), ("wins", "right")]
    columns += [("win rate", "right"), (rank.replace("_", " "), "right")]
    if expert:
        columns += [(f"{match_unit} seats", "right"), (f"{match_unit} win rate", "right")]
    columns.append(("forfeits", "right"))
    rows = []
    for i in range(len(cols["strategy"])):
        cells = [
            str(cols["strategy"][i]),
            f"{cols['games'][i]:,}",
            f"{cols['wins'][i]:,}",
            _percent(cols["win_rate"][i]),
            f"{cols[rank][i]:.3f}",
        ]
        if expert:
            cells += [f"{cols['matches'][i]:,}", _percent(cols["match_win_rate"][i])]
        cells.append(f"{cols['forfeits'][i]:,}")
        rows.append(cells)
    print_table("Tournament summary", columns, rows)
