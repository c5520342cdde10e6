"""``leaves bench``: a game's play throughput on one core, as its plug-in's ``bench`` measures
it (what is played, and through which paths, is the plug-in's choice).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import json
import os
import re
import tracemalloc
from typing import Any

import click

from .errors import CLIError
from .options import WholeNumber, game_option

PROBE = 1 << 15
"""Units of the smaller of the two short runs whose memory gives a timed run's bytes per unit
(fewer would hide the growth under the peak a plug-in reaches at any size)."""
CHECKED_FROM = 1 << 24
"""Sizes above this are measured against the machine's memory before they are played (the
check costs two short runs, a few seconds: a small part of a run this long)."""


def _memory() -> int | None:
    """This machine's memory in bytes, swap included where the system says it (Linux); None
    where it cannot be told."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # a system without these names
        return None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            swap = re.search(r"^SwapTotal:\s+(\d+) kB", fh.read(), re.MULTILINE)
    except OSError:
        swap = None
    return total + (int(swap.group(1)) * 1024 if swap else 0)


def per_unit(plugin: Any, players: int, repeats: int, seed: int) -> float:
    """Bytes a timed run keeps per unit: how much its peak grows from ``PROBE`` units to twice
    as many, as tracemalloc sees Python's and numpy's allocations (an engine's own it cannot
    see: they count 0). Two repeats hold two runs' results at once: more are not measured."""
    plugin.bench(players, PROBE, 0, 1, seed)  # loading and compiling are no unit's
    peaks = []
    for n in (PROBE, 2 * PROBE):
        tracemalloc.start()
        try:
            plugin.bench(players, n, 0, min(repeats, 2), seed)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    return max(peaks[1] - peaks[0], 0) / PROBE


def _check_fits(plugin: Any, players: int, games: int | None, repeats: int, seed: int) -> None:
    """Refuse ``games`` whose results cannot fit in memory, before the game allocates them (a
    size past the memory would end in a MemoryError, or be killed midway for want of it)."""
    from tournaments.declaration import plural

    if games is None or games <= CHECKED_FROM or (memory := _memory()) is None:
        return
    per = per_unit(plugin, players, repeats, seed)
    if per * games <= memory:
        return
    unit, most = plugin.unit, int(memory // per)
    raise CLIError(f"--games {games:,}: a timed run keeps about {per:,.0f} bytes per {unit}, "
                   f"{_gib(per * games)} in all, more than this machine's memory "
                   f"({_gib(memory)}, swap included): at most {most:,} {plural(unit)}",
                   usage=True)  # fmt: skip


def _gib(size: float) -> str:
    """Bytes in GiB, as the refusal says a size."""
    return f"{size / 2**30:,.1f} GiB"


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
        _check_fits(plugin, players, games, repeats, seed)
        report = plugin.bench(players, games, api_games, repeats, seed)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    except MemoryError as exc:  # what the check cannot see (an engine's own arrays, --api-games)
        raise CLIError(f"the benchmark needs more memory than it can have: {exc}") from None
    if as_json:
        click.echo(json.dumps(report.result))
    else:
        _table(report)
