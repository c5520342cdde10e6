"""``leaves gauntlet``: is my strategy better than the baseline against this field?"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from .errors import CLIError
from .options import against_option, load_option, split_specs


@click.command(name="gauntlet")
@click.argument("spec", metavar="SPEC")
@against_option(
    "The field: the strategies in the other seats (repeated in turn to fill them).",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SPEC",
    help="Played in the same seats on the same deals (default: the best built-in, weighted).",
)
@click.option("--players", type=int, default=4, show_default=True, help="Seats per table.")
@click.option(
    "--games", type=int, default=20_000, show_default=True, help="Games SPEC plays (baseline too)."
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed.")
@click.option("--jobs", type=int, default=-1, show_default=True, help="Workers (-1: all).")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Run directory (default: a new temporary one); 'leaves report OUT' reads it.",
)
@click.option("--resume", is_flag=True, help="Continue an interrupted gauntlet in --out.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a tty).")
@load_option
def gauntlet(
    spec: str,
    against: tuple[str, ...],
    baseline: str | None,
    players: int,
    games: int,
    seed: int,
    jobs: int,
    out: str | None,
    resume: bool,
    progress: bool | None,
    load: tuple[str, ...],
) -> None:
    """Play SPEC in one seat of every table against a field, and the baseline in the same
    seats on the same deals; print both win rates and their paired difference.

    SPEC sits in every position against every order of the field; each deal is played by
    SPEC and by the baseline, so the difference (paired deal by deal) is free of card and
    seat luck. Results depend only on --seed, never on --jobs.

    \b
    Examples:
      leaves gauntlet my_bot.py:MyBot --against taker
      leaves gauntlet counter --against taker,greedy --baseline weighted --games 50000
      leaves gauntlet greedy --against weighted --baseline taker --players 3 --out runs/g
      leaves report runs/g
    """
    if jobs == 0 or jobs < -1:
        raise CLIError(f"--jobs must be a positive number (or -1), got {jobs}", usage=True)
    from .strategies_cmd import load_files

    load_files(load)
    field = split_specs(against)
    from tournaments import Gauntlet

    try:
        g = Gauntlet(spec, field, baseline, players=players, games=games, seed=seed)
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None
    path = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="leaves-gauntlet-"))
    try:
        g.check_out(path, resume)
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None
    click.echo(g.rounded_note, err=True)
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        result = g.run(n_jobs=jobs, out=path, resume=resume, progress=progress)
    except KeyboardInterrupt:
        click.echo(
            f"interrupted: rerun the same command with --resume to continue {path}", err=True
        )
        raise
    import reports
    from reports.gauntlet import sentences

    for line in sentences(reports.gauntlet(result)):
        click.echo(line)
    click.echo(f"results in {path} ('leaves report {path}' for the full report)")
