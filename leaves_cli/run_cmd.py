"""``leaves run``: the main job — a default round-robin of the built-in heuristics, then a report."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from .errors import CLIError
from .options import format_option, rules_option

DEFAULT_GAMES = 200_000
DEFAULT_PLAYERS = 4
DEFAULT_SEED = 0
DEFAULT_OUT = "leaves-run"
DEFAULT_RULES_RUN = "default-rules"
"""Under ``--rules``: the folder in OUT of the same field under today's rules."""
VARIANTS_REPORT = "variants"
"""Under ``--rules``: the folder in OUT of the comparison of the rules with today's."""


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
    type=int,
    default=DEFAULT_PLAYERS,
    show_default=True,
    help="Players per table (3-6; the counts --rules allow).",
)
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True)
@click.option("--resume", is_flag=True, help="Continue an interrupted run in OUT.")
@format_option
@rules_option
def run(**opts: Any) -> None:
    """The main job: a round-robin tournament of the built-in heuristics, then its report.

    Every built-in strategy that does no search (all of them but ismcts) meets every other
    on tables of --players seats, on duplicate deals under a balanced set of seatings (every
    strategy in every position and after every other equally often). The run is
    written to OUT (resumable with --resume) and the report to OUT/report. The same seed and
    game count give the same results whatever --jobs is.

    With --rules the run is played under that variant, and the same field on the same seeds
    under today's rules goes to OUT/default-rules; OUT/variants then compares the two (where
    the variants report is installed). --resume restores the run's rules.

    \b
    Examples:
      leaves run                               # 200,000 games -> leaves-run/report/report.html
      leaves run --games 20000 --jobs 2 --out runs/quick
      leaves run --players 5 --seed 1 --out runs/five
      leaves run --out runs/quick --resume     # finish an interrupted run
      leaves run --rules take=ends --games 20000 --out runs/ends
    """
    out, resume = opts["out"], opts["resume"]
    _check_out(out, opts["jobs"], resume)
    from .writable import check_writable

    check_writable(out)
    game = _game(out, resume, opts["rules"])
    from .rules_cmd import check_players

    check_players(game.rules, opts["players"])
    names = builtin_heuristics()
    click.echo(f"{len(names)} strategies: {', '.join(names)}")
    if not game.rules.is_default:
        click.echo(f"rules: {game.rules}")
    _play(names, game, out, opts)
    page = _report(out, out / "report", opts["fmt"])
    from .report_cmd import echo_findings

    echo_findings(page.parent)
    click.echo(f"report: {page}")
    if sys.stdout.isatty():
        click.echo(f"open it with: python -m webbrowser {page.resolve().as_uri()}")
    if not game.rules.is_default:
        compared = compare_with_default_rules(names, game.rules, out, opts)
        if compared is not None:
            click.echo(f"rules compared with today's: {compared}")


def _check_out(out: Path, jobs: int, resume: bool) -> None:
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


def _game(out: Path, resume: bool, texts: tuple[str, ...]) -> Any:
    """13 Leaves under ``--rules`` (a resumed run: its own rules, or others refused)."""
    from .tournament_parts import load_game

    settings: dict[str, Any] = {"rules": texts} if texts else {}
    if resume:
        from .resume import resumed_rules

        settings = resumed_rules(str(out), "leaves", settings)
    return load_game("leaves", settings)


def _play(names: list[str], game: Any, out: Path, opts: dict[str, Any], echo: bool = True) -> None:
    """The round robin of ``names`` under ``game`` into ``out`` (resumed with --resume)."""
    from tournaments import Tournament

    players = opts["players"]
    if len(names) < players:
        raise CLIError(f"only {len(names)} built-in heuristics for tables of {players}")
    try:
        tournament = Tournament(names, players=players, games=opts["games"], seed=opts["seed"],
                                game=game)  # fmt: skip
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from exc
    if echo:
        click.echo(tournament.rounded_note)
    start = time.perf_counter()
    try:
        tournament.run(n_jobs=opts["jobs"], out=out, resume=opts["resume"],
                       progress=sys.stderr.isatty())  # fmt: skip
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    played = time.perf_counter() - start
    click.echo(f"tournament: {out} ({played:.1f} s)")


def _report(run_dir: Path, out: Path, fmt: str) -> Path:
    from reports import ReportError, build_report

    try:
        return build_report(run_dir, out=out, fmt=fmt)
    except ReportError as exc:
        raise CLIError(str(exc)) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {exc}") from exc


def compare_with_default_rules(names: list[str], rules: Any, out: Path,
                               opts: dict[str, Any]) -> Path | None:  # fmt: skip
    """The hook of ``leaves run --rules``: the same field, games and seed under today's rules
    into OUT/default-rules (resumed with --resume), then the comparison of the two runs
    (``reports.variants.build_variants_report``, default rules first) into OUT/variants.
    Returns the comparison page, or None where ``reports.variants`` is not installed (the
    run under the rules and its report stand alone then)."""
    try:
        from reports.variants import build_variants_report
    except ImportError:
        return None
    from reports import ReportError

    from .tournament_parts import load_game

    today = load_game("leaves", {})
    if opts["players"] not in today.rules.players:
        click.echo(f"no comparison with today's rules: they do not deal {opts['players']} hands")
        return None
    baseline = out / DEFAULT_RULES_RUN
    _play(names, today, baseline, opts, echo=False)
    try:
        return build_variants_report([("default", baseline), (str(rules), out)],
                                     out / VARIANTS_REPORT, fmt=opts["fmt"])  # fmt: skip
    except ReportError as exc:
        raise CLIError(str(exc)) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the comparison of the rules: {exc}") from exc
