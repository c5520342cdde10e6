"""``leaves bench``: a game's play throughput on one core, as its plug-in's ``bench`` measures
it (what is played, and through which paths, is the plug-in's choice).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import json
from typing import Any

import click
from click.core import ParameterSource

from gamekit.bench_limits import MOST_S as MOST_S  # where tests read it
from gamekit.bench_limits import WARN_S, refusal
from gamekit.bench_limits import duration_words as _duration
from gamekit.bench_limits import memory as _memory
from gamekit.bench_limits import size_words as _size  # noqa: F401 - where tests read it

from .errors import CLIError
from .options import WholeNumber, game_option

GAMES_OWN = "the game's own"
"""What --games and --api-games play when not given: the sizes the game's plug-in picks."""


def check_needs(plugin: Any, players: int, sizes: dict[str, int | None], given: str) -> None:
    """Refuse a benchmark the machine cannot hold or that would not end within a day, warn
    of one past ``WARN_S`` (``gamekit.bench_limits``: the sentence the games' own
    ``run_bench`` refuses it in), from what the game's plug-in declares (``bench_needs``: peak
    bytes and a lower bound on seconds), before anything is played. ``sizes``: ``--games``,
    ``--api-games`` and ``--repeats`` (None: the game's own); ``given``: how the lines start
    (``_given``). A game that declares nothing is played unchecked."""
    from tournaments.declaration import plural

    declared = getattr(plugin, "bench_needs", None)
    if declared is None:
        return
    size, seconds = declared(players, sizes["games"], sizes["api_games"], sizes["repeats"])
    why = refusal(size, seconds, _memory(), sizes["games"], plural(plugin.unit))
    if why is not None:
        raise CLIError(f"{given}{why}", usage=True)
    if seconds > WARN_S:
        click.echo(f"leaves: warning: {given}the benchmark takes at least "
                   f"{_duration(seconds)} on one core", err=True)  # fmt: skip


def _given(sizes: dict[str, int | None]) -> str:
    """The size options the command line gave, as a refusal starts ("--games 10,000: "; empty
    when none was: the game's own sizes)."""
    ctx = click.get_current_context()
    named = [f"--{k.replace('_', '-')} {v:,}" for k, v in sizes.items()
             if ctx.get_parameter_source(k) is not ParameterSource.DEFAULT]  # fmt: skip
    return f"{' '.join(named)}: " if named else ""


def _table(report: Any) -> None:
    """The report's table, fitted to the terminal (no path or figure cut), then its notes."""
    from .console import make_console
    from .plain_table import print_table

    columns = [(c, "left" if i == 0 else "right") for i, c in enumerate(report.columns)]
    print_table(report.title, columns, report.rows)
    console = make_console()
    for note in report.notes:
        console.print(note)


@click.command("bench")
@game_option(
    "The game: an installed game's id ({games}) whose plug-in has a benchmark.", name="game"
)
@click.option("--players", "-p", type=WholeNumber(), default=4, show_default=True, help="Seats.")
@click.option(
    "--games", "-n", type=WholeNumber(), default=None, show_default=GAMES_OWN,
    help="Compiled games (or the game's units, e.g. rounds) per timed run.",
)  # fmt: skip
@click.option(
    "--api-games", type=WholeNumber(written_from=0), default=None, show_default=GAMES_OWN,
    help="Games through the game's Python API, where it times one.",
)  # fmt: skip
@click.option(
    "--repeats", type=WholeNumber(), default=3, show_default=True,
    help="Timed compiled runs; the best is reported.",
)  # fmt: skip
@click.option(
    "--seed", type=WholeNumber(0), default=0, show_default=True, help="Seed of the deals and play."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def bench(  # noqa: PLR0913 - click passes each option
    game: str,
    players: int,
    games: int | None,
    api_games: int | None,
    repeats: int,
    seed: int,
    as_json: bool,
) -> None:
    """Measure play throughput on one core (deal included, compile time excluded).

    What is timed is the game plug-in's benchmark: typically whole games (or the game's units,
    e.g. rounds) inside the compiled loop its runs play on (its C engine where one is built;
    LEAVES_ENGINE=numba times numba's kernels instead; the table names the one timed) and,
    beside them, through its Python API. What the seats play is the game's choice (random
    legal moves, or its built-in strategies), as its documentation says.

    Before anything plays, the sizes are held against what the plug-in declares: results
    that cannot fit in this machine's memory are refused, and so is a size whose lower
    bound on time passes 1 day; past 10 minutes it plays after a warning. The bound is a
    floor, set below the fastest play the game has measured (room for a faster machine):
    a size under a day by it may still take many times longer here.

    \b
    Examples:
      leaves bench                        # 4 players, table
      leaves bench --players 6 --games 500000
      leaves bench --json                 # one JSON object: games_per_second...
    """
    from tournaments.checks import player_counts

    from .tournament_parts import load_game

    plugin = load_game(game, {})
    try:
        player_counts(plugin, [players])  # in the words every command says a table in
        sizes = {"games": games, "api_games": api_games, "repeats": repeats}
        check_needs(plugin, players, sizes, _given(sizes))
        report = plugin.bench(players, games, api_games, repeats, seed)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    except MemoryError as exc:  # what no declaration foresaw (a game that declares none)
        raise CLIError(f"the benchmark needs more memory than it can have: {exc}") from None
    if as_json:
        click.echo(json.dumps(report.result))
    else:
        _table(report)
