"""``leaves gauntlet``: is my strategy better than the baseline against this field?"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from .errors import CLIError
from .options import against_option, load_option, split_specs
from .tournament_parts import echo_rules, game_options, game_settings, load_game

FIXED_GAMES = 20_000
"""Games per side of a gauntlet by default."""

SEQUENTIAL_FIRST_GAMES = 4_000
"""Games per side of a sequential gauntlet's first batch by default: enough duplicate sets
for a steady variance estimate, few enough that a clear difference costs little."""


@click.command(name="gauntlet")
@click.argument("spec", metavar="SPEC")
@against_option(
    "The field: the strategies in the other seats (repeated in turn to fill them).",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SPEC",
    help="Played in the same seats on the same deals (default: the game's baseline; "
    "13 Leaves: the best built-in, weighted).",
)
@click.option(
    "--game",
    "game_spec",
    default="leaves",
    show_default=True,
    help="The game: its id (leaves, ligretto, any game installed in leaves.games) or module:Class.",
)
@game_options
@click.option("--players", type=int, default=4, show_default=True, help="Seats per table.")
@click.option(
    "--games",
    type=int,
    default=None,
    help="Games SPEC plays (baseline too; default 20,000); --sequential: the first batch "
    "(default 4,000).",
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
@click.option(
    "--sequential",
    is_flag=True,
    help="Play batches (the first of --games) until a sequential test decides whether SPEC "
    "beats the baseline by --margin (the baseline may then be SPEC itself).",
)
@click.option(
    "--margin",
    type=float,
    default=1.0,
    show_default=True,
    metavar="POINTS",
    help="--sequential: the difference worth finding, in percentage points of win rate.",
)
@click.option(
    "--alpha",
    type=float,
    default=0.05,
    show_default=True,
    help="--sequential: false 'better' rate.",
)
@click.option(
    "--beta",
    type=float,
    default=0.05,
    show_default=True,
    help="--sequential: missed 'better' rate.",
)
@click.option(
    "--max-games",
    type=int,
    default=None,
    help="--sequential: stop undecided after this many games per side (default 200,000).",
)
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a tty).")
@load_option
def gauntlet(**opts: Any) -> None:
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
      leaves gauntlet counter --against taker --sequential --margin 1
      leaves gauntlet counter --against taker,greedy --rules take=ends --games 4000

    With --sequential, batches of whole duplicate sets (the first of --games, each next one
    growing the deals by a quarter) are played until a sequential probability ratio test
    (normal approximation, on the paired per-set differences) decides "better by at least
    --margin" or "not better" at error rates --alpha and --beta, or --max-games is reached
    (undecided). The decision goes into OUT/manifest.json ("sequential").
    """
    jobs, out, resume = opts["jobs"], opts["out"], opts["resume"]
    if jobs == 0 or jobs < -1:
        raise CLIError(f"--jobs must be a positive number (or -1), got {jobs}", usage=True)
    games = opts["games"]
    if games is None:
        games = SEQUENTIAL_FIRST_GAMES if opts["sequential"] else FIXED_GAMES
    test = _sequential_test(opts, games)
    from .strategies_cmd import load_files

    load_files(opts["load"])
    from tournaments import Gauntlet

    settings = game_settings(opts)
    if resume and out is not None:
        from .resume import resumed_rules

        settings = resumed_rules(out, opts["game_spec"], settings)  # the run's, or refused
    game = load_game(opts["game_spec"], settings)
    try:
        g = Gauntlet(opts["spec"], split_specs(opts["against"]), opts["baseline"],
                     players=opts["players"], games=games, seed=opts["seed"],
                     allow_same=test is not None, game=game)  # fmt: skip
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None
    path = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="leaves-gauntlet-"))
    try:
        g.check_out(path, resume)
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None
    from .writable import check_writable

    check_writable(path)
    click.echo(g.rounded_note, err=True)
    echo_rules(game)
    progress = opts["progress"]
    if progress is None:
        progress = sys.stderr.isatty()
    result = _play(g, path, jobs, progress, resume, test, opts["max_games"])
    import reports
    from reports.gauntlet import sentences

    for line in sentences(reports.gauntlet(result)):  # a sequential test's decision last
        click.echo(line)
    click.echo(f"results in {path} ('leaves report {path}' for the full report)")


def _sequential_test(opts: dict[str, Any], games: int) -> Any:
    """The sequential test the options ask for (``tournaments.sequential.Sequential``, which
    checks the margin and error rates), or None; one-line errors before anything is played."""
    max_games = opts["max_games"]
    if not opts["sequential"]:
        if max_games is not None:
            raise CLIError("--max-games needs --sequential", usage=True)
        return None
    if opts["resume"]:
        raise CLIError(
            "--resume is not available with --sequential (start a new --out)", usage=True
        )
    for name in ("alpha", "beta"):
        if not 0 < opts[name] < 0.5:
            raise CLIError(f"--{name} must be between 0 and 0.5, got {opts[name]}", usage=True)
    if max_games is not None and max_games < games:
        raise CLIError(
            f"--max-games ({max_games:,}) must be at least --games ({games:,})", usage=True
        )
    from tournaments.sequential import Sequential

    try:
        return Sequential(opts["margin"] / 100, opts["alpha"], opts["beta"])
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None


def _play(
    g: Any, path: Path, jobs: int, progress: bool, resume: bool, test: Any, cap: int | None
) -> Any:
    """Play the gauntlet into ``path``: at once, or in batches until the sequential ``test``
    decides or ``cap`` games a side are played; the result."""
    try:
        if test is None:
            return g.run(n_jobs=jobs, out=path, resume=resume, progress=progress)
        from .sequential import SEQUENTIAL_MAX_GAMES, echo_err, run_sequential

        def play(t: Any, out: Path, grow: bool) -> Any:
            return t.run(n_jobs=jobs, out=out, resume=grow, progress=progress)

        cap = SEQUENTIAL_MAX_GAMES if cap is None else cap
        return run_sequential(g, path, play, test, cap, echo_err)[0]
    except KeyboardInterrupt:
        again = (
            f"rerun the same command with --resume to continue {path}"
            if test is None
            else "a --sequential gauntlet starts afresh (a new --out)"
        )
        click.echo(f"interrupted: {again}", err=True)
        raise
