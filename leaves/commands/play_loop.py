"""The game loop of ``leaves play``: a human and bots take turns at one table.

``play_game`` takes the bots and a ``read`` function as arguments, so tests can drive it with a
stand-in bot and scripted input; ``leaves.commands.play`` builds those from the command line.

Imports inside functions: start-up (the search and the hint load only when asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rich.console import Console
from rich.text import Text

from leaves import Action, State
from leaves.players.play import FAILURES, error_text, illegal_answer, playing
from leaves_cli.errors import CLIError
from leaves_cli.flags import message

from . import render
from .moves import MoveError, parse_move
from .play_signals import arm_signals, hold_signals, terminal_hung_up

HELP_TEXT = (
    "Type the key of a move (the number left of it), or the move itself: '3x6' or 'play 3x6' "
    "plays three 6s, 'take 9' (or 'pass, take 9') passes and takes a 9 from the table. "
    "'h' shows a hint (what the search bot ismcts would play, and why weighted would), "
    "Enter alone shows the position again, 'q' quits."
)

QUIT_WORDS = ("q", "quit", "exit")
"""What the player types to stop: at a move, and between the games of a match."""

PASS_HELP = {
    "ends": "'take 9' (or 'pass, take 9') passes and takes a 9 from the table",
    "nothing": "'pass' passes (a pass takes no card under these rules)",
}
"""The help's words for a pass under the rules that change it."""


def help_text(rules: Any) -> str:
    """``HELP_TEXT`` under ``rules``: what to type for a pass, and which stacks it takes."""
    text = HELP_TEXT
    if rules.take == "nothing":
        text = text.replace(PASS_HELP["ends"], PASS_HELP["nothing"])
    elif rules.take == "ends":
        text = text.replace("from the table.", "from an end of the table (take=ends).")
    return text


LEVELS: dict[str, tuple[str, ...]] = {
    "easy": ("greedy", "random"),
    "medium": ("weighted",),
    "hard": ("ismcts:preset=strong",),
}
"""Opponents per --level, repeated in turn over the seats: easy alternates the weakest
heuristic and random play; medium is the best heuristic; hard is information-set search with
the ``strong`` preset (12,800 iterations at most over a sharper deal chain, stopping once more
cannot change the move: the strongest player the project has at an interactive pace; its
time a decision is measured by ``benchmarks/bench_ismcts.py --preset strong``)."""

DEFAULT_LEVEL = "medium"


class QuitGame(Exception):
    """The human asked to stop; ``state`` is the position left (None between games),
    ``initial`` the first position of the game it was in (or the last one played).
    ``reason`` is what a saved record's ``stopped`` says; ``ends_with`` the error the command
    then ends with (exit code ``exit_code``), None where leaving is no error."""

    reason = "the player quit"
    ends_with: str | None = None
    exit_code = 0
    stopper = "you"

    seed: int | None = None  # the deal seed of ``initial``, as its saved record keeps it

    def __init__(self, state: State | None = None, initial: State | None = None):
        hold_signals()  # the game is being left: no signal may cut into saving it
        super().__init__(self.reason)
        self.state = state
        self.initial = initial

    @property
    def over(self) -> bool:
        """Did the moves end the game before it was left (Ctrl-C while a bot read its end)?
        Then it was not cut short: it is saved, and said, as a finished game."""
        return self.state is not None and self.state.is_terminal

    def record_fields(self, names: Sequence[str]) -> dict[str, Any]:
        """What the saved record says of why the game stopped before its end."""
        return {} if self.over else {"stopped": self.reason}

    def saved(self, path: str, replay: str) -> str:
        """What is said of the game saved to ``path``, ``replay`` the command that shows it."""
        if self.over:
            return f"saved the game to {path} ('{replay}' replays it)"
        return (
            f"saved the unfinished game to {path} ('{replay}' replays it up to where "
            f"{self.stopper} stopped)"
        )


class InputEnded(QuitGame):
    """The input ended (end of file) before the game did: what was played is still saved."""

    reason = "the input ended"
    ends_with = "input ended before the game did"
    exit_code = 1
    stopper = "it"


class Interrupted(QuitGame):
    """Ctrl-C during the game, or a signal that ends the process (``Signalled``): what was
    played is still saved before the exit (130); the record says which (``reason``)."""

    ends_with = "interrupted"
    exit_code = 130

    def __init__(self, state: State | None = None, by: str = "Ctrl-C"):
        self.reason = f"interrupted ({by})"
        self.stopper = "you" if by == "Ctrl-C" else "it"
        super().__init__(state)


class OutputGone(QuitGame):
    """The output closed during the game (piped into ``head`` or ``less``, which quit): what
    was played is still saved, and the command then ends as output cut short does (exit 0,
    nothing more written: ``show_left``)."""

    reason = "the output closed"
    stopper = "it"


def output_closed(exc: BaseException) -> bool:
    """Is ``exc`` the output closing: a broken pipe, or rich's exit on one (its
    ``Console.on_broken_pipe`` raises ``SystemExit`` while handling the ``BrokenPipeError``)?"""
    pipe = exc if isinstance(exc, OSError) else exc.__context__
    return isinstance(exc, OSError | SystemExit) and isinstance(pipe, BrokenPipeError)


class Forfeited(QuitGame, CLIError):
    """A bot failed (an error, ``sys.exit()``, an answer that is no legal move): as in a
    tournament the game ends there, forfeited; ``--save`` keeps it with the forfeit (the
    record's ``forfeit_seat`` and ``error``) and the command ends as this error (exit 1)."""

    reason = "forfeited"

    def __init__(self, seat: int, who: str, error: str, hook: str = ""):
        hold_signals()  # as QuitGame: the game is being left
        CLIError.__init__(self, f"strategy {who} forfeits{hook and ' in ' + hook}: {error}")
        self.state, self.initial = None, None
        self.seat, self.error = seat, error
        self.ends_with = self.format_message()

    def record_fields(self, names: Sequence[str]) -> dict[str, Any]:
        """The saved record's account of the forfeit, worded as a tournament's records are."""
        return {"forfeit_seat": self.seat, "error": f"seat {self.seat} ({names[self.seat]}): "
                f"{self.error}"}  # fmt: skip

    def saved(self, path: str, replay: str) -> str:
        return f"saved the game to {path} ('{replay}' replays it)"


Reader = Callable[[str], str]


@dataclass
class Seats:
    """Who sits where: ``bots[s]`` is None for the human seat."""

    names: list[str]
    bots: list[object | None]
    rngs: list[np.random.Generator | None] = field(default_factory=list)

    @property
    def human(self) -> int | None:
        for seat, bot in enumerate(self.bots):
            if bot is None:
                return seat
        return None


def _bot_move(seats: Seats, state: State, seat: int, console: Console | None = None) -> Action:
    bot = seats.bots[seat]
    if (getattr(bot, "classifier", None) or {}).get("search"):
        from .hint import preparing_search

        preparing_search(console)  # on numba its first decision compiles: say so, once
    view = state.view(seat)
    legal = state.legal_actions()
    who = render.seat_label(seat, seats.names)
    try:
        action = bot.choose(view, legal, seats.rngs[seat])
    except FAILURES as exc:  # as in a tournament: any error, and sys.exit(), forfeit
        raise Forfeited(seat, who, error_text(exc)) from exc
    if not isinstance(action, Action) or action not in legal:  # an int id forfeits too
        raise Forfeited(seat, who, illegal_answer(action))
    return action


def hint_rng(seed: int | None, turn: int) -> np.random.Generator:
    """The generator of the hint at ``turn`` of the game dealt from the deal seed ``seed``
    (None: a game dealt otherwise): ``leaves play`` and ``leaves replay`` draw a position's
    hint from it, so a saved game replays with the hints its player saw; keyed by the turn,
    a position's hint is the same however often, and after whichever hints, it is asked."""
    return np.random.default_rng(np.random.SeedSequence(seed or 0, spawn_key=(turn,)))


def _ask_human(
    console: Console,
    state: State,
    seat: int,
    names: Sequence[str],
    read: Reader,
    seed: int | None,
):
    view = state.view(seat)
    legal = state.legal_actions()
    console.print()
    console.print(render.position(view, names, hand=view.hand, legal=legal))
    while True:
        try:
            text = read("Your move (? for help): ")
        except EOFError:
            if terminal_hung_up(0):  # the terminal closed: its SIGHUP may not have come yet
                raise Interrupted(by="SIGHUP") from None
            raise InputEnded from None
        t = text.strip().lower()
        if t in QUIT_WORDS:
            raise QuitGame
        if t in ("?", "help"):
            console.print(help_text(state.rules))
            continue
        if t in ("h", "hint"):
            from .hint import hint

            console.print(hint(view, hint_rng(seed, state.turn), console=console))
            continue
        if not t:
            console.print(render.position(view, names, hand=view.hand, legal=legal))
            continue
        try:
            return parse_move(text, state)  # as typed: an error echoes it so ('Foo', not 'foo')
        except MoveError as exc:
            console.print(Text(str(exc), style="bold red"))


def _call_hooks(seats: Seats, hook: str, state: State, result: Any = None) -> None:
    """Every bot's ``hook`` with its view of ``state``: ``start_game`` with its generator,
    ``end_game`` with the ``result``; the first that fails forfeits the game, as in a
    tournament."""
    for seat, bot in enumerate(seats.bots):
        fn = getattr(bot, hook, None)  # None for the human's seat
        if not callable(fn):
            continue
        try:
            fn(state.view(seat), seats.rngs[seat] if hook == "start_game" else result)
        except FAILURES as exc:  # as in a tournament: any error, and sys.exit(), forfeit
            who = render.seat_label(seat, seats.names)
            raise Forfeited(seat, who, error_text(exc), hook) from exc


def _fresh_bots(bots: list[object | None]) -> list[object | None]:
    try:
        from strategies import Strategy, fresh
    except ImportError:
        return bots
    return [fresh(b) if isinstance(b, Strategy) else b for b in bots]


def _game_result(initial: State, final: State, names: Sequence[str]):
    """What ``Strategy.end_game`` receives: a ``strategies.PublicResult`` when available."""
    try:
        from strategies import PublicResult
    except ImportError:
        return final.winner
    return PublicResult(
        labels=tuple(names),
        first_player=initial.current_player,
        winner=final.winner,
        cards_left=final.hand_sizes,
        turns=final.turn,
        rounds=final.round,
        unfinished=final.unfinished,
    )


def _next_move(
    console: Console, state: State, seats: Seats, read: Reader, seed: int | None
) -> Action:
    """The move of the seat to play (the human is asked, a bot chooses), shown as it is made;
    ``seed``: the game's deal seed, which its hints draw from (``hint_rng``)."""
    seat = state.current_player
    if seat == seats.human:
        action = _ask_human(console, state, seat, seats.names, read, seed)
        console.print(Text(f"You {render.describe_action(action, you=True)}."))
    else:
        action = _bot_move(seats, state, seat, console)
        who = render.seat_label(seat, seats.names)  # a label is not markup: Text
        console.print(Text(f"  {who} {render.describe_action(action)}."))
    return action


def _advance(console: Console, state: State, action: Action, seats: Seats) -> State:
    """The position after ``action``, saying so when it ends a round (who leads the next)."""
    after = state.apply(action)
    if after.round > state.round and not after.is_terminal:
        cleared = sum(after.removed) - sum(state.removed)
        you = after.current_player == seats.human
        s = "" if you else "s"
        who = "you are" if you else f"{render.seat_label(after.current_player, seats.names)} is"
        if cleared:
            removes = f", remove{s} the {cleared} card{'s' if cleared != 1 else ''} on the table"
            line = f"{who} the only one left{removes} and lead{s} round {after.round}."
        else:  # the last pass took the table's last card: nothing is left to remove
            line = f"{who} the only one left and lead{s} round {after.round}; the last pass took"
            line += " the table's last card."
        console.print(Text(f"Round {state.round} ends: {line}", "bold"))
    return after


def _say_leader(console: Console, state: State, seats: Seats) -> None:
    """Who leads the game's first round (you, or a bot's seat)."""
    if state.current_player == seats.human:
        console.print(Text(f"Round {state.round}: you lead.", style="bold"))
    else:
        first = render.seat_label(state.current_player, seats.names)
        console.print(Text(f"Round {state.round}: {first} leads.", style="bold"))


def play_game(
    console: Console, state: State, seats: Seats, read: Reader, seed: int | None = None
) -> State:
    """Play ``state`` to the end: bots choose, the human is asked; every move is shown.

    Strategy bots start each game as fresh instances, as in tournaments (nothing a bot stored
    in one game reaches the next). The hints draw from ``seed``, the deal seed of ``state``
    (``hint_rng``). A stopping signal stops the game only here (``arm_signals``).
    """
    initial = state
    seats.bots = _fresh_bots(seats.bots)
    try:
        _say_leader(console, state, seats)
        arm_signals()
        _call_hooks(seats, "start_game", state)
        while not state.is_terminal:
            action = _next_move(console, state, seats, read, seed)
            state = _advance(console, state, action, seats)
        _call_hooks(seats, "end_game", state, _game_result(initial, state, seats.names))
        hold_signals()  # the game is over: a signal now stops the command once it is saved
    except (OSError, SystemExit) as exc:  # SystemExit: rich's on a broken pipe
        if output_closed(exc):  # piped into head, which quit: the game so far is saved
            raise OutputGone(state) from None
        if isinstance(exc, SystemExit) or not terminal_hung_up(1):
            raise
        raise Interrupted(state, "SIGHUP") from None  # the terminal closed as a move was shown
    except KeyboardInterrupt as stop:  # Ctrl-C, or a signal (Signalled): the game so far
        raise Interrupted(state, getattr(stop, "name", "Ctrl-C")) from None
    except QuitGame as left:  # the same kind (quit, end of input, a forfeit), with the game
        left.state = state
        raise
    return state


def make_bots(specs: Sequence[str], n_opponents: int) -> list:
    """One strategy instance per opponent from the specs (one spec fills every seat); one
    that cannot play (``playing``) is refused before the game, which it would forfeit."""
    import strategies

    if len(specs) == 1:
        specs = list(specs) * n_opponents
    if len(specs) != n_opponents:
        from reports.numbers import counted  # start-up: only for this refusal

        need = "1 strategy" if n_opponents == 1 else f"1 or {n_opponents} strategies"
        raise CLIError(
            f"--against needs {need} for {counted(n_opponents, 'opponent')}, got {len(specs)}",
            usage=True,
        )
    bots = []
    for spec in specs:
        try:
            bots.append(playing(strategies.get(spec)))
        except Exception as exc:  # noqa: BLE001 - user files and specs raise many kinds
            raise CLIError(f"--against: {message(exc)}", usage=True) from exc
    return bots


def level_opponents(level: str, n_opponents: int) -> list[str]:
    """The opponents' specs of ``--level``, its strategies repeated in turn over the seats."""
    specs = LEVELS[level]
    return [specs[i % len(specs)] for i in range(n_opponents)]
