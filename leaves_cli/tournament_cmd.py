"""``leaves tournament``: run a round-robin tournament into an output directory.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from gamekit.errors import ParameterError

from . import tournament_parts as parts
from .errors import CLIError
from .options import (
    UNIT,
    FileName,
    OneOf,
    WholeNumber,
    check_jobs,
    game_option,
    jobs_flags,
    load_option,
    progress_option,
    refuse_repeated_sizes,
    value_option,
)
from .origins import FILE, FLAG, origin, whose
from .precision_lines import again as _again
from .precision_lines import below as _below  # noqa: F401 - where tests read it
from .precision_lines import grows as _grows
from .precision_lines import keep_flags, kept_flags
from .precision_lines import precision_line as _precision_line
from .request import Request, draft
from .tournament_checks import DEFAULT_HELP, check_field, players_of
from .tournament_outcome import echo_next as _echo_next
from .tournament_outcome import echo_outcome as _echo_outcome
from .worker_stop import worker_stopped


@click.command(name="tournament")
@click.argument("specs", nargs=-1, metavar="SPEC [SPEC ...]")
@click.option("--config", "config", type=FileName(dir_okay=False), help="TOML file of options.")
@click.option("--players", default=None, metavar="N[,N...]",
              help=f'Seats per table, or "3,4,5" ({DEFAULT_HELP}).')  # fmt: skip
@click.option(
    "--games",
    type=WholeNumber(),
    default=100_000,
    show_default=True,
    help="Total games (of a game played in rounds: rounds; of a run of matches, --expert, "
    "--target or --rounds: matches, as the game names them).",
)
@click.option(
    "--seed", type=WholeNumber(0), default=None, help="Tournament seed (default: fresh, saved)."
)
@jobs_flags("-j")
@click.option(
    "--out",
    type=FileName(file_okay=False),
    default=None,
    help="Output directory (required: here, or out in the --config file).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue (or grow) the run in --out: every other option is read from its manifest; "
    "options given must agree.",
)
@value_option(
    "--add",
    int,
    "--resume: grow the run by about this many games (new deals; --games N: to N in all).",
    metavar="GAMES",
)
@click.option(
    "--expert",
    is_flag=True,
    help="Play matches to --target points (a game whose matches are asked for).",
)
@value_option("--target", int, "Match target (default: the game's own; for a game whose "
              "target makes matches, giving one turns them on).")  # fmt: skip
@value_option("--rounds", int, "Matches of a fixed number of rounds instead of a target (a "
              "game played in rounds).")  # fmt: skip
@click.option(
    "--repeats",
    is_flag=True,
    help="Let a strategy take several seats at a table (with fewer strategies than seats "
    "they do anyway, so that every one plays).",
)
@value_option(
    "--seating",
    OneOf(parts.CHOICES["seating"]),
    "Seatings of each deal: balanced (every position, every neighbour equally often), all "
    "orders, or rotations of one order (default: the game's; rotations for a game without turns).",
)
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="Keep per-game rows (per round of a game played in rounds).")  # fmt: skip
@value_option(
    "--record",
    FileName(dir_okay=False),
    "Records file (a JSON line per game, or per round of a game played in rounds).",
)
@value_option("--record-sample", int, "Record about N games (rounds), not all.")
@click.option(
    "--backend",
    type=OneOf(parts.CHOICES["backend"]),
    default="loky",
    show_default=True,
    help="loky: local processes; dask: a Dask cluster (see --scheduler).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDR",
    help="Dask scheduler address, e.g. tcp://host:8786 (none: a local cluster).",
)
@value_option("--chunk-size", int, "Games (rounds) per chunk (part of the spec).")
@parts.game_options
@value_option(
    "--precision",
    float,
    "Play stages (the first of --games) until every strategy's 95% interval is at most "
    "+-POINTS " + UNIT + " of win rate.",
    metavar="POINTS",
)
@value_option(
    "--max-games", int, "--precision: stop after about this many games in all (default 20,000,000)."
)
@progress_option
@game_option("The game: an installed game's id ({games}) or module:Class.")
@load_option
@click.pass_context
@parts.stops_on_term  # the summary too: a stop once every game is played says so
def tournament(ctx: click.Context, **opts: Any) -> None:
    """Run a round-robin tournament among strategies and save the results in --out.

    Every combination of --players strategies meets on the same deals, each deal replayed
    under a balanced set of seatings (every strategy in every position and directly after
    every other equally often; a game without turns: the rotations of each table), so seat,
    neighbour and deal luck cancel. --games is the total number of games (of a game played in
    rounds: rounds), rounded up to whole duplicate sets. Results depend only on the seed, never on the
    order the strategies are listed in, --jobs or --backend. One row per game (round) goes to
    OUT/games/*.parquet (pandas.read_parquet(OUT/"games")), the spec and progress to
    OUT/manifest.json.

    \b
    Examples:
      leaves tournament greedy low high minimal --games 1000000 --out runs/a
      leaves tournament greedy random counter --players 3,4,5 --out runs/mix
      leaves tournament greedy low high --expert --games 10000 --out runs/expert
      leaves tournament --config examples/tournament.toml
      leaves tournament greedy low high random --out runs/a --resume  # Ctrl-C'd
      leaves tournament my.py:Slow greedy low --decision-timeout 5 --out runs/s
      leaves tournament greedy low high random --backend dask \\
          --scheduler tcp://head:8786 --games 100000000 --no-rows --out runs/big
      leaves tournament greedy low high counter --games 20000 --precision 0.5 \\
          --out runs/p

    With --precision, stages of whole duplicate sets are played (the first of --games, each
    next one sized from the widths so far) until every strategy's 95% interval half-width is
    at most POINTS, or --max-games is reached; where it stops depends only on the seed.
    """
    request = _settle(ctx, opts)
    manifest = request.manifest
    if request.resume and manifest is None:
        raise CLIError(_no_run(Path(request.out), whose(request, "resume")), usage=True)
    t = _build(request)
    if manifest is not None:
        from .resume import restore

        t = restore(t, request)
    out = Path(request.out)
    try:
        t.check_out(out, request.resume)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    from .writable import check_writable

    check_writable(out, whose(request, "out"))
    if t.record is not None:
        check_writable(t.record.parent, whose(request, "record"))
        if t.record.is_dir():  # it would be written whole at the end, over nothing it can
            raise CLIError(f"{parts.named(request, 'record')} {t.record} is a directory, not a "
                           "file for the run's records: remove it or name another file")  # fmt: skip
    progress = request.progress
    if progress is None:
        progress = sys.stderr.isatty()
    sessions = len(manifest["sessions"]) if manifest is not None else 0
    before = float(manifest.get("wall_time_s", 0.0)) if manifest is not None else 0.0
    played = None
    try:
        with parts.playing(out):
            played = _run(t, out, request, progress, time.perf_counter())
        _summarise(played, out, request, sessions, before)
    except KeyboardInterrupt:
        if played is not None:  # every game played: the stop cut the summary short
            click.echo(_stopped_line(out, request, played[1], summing=True), err=True)
        raise


def _summarise(played: tuple[Any, Any, float | None], out: Path, request: Request,
               sessions: int, before: float) -> None:  # fmt: skip
    """Print what the run ``played`` (``_run``'s answer) found, and what to do next."""
    result, t, widest = played
    _echo_outcome(result, t, result.manifest["wall_time_s"] - before, sessions,
                  _grows(request, t, widest), _capped_line(result, t))  # fmt: skip
    capped = parts.jobs_line(result.manifest, sessions, request.jobs, request)
    if capped:
        click.echo(capped)
    if widest is not None:
        click.echo(_precision_line(request.precision, widest, t.n_games, t.units))
    _echo_next(out, t, result.manifest)


def _echo_start(t: Any, out: Path, manifest: dict[str, Any] | None) -> None:
    """On stderr, what is about to be played: the design, the rules, growth, the seed."""
    from gamekit.text import printable  # start-up: loaded once the run is about to play

    where = printable(str(out))  # a name typed with a line break or an escape: shown, not obeyed
    click.echo(t.rounded_note, err=True)
    parts.echo_rules(t.game)
    if manifest is not None and t.n_games != manifest["spec"]["n_games"]:
        click.echo(f"growing {where}: {manifest['spec']['n_games']:,} -> {t.n_games:,} {t.units} "
                   "(every one already played is kept)", err=True)  # fmt: skip
    click.echo(f"seed {t.seed}; results in {where}", err=True)


def _echo_dropped_target(out: Path, manifest: dict[str, Any]) -> None:
    """On stderr, where a plain ``--resume`` continues a ``--precision`` run: it plays as a
    plain run (the docs' rule), forgetting the target its manifest kept, so the command that
    continues it as it played is named."""
    from tournaments.run_state import manifest_command  # start-up: only on a resume

    kept = manifest_command(out, manifest)
    if "--precision" in kept:
        click.echo(f"note: this run was played to a --precision target; resumed without it, it "
                   f"plays as a plain run ('{kept}' continues it as it played)", err=True)  # fmt: skip


def _capped_line(result: Any, t: Any) -> str:
    """How many matches to a target stopped at the cap on games before anyone reached it
    (their winner is the best total then), from the aggregates, so a run without rows says it
    too (``tournaments.capped``); "" when none did, or a run that cannot tell."""
    if not t.expert or t.rounds is not None:
        return ""
    from tournaments.capped import capped_matches  # start-up: only matches to a target need it
    from tournaments.declaration import plural
    from tournaments.work import MAX_GAMES_PER_MATCH as CAP

    n, of = capped_matches(result, t.target, max(t.sizes)) or (0, 0)
    if not n:
        return ""
    game, units = t.game.match_unit, plural(t.game.unit)
    rounds = f" or --rounds N (at most {CAP})" if t.game.match_rounds else ""
    return (f"{n:,} of {of:,} {plural(game)} stopped at the cap of {CAP} {units} before "
            f"anyone reached {t.target:,} points: the best total then won; a lower --target"
            f"{rounds} keeps every {game} to its rule")  # fmt: skip


def _settle(ctx: click.Context, opts: dict[str, Any]) -> Request:
    """The request, merged once: the command line over --config, the --load files loaded, a
    resumed run's manifest filling in the rest; every option checked (one-line errors)."""
    config = parts.read_config(opts["config"]) if opts["config"] else {}
    stacked = {o.name for o in parts.installed_options() if getattr(o, "multiple", False)}
    values, given = draft(ctx, opts, config, stacked)
    typed = {n for n in opts if origin({}, n, ctx) == FLAG}  # no file's value named yet
    values["from_config"] = frozenset(config) - typed  # named by their keys in the file
    from .strategies_cmd import load_files

    load_files(values["load"], config=values["config"] if origin(values, "load") == FILE else None)
    if values["add"] is not None and values["precision"] is not None:
        raise CLIError("--add and --precision: give one (--precision grows the run itself)",
                       usage=True)  # fmt: skip
    if values["add"] is not None and not values["resume"]:
        raise CLIError("--add needs --resume (it grows the run in --out)", usage=True)
    manifest = None
    if values["resume"] and values["out"] is not None:
        from .resume import apply_manifest, has_manifest

        if has_manifest(values["out"]):
            manifest = apply_manifest(values, given)
        elif values["add"] is not None or not values["specs"]:
            raise CLIError(f"cannot resume {values['out']}: it holds no run (no manifest.json)",
                           usage=True)  # fmt: skip
    _check(values, manifest, given)
    return Request.of(values, manifest)


def _check(values: dict[str, Any], manifest: dict[str, Any] | None, given: set[str]) -> None:
    """One-line errors for options that cannot go together or cannot be (exit 2); ``given``:
    the options the command line or the config file gave."""
    if manifest is None and (values["out"] is not None or not values["resume"]):
        check_field(values["specs"])  # a resume's are in its --out, asked for next
    if values["out"] is None:
        raise CLIError("--out DIR is required (where the results go)", usage=True)
    if values["record_sample"] is not None and values["record"] is None:
        raise parts.refused(ParameterError("{record_sample} needs {record} FILE", "record_sample",
                                           "record"), values)  # fmt: skip
    if values["scheduler"] is not None and values["backend"] != "dask":
        raise parts.refused(ParameterError("{scheduler} needs {backend} dask", "scheduler",
                                           "backend"), values)  # fmt: skip
    if values["scheduler"] is not None:  # before the plan is said and anything is written
        from tournaments.players import check_scheduler

        try:
            check_scheduler(values["scheduler"])
        except ValueError as exc:
            raise CLIError(str(exc), usage=True) from None
    check_jobs(values["jobs"], parts.named(values, "jobs"))
    refuse_repeated_sizes(values["players"], parts.named(values, "players"))
    from .tournament_checks import check_new_run, check_precision, check_record_folder

    check_precision(values, given, resumed=manifest is not None)
    if manifest is None:
        check_new_run(values)
    if manifest is None or values["record"] != manifest.get("record_file"):
        check_record_folder(values["record"], values["out"], parts.named(values, "record"))


def _build(request: Request) -> Any:
    """The Tournament asked for (a resumed run: at the games it first asked for)."""
    from tournaments import Tournament

    stored = request.get("game_config")  # a resumed run's own settings
    settings = stored if stored is not None else parts.game_settings(request.values)
    game = parts.load_game(request.game_spec, settings, stored=stored is not None, values=request)
    expert, target, rounds = request.expert, request.target, request.rounds
    if rounds is not None and not game.match_rounds:
        raise CLIError(f"{parts.named(request, 'rounds')}: {game.title} matches run to a target "
                       "(--target)", usage=True)  # fmt: skip
    if game.target_makes_matches:
        if request.record is not None and target is not None and not expert and rounds is None:
            from tournaments.runner import record_refused  # start-up: only to refuse

            raise CLIError.of(record_refused(game, "target"), usage=True)  # matches by --target
        expert = expert or target is not None or rounds is not None
    elif not expert:
        target = None  # a target means nothing without matches (--expert)
    try:
        return Tournament(
            request.specs,
            players=players_of(game, request.players),
            games=request.games,
            seed=request.seed,
            expert=expert,
            target=target,
            rounds=rounds,
            repeats=request.repeats,
            seating=request.seating,
            rows=request.rows,
            record=request.record,
            record_sample=request.record_sample,
            chunk_size=request.chunk_size,
            game=game,
        )
    except ValueError as exc:
        raise parts.refused(exc, request) from None


@parts.stops_on_term
def _run(t: Any, out: Path, request: Request, progress: bool,
         since: float) -> tuple[Any, Any, float | None]:  # fmt: skip
    """Say what is about to be played, then play it into ``out``: at once, or stage by stage
    to --precision. (result, the tournament as last played, its widest half-width or None).
    Each stage's session counts its time from where the one before ended (the first from
    ``since``), so the run's recorded wall time holds all of this command's. A Ctrl-C from
    the first line on names the command that continues the run (``_again``)."""
    clock = [since]

    def play(run: Any, where: Path, resume: bool) -> Any:
        # the chunks a resume verified are said where the user resumed, once: a later stage
        # of --precision resumes the run this command plays (no "resume:" line on a new run)
        said = request.resume and clock[0] == since
        result = run.run(
            n_jobs=request.jobs,
            out=where,
            resume=resume or request.resume,
            backend=request.backend,
            scheduler=request.scheduler,
            progress=progress,
            log=(lambda line: click.echo(line, err=True)) if said else None,
            since=clock[0],
            keep=kept_flags(request),  # in the manifest from its first save: what continues it
        )
        clock[0] = time.perf_counter()
        return result

    try:
        _echo_start(t, out, request.manifest)
        if request.precision is None and request.manifest is not None:
            _echo_dropped_target(out, request.manifest)
        if request.precision is None:
            return play(t, out, request.resume), t, None
        from .sequential import PRECISION_MAX_GAMES, echo_err, run_precision

        cap = request.max_games or PRECISION_MAX_GAMES
        return run_precision(t, out, play, request.precision, cap, echo_err)
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    except KeyboardInterrupt:
        keep_flags(out, request)  # a manifest written before the runner kept them
        click.echo(_stopped_line(out, request, t), err=True)
        raise
    except Exception as exc:
        keep_flags(out, request)
        stopped = worker_stopped(exc, f"every finished chunk is kept: {_again(out, request)}")
        if stopped is None:
            raise
        raise stopped from None


def _stopped_line(out: Path, request: Request, t: Any, summing: bool = False) -> str:
    """What a stopped run says: the command that continues it, or, a run played to its end
    (not --precision while playing, whose next stage is not known; ``summing``: stopped
    after every stage was played), that only its summary was cut short."""
    from .resume import interrupted_line

    ended = summing or request.precision is None
    done = interrupted_line(out, t.schedule.n_games, "tournament") if ended else ""
    return done or f"interrupted: {_again(out, request)}"


def _no_run(out: Path, resume: str = "--resume") -> str:
    """Why --resume found no run in ``out``, and the way that works: a run can start in an
    empty folder, not in one holding other files (a run that lost its manifest, say);
    ``resume``: where the resume was asked ("--resume", or a config file's key)."""
    from tournaments.storage import holds_files

    if holds_files(out):
        return (f"cannot resume {out}: it holds no run (no manifest.json) but other files, "
                "so no new run can start there either: pick another --out")  # fmt: skip
    return (
        f"cannot resume {out}: it holds no run (no manifest.json); leave out {resume} to "
        "start one there"
    )
