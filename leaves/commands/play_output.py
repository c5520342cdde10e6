"""What a ``leaves play`` session shows and keeps when a game ends: the result, the scores of
an expert match, and the game appended to ``--save`` as a GameRecord line.

Imports inside functions: start-up (what a game's end needs loads then).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from leaves import State
from leaves_cli.errors import CLIError

from . import render

__all__ = ["save_game", "scores_table", "show_left", "show_result"]


def show_result(console: Console, state: State, names: Sequence[str]) -> None:
    """Who won (or that the turn limit ended the game) and every hand left."""
    console.print()
    if state.winner is None:
        console.print(
            Text(f"The game stopped unfinished at the turn limit ({state.turn_limit}).", "bold")
        )
    elif names[state.winner] == "you":
        console.print(Text(f"You win after {state.turn} turns!", style="bold green"))
    else:
        who = render.seat_label(state.winner, names)
        console.print(Text(f"{who} wins after {state.turn} turns.", style="bold red"))
    console.print(render.seats_table(state, names, hands=state.hands))


def scores_table(match, names: Sequence[str], last: Sequence[int]) -> Table:
    """The expert match's points per seat: this game's and the totals so far."""
    t = Table(title=f"Scores after game {match.games}", title_justify="left")
    t.add_column("seat", justify="right")
    t.add_column("player")
    t.add_column("this game", justify="right")
    t.add_column("total", justify="right")
    for seat, name in enumerate(names):
        t.add_row(str(seat), name, str(last[seat]), str(match.totals[seat]))
    return t


def save_game(
    path: str, initial: State, final: State, names: Sequence[str], stopped: str | None = None
) -> None:
    """Append the game from ``initial`` to ``final`` to ``path`` (``stopped``: why it was left
    before its end, for a game the player quit)."""
    from leaves.record import GameRecord

    labels = tuple("human" if name == "you" else name for name in names)
    record = GameRecord.from_states(initial, final, seed=None, strategies=labels, stopped=stopped)
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(record.to_json() + "\n")
    except OSError as exc:
        raise CLIError(f"cannot write {path}: {exc.strerror or exc}") from None


def show_left(console: Console, save: str | None, initial: State, state: State | None,
              names: Sequence[str]) -> None:  # fmt: skip
    """The player quit: say so, and keep the game so far in ``save`` (marked unfinished)."""
    console.print("You left the game.")
    if save and state is not None:
        save_game(save, initial, state, names, stopped="the player quit")
        console.print(
            f"Saved the unfinished game to {save} ('leaves replay {save}' replays it up to "
            "where you stopped)."
        )
