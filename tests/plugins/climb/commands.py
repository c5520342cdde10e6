"""Climb's own commands of ``leaves`` (entry-point group ``leaves.commands``): ``climb-deal``
shows a deal; ``report`` is a shared command's name, so it is left out."""

from __future__ import annotations

import click

TITLE = "Climb"
COMMANDS = {
    "climb-deal": (".commands", "climb_deal", "Show the hands Climb deals from a seed."),
    "report": (".commands", "climb_deal", "Taken by the shared command: left out."),
}
EXAMPLES = ("leaves climb-deal --seed 3",)


@click.command(name="climb-deal")
@click.option("--seed", type=int, default=0, show_default=True, help="The deal's seed.")
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True)
def climb_deal(seed: int, players: int) -> None:
    """Print each seat's hand of the deal from SEED, and who leads."""
    from .rules import deal

    hands, first = deal(seed, players)
    for seat, hand in enumerate(hands):
        click.echo(f"seat {seat}: {' '.join(map(str, hand))}")
    click.echo(f"seat {first} leads")
