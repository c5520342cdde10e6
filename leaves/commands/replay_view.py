"""13 Leaves' record viewer for ``leaves replay`` (the game's ``replay_viewer``): step through
a recorded game move by move with every hand shown, hints on request.

Imports inside functions: start-up (the viewer loads what a shown record needs).
"""

from __future__ import annotations

import sys
from typing import Any

from rich.text import Text

from gamekit.text import printable
from leaves_cli.console import make_console
from leaves_cli.errors import CLIError
from leaves_cli.replay_cmd import ReplayHow


def show(game: Any, line: str, how: ReplayHow) -> None:
    """Check ``line`` (a GameRecord JSON line) by replaying it, then step through it."""
    from leaves.record import GameRecord

    try:
        record = GameRecord.from_json(line)
    except (ValueError, TypeError) as exc:
        raise CLIError(f"{how.read_from}: bad game record: {exc}") from None
    _show(record, how.head, how.show_all, how.hints, how.where, how.traceback,
          getattr(how, "rules", None))  # fmt: skip


def _show(  # noqa: PLR0913 - the replay's settings, as ReplayHow holds them
    record, head: str, show_all: bool, hints: bool, where: str, traceback: str | None = None,
    rules: Any = None,
) -> None:  # fmt: skip
    """Step through ``record`` (checked by ``leaves.replay``, against ``rules`` when the
    game's rules are known: a run's), then its result; ``where`` names the game in an
    error."""
    from leaves import IllegalActionError
    from leaves.record import replay as replay_states
    from reports.numbers import counted

    try:
        states = replay_states(record, rules=rules)
    except (IllegalActionError, ValueError) as exc:
        raise CLIError(f"{where}: {exc}") from None
    n = record.n_players
    names = [printable(str(s)) for s in record.strategies][:n]
    names += ["unnamed"] * (n - len(names))  # "seat 2 (unnamed)", not "seat 2 (seat 2)"
    console = make_console()
    interactive = not show_all and _at_a_terminal()
    head += f": {n} players, {counted(record.turns, 'turn')}, {counted(record.rounds, 'round')}"
    if record.seed is not None:  # a run's rows: deal_seed (their seed: the play's)
        dealt = _deals(record, states[0])
        head += f", deal seed {record.seed}" if dealt else (
            f", seed {record.seed} (not the deal seed of these hands)")  # fmt: skip
    played = states[0].rules
    if not played.replace(turn_limit=record.turn_limit).is_default:
        head += f", rules {played}"
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


def _at_a_terminal() -> bool:
    """Can the replay wait for a key: its prompt seen (stdout a terminal, not a file or a
    pager) and answered (stdin one)? Else every step is printed at once (as ``--all``)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _deals(record, initial) -> bool:
    """Whether the record's seed, as a deal seed, deals its hands and first player (a
    record of a game dealt otherwise, e.g. by ``new_game``, may name another seed)."""
    from leaves.players.play import deal_state

    dealt = deal_state(record.n_players, record.seed, rules=initial.rules)
    return dealt.hands == initial.hands and dealt.current_player == initial.current_player


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
    """The reader's answer at a position: hints are shown here, an answer the prompt does not
    offer is said so (a typo steps no move on), the others returned."""
    while True:
        try:
            answer = console.input("[dim]Enter: next move, h: hint, a: all, q: quit[/dim] ")
        except EOFError:
            console.print()  # the prompt's line ends before the command does
            answer = "q"
        answer = answer.strip().lower()
        if answer in ("h", "hint"):
            _show_hint(console, state, names, seed, i)
        elif answer in ("", "q", "quit", "a", "all"):
            return answer
        else:
            console.print(Text(f"Unknown answer {answer!r}: Enter, h, a or q.", style="bold red"))


def _outcome(record, final, names: list[str]) -> str:
    from reports.numbers import counted

    from . import render

    if record.forfeit_seat is not None:  # in the words of every game's replay
        from leaves_cli.replay_run import forfeit_words

        # a seat that failed when told the result forfeits a game its moves ended
        when = " after the game ended" if final.is_terminal else ""
        error = None if record.error is None else printable(str(record.error))  # as ``names``
        return str(forfeit_words(error, record.forfeit_seat, names, when))
    stopped = getattr(record, "stopped", None)
    if stopped is not None:  # a blank reason is still a stop, not the turn limit
        said = printable(stopped)  # when: turns are numbered from 1, there is no turn 0
        when = f"after {counted(final.turn, 'turn')}" if final.turn else "before the first move"
        return f"unfinished{f': {said}' if stopped.strip() else ''} ({when})"
    if final.winner is not None:
        return f"{render.seat_label(final.winner, names)} wins after {counted(final.turn, 'turn')}"
    return render.at_turn_limit(final.turn_limit)


def _show_hint(console, state, names, seed: int | None, i: int) -> None:
    """The hint for the player to move in ``state``, position ``i`` (its turn: one a move),
    drawn as ``leaves play`` draws it (``hint_rng`` of the record's deal seed and the turn):
    a game saved by ``leaves play`` shows the hints its player saw, and a replay the same
    hint every time."""
    from . import render
    from .hint import hint
    from .play_loop import hint_rng

    seat = state.current_player
    console.print(Text(f"Hint for {render.seat_label(seat, names)}, to move:", style="bold"))
    console.print(hint(state.view(seat), hint_rng(seed, i), console=console))
