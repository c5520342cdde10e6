"""``leaves run``: the main job — a default round-robin of the built-in heuristics, then a report.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.options import count_option, format_option
from leaves_cli.request import Request
from leaves_cli.tournament_parts import playing, stops_on_term

from .rules import rules_option

DEFAULT_GAMES = 200_000
DEFAULT_PLAYERS = 4
DEFAULT_SEED = 0
DEFAULT_OUT = "leaves-run"
DEFAULT_RULES_RUN = "default-rules"
"""Under ``--rules``: the folder in OUT of the same field under today's rules."""
VARIANTS_REPORT = "variants"
"""Under ``--rules``: the folder in OUT of the comparison of the rules with today's."""


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


@click.command(name="run")
@count_option(
    "--games",
    DEFAULT_GAMES,
    "Games in all (rounded up so every table plays every seating of its deals).",
    least=1,
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

    Run again into an OUT that holds this run, finished, it plays nothing: it says where the
    run and its report are, how to play another and how to grow this one.

    \b
    Examples:
      leaves run                               # 200,000 games -> leaves-run/report/report.html
      leaves run --games 20000 --jobs 2 --out runs/quick
      leaves run --players 5 --seed 1 --out runs/five
      leaves run --games 20000 --jobs 2 --out runs/quick --resume  # finish it if interrupted
      leaves run --rules take=ends --games 20000 --out runs/ends
    """
    request = Request.of(opts)
    out, resume = request.out, request.resume
    names = _check_options(request)  # every option first, then the state of --out
    stored = _stored_run(out, resume)
    game = _game(out, resume, request.rules)
    from .rules import check_players

    check_players(game.rules, request.players)
    tournament = _tournament(names, game, request)
    if stored is not None:
        asked = tournament.spec()["n_games"]
        tournament = _as_grown(tournament, stored)  # the run grown since: the same run
        if _finished_here(tournament, out, stored, request, asked):
            return
    from leaves_cli.writable import check_writable

    check_writable(out)
    with playing(out):  # held while the run, its report and the comparison are written
        _say(f"{len(names)} strategies: {', '.join(names)}")
        if not game.rules.is_default:
            _say(f"rules: {game.rules}")
        played = _play(tournament, out, request)
        page = out / "report" / ("report.html" if request.fmt == "html" else "report.md")
        if stored is None or played or not page.is_file():
            page = _report(out, out / "report", request.fmt)
        state = _echo_report(out, page)
        if not game.rules.is_default:
            compared = compare_with_default_rules(names, game.rules, out, request)
            if compared is not None:
                _say(f"rules compared with today's: {compared}")
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
    if jobs == 0 or jobs < -1:
        raise CLIError(f"--jobs must be a positive number of workers or -1, got {jobs}", usage=True)
    from .rules import check_players
    from .variants_sweep import refuse_todays

    game = _game(request.out, False, request.rules)
    if not request.resume or request.rules:
        check_players(game.rules, players)
    if not request.resume:  # a run an earlier version played so is finished as it began
        refuse_todays(game.rules, request.rules, players)
    names = builtin_heuristics()
    if len(names) < players:
        raise CLIError(f"only {len(names)} built-in heuristics for tables of {players}", usage=True)
    return names


def _stored_run(out: Path, resume: bool) -> dict[str, Any] | None:
    """The manifest of the run in --out (None: a new run there), or a one-line error: --out a
    file, a folder holding something else, or --resume where there is no run."""
    from tournaments import storage

    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {out} exists and is not a directory", usage=True)
    try:  # before any advice about the run there, which the lock would refuse
        storage.refuse_if_played(out)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    if not (out / storage.MANIFEST).is_file():
        full = storage.holds_files(out)  # a lock file alone: a run that wrote nothing yet
        if resume:
            how = "choose another --out" if full else "leave out --resume to start one there"
            raise CLIError(f"cannot resume {out}: it holds no run (no manifest.json); {how}",
                           usage=True)  # fmt: skip
        if full:
            raise CLIError(f"--out {out} is not empty and holds no run: choose another --out",
                           usage=True)  # fmt: skip
        return None
    try:
        gauntlet = "gauntlet" in (storage.read_manifest(out).get("spec") or {})
    except (ValueError, AttributeError, TypeError):
        gauntlet = False  # an unreadable manifest: read_spec says what is wrong with it
    if gauntlet:
        where = f"cannot resume {out}: it holds" if resume else f"--out {out} holds"
        how = "the same 'leaves gauntlet' command with --resume continues it"
        raise CLIError(f"{where} a gauntlet: {how if resume else 'choose another --out'}",
                       usage=True)  # fmt: skip
    from leaves_cli.resume import read_spec

    return read_spec(str(out))


def _words(value: Any, count: bool) -> str:
    """A spec value as a short line names it: a count with separators, a list with slashes."""
    if isinstance(value, list):
        return "/".join(map(str, value))
    return f"{value:,}" if count and isinstance(value, int) else str(value)


def _differences(stored: dict[str, Any], t: Any) -> list[str]:
    """What a person would name that differs between the run stored and the one asked for:
    the strategies (then only they), players, games, seed, rules (no design's internal key)."""
    old, new = stored["spec"], t.spec()
    said = []
    if old.get("strategies") != new["strategies"]:
        names = [str(x) for x in old.get("strategies") or []]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 4 else
                                        "".join(f", {x}" for x in names[3:]))  # fmt: skip
        return [f"a run of other strategies ({shown})"]  # the rest differs with them
    for key, what in (("players", "players"), ("n_games", "games"), ("seed", "seed")):
        if old.get(key) != new[key]:
            there, here = (_words(v, key == "n_games") for v in (old.get(key), new[key]))
            said.append(f"{what} {there} there, {here} here")
    if (old.get("game_config") or {}).get("rules") != (new.get("game_config") or {}).get("rules"):
        said.append("other rules")
    return said


def _finished_here(t: Any, out: Path, stored: dict[str, Any], request: Request, asked: int) -> bool:
    """Refuse another run in --out (one line); True when --out already holds this one,
    finished, and there is nothing to do (said, with where its report is and what else to
    do); False when the run is to be played (resumed). ``asked``: the games the options ask
    for (fewer than ``t``'s where the run was grown since)."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    said = _differences(stored, t)
    if said:
        lead = f"cannot resume {out}: it holds" if request.resume else f"--out {out} holds"
        tail = ": choose another --out" if not request.resume else ""
        what = said[0] if said[0].startswith("a run of") else f"another run ({'; '.join(said)})"
        if request.resume and said[0].startswith("a run of"):
            tail = f": 'leaves tournament --resume --out {shell_word(out)}' continues it"
        raise CLIError(f"{lead} {what}{tail}", usage=True)
    try:
        t.check_out(out, resume=True)
    except ValueError as exc:  # the same options, but e.g. an entrant's code changed
        raise CLIError.of(exc, usage=True) from None
    if request.resume:
        return False
    n, done = int(stored["spec"]["n_games"]), int(stored.get("units_done") or 0)
    grown = f", grown from the {asked:,} asked" if n != asked else ""
    unfinished = f"{done:,} of {n:,} games{grown}" if stored.get("status") != "complete" else None
    baseline = out / DEFAULT_RULES_RUN
    if unfinished is None and not (t.game.rules.is_default or _complete(baseline)):
        unfinished = "the same field under today's rules not played yet"
    if unfinished is not None:
        raise CLIError(f"--out {out} holds this run unfinished ({unfinished}): pass --resume to "
                       "continue it, or choose another --out", usage=True)  # fmt: skip
    page = out / "report" / ("report.html" if request.fmt == "html" else "report.md")
    where = (
        f"its report: {page}"
        if page.is_file()
        else f"'leaves report {shell_word(out)}' writes its report"
    )
    click.echo(f"{out} already holds this run, finished: {n:,} games{grown}, seed {t.seed}; "
               f"{where}")  # fmt: skip
    quoted = shell_word(out)
    click.echo(f"to play another: 'leaves run --out NEW' (with --seed N for other deals); to "
               f"grow this one: 'leaves tournament --resume --out {quoted} --games N', then "
               f"'leaves report {quoted}'")  # fmt: skip
    return True


def _as_grown(t: Any, stored: dict[str, Any]) -> Any:
    """``t`` grown to the stored run's deal stages where that run is ``t`` grown by
    ``leaves tournament --resume --games N`` (the same run, more deals); else ``t``."""
    from tournaments.stages import grows, with_stages

    spec, there = t.spec(), stored["spec"]
    if there.get("n_games") == spec["n_games"] or not grows(spec, there):
        return t
    return with_stages(t, there["deal_stages"])


def _complete(out: Path) -> bool:
    """True when ``out`` holds a finished run."""
    from tournaments import storage

    try:
        return storage.read_manifest(out).get("status") == "complete"
    except ValueError:
        return False


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
def _play(tournament: Any, out: Path, request: Request, echo: bool = True) -> int:
    """Play ``tournament`` into ``out`` (resumed with --resume); the games this session
    played (0: the run was already whole, which is said). The time said is the manifest's,
    counted from here (``since``): this session's, and a resumed run's in all beside it.
    Ctrl-C or SIGTERM stops it with every finished chunk recorded, and says how to go on."""
    if echo:
        _say(tournament.rounded_note)
    try:
        result = tournament.run(n_jobs=request.jobs, out=out, resume=request.resume,
                                progress=sys.stderr.isatty(),
                                since=time.perf_counter())  # fmt: skip
    except ValueError as exc:
        raise CLIError.of(exc) from exc
    except KeyboardInterrupt:
        click.echo("interrupted: the same 'leaves run' command with --resume continues it",
                   err=True)  # fmt: skip
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


def _report(run_dir: Path, out: Path, fmt: str) -> Path:
    from reports import ReportError, build_report

    try:
        return build_report(run_dir, out=out, fmt=fmt)
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {exc}") from exc


def compare_with_default_rules(names: list[str], rules: Any, out: Path,
                               request: Request) -> Path | None:  # fmt: skip
    """The hook of ``leaves run --rules``: the same field, games and seed under today's rules
    into OUT/default-rules (resumed with --resume), then the comparison of the two runs
    (``reports.variants.build_variants_report``, default rules first) into OUT/variants.
    Returns the comparison page, or None where ``reports.variants`` is not installed (the
    run under the rules and its report stand alone then)."""
    try:
        from reports.variants import build_variants_report
    except ImportError:
        return None
    from leaves_cli.tournament_parts import load_game
    from reports import ReportError

    today = load_game("leaves", {})
    if request.players not in today.rules.players:
        _say(f"no comparison with today's rules: they do not deal {request.players} hands")
        return None
    baseline = out / DEFAULT_RULES_RUN
    _play(_tournament(names, today, request), baseline, request, echo=False)
    try:
        return build_variants_report([("default", baseline), (str(rules), out)],
                                     out / VARIANTS_REPORT, fmt=request.fmt)  # fmt: skip
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the comparison of the rules: {exc}") from exc
