"""``leaves run``: the main job — a default round-robin of the built-in heuristics, then a report."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from .errors import CLIError
from .options import format_option

DEFAULT_GAMES = 200_000
DEFAULT_PLAYERS = 4
DEFAULT_SEED = 0
DEFAULT_OUT = "leaves-run"


def builtin_heuristics() -> list[str]:
    """Names of the strategies shipped in ``strategies`` that do no search (so not ismcts).

    Entry-point and user strategies are left out: the default run is the same everywhere.
    """
    import strategies
    from strategies.registry import get_class

    out = []
    for name in strategies.filtered(search=False, installed=False):
        cls = get_class(name)
        if cls.__module__.split(".")[0] == "strategies":
            out.append(name)
    return out


@click.command(name="run")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=DEFAULT_GAMES,
    show_default=True,
    help="Games in all (rounded up so every table plays every seating of its deals).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Run directory; the report goes to OUT/report.",
)
@click.option(
    "-j",
    "--jobs",
    type=int,
    default=-1,
    show_default=True,
    help=(
        "Players in parallel: this process plus threads (compiled strategies) or worker "
        "processes (-1: one per CPU core). Results do not depend on it."
    ),
)
@click.option(
    "-n",
    "--players",
    type=click.IntRange(3, 6),
    default=DEFAULT_PLAYERS,
    show_default=True,
    help="Players per table (3-6).",
)
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True)
@click.option("--resume", is_flag=True, help="Continue an interrupted run in OUT.")
@format_option
def run(games: int, out: Path, jobs: int, players: int, seed: int, resume: bool, fmt: str) -> None:
    """The main job: a round-robin tournament of the built-in heuristics, then its report.

    Every built-in strategy that does no search (all of them but ismcts) meets every other
    on tables of --players seats, on duplicate deals under a balanced set of seatings (every
    strategy in every position and after every other equally often). The run is
    written to OUT (resumable with --resume) and the report to OUT/report. The same seed and
    game count give the same results whatever --jobs is.

    \b
    Examples:
      leaves run                               # 200,000 games -> leaves-run/report/report.html
      leaves run --games 20000 --jobs 2 --out runs/quick
      leaves run --players 5 --seed 1 --out runs/five
      leaves run --out runs/quick --resume     # finish an interrupted run
    """
    if jobs == 0 or jobs < -1:
        raise CLIError(f"--jobs must be a positive number of workers or -1, got {jobs}", usage=True)
    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {out} exists and is not a directory", usage=True)
    if out.is_dir() and any(out.iterdir()) and not resume:
        raise CLIError(
            f"--out {out} is not empty: pass --resume to continue the run there, "
            "or choose another --out",
            usage=True,
        )
    from .writable import check_writable

    check_writable(out)
    from reports import ReportError, build_report
    from tournaments import Tournament

    names = builtin_heuristics()
    if len(names) < players:
        raise CLIError(f"only {len(names)} built-in heuristics for tables of {players}")
    try:
        tournament = Tournament(names, players=players, games=games, seed=seed)
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from exc
    click.echo(f"{len(names)} strategies: {', '.join(names)}")
    click.echo(tournament.rounded_note)
    start = time.perf_counter()
    try:
        tournament.run(n_jobs=jobs, out=out, resume=resume, progress=sys.stderr.isatty())
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    played = time.perf_counter() - start
    click.echo(f"tournament: {out} ({played:.1f} s)")
    try:
        page = build_report(out, out=out / "report", fmt=fmt)
    except ReportError as exc:
        raise CLIError(str(exc)) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {exc}") from exc
    from .report_cmd import echo_findings

    echo_findings(page.parent)
    click.echo(f"report: {page}")
    if sys.stdout.isatty():
        click.echo(f"open it with: python -m webbrowser {page.resolve().as_uri()}")
