"""``leaves gauntlet``: is my strategy better than the baseline against this field?

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from gamekit.text import printable

from .errors import CLIError
from .flags import message
from .gauntlet_resume import SEQUENTIAL_OPTIONS
from .options import (
    UNIT,
    FileName,
    UnitHelpOption,
    WholeNumber,
    against_option,
    check_jobs,
    game_option,
    jobs_flags,
    load_option,
    progress_option,
    split_specs,
    value_option,
)
from .origins import whose
from .request import Request, draft
from .tournament_checks import DEFAULT_HELP, players_of, refuse_target_settings
from .tournament_parts import (
    TypedNumber,
    echo_rules,
    game_options,
    game_settings,
    jobs_line,
    load_game,
    playing,
    stops_on_term,
)
from .worker_stop import worker_stopped

FIXED_GAMES = 20_000
"""Games per side of a gauntlet by default: the library's default too (``tournaments.gauntlet``;
not imported from there, which would load numpy at start-up: a test holds the two equal)."""

SEQUENTIAL_FIRST_GAMES = 4_000
"""Games per side of a sequential gauntlet's first batch by default: enough duplicate sets
for a steady variance estimate, few enough that a clear difference costs little."""

SEQUENTIAL_DEFAULTS = {"margin": 1.0, "alpha": 0.05, "beta": 0.05}
"""The sequential test's settings when not given (the cap: ``sequential.SEQUENTIAL_MAX_GAMES``)."""

ERROR_RATES = (0, 0.5)
"""The bounds of ``--alpha`` and ``--beta``, neither taken: the refusal and the help say them
from here."""
RATE_WORDS = "between {} and {}".format(*ERROR_RATES)
"""The range in the words of the help and of the refusal."""
BOTH_SIDES = "both sides together: "
"""Before the count of unfinished games: it counts SPEC's games and the baseline's."""


class GauntletCommand(click.Command):
    """``leaves gauntlet``: with ``--resume`` SPEC and ``--against`` come from the run, so
    they are required only without it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        relaxed = [p for p in self.params if p.name in ("spec", "against") and p.required]
        if "--resume" not in args:
            relaxed = []
        for p in relaxed:
            p.required = False
        try:
            return super().parse_args(ctx, args)
        finally:
            for p in relaxed:
                p.required = True


@click.command(name="gauntlet", cls=GauntletCommand)
@click.argument("spec", metavar="SPEC")
@against_option(
    "The field: the strategies in the other seats, sorted by label and repeated in turn to "
    "fill them (taker,greedy in three seats: greedy, taker, greedy); more than the seats: "
    "a table for each combination.",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SPEC",
    help="Played in the same seats on the same deals (default: the game's baseline, e.g. its "
    "best built-in).",
)
@game_option("The game: an installed game's id ({games}) or module:Class.")
@game_options
@click.option(
    "--players", type=WholeNumber(), default=None, help=f"Seats per table ({DEFAULT_HELP})."
)
@value_option(
    "--games",
    int,
    "Games SPEC plays (baseline too; default 20,000); --sequential: the first batch "
    "(default 4,000).",
)
@click.option("--seed", type=WholeNumber(0), default=0, show_default=True, help="Seed.")
@jobs_flags("-j")
@value_option(
    "--out",
    FileName(file_okay=False),
    "Run directory (default: a new temporary one); 'leaves report OUT' reads it.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the gauntlet in --out (a sequential one from its batch): SPEC, the field, "
    "the baseline, the game, --players, --games, --seed and the test are the run's (read "
    "from its manifest; given again, they must agree).",
)
@click.option(
    "--sequential",
    is_flag=True,
    cls=UnitHelpOption,
    help="Play batches (the first of --games) until a sequential test of 0 against +--margin "
    + UNIT
    + " decides (the baseline may then be SPEC itself, but not a copy that ends each of its "
    "first games as SPEC does: the test could decide nothing).",
)
@value_option(
    "--margin",
    float,
    "--sequential: the difference the test weighs against 0, in " + UNIT + " of win rate "
    "(above 0, at most 100; default 1).",
    metavar="POINTS",
)
@value_option(
    "--alpha",
    TypedNumber(),
    f"--sequential: how often it may say 'better' of two equal strategies ({RATE_WORDS}, "
    "neither included; default 0.05).",
)
@value_option(
    "--beta",
    TypedNumber(),
    "--sequential: how often it may say 'not better by the margin' of a strategy better "
    f"by the margin ({RATE_WORDS}, neither included; default 0.05).",
)
@value_option(
    "--max-games",
    int,
    "--sequential: stop undecided after this many games per side (default 200,000, or "
    "--games where more).",
)
@progress_option
@load_option
@click.pass_context
@stops_on_term  # the answer too: a stop once every game is played says so
def gauntlet(ctx: click.Context, **opts: Any) -> None:
    """Play SPEC in one seat of every table against a field, and the baseline in the same
    seats on the same deals; print both win rates and their paired difference.

    SPEC sits in every position against every order of the field; each deal is played by
    SPEC and by the baseline, so the difference (paired deal by deal) is free of card and
    seat luck. Results depend only on --seed, never on --jobs.

    \b
    Examples:
      leaves gauntlet my_bot.py:MyBot --against taker
      leaves gauntlet counter --against taker,greedy --baseline weighted
      leaves gauntlet greedy --against weighted --baseline taker --out runs/g
      leaves report runs/g
      leaves gauntlet counter --against taker --sequential --margin 1 --out runs/s
      leaves gauntlet --resume --out runs/s   # after Ctrl-C: all from the run
      leaves gauntlet counter --against taker,greedy --rules take=ends

    With --sequential, batches of whole duplicate sets (the first of --games, each next one
    growing the deals by a quarter) are played until a sequential probability ratio test
    (normal approximation, on the paired per-set differences) of H0 "difference 0" against
    H1 "difference +--margin" accepts one, or --max-games is reached (undecided). Accepting
    H1 says SPEC is better than the baseline (wrongly for equal strategies at most --alpha of
    the time), not that it is better by the margin; accepting H0 says it is not better by
    the margin (wrongly at most --beta of the time); where the 95% interval of a verdict
    other than "better" is clear of 0, it says that too (worse; or better, by less than the
    margin where the interval ends below it). A batch in which no game was won
    stops it undecided: every difference is then 0, whichever strategy is better. The
    decision goes into OUT/manifest.json ("sequential").

    A strategy that forfeits games (its code raises or hangs) is said first; when every game
    of a side was forfeited, nothing is compared and the exit code is 1.
    """
    request = _settle(ctx, opts)
    games = request.games
    if games is None:
        games = SEQUENTIAL_FIRST_GAMES if request.sequential else FIXED_GAMES
    stored = request.get("game_config")  # a resumed run's own settings
    game = load_game(request.game_spec,
                     stored if stored is not None else game_settings(request.values),
                     stored=stored is not None)  # fmt: skip
    settings = _sequential_settings(request, games, game)
    g = _build(request, games, settings, game)
    if request.manifest is not None:  # the batches a sequential run has played so far
        try:
            g = g.with_stages(request.manifest["spec"]["deal_stages"])
        except (ValueError, KeyError, TypeError) as exc:
            raise CLIError(f"cannot resume {request.out}: {message(exc)}", usage=True) from None
    elif g.copy:  # a new test of SPEC against itself: refused where the copy plays alike
        from .sequential import probe_games

        _refuse_alike(_build(request, probe_games(g), settings, game))
    path = Path(request.out) if request.out is not None else Path(
        tempfile.mkdtemp(prefix="leaves-gauntlet-"))  # fmt: skip
    try:
        g.check_out(path, request.resume)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    from .writable import check_writable

    check_writable(path)
    progress = request.progress
    if progress is None:
        progress = sys.stderr.isatty()
    result = None
    try:
        with playing(path):
            click.echo(g.rounded_note, err=True)
            echo_rules(game)
            result = _play(g, path, request.jobs, progress, request.resume, settings)
        sessions = len(request.manifest["sessions"]) if request.manifest is not None else 0
        _answer(result, path, jobs_line(result.manifest, sessions, request.jobs))
    except KeyboardInterrupt:
        if result is not None:  # every game played: the stop cut the answer short
            from .resume import interrupted_line

            done = interrupted_line(path, 0, "gauntlet")  # none left, as its manifest says
            if done:
                click.echo(done, err=True)
        raise


def _settle(ctx: click.Context, opts: dict[str, Any]) -> Request:
    """The request, merged once: the command line, the --load files loaded, a resumed run's
    manifest filling in the rest (``gauntlet_resume.settle``); one-line errors."""
    values, given = draft(ctx, opts)
    check_jobs(values["jobs"])
    from .strategies_cmd import load_files, refuse_empty_items

    refuse_empty_items(values["against"] or ())
    load_files(values["load"])
    manifest = None
    if values["resume"]:
        from .gauntlet_resume import settle

        manifest = settle(values, given)
    elif values["spec"] is None:  # pragma: no cover - click asks for SPEC without --resume
        raise CLIError.required("SPEC")
    if manifest is None:  # a resumed run's settings are its own, checked when it began
        refuse_target_settings(values, command="leaves gauntlet")
    return Request.of(values, manifest)


def _build(request: Request, games: int, settings: dict[str, Any] | None, game: Any) -> Any:
    """The Gauntlet asked for (one-line errors), of ``games`` a side (the probe's: its first
    games, the same games, seeds and all). A resumed run's chunks are its own, whatever
    size this version would choose (``tournaments.gauntlet.run_chunks``)."""
    from tournaments import Gauntlet

    field = request.get("field_specs") or split_specs(request.against)
    players = players_of(game, request.players)
    stored = request.manifest
    chunks = stored["spec"]["chunk_games"] if stored is not None else None
    try:
        return Gauntlet(request.spec, field, request.baseline, players=players, games=games,
                        seed=request.seed, allow_same=settings is not None, chunk_size=chunks,
                        game=game, sequential=settings)  # fmt: skip
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None


def _refuse_alike(probe: Any) -> None:
    """Refuse a sequential gauntlet of a strategy against its own copy (``probe``: its first
    games) where the copy ended each of them as the strategy did (``sequential.played_alike``):
    every duplicate set's difference is then 0, which decides nothing, and the test would
    play on to --max-games, undecided."""
    from .sequential import played_alike

    alike = played_alike(probe)
    if alike is not None:
        me = probe.gauntlet["strategy"]
        raise CLIError(f"the baseline is {me} itself, and its copy ended each of the first "
                       f"{alike:,} {probe.units} per side as {me} did: a copy that plays alike "
                       "makes every duplicate set's difference 0, from which the sequential "
                       "test decides nothing: it would play on to --max-games, undecided; "
                       "name another --baseline", usage=True)  # fmt: skip


def _answer(result: Any, path: Path, capped: str = "") -> None:
    """Print the gauntlet's answer, what its forfeits mean first, then how many games of
    both sides stopped unfinished at the game's limits (the tournament's words:
    ``reports.unfinished_line``), then ``capped`` (fewer players than --jobs asked,
    ``jobs_line``); exit 1 when every game of a side was forfeited (nothing valid to compare)."""
    import reports
    from reports.gauntlet import nothing_valid, sentences
    from reports.unfinished_line import unfinished_line
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    table = reports.gauntlet(result)
    lines, rec = sentences(table), _untested(path)
    if rec is not None and not table.attrs.get("nobody_won") and not _flat(table.iloc[0]):
        lines.append(_no_test_note(rec, path))  # no game won, no spread: the sentence says why
    lines.append(unfinished_line(result, who=BOTH_SIDES))
    for line in filter(None, lines):  # "": no game stopped unfinished
        click.echo(line)
    if capped:
        click.echo(capped)
    click.echo(f"results in {printable(str(path))} ('leaves report {shell_word(path)}' for the full "
               "report)")  # fmt: skip
    if nothing_valid(table.iloc[0]):
        sys.exit(1)  # said first, above: no error line to repeat it


def _untested(path: Path) -> dict[str, Any] | None:
    """The record of a sequential gauntlet in ``path`` that stopped undecided with its LLR
    never computed (no game won, ``sequential.nobody_won_sentence``, which the record keeps
    as its sentence; or too few deals up to --max-games, ``_no_test_note``), else None."""
    from tournaments import storage
    from tournaments.sequential import UNDECIDED

    try:
        rec = storage.read_manifest(path).get("sequential")
    except (OSError, ValueError):  # pragma: no cover - the run was just written
        return None
    if not (isinstance(rec, dict) and rec.get("finished") and rec.get("decision") == UNDECIDED
            and rec.get("llr") is None):  # fmt: skip
        return None
    return rec


def _flat(r: Any) -> bool:
    """Did the duplicate sets of the gauntlet's row ``r`` (``reports.gauntlet``'s) all give
    the same difference, on deals enough for an interval? Its sentence then says so and why
    the test weighed none: ``_no_test_note``'s "too few deals" would be false."""
    from reports.numbers import flat_sets

    return flat_sets(r["diff_ci_low"], r["diff_ci_high"], r["p_value"], r["deals"]) > 0


def _no_test_note(rec: dict[str, Any], path: Path) -> str:
    """A sequential gauntlet that stopped at --max-games without an interval (``rec``, its
    record: its LLR never computed, so the report's sentence has none): that no test was
    made, and why, in words."""
    from reports.numbers import TOO_FEW
    from tournaments import storage
    from tournaments.declaration import plural

    declared = storage.read_manifest(path).get("game_declaration") or {}
    units = plural(str(declared.get("unit", "game")))
    return (f"No test was made: at {rec['games_per_side']:,} {units} per side (as far as "
            f"--max-games goes) there were {TOO_FEW}; raise --max-games for a test.")  # fmt: skip


def _sequential_settings(request: Request, games: int, game: Any) -> dict[str, Any] | None:
    """The sequential test's settings (margin in percentage points, alpha, beta, max_games), or None
    for a gauntlet of fixed size; one-line errors before anything is played, among them a
    test option given without --sequential; in the units the ``game``'s --games counts."""
    if not request.sequential:
        named = [flag for name, flag in SEQUENTIAL_OPTIONS if request[name] is not None]
        if named:
            need = "needs" if len(named) == 1 else "need"
            raise CLIError(f"{' and '.join(named)} {need} --sequential", usage=True)
        return None
    from .sequential import SEQUENTIAL_MAX_GAMES

    settings = {name: SEQUENTIAL_DEFAULTS.get(name) if request[name] is None else request[name]
                for name, _ in SEQUENTIAL_OPTIONS}  # fmt: skip
    if settings["max_games"] is None:
        settings["max_games"] = max(SEQUENTIAL_MAX_GAMES, games)
    for name in ("alpha", "beta"):
        if not ERROR_RATES[0] < settings[name] < ERROR_RATES[1]:
            raise CLIError(f"{whose(request.values, name)} must be {RATE_WORDS}, got "
                           f"{settings[name]}", usage=True)  # fmt: skip
    if _past_sides(games):  # the gauntlet refuses --games itself, in its game's units
        return settings
    if request.manifest is None:  # a resumed run's cap is its own, checked when it began
        from tournaments.declaration import plural  # start-up: a sequential gauntlet's alone

        _check_cap(settings["max_games"], plural(game.unit))
    if settings["max_games"] < games:
        cap, first = whose(request.values, "max_games"), whose(request.values, "games")
        raise CLIError(f"{cap} ({settings['max_games']:,}) must be at least {first} "
                       f"({games:,})", usage=True)  # fmt: skip
    if request.manifest is not None:  # the run's own margin: no flag changes it
        _resumed_margin(request.out, settings["margin"])
    _test(settings, whose(request.values, "margin"))  # checks the margin
    return settings


def _resumed_margin(out: Any, margin: float) -> None:
    """Refuse a resumed run whose own margin is below the least this version takes (an earlier
    one took any positive margin): the run is at fault, not the command (exit 1)."""
    from reports.numbers import PERCENTAGE_POINTS
    from tournaments.sequential import MIN_MARGIN, figure

    if 0 < margin < 100 * MIN_MARGIN:
        raise CLIError(f"cannot resume {out}: its margin, {figure(margin)} {PERCENTAGE_POINTS}, is "
                       f"below the least this version takes ({figure(100 * MIN_MARGIN)}: no run "
                       "tells a smaller margin from 0); play it again into a new --out")  # fmt: skip


def _past_sides(games: int) -> bool:
    """Whether ``games`` a side are more than a run holds of both sides: the cap, by default
    --games, is then not checked (it named a --max-games no one gave, or advised raising one
    to --games, which no cap may reach): ``Gauntlet`` refuses --games."""
    from tournaments.schedule import MAX_RUN_GAMES

    return games > MAX_RUN_GAMES // 2


def _check_cap(cap: int, units: str = "games") -> None:
    """Refuse a cap of games per side that a run could not hold, before anything is played:
    the run holds both sides, so at most ``MAX_RUN_GAMES // 2`` (2**31 - 1) games a side
    (``units``: rounds of a game played in rounds)."""
    if _past_sides(cap):
        raise CLIError(f"--max-games must be at most 2**31 - 1 (it counts {units} per side, and "
                       f"the run holds both sides in at most 2**32 - 1 {units}), got {cap:,}",
                       usage=True)  # fmt: skip


def _test(settings: dict[str, Any], margin: str = "--margin") -> Any:
    """The sequential test of ``settings`` (``tournaments.sequential.Sequential``); a bad
    margin is refused naming it as ``margin`` (where it came from: ``origins.whose``)."""
    from tournaments.sequential import MAX_MARGIN, MIN_MARGIN, Sequential, figure

    try:
        return Sequential(settings["margin"] / 100, settings["alpha"], settings["beta"])
    except ValueError as exc:
        if "margin" in getattr(exc, "params", ()):  # the test's rate, said as --margin takes it
            from reports.numbers import PERCENTAGE_POINTS

            got = settings["margin"]
            why = (f"at most {100 * MAX_MARGIN:g} {PERCENTAGE_POINTS} (no win rate exceeds "
                   "another by more)" if got > 100 * MAX_MARGIN
                   else f"at least {figure(100 * MIN_MARGIN)} {PERCENTAGE_POINTS}, one game in the "
                   "most a side can play (no run tells a smaller margin from 0)" if got > 0
                   else f"a positive number of {PERCENTAGE_POINTS}")  # fmt: skip
            raise CLIError(f"{margin} must be {why}, got {figure(got)}", usage=True) from None
        raise CLIError.of(exc, usage=True) from None


@stops_on_term
def _play(g: Any, path: Path, jobs: int, progress: bool, resume: bool,
          settings: dict[str, Any] | None) -> Any:  # fmt: skip
    """Play the gauntlet into ``path``: at once, or in batches until the sequential test of
    ``settings`` decides or its cap of games a side is reached; the result. Each batch's
    session counts its time from where the one before ended (the first from now), so the
    run's recorded wall time holds the weighing between batches too, as the command spent it.
    Stopped (Ctrl-C, a dead worker), it names the command that continues it, as the advice on
    an unfinished run does (``run_state.continue_command``)."""
    from tournaments.run_state import continue_command  # start-up: it loads numpy

    again = f"'{continue_command('gauntlet', path)}' continues it"
    clock = [time.perf_counter()]
    try:
        from .sequential import echo_err, run_sequential

        if settings is None:
            return g.run(n_jobs=jobs, out=path, resume=resume, progress=progress, log=echo_err,
                         since=clock[0])  # fmt: skip

        said: list[bool] = []  # what a resume verified is said once, not at every batch

        def play(t: Any, out: Path, grow: bool) -> Any:
            log = echo_err if resume and not said else None
            said.append(True)
            result = t.run(n_jobs=jobs, out=out, resume=grow, progress=progress, log=log,
                           since=clock[0])  # fmt: skip
            clock[0] = time.perf_counter()
            return result

        test, cap = _test(settings), int(settings["max_games"])
        return run_sequential(g, path, play, test, cap, echo_err, resume=resume)[0]
    except KeyboardInterrupt:
        from .resume import interrupted_line

        done = "" if settings else interrupted_line(path, g.schedule.n_games, "gauntlet")
        click.echo(done or f"interrupted: {again}", err=True)  # a test may play more batches
        raise
    except Exception as exc:
        stopped = worker_stopped(exc, f"every finished chunk is kept: {again}")
        if stopped is None:
            raise
        raise stopped from None
