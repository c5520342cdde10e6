"""``leaves replay``: show a recorded game (a JSON line of a records file, or a game of a run
replayed from its seeds) with the viewer its game declares (one steps through a game move by
move, another prints a round as a timeline); a game without a viewer prints its lines.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from gamekit.errors import shown

from .errors import CLIError
from .options import FileName, WholeNumber
from .tournament_parts import load_game


def record_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each record among ``lines``, a JSON-lines file's lines as a
    file opened as text reads them: a byte order mark, as an editor begins a file (any line
    of files joined with cat), is no part of a record, and a blank line is none. The one rule
    by which ``--game`` counts the records and ``leaves play --save`` numbers them."""
    for lineno, line in enumerate(lines, 1):
        line = line.removeprefix("\ufeff")
        if line.strip():
            yield lineno, line


def read_line(path: str, game: int) -> tuple[int, str]:
    """(line number, text) of the ``game``-th record (1 = first) of a JSON-lines file."""
    seen = 0
    try:
        with open(path, encoding="utf-8") as fh:
            for lineno, line in record_lines(fh):
                seen += 1
                if seen == game:
                    return lineno, line
    except FileNotFoundError:
        raise CLIError(f"no such record file: {path}", usage=True) from None
    except UnicodeDecodeError:  # e.g. UTF-16, as some editors save text
        said = "is not a text file of JSON game records (it is not UTF-8)"
        raise CLIError(f"{path} {said}") from None
    except OSError as exc:  # as it opens, or as it is read (a disk's or a mount's error)
        raise CLIError(f"cannot read {path}: {exc.strerror or exc}") from None
    if seen == 0:
        raise CLIError(f"{path} holds no game records")
    unit = _unit(path)  # the game's word for one ("round"), where its records name one game
    raise CLIError(f"--game {game}: {path} holds only {seen:,} {unit}record"
                   f"{'' if seen == 1 else 's'}", usage=True)  # fmt: skip


def _unit(path: str) -> str:
    """The records' word for one, then a space ("game ", "round "), where every record of
    ``path`` names one game this installation loads; else none: a file of two games' records,
    or one that holds a damaged record, is said in records, which it holds all the same."""
    import json

    names = set()
    with open(path, encoding="utf-8") as fh:
        for _, line in record_lines(fh):
            try:
                data = json.loads(line)
            except (ValueError, RecursionError):  # a damaged record: --game N names it
                return ""
            names.add(repr(data.get("game") if isinstance(data, dict) else None))  # [1] too
    if len(names) != 1:
        return ""
    try:
        return f"{game_of_record(line, path).unit} "
    except CLIError:  # a game this installation lacks: its replay says so
        return ""


def no_run(folder: Path) -> str:
    """Why ``folder`` replays no game: it holds no run (no manifest.json), or only runs in
    its folders (``leaves variants``, ``leaves run --rules`` and ``leaves tune`` write theirs
    one or two levels down), named so that one can be picked; a run's folder that lost its
    manifest is named so, in ``leaves verify``'s words (``storage.lost_manifest``)."""
    from tournaments.storage import lost_manifest

    from .verify_cmd import no_run_message, runs_in  # start-up: only when no run is found

    if lost_manifest(folder) is None and not runs_in(folder):
        return f"{folder} is a directory but not a tournament run (no manifest.json)"
    return no_run_message(folder, "replay a game of one (leaves replay RUN --game N)")


@dataclass(frozen=True)
class ReplayHow:
    """How ``leaves replay`` shows a game: its heading, where it comes from (for errors), at
    once or step by step, with hints, and a forfeit's traceback and words (``forfeit``, a
    run's replay: ``seat N (LABEL) forfeited: WHY``, which a viewer shows as its result and a
    game shown as lines ends with)."""

    head: str
    where: str  # the game, as errors name it ("runs/a, game 417")
    show_all: bool = False
    hints: bool = False
    traceback: str | None = None
    source: str = ""  # the record's place in its file, as errors about reading it name it
    rules: Any = None  # the rules the game was played under, when known (a run's): checked
    forfeit: str | None = None

    @property
    def read_from(self) -> str:
        return self.source or self.where


def game_of_record(line: str, where: str) -> Any:
    """The game a record line belongs to: its ``"game"`` key names it (records without one
    are the default game's)."""
    import json
    import sys

    from tournaments.games import DEFAULT_GAME

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:  # a line cut off as it was written ends mid-record
        cut = exc.pos >= len(line.rstrip()) or exc.msg.startswith("Unterminated string")
        msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" a column
        why = f"{msg} at column {exc.colno}"
        if cut:  # the file's end (no line end) or a record spread over lines, as JSON indented
            why = ("the line ends mid-record (a record is one line of JSON)"
                   if line.endswith("\n") else "the file ends mid-record (cut off?)")  # fmt: skip
        elif exc.msg == "Extra data" and line[exc.pos :].startswith("{"):  # files joined by cat
            why = (f"a second record begins at column {exc.colno}: two records on one line "
                   "(a file joined to one that did not end its last line?)")  # fmt: skip
        raise CLIError(f"{where}: bad game record: not a JSON game record: {why}") from None
    except ValueError:  # Python reads no integer this long
        digits = sys.get_int_max_str_digits()
        raise CLIError(f"{where}: bad game record: not a JSON game record: a number of more "
                       f"than {digits} digits") from None  # fmt: skip
    except RecursionError:  # lists in lists deeper than Python recurses
        raise CLIError(f"{where}: bad game record: not a JSON game record: lists or objects "
                       "nested too deep to read") from None  # fmt: skip
    name = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
    if not isinstance(name, str):
        said = shown(name, typed=False, as_json=True)  # as the file writes it: null, 5
        raise CLIError(f'{where}: bad game record: its "game" is {said}, not a game\'s name')
    return load_game(name, {}, named_in=f"the record at {where}")


def show_record(game: Any, line: str, how: ReplayHow) -> None:
    """Show a recorded game with the viewer its game declares, or as lines of text."""
    import importlib

    if game.replay_viewer:
        module, _, function = game.replay_viewer.partition(":")
        getattr(importlib.import_module(module), function)(game, line, how)
        return
    try:
        lines = game.replay_lines(line)
    except ValueError as exc:
        raise CLIError(f"{how.read_from}: {exc}") from None
    if how.hints:  # the game's own viewer gives hints; lines of text give none
        click.echo(f"--hints: no hints for {game.title}: its records are shown as lines of text",
                   err=True)  # fmt: skip
    click.echo(how.head)
    for text in lines:
        click.echo(text)
    if how.forfeit:  # the lines are the record's, which need not hold the error
        click.echo(f"Result: {how.forfeit}.")
    if how.traceback:
        click.echo("The strategy's traceback:")
        click.echo(how.traceback.rstrip())


class GameNumber(WholeNumber):
    """``--game``: a record file's records count from 1, a run directory's games from 0 (as
    its rows and forfeits.json number them); the help and the refusal of another value say
    both, where click's bounds would say one (``0 or more``) for both."""

    FROM = "from 1 for a record file, from 0 for a run directory"

    def __init__(self) -> None:
        super().__init__(0)

    @property
    def bounds(self) -> str:
        return self.FROM

    def takes(self) -> str:
        return f"{self.noun}: {self.FROM}"


@click.command(name="replay")
@click.argument(
    "record_file",
    metavar="RECORD.jsonl|RUN_DIR",
    type=FileName(noun="record file or run directory"),
)
@click.option(
    "--game",
    "game",
    type=GameNumber(),
    default=None,
    help="Which game: of a record file, the record (1 = the first record, the default; blank "
    "lines are not records); of a run directory, the game index of its rows and "
    "forfeits.json (from 0; default: the first forfeited game, else 0).",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Print every step without waiting (the default when stdin or stdout is not a terminal).",
)
@click.option(
    "--hints",
    is_flag=True,
    help="Show the hint ('h') for the player to move at every position, where the game's "
    "viewer gives hints.",
)
def replay(record_file: str, game: int | None, show_all: bool, hints: bool) -> None:
    """Show a recorded game with the viewer its game declares.

    Records are JSON lines, as a game's records file holds them: written by tournaments that
    keep records (--record), or by a game's own commands (such as 'leaves play --save',
    which saves a game left with 'q' unfinished). A tournament run directory replays any of
    its games from its seeds and seats (runs with --no-rows cannot): a forfeited game stops
    at the failing decision and shows the error (with its traceback where the game's replay
    keeps one). A game with turns steps
    through them with every hand shown: Enter for the next move, 'a' to show the rest at
    once, 'q' to stop, and, where the game's viewer gives one, 'h' for a hint (--hints: at
    every position). A game played in real time shows its record as its plug-in words it,
    e.g. a timeline of who played which card from where onto which pile, when.

    \b
    Examples:
      leaves replay games.jsonl
      leaves replay records.jsonl --game 12    # the file's 12th record
      leaves replay runs/a --game 417 --all    # game 417 of a run, from its seeds
      leaves replay games.jsonl --all | less -R
      leaves replay games.jsonl --all --hints  # a hint at every position
      leaves replay rounds.jsonl --game 3      # a record of a game in rounds
    """
    from .replay_run import is_run, replay_run_game

    if is_run(record_file):
        played = replay_run_game(record_file, game)
        unit = played.plugin.unit  # the game's word for a row: "round" of a game in rounds
        head = f"{unit.capitalize()} {played.game} of run {record_file}, replayed from its seeds"
        for line in played.warnings:
            click.echo(f"warning: {line}", err=True)
        if played.unshown is not None:  # a forfeit its game keeps no record of: said, exit 0
            click.echo(f"{head}: {played.unshown}.")
            return
        where = f"{record_file}, {unit} {played.game}"
        rules = getattr(played.plugin, "rules", None)  # the run's, for a game with rules
        how = ReplayHow(head, where, show_all, hints, played.traceback, rules=rules,
                        forfeit=played.forfeit)  # fmt: skip
        show_record(played.plugin, played.record, how)
        return
    if Path(record_file).is_dir():
        raise CLIError(no_run(Path(record_file)), usage=True)
    if game == 0:
        raise CLIError(
            "--game counts the records of a file from 1 (the games of a run directory from "
            "0), got 0",
            usage=True,
        )
    game = game or 1
    lineno, line = read_line(record_file, game)
    source = f"{record_file}, line {lineno}"
    plugin = game_of_record(line, source)
    head = f"{plugin.unit.capitalize()} {game} of {record_file}"
    where = f"{record_file}, {plugin.unit} {game}"
    how = ReplayHow(head, where, show_all, hints, source=source)
    show_record(plugin, line, how)
