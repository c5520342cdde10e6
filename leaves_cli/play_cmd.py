"""``leaves play``: a human plays 13 Leaves in the terminal against strategies.

The game loop (``play_game``) takes the bots and a ``read`` function as arguments, so tests can
drive it with a stand-in bot and scripted input; the click command only builds those from the
command line (strategy specs via ``strategies.get``, input from the terminal).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
import numpy as np
from rich.console import Console
from rich.text import Text

from leaves import Action, State

from . import render
from .errors import CLIError
from .moves import MoveError, parse_move
from .options import against_option, load_option, rules_option, split_specs
from .play_output import save_game, scores_table, show_left, show_result

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
    "hard": ("ismcts",),
}
"""Opponents per --level, repeated in turn over the seats: easy alternates the weakest
heuristic and random play; medium is the best heuristic; hard is information-set search at its
default budget (1,500 iterations, about 35 ms a decision on one core)."""

DEFAULT_LEVEL = "medium"


class QuitGame(Exception):
    """The human asked to stop; ``state`` is the position left (None between games),
    ``initial`` the first position of the game it was in (or the last one played)."""

    def __init__(self, state: State | None = None, initial: State | None = None):
        super().__init__("the player quit")
        self.state = state
        self.initial = initial


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
        if isinstance(action, int | np.integer):
            action = Action.from_id(int(action))
    except Exception as exc:  # noqa: BLE001 - a user strategy may raise anything
        raise CLIError(f"strategy {who} failed: {type(exc).__name__}: {exc}") from exc
    if action not in legal:
        raise CLIError(f"strategy {who} chose an illegal move: {action}")
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
            raise CLIError("input ended before the game did") from None
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
        except Exception as exc:  # noqa: BLE001 - a user strategy may raise anything
            raise CLIError(f"strategy {who} failed in {hook}: {type(exc).__name__}: {exc}") from exc


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
    human = seats.human
    if state.current_player == human:
        console.print(Text(f"Round {state.round}: you lead.", style="bold"))
    else:
        first = render.seat_label(state.current_player, seats.names)
        console.print(Text(f"Round {state.round}: {first} leads.", style="bold"))
    while not state.is_terminal:
        seat = state.current_player
        if seat == human:
            try:
                action = _ask_human(console, state, seat, seats.names, read, seats.hint_rng)
            except QuitGame:
                raise QuitGame(state) from None  # the game so far, for --save
            console.print(f"You {render.describe_action(action, you=True)}.")
        else:
            action = _bot_move(seats, state, seat, console)
            console.print(
                f"  {render.seat_label(seat, seats.names)} {render.describe_action(action)}."
            )
        after = state.apply(action)
        if after.round > state.round and not after.is_terminal:
            cleared = sum(after.removed) - sum(state.removed)
            cards = f"{cleared} card{'s' if cleared != 1 else ''}"
            if after.current_player == human:
                line = f"you are the only one left, remove the {cards} on the table and lead"
            else:
                leader = render.seat_label(after.current_player, seats.names)
                line = f"{leader} is the only one left, removes the {cards} on the table and leads"
            console.print(Text(f"Round {state.round} ends: {line} round {after.round}.", "bold"))
        state = after
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


@click.command(name="play")
@click.option("-n", "--players", default=4, show_default=True, help="Players at the table (3-6).")
@click.option("--seat", default=0, show_default=True, help="Your seat (0 = first).")
@against_option(
    "Opponent strategies: one spec for every seat or one per opponent "
    "(name, name:key=value,..., file.py:Class). Default: a built-in heuristic.",
    required=False,
    metavar="SPEC,...",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    help="Seed of the deal(s) and of the bots (default: fresh, printed).",
)
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default=None,
    help="Opponents' strength: easy (greedy and random), medium (weighted, the default), "
    "hard (ismcts search). Give --level or --against, not both.",
)
@click.option("--expert", is_flag=True, help="Expert variant: games until someone has 20 points.")
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help="Points that end an expert match (default 20; implies --expert).",
)
@rules_option
@load_option
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Append each game as a GameRecord JSON line (see 'leaves replay'); a game left "
    "with q is saved too, marked unfinished.",
)
def play(**opts: Any) -> None:
    """Play 13 Leaves in the terminal against built-in or your own strategies.

    Each turn shows the table (stacks, both ends and their sizes), your hand, every seat's
    hand size, who passed and the cards known from takes, and the legal moves with keys.
    Type a key or a move ('3x6' plays three 6s, 'take 9' passes taking a 9), 'h' for a
    hint. --level picks the opponents: easy (greedy and random), medium (weighted, the
    best heuristic; the default), hard (ismcts, information-set search).

    \b
    Examples:
      leaves play                                  # 4 players, you in seat 0, medium
      leaves play --level hard                     # against three ismcts
      leaves play --players 3 --seat 1 --against greedy,random --seed 7
      leaves play --expert                         # games until someone has 20 points
      leaves play --rules take=nothing             # a pass takes no card: type 'pass'
      leaves play --load my_bot.py --against mybot --save games.jsonl
    """
    o = PlayOptions(**opts)
    if o.save:  # before the game: a game played to its end must not be lost to a bad path
        from .writable import check_file_writable

        check_file_writable(o.save, "--save")
    seats, seq, deal_seq = _table(o)
    console = render.make_console()
    names = seats.names
    console.print(
        Text(
            f"13 Leaves, {o.players} players, seed {seq.entropy} (--seed {seq.entropy} replays this)."
        )
    )
    if not o.game_rules.is_default:
        console.print(Text(f"Rules: {o.game_rules} ('leaves rules' explains the keys).", "bold"))
    console.print(
        "Opponents: "
        + ", ".join(render.seat_label(s, names) for s in range(o.players) if s != o.seat)
    )
    console.print("Type h on your turn for a hint, ? for help.")
    match = _match(console, o)
    try:
        _games(console, o, seats, deal_seq, match)
    except QuitGame as left:
        show_left(console, o.save, left.initial, left.state, names)


@dataclass(frozen=True)
class PlayOptions:
    """What ``leaves play`` was asked for (its command-line options)."""

    players: int
    seat: int
    against: tuple[str, ...]
    seed: int | None
    level: str | None
    expert: bool
    target: int | None
    load: tuple[str, ...]
    save: str | None
    rules: tuple[str, ...] = ()

    @functools.cached_property
    def game_rules(self) -> Any:
        """The rules the games are played under (``--rules``; today's when none)."""
        from .rules_cmd import parse_rules

        return parse_rules(self.rules)


def _table(o: PlayOptions) -> tuple[Seats, np.random.SeedSequence, np.random.SeedSequence]:
    """The seats (you and the bots, with their generators), the seed and the deals' seed."""
    players, seat = o.players, o.seat
    from .rules_cmd import check_players

    check_players(o.game_rules, players)
    if not 0 <= seat < players:
        raise CLIError(
            f"--seat must be 0 to {players - 1} for {players} players, got {seat}", usage=True
        )
    from .strategies_cmd import load_files

    load_files(o.load)
    specs = split_specs(o.against)
    if specs and o.level is not None:
        raise CLIError(
            "--level picks the opponents: give --level or --against, not both", usage=True
        )
    if not specs:
        specs = level_opponents(o.level or DEFAULT_LEVEL, players - 1)
    bots = make_bots(specs, players - 1)
    bots.insert(seat, None)
    names = ["you" if b is None else str(getattr(b, "label", type(b).__name__)) for b in bots]
    seq = np.random.SeedSequence(o.seed)
    deal_seq, bot_seq = seq.spawn(2)
    rngs = [np.random.default_rng(s) for s in bot_seq.spawn(players)]
    (hint_seq,) = seq.spawn(1)  # a third child: the deals and bots above stay as they were
    seats = Seats(names=names, bots=bots, rngs=rngs, hint_rng=np.random.default_rng(hint_seq))
    return seats, seq, deal_seq


def _match(console: Any, o: PlayOptions) -> Any:
    """The expert match asked for (--expert or --target), or None for one game."""
    if not (o.expert or o.target is not None):
        return None
    from leaves.expert import ExpertMatch

    points = o.target or o.game_rules.expert_target
    console.print(f"Expert match: games until someone reaches {points} points; lowest total wins.")
    return ExpertMatch(o.players, target=points)


def _games(console: Any, o: PlayOptions, seats: Seats, deal_seq: Any, match: Any) -> None:
    """One game, or the games of the match until it is over; QuitGame when the player
    leaves (holding the game's first position)."""
    from leaves import new_game
    from leaves.expert import game_scores

    names, read = seats.names, console.input
    while True:
        (game_seed,) = deal_seq.spawn(1)  # successive children: one deal per game
        initial = new_game(o.players, seed=np.random.default_rng(game_seed), rules=o.game_rules)
        try:
            final = play_game(console, initial, seats, read)
        except QuitGame as left:
            raise QuitGame(left.state, initial) from None
        show_result(console, final, names)
        if o.save:
            save_game(o.save, initial, final, names)
        if match is None:
            return
        scores = game_scores(final)
        match = match.add(scores)
        console.print(scores_table(match, names, scores))
        if match.is_over:
            winners = ", ".join(render.seat_label(s, names) for s in match.winners)
            tie = " (tied, sharing the win)" if len(match.winners) > 1 else ""
            verb = "win" if len(match.winners) > 1 or match.winners == (o.seat,) else "wins"
            console.print(
                Text(f"Match over after {match.games} games: {winners} {verb}{tie}.", "bold")
            )
            return
        try:
            if read("Enter for the next game, q to stop: ").strip().lower() in ("q", "quit"):
                raise QuitGame(None, initial)
        except EOFError:
            raise CLIError("input ended before the match did") from None
