"""What a ``leaves play`` session shows and keeps when a game ends: the result, the scores of
an expert match, and the game appended to ``--save`` as a GameRecord line.

Imports inside functions: start-up (what a game's end needs loads then).
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from leaves import State
from leaves_cli.errors import CLIError
from leaves_cli.fitted import FittedTable
from leaves_cli.worker_stop import to_null

from . import render
from .play_loop import OutputGone, QuitGame
from .play_signals import Signalled, terminal_hung_up

__all__ = ["check_record_file", "closed_terminal", "replay_command", "save_game", "scores_table", "show_left",
           "show_result"]  # fmt: skip


def show_result(console: Console, state: State, names: Sequence[str]) -> None:
    """Who won (or that the turn limit ended the game) and every hand left."""
    from reports.numbers import counted

    console.print()
    if state.winner is None:
        console.print(Text(f"The game stopped {render.at_turn_limit(state.turn_limit)}.", "bold"))
    elif names[state.winner] == "you":
        console.print(Text(f"You win after {counted(state.turn, 'turn')}!", style="bold green"))
    else:
        who = render.seat_label(state.winner, names)
        console.print(Text(f"{who} wins after {counted(state.turn, 'turn')}.", style="bold red"))
    console.print(render.seats_table(state, names, hands=state.hands))


class _Scores(FittedTable):
    """The match's scores: counts set right, a name whole on a line (a seat a line, where the
    table cannot fit so)."""

    RIGHT, WHOLE = ("seat", "this game", "total"), ("player",)

    def lines(self, console: Console, width: int) -> RenderableType:
        """A line a seat, folded between its words: 'seat 1 (greedy): 0 this game, 5 in all'."""
        names = [row[1] for row in self.rows]
        said = [Text(f"{render.seat_label(int(seat), names)}: {game} this game, {total} in all")
                for seat, _, game, total in self.rows]  # fmt: skip
        return Group(Text(self.title or ""), *(render.hanging(console, t, width) for t in said))


def scores_table(match, names: Sequence[str], last: Sequence[int]) -> FittedTable:
    """The expert match's points per seat: this game's and the totals so far (a name folds,
    whole, where the terminal is narrow)."""
    rows = [[str(seat), name, str(last[seat]), str(match.totals[seat])]
            for seat, name in enumerate(names)]  # fmt: skip
    heads = ("seat", "player", "this game", "total")
    return _Scores(heads, rows, title=f"Scores after game {match.games}")


def check_record_file(path: str) -> None:
    """Refuse (before any game) a ``--save`` file a game cannot be appended to, in the words
    of every command's file option (``check_file_writable``: a folder that is missing or takes
    no file, exit 2 or 1; no regular file, such as /dev/null, which keeps nothing to replay, or
    a pipe, which is not opened, exit 2), then one that holds something other than game
    records, as ``leaves replay`` reads them: appending a record to it would spoil both."""
    from leaves_cli.replay_cmd import record_lines  # start-up: only with --save
    from leaves_cli.writable import check_file_writable  # start-up: only with --save

    check_file_writable(path, "--save")  # first: opening a pipe to read waits for a writer
    try:
        with open(path, encoding="utf-8") as fh:
            for lineno, line in record_lines(fh):
                if not _is_record(line):
                    raise CLIError(
                        f"--save {path} is not a file of game records (line {lineno} is not "
                        "one): name a new file, or one that holds game records",
                        usage=True,
                    )
    except FileNotFoundError:
        return  # gone since: a new file
    except UnicodeDecodeError:
        raise CLIError(
            f"--save {path} is not a file of game records (it is not text): name a new file, "
            "or one that holds game records",
            usage=True,
        ) from None
    except OSError as exc:
        raise CLIError(f"cannot read {path}: {exc.strerror or exc} (--save)") from None


def _is_record(line: str) -> bool:
    """Is ``line`` a game record: this game's, or one that names its game (``"game"``)?"""
    import json

    from leaves.record import GameRecord

    try:
        data = json.loads(line)
        if isinstance(data, dict) and "game" in data:
            return True
        GameRecord.from_dict(data)
    except (ValueError, TypeError):
        return False
    return True


def save_game(
    path: str,
    initial: State,
    final: State,
    names: Sequence[str],
    seed: int | None = None,
    **why: Any,
) -> int:
    """Append the game from ``initial`` (dealt from the deal seed ``seed``; None: dealt
    otherwise) to ``final`` to ``path`` (``why``: the record's account of a game not played to
    its end, ``stopped=`` or ``forfeit_seat=`` and ``error=``); its number in the file (1 =
    first record), as ``leaves replay --game`` counts the records. The seed makes the
    replay's hints the game's (``hint_rng``) and its heading name the deal."""
    from leaves.record import GameRecord

    labels = tuple("human" if name == "you" else name for name in names)
    record = GameRecord.from_states(initial, final, seed=seed, strategies=labels, **why)
    try:
        before, ends_line = _records_in(path)
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(("" if ends_line else "\n") + record.to_json() + "\n")
    except OSError as exc:
        raise CLIError(f"cannot write {path}: {exc.strerror or exc}") from None
    return before + 1


def _records_in(path: str) -> tuple[int, bool]:
    """How many records ``path`` holds, counted as ``leaves replay --game`` counts them (0
    when it is not there), and whether it ends a line (so the next record starts a line of
    its own)."""
    from leaves_cli.replay_cmd import record_lines  # start-up: only when a game is saved

    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
    except FileNotFoundError:
        return 0, True
    ends = not lines or lines[-1].endswith("\n") or not lines[-1].removeprefix("\ufeff")
    return sum(1 for _ in record_lines(lines)), ends


def replay_command(path: str, number: int) -> str:
    """The command that replays record ``number`` of ``path``, as a shell takes it (a path
    with a space or a bracket quoted, and one that starts with '-' led by './', so the command
    pasted works: the command line would read '-g.jsonl' as an option)."""
    from tournaments.run_state import shell_word  # start-up: only when a game is saved

    return f"leaves replay {shell_word(path)}" + ("" if number == 1 else f" --game {number}")


def show_left(console: Console, save: str | None, left: QuitGame, names: Sequence[str]) -> None:
    """The game was left before its end (``q``, the input ended, Ctrl-C or a signal, a bot
    forfeited, the output closed): keep the game so far in ``save`` (marked unfinished, with
    why) and say so; the end of input, Ctrl-C (or a signal) and a forfeit then end the command
    as errors (exit 1, 130 and 1) that say what was saved, and a closed output as output cut
    short does (a broken pipe: exit 0, nothing more written)."""
    saved = None
    if save and left.state is not None and left.initial is not None:
        why = left.record_fields(names)
        number = save_game(save, left.initial, left.state, names, left.seed, **why)
        saved = left.saved(save, replay_command(save, number))
    if isinstance(left, OutputGone):  # nothing more can be shown: output cut short (exit 0)
        raise BrokenPipeError(errno.EPIPE, "the output closed") from None
    closed_terminal(None)  # the terminal closed (SIGHUP): what follows is said to none
    if left.ends_with is not None:
        console.print()  # the prompt's line ends: the error is a line of its own
        error = CLIError(left.ends_with + (f"; {saved}" if saved else ""))
        error.exit_code = left.exit_code
        raise error
    # between the games of a match (no position left) the game was over: the match is left
    console.print("You left the game." if left.state is not None else "You left the match.")
    if saved:
        # a path is not markup, and the command to paste is never cut in two
        console.print(Text(saved[0].upper() + saved[1:] + "."), soft_wrap=True)


def closed_terminal(error: BaseException | None) -> None:
    """Output to a terminal that closed (hung up) goes to the null device from now on: the
    lines still to come, the error line among them, cannot be shown, and failing to show them
    must not replace the command's end (SIGHUP's exit, 130). ``error``, an OSError that
    writing raised, is SIGHUP's stop (``Signalled``) where the terminal closed."""
    dead = [fd for fd in (1, 2) if terminal_hung_up(fd)]
    for fd in dead:
        try:
            to_null(fd)
        except OSError:  # no null device: the error line may fail as it would have
            return
    if isinstance(error, OSError) and dead:
        raise Signalled("SIGHUP") from None
