"""``leaves bench``: a game's play throughput on one core, as its plug-in's ``bench`` measures
it (what is played, and through which paths, is the plug-in's choice).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import json
from typing import Any

import click

from .errors import CLIError
from .options import WholeNumber, game_option


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
    "--games", "-n", type=WholeNumber(), default=None,
    help="Compiled games (or the game's units, e.g. rounds) per timed run  [default: the "
    "game's own].",
)  # fmt: skip
@click.option(
    "--api-games", type=WholeNumber(), default=None,
    help="Games through the game's Python API, where it times one  [default: the game's own].",
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

    \b
    Examples:
      leaves bench                        # 4 players, table
      leaves bench --players 6 --games 500000
      leaves bench --json                 # one JSON object (games_per_second, ...)
    """
    from tournaments.checks import player_counts

    from .tournament_parts import load_game

    plugin = load_game(game, {})
    try:
        player_counts(plugin, [players])  # in the words every command says a table in
        report = plugin.bench(players, games, api_games, repeats, seed)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    if as_json:
        click.echo(json.dumps(report.result))
    else:
        _table(report)
