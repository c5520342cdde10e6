"""``leaves replay``: step through a recorded game (GameRecord JSON lines) move by move, or
print a recorded Ligretto round (``"game": "ligretto"``) as a timeline."""

from __future__ import annotations

import sys

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
@click.argument("record_file", metavar="RECORD.jsonl", type=click.Path(dir_okay=False))
@click.option(
    "--game",
    "game",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which record of the file to replay (1 = first line).",
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
def replay(record_file: str, game: int, show_all: bool, hints: bool) -> None:
    """Step through a recorded game, move by move, with every hand shown.

    Records are GameRecord JSON lines, as written by 'leaves play --save', by tournaments
    that keep records, or by leaves.GameRecord.to_json(). Press Enter for the next move,
    'h' for a hint (what the strongest bot would play here, and why weighted would), 'a' to
    show the rest at once, 'q' to stop. A Ligretto round record (from
    'leaves tournament --game ligretto --record FILE') is checked card by card and printed
    as a timeline: who played which card from where onto which pile, when.

    \b
    Examples:
      leaves replay games.jsonl
      leaves replay runs/a/records.jsonl --game 12
      leaves replay games.jsonl --all | less -R
      leaves replay games.jsonl --all --hints       # a hint at every position
      leaves replay ligretto-rounds.jsonl --game 3
    """
    from leaves import IllegalActionError
    from leaves.record import replay as replay_states

    from . import render

    lineno, line = read_line(record_file, game)
    if _is_ligretto(line):
        _replay_ligretto(record_file, game, lineno, line)
        return
    record = read_record(record_file, game)
    try:
        states = replay_states(record)
    except (IllegalActionError, ValueError) as exc:
        raise CLIError(f"{record_file}, game {game}: {exc}") from None
    n = record.n_players
    names = [str(s) for s in record.strategies][:n]
    names += [f"seat {i}" for i in range(len(names), n)]
    console = render.make_console()
    interactive = not show_all and sys.stdin.isatty()
    head = (
        f"Game {game} of {record_file}: {n} players, {record.turns} turns, {record.rounds} rounds"
    )
    if record.seed is not None:
        head += f", seed {record.seed}"
    console.print(Text(head, style="bold"))
    for i, state in enumerate(states):
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
        if hints and not state.is_terminal:
            _show_hint(console, state, names, record.seed, i)
        while interactive and i < len(states) - 1:
            try:
                answer = console.input("[dim]Enter: next move, h: hint, a: all, q: quit[/dim] ")
            except EOFError:
                answer = "q"
            answer = answer.strip().lower()
            if answer in ("h", "hint"):
                _show_hint(console, state, names, record.seed, i)
                continue
            break
        if interactive and i < len(states) - 1:
            if answer in ("q", "quit"):
                return
            if answer in ("a", "all"):
                interactive = False
    final = states[-1]
    if record.forfeit_seat is not None:
        why = f": {record.error}" if record.error else ""
        outcome = f"{render.seat_label(record.forfeit_seat, names)} forfeited{why}"
    elif final.winner is not None:
        outcome = f"{render.seat_label(final.winner, names)} wins after {final.turn} turns"
    else:
        outcome = f"unfinished at the turn limit ({final.turn_limit} turns)"
    console.print()
    console.print(Text(f"Result: {outcome}.", style="bold"))


def _show_hint(console, state, names, seed: int | None, index: int) -> None:
    """The hint for the player to move in ``state``, drawn from a generator fixed by the
    record's seed and the position, so a replay shows the same hint every time."""
    import numpy as np

    from . import render
    from .hint import hint

    seat = state.current_player
    console.print(Text(f"Hint for {render.seat_label(seat, names)}, to move:", style="bold"))
    rng = np.random.default_rng([seed or 0, index])
    console.print(hint(state.view(seat), rng))
