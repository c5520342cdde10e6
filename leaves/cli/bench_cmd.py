"""``leaves bench``: random-play games per second, compiled kernels vs the ``State`` API."""

from __future__ import annotations

import json
from typing import Any

import click

from .errors import CLIError


def _positive(name: str, value: int, minimum: int = 1) -> None:
    if value < minimum:
        raise CLIError(f"{name} must be at least {minimum}, got {value}", usage=True)


def _table(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"13 Leaves random play, {result['players']} players, one core")
    table.add_column("path")
    table.add_column("games", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("turns/s", justify="right")
    runs = ", ".join(f"{r:,.0f}" for r in result["games_per_second_runs"])
    table.add_row(
        "compiled (numba kernels)",
        f"{result['games']:,} x {result['repeats']}",
        f"{result['games_per_second']:,.0f}",
        f"{result['turns_per_second']:,.0f}",
    )
    table.add_row(
        "State API (legal_actions/apply)",
        f"{result['api_games']:,}",
        f"{result['api_games_per_second']:,.0f}",
        f"{result['api_turns_per_second']:,.0f}",
    )
    console = Console()
    console.print(table)
    speedup = result["speedup"]
    console.print(
        f"compiled runs (games/s): {runs}; best shown"
        + (f"; {speedup:,.0f}x the API" if speedup else "")
    )
    console.print(
        f"mean turns {result['mean_turns']:.1f}, mean rounds {result['mean_rounds']:.2f}, "
        f"longest game {result['max_turns']} turns, unfinished {result['unfinished']}"
    )
    console.print(
        f"numba {result['numba_version']}, numpy {result['numpy_version']}, "
        f"Python {result['python_version']}, {result['cpu'] or result['machine']}"
    )


def _ligretto_table(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Ligretto rounds, {result['players']} players, one core")
    table.add_column("path")
    table.add_column("rounds", justify="right")
    table.add_column("rounds/s", justify="right")
    table.add_row(
        "compiled (numba round loop)",
        f"{result['rounds']:,} x {result['repeats']}",
        f"{result['rounds_per_second']:,.0f}",
    )
    if result["api_rounds"]:
        table.add_row(
            "Python path (State, engine)",
            f"{result['api_rounds']:,}",
            f"{result['api_rounds_per_second']:,.1f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"mean round {result['mean_round_seconds']:.1f} s of game time, "
        f"{result['mean_plays']:.1f} cards played, blockades {result['blockade_share']:.2%}"
    )


@click.command("bench")
@click.option(
    "--game",
    type=click.Choice(["leaves", "ligretto"]),
    default="leaves",
    show_default=True,
    help="13 Leaves random play, or Ligretto rounds of the built-in attention orders.",
)
@click.option("--players", "-p", type=int, default=4, show_default=True, help="Seats (3..6).")
@click.option(
    "--games", "-n", type=int, default=None,
    help="Compiled games (Ligretto: rounds) per timed run  [default: 200000; Ligretto 50000].",
)  # fmt: skip
@click.option(
    "--api-games", type=int, default=None,
    help="Games through the Python State API  [default: min(games, 2000)].",
)  # fmt: skip
@click.option(
    "--repeats", type=int, default=3, show_default=True,
    help="Timed compiled runs; the best is reported.",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals and play.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def bench(
    game: str,
    players: int,
    games: int | None,
    api_games: int | None,
    repeats: int,
    seed: int,
    as_json: bool,
) -> None:
    """Measure random-play throughput on one core (deal included, compile time excluded).

    The compiled path plays whole games inside one numba loop; the API path uses
    new_game + legal_actions() + apply(). Both pick uniformly among the legal action ids.

    \b
    Examples:
      leaves bench                        # 4 players, table
      leaves bench --players 6 --games 500000
      leaves bench --json                 # one JSON object (games_per_second, ...)
      leaves bench --game ligretto --json # rounds_per_second of 4-player Ligretto rounds
    """
    if game == "ligretto":
        _bench_ligretto(players, games, api_games, repeats, seed, as_json)
        return
    if games is None:
        games = 200_000
    _check_options(players, (3, 6), games, repeats, api_games, seed, seed_bits=64)
    from ..bench import run_bench

    result = run_bench(
        players=players, games=games, seed=seed, api_games=api_games, repeats=repeats
    )
    if as_json:
        click.echo(json.dumps(result))
    else:
        _table(result)


def _check_options(players: int, seats: tuple[int, int], games: int, repeats: int,
                   api_games: int | None, seed: int, seed_bits: int) -> None:  # fmt: skip
    """One line for the first bad option (the game's table sizes and seed range)."""
    low, high = seats
    if not low <= players <= high:
        raise CLIError(f"--players must be {low}..{high}, got {players}", usage=True)
    _positive("--games", games)
    _positive("--repeats", repeats)
    if api_games is not None:
        _positive("--api-games", api_games, minimum=0)
    if seed < 0 or seed >= 1 << seed_bits:
        raise CLIError(f"--seed must be 0..2**{seed_bits}-1, got {seed}", usage=True)


def _bench_ligretto(
    players: int, rounds: int | None, api_rounds: int | None, repeats: int, seed: int,
    as_json: bool,
) -> None:  # fmt: skip
    from ligretto.bench import DEFAULT_API_ROUNDS, DEFAULT_ROUNDS, run_bench
    from ligretto.rules import MAX_PLAYERS, MIN_PLAYERS

    rounds = DEFAULT_ROUNDS if rounds is None else rounds
    _check_options(players, (MIN_PLAYERS, MAX_PLAYERS), rounds, repeats, api_rounds, seed,
                   seed_bits=63)  # fmt: skip
    result = run_bench(
        players=players,
        rounds=rounds,
        seed=seed,
        api_rounds=DEFAULT_API_ROUNDS if api_rounds is None else api_rounds,
        repeats=repeats,
    )
    if as_json:
        click.echo(json.dumps(result))
    else:
        _ligretto_table(result)
