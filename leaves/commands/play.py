"""``leaves play``: a human plays 13 Leaves in the terminal against strategies.

The click command builds the table from the command line (strategy specs via
``strategies.get``, input from the terminal) and runs the game loop (``play_loop``).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, replace
from typing import Any

import click
import numpy as np
from rich.text import Text

from gamekit.text import printable
from leaves.ruleset import TARGETS
from leaves_cli.console import make_console
from leaves_cli.errors import CLIError
from leaves_cli.options import (
    FileName,
    OneOf,
    WholeNumber,
    against_option,
    load_option,
    split_specs,
)

from . import render
from .play_loop import (
    DEFAULT_LEVEL,
    LEVELS,
    QUIT_WORDS,
    QuitGame,
    Seats,
    level_opponents,
    make_bots,
    play_game,
)
from .play_output import (
    check_record_file,
    closed_terminal,
    replay_command,
    save_game,
    scores_table,
    show_left,
    show_result,
)
from .play_signals import (
    Signalled,
    arm_signals,
    hold_signals,
    stop_if_noted,
    stops_on_signals,
    terminal_hung_up,
)
from .rules import PLAYERS_HELP, rules_option, table_size
from .variants_sweep import ENDS_A_MATCH


@click.command(name="play")
@click.option(
    "-n",
    "--players",
    type=WholeNumber(),
    default=None,
    help=f"Players at the table: {PLAYERS_HELP}.",
)
@click.option(
    "--seat",
    type=WholeNumber(written_from=0),
    default=0,
    show_default=True,
    help="Your seat (0 = first).",
)
@against_option(
    "Opponent strategies: one spec for every seat or one per opponent "
    "(name, name:key=value,..., file.py:Class). Default: a built-in heuristic.",
    required=False,
    metavar="SPEC,...",
)
@click.option(
    "--seed",
    type=WholeNumber(0),
    default=None,
    help="Seed of the deal(s), the bots and the hints (default: fresh, printed).",
)
@click.option(
    "--level",
    type=OneOf(list(LEVELS)),
    default=None,
    help="Opponents' strength: easy (greedy and random), medium (weighted, the default), "
    "hard (ismcts search, preset=strong). Give --level or --against, not both.",
)
@click.option(
    "--expert",
    is_flag=True,
    help="Expert variant: games until someone has 20 points (--target N or --rules "
    "expert_target=N changes it).",
)
@click.option(
    "--target",
    type=WholeNumber(*TARGETS),  # what --rules expert_target takes
    default=None,
    help="Points that end an expert match (default 20; implies --expert).",
)
@rules_option
@load_option
@click.option(
    "--save",
    type=FileName(dir_okay=False, writable=True),
    default=None,
    help="Append each game as a GameRecord JSON line (see 'leaves replay'); a game left "
    "with q, the end of the input, Ctrl-C or SIGTERM/SIGHUP is saved too, marked unfinished, "
    "and one a bot forfeits with its error.",
)
def play(**opts: Any) -> None:
    """Play 13 Leaves in the terminal against built-in or your own strategies.

    Each turn shows the table (stacks, both ends and their sizes), your hand, every seat's
    hand size, who passed and the cards known from takes, and the legal moves with keys.
    Type a key or a move ('3x6' plays three 6s, 'take 9' passes taking a 9), 'h' for a
    hint. --level picks the opponents: easy (greedy and random), medium (weighted, the
    best heuristic; the default), hard (ismcts, information-set search, preset=strong).

    \b
    Examples:
      leaves play                       # 4 players, you in seat 0, medium
      leaves play --level hard          # against three ismcts
      leaves play --players 3 --seat 1 --against greedy,random --seed 7
      leaves play --expert              # games until someone has 20 points
      leaves play --rules take=nothing  # a pass takes no card: type 'pass'
      leaves play --load my_bot.py --against mybot --save games.jsonl
    """
    o = PlayOptions(**opts)
    o = replace(o, players=_players(o))
    if o.save:  # before the game: a game played to its end must not be lost to a bad path
        check_record_file(o.save)
    seats, seq, deal_seq = _table(o)
    points = _target(o)
    console = make_console()
    names = seats.names
    seed = f"seed {seq.entropy} (--seed {seq.entropy} replays this)"
    seed = f"13 Leaves, {o.players} players, {seed}."
    console.print(Text(seed), soft_wrap=True)  # the option to paste: never cut in two
    if not o.game_rules.is_default:
        console.print(Text(f"Rules: {o.game_rules} ('leaves rules' explains the keys).", "bold"))
    console.print(
        Text(
            "Opponents: "
            + ", ".join(render.seat_label(s, names) for s in range(o.players) if s != o.seat)
        )
    )
    console.print("Type h on your turn for a hint, ? for help.")
    match = _match(console, o, points)
    with stops_on_signals():  # 'kill' or a closed terminal: the game so far is kept
        try:
            _games(console, o, seats, deal_seq, match)
            stop_if_noted()  # one that came as the game ended stops the command, saved
        except QuitGame as left:
            show_left(console, o.save, left, names)
        except (KeyboardInterrupt, OSError) as exc:  # between games: every game is saved
            closed_terminal(exc)
            raise


@dataclass(frozen=True)
class PlayOptions:
    """What ``leaves play`` was asked for (its command-line options)."""

    players: int  # None as typed when not given; the table's size once play() has chosen it
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
        from .rules import parse_rules

        return parse_rules(self.rules)


def _table(o: PlayOptions) -> tuple[Seats, np.random.SeedSequence, np.random.SeedSequence]:
    """The seats (you and the bots, with their generators), the seed and the deals' seed."""
    players, seat = o.players, o.seat
    if not 0 <= seat < players:
        raise CLIError(
            f"--seat must be 0 to {players - 1} for {players} players, got {seat}", usage=True
        )
    from leaves_cli.strategies_cmd import load_files, refuse_empty_items

    refuse_empty_items(o.against)
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
    names = ["you" if b is None else _bot_name(b) for b in bots]
    seq = np.random.SeedSequence(o.seed)
    deal_seq, bot_seq = seq.spawn(2)
    rngs = [np.random.default_rng(s) for s in bot_seq.spawn(players)]
    seats = Seats(names=names, bots=bots, rngs=rngs)
    return seats, seq, deal_seq


def _players(o: PlayOptions) -> int:
    """The table's size: --players as typed, checked against the rules; else the one rule
    every command follows where it was not typed (``rules.table_size``)."""
    return table_size(o.game_rules, o.players)


def _target(o: PlayOptions) -> int | None:
    """The points that end the expert match asked for (--expert or --target), None for one
    game; --target and --rules expert_target that disagree are refused, neither dropped, and
    so is --rules expert_target without a match (it ends a match, never a game)."""
    from leaves.rule_text import rule_items

    ruled = o.game_rules.expert_target
    typed = {key for key, _ in rule_items(o.rules)}
    if not (o.expert or o.target is not None):
        if "expert_target" in typed:  # 20 typed too: a match asked for, and none played
            raise CLIError(
                f"--rules expert_target={ruled} {ENDS_A_MATCH}: add --expert to "
                "play a match to it, or leave expert_target out",
                usage=True,
            )
        return None
    if o.target is not None and "expert_target" in typed and o.target != ruled:  # 20 typed too
        raise CLIError(
            f"--target {o.target} and --rules expert_target={ruled} disagree: give one",
            usage=True,
        )
    return o.target or ruled


HUMAN_NAMES = ("you", "human")
"""The human's name on the screen and in a saved record: a bot of that label is told apart."""


def _bot_name(bot: object) -> str:
    """A bot's name at the table, the one every line and the saved record show: its label,
    its control characters escaped (``printable``: a label is data the terminal must never
    obey, as ``leaves replay`` shows it), unless that is the human's ("you", "human")."""
    label = printable(str(getattr(bot, "label", type(bot).__name__)))
    return f"{label} (a bot)" if label in HUMAN_NAMES else label


def _match(console: Any, o: PlayOptions, points: int | None) -> Any:
    """The expert match to ``points``, or None for one game."""
    if points is None:
        return None
    from leaves.expert import ExpertMatch
    from reports.numbers import counted

    console.print(
        f"Expert match: games until someone reaches {counted(points, 'point')}; lowest total wins."
    )
    return ExpertMatch(o.players, target=points)


def _games(console: Any, o: PlayOptions, seats: Seats, deal_seq: Any, match: Any) -> None:
    """One game, or the games of the match until it is over; QuitGame when the player
    leaves (holding the game's first position)."""
    from leaves.expert import game_scores
    from leaves.players.play import deal_state
    from reports.numbers import counted

    names, read = seats.names, _reader(console)
    while True:
        stop_if_noted()  # a signal between the games stops before the next one
        (game_seed,) = deal_seq.spawn(1)  # successive children: one deal per game
        seed = int(game_seed.generate_state(1, np.uint64)[0])  # saved: replay deals it again
        initial = deal_state(o.players, seed, rules=o.game_rules)
        try:
            final = play_game(console, initial, seats, read, seed)
        except QuitGame as left:  # of whatever kind: the game it left, for --save
            left.initial, left.seed = initial, seed
            raise
        # saved before it is shown: a terminal closing as it is shown loses nothing
        number = save_game(o.save, initial, final, names, seed) if o.save else 0
        show_result(console, final, names)
        if o.save:  # said, as a game left early is: where it went and how to see it again
            again = replay_command(o.save, number)
            said = f"Saved the game to {o.save} ('{again}' replays it)."
            console.print(Text(said), soft_wrap=True)  # a command to paste: never cut in two
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
                Text(
                    f"Match over after {counted(match.games, 'game')}: {winners} {verb}{tie}.",
                    "bold",
                )
            )
            return
        if not _next_game(console, read):
            raise QuitGame(None, initial)


def _reader(console: Any) -> Any:
    """What reads the player's lines: at a terminal, ``input`` with line editing (readline:
    the arrow keys move in the line and bring back earlier lines, where they would type
    escapes), told the prompt so that an edit redraws it; else the console's ``input``."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return console.input
    try:
        import readline  # noqa: F401  start-up: loaded at a terminal only; input() then edits
    except ImportError:  # a Python built without it (Windows): lines as the terminal reads them
        return console.input
    return input


def _next_game(console: Any, read: Any) -> bool:
    """Does the player want the match's next game (Enter) or to stop (a word that quits a
    move, ``QUIT_WORDS``)? Any other text is asked again, not taken for either."""
    while True:
        try:
            arm_signals()  # a signal while the player is asked stops the match at once
            answer = read("Enter for the next game, q to stop: ").strip().lower()
            hold_signals()
        except EOFError:
            hold_signals()
            if terminal_hung_up(0):  # the terminal closed: its SIGHUP may not have come yet
                raise Signalled("SIGHUP") from None
            console.print()  # the prompt's line ends: the error is a line of its own
            raise CLIError("input ended before the match did") from None
        if not answer or answer in QUIT_WORDS:
            return not answer
        console.print(Text("Type Enter for the next game or q to stop.", style="bold red"))
