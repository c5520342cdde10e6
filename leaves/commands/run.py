"""``leaves run``: the main job — a default round-robin of the built-in heuristics, then a report.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.options import (
    FileName,
    WholeNumber,
    check_jobs,
    count_option,
    format_option,
    jobs_flags,
)
from leaves_cli.request import Request
from leaves_cli.tournament_parts import jobs_line, playing, stops_on_term

from .rules import PLAYERS_HELP, rules_option
from .run_stored import (
    DEFAULT_RULES_RUN,
    VARIANTS_REPORT,
    as_grown,
    compared,
    current,
    finished_here,
    grown,
    stored_options,
    stored_run,
)

DEFAULT_GAMES = 200_000
DEFAULT_SEED = 0
DEFAULT_OUT = "leaves-run"


def builtin_heuristics() -> list[str]:
    """Names of the built-ins shipped in ``leaves.players`` that do no search (so not ismcts).

    Entry-point and user strategies are left out: the default run is the same everywhere.
    """
    import strategies
    from strategies.registry import get_class

    out = []
    for name in strategies.filtered(search=False, installed=False):
        cls = get_class(name)
        if cls.__module__.startswith("leaves.players."):
            out.append(name)
    return out


short_jobs_option = jobs_flags("-j")
"""``--jobs`` (its help and its cap) with the short flag ``-j`` these commands have always
taken."""


def jobs_said(runs: Iterable[Path], jobs: int) -> str:
    """The one line (``jobs_line``) that says the runs a command played (the last session of
    each of the ``runs`` that holds a manifest) played with fewer players than ``--jobs``
    asked: said once for them all. "" when any of them played with as many as asked."""
    from tournaments.storage import MANIFEST, read_manifest

    manifests = [read_manifest(run) for run in runs if (run / MANIFEST).is_file()]
    sessions = [m["sessions"][-1] for m in manifests if m.get("sessions")]
    return jobs_line({"sessions": sessions}, 0, jobs)


@click.command(name="run")
@count_option(
    "--games",
    DEFAULT_GAMES,
    "Games in all (rounded up so every table plays every seating of its deals).",
    least=1,
)
@click.option(
    "--out",
    type=FileName(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Run directory; the report goes to OUT/report.",
)
@short_jobs_option
@click.option(
    "-n",
    "--players",
    type=WholeNumber(),
    default=None,
    help=f"Players per table: {PLAYERS_HELP}.",
)
@click.option(
    "--seed",
    type=WholeNumber(0),
    default=DEFAULT_SEED,
    show_default=True,
    help="Seed of the deals: the same seed and --games give the same run.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the interrupted run in OUT: its games, players, seed and rules are the "
    "run's (those given must agree); --games more than it holds grows it.",
)
@format_option
@rules_option
@stops_on_term  # the report too: a stop once every game is played says what writes it
def run(**opts: Any) -> None:
    """The main job: a round-robin tournament of the built-in heuristics, then its report.

    Every strategy built into leaves that does no search (all of them but ismcts; those of
    other packages, such as observation and openspiel, and your own are left out) meets
    every other on tables of --players seats, on duplicate deals under a balanced set of seatings (every
    strategy in every position and after every other equally often). The run is
    written to OUT (resumable with --resume, which reads the rest from OUT) and the report
    to OUT/report. The same seed and game count give the same results whatever --jobs is.

    With --rules the run is played under that variant, and the same field on the same seeds
    under today's rules goes to OUT/default-rules; OUT/variants then compares the two (where
    the variants report is installed). --resume restores the run's rules.

    --resume with more --games than the run holds grows it, as 'leaves tournament --resume'
    does: new deals are added, every game played is kept, and the run is the one a fresh
    run of that many games with its seed plays; its report, and under --rules the run under
    today's rules and the comparison, grow with it.

    Run again into an OUT that holds this run, finished (of any size where --games is not
    given), it plays nothing: it says where the run and its report are (the report, and the
    comparison, written first where missing or describing other games), how to play another
    and how to grow this one; asked for more --games, it names the --resume that grows it.

    \b
    Examples:
      leaves run             # 201,600 games -> leaves-run/report/report.html
      leaves run --games 20000 --jobs 2 --out runs/quick
      leaves run --players 5 --seed 1 --out runs/five
      leaves run --resume --out runs/quick     # finish it if interrupted
      leaves run --resume --out runs/quick --games 40000  # grow it, games kept
      leaves run --rules take=ends --games 20000 --out runs/ends
    """
    request = Request.of(opts)
    out, resume = request.out, request.resume
    names = _check_options(request)  # every option first, then the state of --out
    stored = stored_run(out, resume)
    request = stored_options(request, stored)  # the options not given: the run's own
    game = _game(out, resume, request.rules)
    from .rules import table_size

    request = Request.of({**request.values, "players": table_size(game.rules, request.players)})
    tournament = _tournament(names, game, request)
    if stored is not None:
        asked = tournament.spec()["n_games"]
        tournament = grown(as_grown(tournament, stored), out, request)  # the same run, grown
        if finished_here(tournament, out, stored, request, asked,
                         lambda: _report_again(out, request.fmt),
                         lambda: _compared_again(tournament, out, request.fmt)):  # fmt: skip
            return
    from leaves_cli.writable import check_writable

    check_writable(out)
    with playing(out):  # held while the run, its report and the comparison are written
        _say(f"{len(names)} strategies: {', '.join(names)}")
        if not game.rules.is_default:
            _say(f"rules: {game.rules}")
        played = _play(tournament, out, request)
        with _cut_short(out, request.fmt, "its report"):
            page = out / "report" / ("report.html" if request.fmt == "html" else "report.md")
            if stored is None or played or not current(out, page):  # (grown since written)
                page = _report(out, out / "report", request.fmt)
            state = _echo_report(out, page)
        if not game.rules.is_default:
            written = compare_with_default_rules(names, tournament, out, request)
            if written is not None:
                _say(f"rules compared with today's: {written}")
        capped = jobs_said([out, out / DEFAULT_RULES_RUN], request.jobs)
        if capped:
            _say(capped)
    if state is not None and state.nothing_valid:
        raise CLIError(f"no valid game in {out}: every one ended by a forfeit")


@contextlib.contextmanager
def _unread() -> Iterator[None]:
    """Printing that may find the reader of stdout gone (``leaves run | head -1``): the rest
    of the output is dropped, not the work. The run is still played, reported and compared
    as without the pipe (``leaves tournament`` says its plan on stderr and its results once
    played, so a pipe never stops it either); the exit code is 0, as after any output cut
    short."""
    try:
        yield
    except BrokenPipeError:
        from leaves_cli.main import _drop_output  # start-up: main imports this command

        _drop_output()


def _say(line: str) -> None:
    """A line on stdout that no reader going away stops the run for (``_unread``)."""
    with _unread():
        click.echo(line)


def _echo_report(out: Path, page: Path) -> Any:
    """The run's state and key findings and where the report is (``echo_report``); the
    run's state (``tournaments.run_state``)."""
    from leaves_cli.report_cmd import echo_report
    from tournaments.run_state import run_state

    state = run_state(out)
    with _unread():
        echo_report(out, page, state)
        if sys.stdout.isatty():
            click.echo(f"open it with: python -m webbrowser {page.resolve().as_uri()}")
    return state


def _check_options(request: Request) -> list[str]:
    """The options alone, before anything is read in --out: --jobs, --rules, and --players
    (against the rules given; a resumed run's own rules are checked once read). Returns the
    field, the built-in heuristics."""
    jobs, players = request.jobs, request.players
    check_jobs(jobs)
    from .rules import table_size
    from .variants_sweep import refuse_todays

    game = _game(request.out, False, request.rules)
    if not request.resume or request.rules:
        players = table_size(game.rules, players)
    if not request.resume:  # a run an earlier version played so is finished as it began
        refuse_todays(game.rules, request.rules, players)
    names = builtin_heuristics()
    if players is not None and len(names) < players:
        raise CLIError(f"only {len(names)} built-in heuristics for tables of {players}", usage=True)
    return names


def _game(out: Path, resume: bool, texts: tuple[str, ...]) -> Any:
    """13 Leaves under ``--rules`` (a resumed run: its own rules, or others refused)."""
    from leaves_cli.tournament_parts import load_game

    settings: dict[str, Any] = {"rules": texts} if texts else {}
    if resume:
        from leaves_cli.resume import resumed_settings

        settings = resumed_settings(str(out), "leaves", settings)
    return load_game("leaves", settings)


def _tournament(names: list[str], game: Any, request: Request) -> Any:
    """The round robin of ``names`` under ``game`` that the options ask for."""
    from tournaments import Tournament

    try:
        return Tournament(names, players=request.players, games=request.games, seed=request.seed,
                          game=game)  # fmt: skip
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from exc


@stops_on_term
def _play(tournament: Any, out: Path, request: Request, echo: bool = True,
          whole: Path | None = None) -> int:  # fmt: skip
    """Play ``tournament`` into ``out`` (resumed with --resume); the games this session
    played (0: the run was already whole, which is said). The time said is the manifest's,
    counted from here (``since``): this session's, and a resumed run's in all beside it.
    A resume says on stderr what it verified and replays, in one line (of a part, after
    its folder). Ctrl-C, SIGTERM or SIGHUP stops it with every finished chunk recorded, and
    says how to go on: the resume of ``whole`` where ``out`` is a part of that run (its field
    under today's rules, which ``leaves run --resume`` of the run plays and compares)."""
    if echo:
        _say(tournament.rounded_note)
    part = "" if whole is None else f"{out}: "
    try:
        result = tournament.run(n_jobs=request.jobs, out=out, resume=request.resume,
                                progress=sys.stderr.isatty(), since=time.perf_counter(),
                                log=lambda line: click.echo(part + line, err=True))  # fmt: skip
    except ValueError as exc:
        raise CLIError.of(exc) from exc
    except KeyboardInterrupt:
        click.echo(f"interrupted: {_again(whole or out, request.fmt)}", err=True)
        raise
    sessions = result.manifest["sessions"]
    played = int(sessions[-1].get("units_played", 0))
    if not played:
        _say(f"nothing to play: {out} already holds all {tournament.n_games:,} games of this "
             "run (every chunk verified)")  # fmt: skip
        return played
    wall = f"{float(sessions[-1]['wall_s']):.1f} s"
    if len(sessions) > 1:  # resumed: this session is not the whole run's time
        wall += f" this session, {float(result.manifest['wall_time_s']):.1f} s in all"
    _say(f"tournament: {out} ({wall})")
    return played


@contextlib.contextmanager
def _cut_short(out: Path, fmt: str, what: str) -> Iterator[None]:
    """Stopped (Ctrl-C, SIGTERM, SIGHUP) once every game of the run in ``out`` is played, while
    ``what`` is written: says so, and what writes it (a resume writes a missing report, or
    one describing other games, and the comparison alike)."""
    try:
        yield
    except KeyboardInterrupt:
        from tournaments.run_state import continue_command

        flags = "" if fmt == "html" else f" --format {fmt}"
        click.echo(f"interrupted: nothing is left to play in {out}, only {what} was cut short "
                   f"('{continue_command('run', out, flags)}' writes it)", err=True)  # fmt: skip
        raise


def _again(out: Path, fmt: str) -> str:
    """The command that continues the run in ``out``, to copy: its folder is all a resume
    needs (``stored_options``), but a report in Markdown is asked for again."""
    from tournaments.run_state import continue_command

    flags = "" if fmt == "html" else f" --format {fmt}"
    return f"'{continue_command('run', out, flags)}' continues it"


def _report_again(out: Path, fmt: str) -> Path:
    """The report of the finished run in ``out`` written again (it described fewer games, or
    there was none), under the run's lock as a run's report is."""
    from leaves_cli.writable import check_writable

    check_writable(out)
    with playing(out), _cut_short(out, fmt, "its report"):
        return _report(out, out / "report", fmt)


def _report(run_dir: Path, out: Path, fmt: str) -> Path:
    from reports import ReportError, build_report

    try:
        return build_report(run_dir, out=out, fmt=fmt)
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        from leaves_cli.writable import unwritten  # start-up: only a failed write needs it

        raise CLIError(f"cannot write the report: {unwritten(exc)}") from exc


def compare_with_default_rules(names: list[str], tournament: Any, out: Path,
                               request: Request) -> Path | None:  # fmt: skip
    """The hook of ``leaves run --rules``: the same field, seed and deals as ``tournament``
    (the run under the rules, grown as it is) under today's rules into OUT/default-rules
    (resumed with --resume, grown with the run), then the comparison of the two runs
    (``reports.variants.build_variants_report``, default rules first) into OUT/variants,
    written again each time. Returns the comparison page, or None where ``reports.variants``
    is not installed (the run under the rules and its report stand alone then)."""
    try:
        from reports.variants import build_variants_report
    except ImportError:
        return None
    from leaves_cli.tournament_parts import load_game

    if not compared(tournament):
        _say(f"no comparison with today's rules: they do not deal {request.players} hands")
        return None
    stages = tournament.schedule.stages  # the baseline is built at the games first asked:
    same = _tournament(names, load_game("leaves", {}), request)  # grown to the run's deals
    _play(same if same.schedule.stages == stages else same.with_stages(stages),
          out / DEFAULT_RULES_RUN, request, echo=False, whole=out)  # fmt: skip
    with _cut_short(out, request.fmt, "the comparison with today's rules"):
        return _comparison(build_variants_report, tournament, out, request.fmt)


def _comparison(build: Any, tournament: Any, out: Path, fmt: str) -> Path:
    """The comparison page of the run ``tournament`` in ``out`` with the same field under
    today's rules beside it, written by ``build`` (``build_variants_report``)."""
    from reports import ReportError

    runs = [("default", out / DEFAULT_RULES_RUN), (str(tournament.game.rules), out)]
    try:
        return build(runs, out / VARIANTS_REPORT, fmt=fmt)
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the comparison of the rules: {exc}") from exc


def _compared_again(tournament: Any, out: Path, fmt: str) -> Path | None:
    """The comparison of the finished run in ``out`` (both runs whole) written again, under
    the run's lock as a run's is; None where ``reports.variants`` is not installed."""
    try:
        from reports.variants import build_variants_report
    except ImportError:
        return None
    from leaves_cli.writable import check_writable

    check_writable(out)
    with playing(out), _cut_short(out, fmt, "the comparison with today's rules"):
        return _comparison(build_variants_report, tournament, out, fmt)
