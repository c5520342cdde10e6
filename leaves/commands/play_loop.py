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
from leaves.players.play import FAILURES, error_text, illegal_answer
from leaves_cli.errors import CLIError

from . import render
from .moves import MoveError, parse_move

HELP_TEXT = (
    "Type the key of a move (the number left of it), or the move itself: '3x6' or 'play 3x6' "
    "plays three 6s, 'take 9' (or 'pass, take 9') passes and takes a 9 from the table. "
    "'h' shows a hint (what the strongest bot would play, and why weighted would), "
    "Enter alone shows the position again, 'q' quits."
)

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
    ``reason`` is what a saved record's ``stopped`` says."""

    reason = "the player quit"

    def __init__(self, state: State | None = None, initial: State | None = None):
        super().__init__(self.reason)
        self.state = state
        self.initial = initial


class InputEnded(QuitGame):
    """The input ended (end of file) before the game did: what was played is still saved."""

    reason = "the input ended"


class Interrupted(QuitGame):
    """Ctrl-C during the game: what was played is still saved before the exit (130)."""

    reason = "interrupted (Ctrl-C)"


Reader = Callable[[str], str]


@dataclass
class Seats:
    """Who sits where: ``bots[s]`` is None for the human seat."""

    names: list[str]
    bots: list[object | None]
    rngs: list[np.random.Generator | None] = field(default_factory=list)
    hint_rng: np.random.Generator | None = None  # the hint's search draws from this

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
        raise CLIError(f"strategy {who} forfeits: {error_text(exc)}") from exc
    if not isinstance(action, Action) or action not in legal:  # an int id forfeits too
        raise CLIError(f"strategy {who} forfeits: {illegal_answer(action)}")
    return action


def _ask_human(
    console: Console,
    state: State,
    seat: int,
    names: Sequence[str],
    read: Reader,
    hint_rng: np.random.Generator | None = None,
):
    view = state.view(seat)
    legal = state.legal_actions()
    console.print()
    console.print(render.position(view, names, hand=view.hand, legal=legal))
    while True:
        try:
            text = read("Your move (? for help): ")
        except EOFError:
            raise InputEnded from None
        t = text.strip().lower()
        if t in ("q", "quit", "exit"):
            raise QuitGame
        if t in ("?", "help"):
            console.print(help_text(state.rules))
            continue
        if t in ("h", "hint"):
            from .hint import hint

            console.print(hint(view, hint_rng or np.random.default_rng(0), console=console))
            continue
        if not t:
            console.print(render.position(view, names, hand=view.hand, legal=legal))
            continue
        try:
            return parse_move(t, state)
        except MoveError as exc:
            console.print(Text(str(exc), style="bold red"))


def _call_hook(bot, hook: str, who: str, *args) -> None:
    fn = getattr(bot, hook, None)
    if callable(fn):
        try:
            fn(*args)
        except FAILURES as exc:  # as in a tournament: any error, and sys.exit(), forfeit
            raise CLIError(f"strategy {who} forfeits in {hook}: {error_text(exc)}") from exc


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


def _next_move(console: Console, state: State, seats: Seats, read: Reader) -> Action:
    """The move of the seat to play (the human is asked, a bot chooses), shown as it is made."""
    seat = state.current_player
    if seat == seats.human:
        action = _ask_human(console, state, seat, seats.names, read, seats.hint_rng)
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
        cards = f"{cleared} card{'s' if cleared != 1 else ''}"
        if after.current_player == seats.human:
            line = f"you are the only one left, remove the {cards} on the table and lead"
        else:
            leader = render.seat_label(after.current_player, seats.names)
            line = f"{leader} is the only one left, removes the {cards} on the table and leads"
        console.print(Text(f"Round {state.round} ends: {line} round {after.round}.", "bold"))
    return after


def play_game(console: Console, state: State, seats: Seats, read: Reader) -> State:
    """Play ``state`` to the end: bots choose, the human is asked; every move is shown.

    Strategy bots start each game as fresh instances, as in tournaments (nothing a bot stored
    in one game reaches the next).
    """
    initial = state
    seats.bots = _fresh_bots(seats.bots)
    for seat, bot in enumerate(seats.bots):
        if bot is not None:
            who = render.seat_label(seat, seats.names)
            _call_hook(bot, "start_game", who, state.view(seat), seats.rngs[seat])
    if state.current_player == seats.human:
        console.print(Text(f"Round {state.round}: you lead.", style="bold"))
    else:
        first = render.seat_label(state.current_player, seats.names)
        console.print(Text(f"Round {state.round}: {first} leads.", style="bold"))
    try:
        while not state.is_terminal:
            state = _advance(console, state, _next_move(console, state, seats, read), seats)
    except KeyboardInterrupt:
        raise Interrupted(state) from None  # the game so far, for --save
    except QuitGame as left:  # the same kind (quit, end of input), holding the game so far
        left.state = state
        raise
    result = _game_result(initial, state, seats.names)
    for seat, bot in enumerate(seats.bots):
        if bot is not None:
            who = render.seat_label(seat, seats.names)
            _call_hook(bot, "end_game", who, state.view(seat), result)
    return state


def make_bots(specs: Sequence[str], n_opponents: int) -> list:
    """One strategy instance per opponent from the specs (one spec fills every seat)."""
    import strategies

    if len(specs) == 1:
        specs = list(specs) * n_opponents
    if len(specs) != n_opponents:
        raise CLIError(
            f"--against needs 1 or {n_opponents} strategies for {n_opponents} opponents, "
            f"got {len(specs)}",
            usage=True,
        )
    bots = []
    for spec in specs:
        try:
            bots.append(strategies.get(spec))
        except Exception as exc:  # noqa: BLE001 - user files and specs raise many kinds
            raise CLIError(f"--against: {exc}", usage=True) from exc
    return bots


def level_opponents(level: str, n_opponents: int) -> list[str]:
    """The opponents' specs of ``--level``, its strategies repeated in turn over the seats."""
    specs = LEVELS[level]
    return [specs[i % len(specs)] for i in range(n_opponents)]
