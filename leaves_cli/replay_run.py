"""Replay game N of a tournament run directory from its seeds (``leaves replay RUN --game N``).

A run's per-game rows keep each game's deal seed, play seed and who sat where; the manifest
keeps the game and its settings and every entrant as the game describes it (e.g. class,
parameters, file). The game's plug-in rebuilds the entrants (``rebuild``) and plays that one
game again with its record (``replay``): the same game, a forfeited one included (a game
with turns stops at the failing decision, whose error comes back with its traceback). The replayed game
is checked against the row, so a strategy whose code changed since the run is said to differ
rather than shown as the run's.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import shown
from gamekit.text import printable

from .errors import CLIError

ROW_COLUMNS = ["game", "deal_seed", "seed", "n_players", "winner_seat", "forfeit_seat"]


@dataclass(frozen=True)
class RunGame:
    """One game of a run, played again: its game's plug-in, its record (a JSON line; None
    for a forfeited game its game keeps no record of, ``unshown`` then saying why), the
    replay's traceback, what differs from the run, and a forfeit as every game's replay says
    it after the game (``forfeit_words``: the record of a game shown as lines holds no
    error)."""

    plugin: Any
    record: str | None
    game: int
    traceback: str | None
    warnings: list[str]
    unshown: str | None = None
    forfeit: str | None = None


def is_run(path: str) -> bool:
    """True for a tournament run directory: it holds manifest.json (usable or not: a
    directory in its place is a damaged run, not none)."""
    return Path(path).is_dir() and (Path(path) / "manifest.json").exists()


def _manifest(run: Path) -> dict[str, Any]:
    from tournaments import storage
    from tournaments.manifest_fields import check_manifest

    try:
        manifest = storage.read_manifest(run)
    except ValueError as exc:  # it names the file and what is wrong with it
        raise CLIError(f"cannot read the manifest of {run}: {exc}") from None

    try:
        check_manifest(manifest)
    except ValueError as exc:
        raise _corrupt(run, exc) from None
    spec = manifest["spec"]
    if not spec.get("rows", True):
        from tournaments.declaration import plural

        unit = str((manifest.get("game_declaration") or {}).get("unit", "game"))
        raise CLIError(f"{run} kept no per-{unit} rows (--no-rows): its {plural(unit)} cannot "
                       "be replayed by number")  # fmt: skip
    return manifest


def _rows(run: Path, plugin: Any) -> Any:
    import pandas as pd

    from reports.loading import part_files  # start-up: the reports load on a replay only

    folder = run / "games"
    parts = part_files(folder) if folder.is_dir() else []  # the parts its manifest records
    if not parts:
        raise CLIError(f"{run} has no {plugin.unit} rows yet: no {plugin.unit} of it can be "
                       "replayed")  # fmt: skip
    seats = [f"seat_{s}" for s in range(plugin.max_players)]
    cols = [*ROW_COLUMNS, plugin.length_value, *seats]
    try:
        return pd.concat([pd.read_parquet(p, columns=cols) for p in parts], ignore_index=True)
    except Exception as exc:  # noqa: BLE001 - a damaged file: one line, not a traceback
        raise CLIError(f"cannot read the {plugin.unit} rows of {run}: {exc}") from None


def pick_game(run: Path, game: int | None, plugin: Any) -> tuple[int, Any]:
    """(game index, its row): ``game`` as numbered in the rows and forfeits.json (from 0);
    None picks the first forfeited game, else game 0."""
    rows = _rows(run, plugin)
    if game is None:
        forfeited = rows[rows["forfeit_seat"] >= 0]
        game = int(forfeited["game"].min()) if len(forfeited) else int(rows["game"].min())
    hit = rows[rows["game"] == game]
    if not len(hit):
        from tournaments.declaration import plural

        ids = sorted(int(x) for x in rows["game"])
        unit, span = plugin.unit, f"{ids[0]} to {ids[-1]}"
        if ids[-1] - ids[0] + 1 != len(ids):  # matches number their games from their own start
            after = [x for x in ids if x > game][:3]
            near = f"the next after {game}: {', '.join(map(str, after))}" if after else (
                f"the last: {', '.join(map(str, ids[-3:]))}")  # fmt: skip
            span += f", not every number ({near})"
        raise CLIError(
            f"--game {game}: {run} has no row for {unit} {game} (its {len(rows):,} rows number "
            f"their {plural(unit)} {span}, as its forfeits.json does)",
            usage=True,
        )
    return game, hit.iloc[0]


def _file_changed(run: Path, entrant: dict[str, Any]) -> bool:
    """Whether the entrant's file differs from the one the run hashed; a file or hash in the
    manifest that is no text (or no path) is the manifest's damage, said so (exit 1)."""
    import hashlib

    who = printable(str(entrant.get("label")))  # a hand-edited label's line break escaped
    for key, what in (("file", "a file's path"), ("file_sha256", "the file's SHA-256")):
        if not isinstance(entrant.get(key), str | None):
            said = shown(entrant[key], typed=False, as_json=True)
            why = f"{who}: its {key} in the manifest (spec.entrants) is {said}, "
            raise _corrupt(run, ValueError(f"{why}expected {what} (text)"))
    if not entrant.get("file") or not entrant.get("file_sha256"):
        return False
    try:
        digest = hashlib.sha256(Path(entrant["file"]).read_bytes()).hexdigest()
    except OSError:
        return True
    except ValueError:  # a NUL in it: no path names such a file
        said = shown(entrant["file"], typed=False, as_json=True)
        why = f"its file in the manifest (spec.entrants) is {said}, expected a path (no NUL)"
        raise _corrupt(run, ValueError(f"{who}: {why}")) from None
    return digest != entrant["file_sha256"]


def _plugin(run: Path, manifest: dict[str, Any]) -> Any:
    """The run's game, found as a resume finds it (``games.run_game``: its ``game_spec``, a
    game given as ``module:Class`` included), with the run's settings (``check_game``); a
    game this installation lacks is the manifest's to name, not a flag's."""
    from tournaments.games import plugin_class, run_game
    from tournaments.manifest_fields import check_game

    from .tournament_parts import load_game

    config = dict(manifest["spec"].get("game_config") or {})
    try:
        spec = run_game(manifest)
    except ValueError as exc:
        raise _corrupt(run, exc) from None
    try:
        cls = plugin_class(spec)
    except ValueError:  # said as a game named in a file is: load_game fails alike
        where = f"the manifest {run / 'manifest.json'}"
        return load_game(spec, config, stored=True, named_in=where)
    try:
        return check_game(cls, manifest["spec"])
    except ValueError as exc:
        raise _corrupt(run, exc) from None


def _corrupt(run: Path, why: Exception) -> CLIError:
    """The one line refusing the run whose manifest holds ``why`` (exit 1)."""
    from tournaments.result import corrupt_manifest

    return CLIError(str(corrupt_manifest(run, why)))


def _payload(run: Path, plugin: Any, entrant: dict[str, Any]) -> tuple[Any, str | None]:
    """(payload, None): the entrant rebuilt from its description in the run's manifest; or,
    where the class it records does not load (a built-in's module an earlier version had,
    since moved), this installation's strategy of its label and the warning saying so (the
    replay is checked against the run's row all the same). One line where neither can be: a
    field the game rebuilds it from missing is the manifest's fault."""
    label = entrant.get("label")
    try:
        return plugin.rebuild(entrant), None
    except KeyError as exc:  # Python would say the key alone: "'class'"
        key = exc.args[0] if exc.args else None
        if isinstance(key, str) and key not in entrant:
            why = ValueError(f"the entrant {label} has no {key!r}, which "
                             f"{plugin.title} rebuilds it from")  # fmt: skip
            raise _corrupt(run, why) from None
        raise CLIError(f"cannot rebuild {label}: {exc!r}") from None
    except Exception as exc:  # noqa: BLE001 - a moved file or a removed class: one line
        failed = exc
    payload = _by_label(plugin, entrant)
    if payload is None:
        raise CLIError(f"cannot rebuild {label}: {failed}")
    who = printable(str(label))  # a hand-edited label's line break escaped
    return payload, printable(f"{who}: the run recorded its class as {entrant.get('class')}, "
                              f"which does not load here ({failed}): this installation's {who} "
                              "plays it instead")  # fmt: skip


def _by_label(plugin: Any, entrant: dict[str, Any]) -> Any:
    """The payload of the strategy this installation plays for the entrant's label; None for
    a user's file's entrant (the file's class is the one to play), or a label no strategy
    here answers to."""
    label = entrant.get("label")
    if entrant.get("file") or not isinstance(label, str):
        return None
    try:
        return plugin.resolve(label)[1]
    except Exception:  # noqa: BLE001 - no strategy of that label here: the rebuild's error stands
        return None


def replay_run_game(run_dir: str, game: int | None) -> RunGame:
    """Play game ``game`` of the run again from its seeds and seats; CLIError when it cannot."""
    from .report_cmd import check_parts

    run = Path(run_dir)
    manifest = _manifest(run)
    spec = manifest["spec"]
    check_parts(
        run, rows_only=True
    )  # a damaged row would replay another game than the run's, silently
    plugin = _plugin(run, manifest)
    game, row = pick_game(run, game, plugin)
    by_label = {e["label"]: e for e in spec.get("entrants", [])}
    n = int(row["n_players"])
    seats = [str(row[f"seat_{s}"]) for s in range(n)]
    missing = [s for s in seats if s not in by_label]
    if missing:
        raise CLIError(f"{run}: the manifest does not describe {', '.join(missing)}")
    warnings = [
        f"{by_label[s]['file']} changed since the run: the replay may differ from its {plugin.unit}"
        for s in dict.fromkeys(seats)
        if _file_changed(run, by_label[s])
    ]
    rebuilt = [_payload(run, plugin, by_label[s]) for s in seats]  # one a seat, as played
    warnings += list(dict.fromkeys(said for _, said in rebuilt if said))
    payloads = [payload for payload, _ in rebuilt]
    seeds = int(row["deal_seed"]), int(row["seed"])
    unshown, drew = None, ()
    try:
        played, drew = _drawing(lambda: plugin.replay(payloads, *seeds))
    except ValueError as exc:
        played = _forfeited(plugin, payloads, seeds)  # a forfeit its game keeps no record of
        if played is None:
            raise CLIError(f"{run}, {plugin.unit} {game}: {exc}") from None
        unshown = str(exc)  # the game's words: why there is nothing to show
    was = (int(row["winner_seat"]), int(row[plugin.length_value]), int(row["forfeit_seat"]))
    warnings += _differs(plugin, dict(zip(seats, payloads, strict=True)), drew, played.outcome,
                         was)  # fmt: skip
    record = None if unshown else _labelled(played.record, seats)
    forfeit = forfeit_words(played.error, played.outcome[2], seats)
    return RunGame(plugin, record, game, played.traceback, warnings, unshown, forfeit)


def forfeit_words(error: Any, seat: int, seats: Sequence[str], when: str = "") -> str | None:
    """A replay's forfeit in every game's words, its viewer's included: ``seat N (LABEL)
    forfeited: WHY`` (WHY: the error without the seat and label the run's ``seat_error`` puts
    before it, its control characters escaped; ``when``, such as " after the game ended",
    follows "forfeited"); None for a game no seat forfeited."""
    from tournaments.plugin_results import seat_error

    if error is None and seat < 0:
        return None
    if not 0 <= seat < len(seats):  # an error with no seat to name: the error alone
        return printable(f"forfeited{when}: {error}")
    label = seats[seat]
    said = "" if error is None else str(seat_error(str(error), seat, label))
    why = said.removeprefix(f"seat {seat} ({label}): ")
    return printable(f"seat {seat} ({label}) forfeited{when}" + (f": {why}" if why else ""))


def _drawing(replay: Any) -> tuple[Any, tuple[str, ...]]:
    """``replay()`` and the global random states it drew from (``global_random``)."""
    from strategies import global_random

    return global_random.drawn_during(replay)


def _suspect(plugin: Any, payload: Any) -> bool:
    """Could the entrant of ``payload`` have drawn from the global random state (its code is
    not this project's: ``strategies.global_random.own_code``)? A payload its game holds as no
    strategy of a registry (a game of its own, ``module:Class``) is judged as it is."""
    from strategies import global_random

    try:
        held = plugin.strategy(payload)
    except Exception:  # noqa: BLE001 - a game's own payloads: no registry strategy to look up
        held = payload
    return not global_random.own_code(held)


def _differs(plugin: Any, by_label: dict[str, Any], drew: tuple[str, ...], outcome: Any,
             was: Any) -> list[str]:  # fmt: skip
    """What the replay's ``outcome`` against the run's (``was``) says: why it differs (an
    entrant that drew from the global random state, ``drew``, named; else a change), or that
    its moves may not be the run's where something drew and the outcome still matches."""
    from tournaments.notices import not_replayed

    unit = plugin.unit
    who = tuple(label for label, p in by_label.items() if _suspect(plugin, p)) if drew else ()
    why = not_replayed(who, drew, unit) if drew and who else None
    if outcome == was:
        return [] if why is None else [f"{why}: the moves shown may not be the run's"]
    return [
        f"the replayed {unit} differs from the run's (winner seat, {plugin.length_value}, "
        f"forfeit seat: {outcome} here, {was} in the run): "
        f"{why or 'a strategy or the code changed since the run'}"
    ]


def _forfeited(plugin: Any, payloads: list[Any], seeds: tuple[int, int]) -> Any:
    """The game played again without a record, where its replay refused it: a ``Replayed``
    with no record when a seat forfeited it (a game that records finished games only, such
    as rounds in a pinned format, refuses to replay a forfeit, which is still the game the
    run played: shown as far as it can be, exit 0), else None (the refusal stands)."""
    from tournaments.game import Replayed

    deal, play = (np.array([s], np.uint64) for s in seeds)
    try:
        b = plugin.play(payloads, deal, play)
    except ValueError:  # what refused the replay refuses the play too: said as the replay's
        return None
    if int(b.forfeit_seat[0]) < 0:
        return None
    outcome = (int(b.winner_seat[0]), int(b.game_values[plugin.length_value][0]),
               int(b.forfeit_seat[0]))  # fmt: skip
    return Replayed("", str(b.errors[0]), None, outcome)


def _labelled(record: str, seats: list[str]) -> str:
    """The record line with its seats named as the run names them (two versions of one bot
    are ``ok.py:MyBot`` and ``ok2.py:MyBot`` there; rebuilt, each calls itself ``MyBot``)."""
    d = json.loads(record)
    if not isinstance(d, dict) or len(d.get("strategies") or []) != len(seats):
        return record
    return json.dumps({**d, "strategies": seats}, separators=(",", ":"))
