"""``leaves replay``: step through a recorded game (GameRecord JSON lines) move by move, or
print a recorded Ligretto round (``"game": "ligretto"``) as a timeline."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.text import Text

from .errors import CLIError


def read_line(path: str, game: int) -> tuple[int, str]:
    """(line number, text) of the ``game``-th record (1 = first) of a JSON-lines file."""
    try:
        fh = open(path, encoding="utf-8")  # noqa: SIM115 - closed below, errors are worded
    except FileNotFoundError:
        raise CLIError(f"no such record file: {path}", usage=True) from None
    except OSError as exc:
        raise CLIError(f"cannot read {path}: {exc.strerror or exc}") from None
    seen = 0
    with fh:
        try:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                seen += 1
                if seen == game:
                    return lineno, line
        except UnicodeDecodeError:
            raise CLIError(f"{path} is not a text file of JSON game records") from None
    if seen == 0:
        raise CLIError(f"{path} holds no game records")
    raise CLIError(f"--game {game}: {path} holds only {seen} game record(s)", usage=True)


def read_record(path: str, game: int):
    """The ``game``-th 13 Leaves record of a JSON-lines file; CLIError for anything wrong."""
    from leaves.record import GameRecord

    lineno, line = read_line(path, game)
    try:
        return GameRecord.from_json(line)
    except (ValueError, TypeError) as exc:
        raise CLIError(f"{path}, line {lineno}: bad game record: {exc}") from None


def _is_ligretto(line: str) -> bool:
    import json

    try:
        data = json.loads(line)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("game") == "ligretto"


def _replay_ligretto(path: str, game: int, lineno: int, line: str) -> None:
    import ligretto

    try:
        record = ligretto.RoundRecord.from_json(line)
        ligretto.replay(record)  # checked card by card before it is shown
    except (ValueError, TypeError) as exc:
        raise CLIError(f"{path}, line {lineno}: bad Ligretto round record: {exc}") from None
    click.echo(f"Round {game} of {path}")
    for text in ligretto.timeline(record):
        click.echo(text)


@click.command(name="replay")
@click.argument("record_file", metavar="RECORD.jsonl", type=click.Path())
@click.option(
    "--game",
    "game",
    type=click.IntRange(min=0),
    default=None,
    help="Which game: of a record file, the record (1 = first line, the default); of a run "
    "directory, the game index of its rows and forfeits.json (from 0; default: the first "
    "forfeited game, else 0).",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Print every step without waiting (the default when stdin is not a terminal).",
)
@click.option(
    "--hints",
    is_flag=True,
    help="Show the hint (as 'h' does in play) for the player to move at every position.",
)
def replay(record_file: str, game: int | None, show_all: bool, hints: bool) -> None:
    """Step through a recorded game, move by move, with every hand shown.

    Records are GameRecord JSON lines, as written by 'leaves play --save' (a game left with
    'q' is saved unfinished and replays up to where it stopped), by tournaments that keep
    records, or by leaves.GameRecord.to_json(). A tournament run directory replays any of its
    games from its seeds and seats (runs with --no-rows cannot): a forfeited game stops at the
    failing decision and shows the error with its traceback. Press Enter for the next move,
    'h' for a hint (what the strongest bot would play here, and why weighted would), 'a' to
    show the rest at once, 'q' to stop. A Ligretto round record (from
    'leaves tournament --game ligretto --record FILE') is checked card by card and printed
    as a timeline: who played which card from where onto which pile, when.

    \b
    Examples:
      leaves replay games.jsonl
      leaves replay runs/a/records.jsonl --game 12
      leaves replay runs/a --game 417 --all      # game 417 of a run, from its seeds
      leaves replay games.jsonl --all | less -R
      leaves replay games.jsonl --all --hints       # a hint at every position
      leaves replay ligretto-rounds.jsonl --game 3
    """
    from .replay_run import is_run, replay_run_game

    if is_run(record_file):
        played = replay_run_game(record_file, game)
        head = f"Game {played.game} of run {record_file}, replayed from its seeds"
        for line in played.warnings:
            click.echo(f"warning: {line}", err=True)
        where = f"{record_file}, game {played.game}"
        _show(played.record, head, show_all, hints, where, played.traceback)
        return
    if Path(record_file).is_dir():
        raise CLIError(f"{record_file} is a directory but not a tournament run (no manifest.json)")
    if game == 0:
        raise CLIError("--game counts the records of a file from 1", usage=True)
    game = game or 1
    lineno, line = read_line(record_file, game)
    if _is_ligretto(line):
        _replay_ligretto(record_file, game, lineno, line)
        return
    record = read_record(record_file, game)
    where = f"{record_file}, game {game}"
    _show(record, f"Game {game} of {record_file}", show_all, hints, where)


def _show(
    record, head: str, show_all: bool, hints: bool, where: str, traceback: str | None = None
) -> None:
    """Step through ``record`` (checked by ``leaves.replay``), then its result; ``where``
    names the game in an error."""
    from leaves import IllegalActionError
    from leaves.record import replay as replay_states

    from . import render

    try:
        states = replay_states(record)
    except (IllegalActionError, ValueError) as exc:
        raise CLIError(f"{where}: {exc}") from None
    n = record.n_players
    names = [str(s) for s in record.strategies][:n]
    names += [f"seat {i}" for i in range(len(names), n)]
    console = render.make_console()
    interactive = not show_all and sys.stdin.isatty()
    head += f": {n} players, {record.turns} turns, {record.rounds} rounds"
    if record.seed is not None:
        head += f", seed {record.seed}"
    console.print(Text(head, style="bold"))
    for i, state in enumerate(states):
        _show_state(console, states, i, names)
        if hints and not state.is_terminal:
            _show_hint(console, state, names, record.seed, i)
        if interactive and i < len(states) - 1:
            answer = _ask(console, state, names, record.seed, i)
            if answer in ("q", "quit"):
                return
            if answer in ("a", "all"):
                interactive = False
    console.print()
    console.print(Text(f"Result: {_outcome(record, states[-1], names)}.", style="bold"))
    if traceback:
        console.print(Text("The strategy's traceback:", style="bold"))
        console.print(Text(traceback.rstrip()))


def _show_state(console, states: list, i: int, names: list[str]) -> None:
    from . import render

    state = states[i]
    if i == 0:
        title = f"Deal - {render.seat_label(state.current_player, names)} leads"
    else:
        seat, action = state.history[-1]
        title = (
            f"Turn {i}: {render.seat_label(seat, names)} {render.describe_action(action)}"
            f" (round {states[i - 1].round})"
        )
    console.print()
    console.print(render.position(state, names, hands=state.hands, title=title))


def _ask(console, state, names: list[str], seed: int | None, i: int) -> str:
    """The reader's answer at a position: hints are shown here, anything else returned."""
    while True:
        try:
            answer = console.input("[dim]Enter: next move, h: hint, a: all, q: quit[/dim] ")
        except EOFError:
            answer = "q"
        answer = answer.strip().lower()
        if answer not in ("h", "hint"):
            return answer
        _show_hint(console, state, names, seed, i)


def _outcome(record, final, names: list[str]) -> str:
    from . import render

    if record.forfeit_seat is not None:
        who = render.seat_label(record.forfeit_seat, names)
        error = str(record.error or "")
        prefix = f"seat {record.forfeit_seat} ({names[record.forfeit_seat]}): "
        error = error[len(prefix) :] if error.startswith(prefix) else error
        return f"{who} forfeited" + (f": {error}" if error else "")
    if getattr(record, "stopped", None):
        return f"unfinished: {record.stopped} (turn {final.turn})"
    if final.winner is not None:
        return f"{render.seat_label(final.winner, names)} wins after {final.turn} turns"
    return f"unfinished at the turn limit ({final.turn_limit} turns)"


def _show_hint(console, state, names, seed: int | None, index: int) -> None:
    """The hint for the player to move in ``state``, drawn from a generator fixed by the
    record's seed and the position, so a replay shows the same hint every time."""
    import numpy as np

    from . import render
    from .hint import hint

    seat = state.current_player
    console.print(Text(f"Hint for {render.seat_label(seat, names)}, to move:", style="bold"))
    rng = np.random.default_rng([seed or 0, index])
    console.print(hint(state.view(seat), rng, console=console))
