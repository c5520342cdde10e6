"""``leaves tune``: optimise a strategy's tunable parameters by tournaments against a field.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.options import (
    FileName,
    WholeNumber,
    against_option,
    check_jobs,
    flag_of,
    load_option,
    progress_option,
    refuse_repeated_sizes,
    split_specs,
    value_option,
)
from leaves_cli.request import Request
from leaves_cli.tournament_checks import DEFAULT_PLAYERS
from leaves_cli.tournament_parts import TypedNumber, stops_on_term

from .rules import rules_option
from .run import short_jobs_option
from .variants_sweep import ENDS_A_MATCH


@click.command(name="tune")
@click.argument("spec", metavar="SPEC")
@against_option(
    "The field: opponent strategies, every table seats SPEC and players-1 of them.",
    metavar="SPEC,...",
)
@click.option(
    "--players",
    default=None,
    metavar="N[,N...]",
    help=f'Seats per table, or "3,4,5" (default: {DEFAULT_PLAYERS}, or the one count --rules '
    "allow).",
)
@click.option(
    "--budget",
    type=WholeNumber(),
    default=200_000,
    show_default=True,
    help="Games the search may play, the replay of its finalists included (never more; the "
    "verification plays --verify-games an arm on top).",
)
@click.option(
    "--seed", type=WholeNumber(0), default=None, help="Tuning seed (default: fresh, saved)."
)
@short_jobs_option
@click.option(
    "--out",
    type=FileName(file_okay=False),
    default="leaves-tune",
    show_default=True,
    help="Result directory (must be new or empty; with --resume, the interrupted tuning's).",
)
@click.option("--popsize", type=WholeNumber(), default=None,
              help="Candidates per generation (default: 4 + 3 ln of the number of parameters "
              "tuned, counted as 2 at least, rounded down).")  # fmt: skip
@click.option(
    "--sigma",
    type=TypedNumber(),
    default=0.05,
    show_default=True,
    help="Initial search step, as a fraction of each parameter's range (above 0, at most 1).",
)
@value_option(
    "--candidate-games",
    int,
    "Games per candidate, rounded up so every table plays every seating of its deals "
    "(default: from budget).",
)
@value_option(
    "--verify-games",
    int,
    "Games per verification arm, rounded up as --candidate-games (default: budget/2).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the interrupted tuning in --out: the same command with --resume (the seed, "
    "if not given, is the tuning's own).",
)
@progress_option
@rules_option
@load_option
def tune(**opts: Any) -> None:
    """Find better parameters for SPEC by tournaments against a field (CMA-ES).

    SPEC is any strategy whose class declares tunable parameters (a built-in such as weighted,
    taker or counter, or file.py:Class); its current parameters are the start. Each candidate
    plays SPEC's seat in tournaments against --against on duplicate deals, every candidate of a
    generation on the same deals. The result directory holds best.txt (the spec the verification recommends: the tuned
    one where it proved better than the start, else the start),
    convergence.png, candidates.csv (every evaluated candidate), search.csv and the
    verification: the tuned and the starting parameters on fresh seeds, with intervals and
    their paired difference (verify/tuned and verify/start are tournament runs that
    'leaves report' reads; none where the search came back to the start: nothing to
    verify). Results depend only on the seed, never on --jobs.

    \b
    Examples:
      leaves tune weighted --against taker,counter,high,low --budget 200000
      leaves tune taker --against weighted --players 3,4 --seed 2 --out tune-taker
      leaves tune my_bot.py:MyBot --against greedy,low --budget 50000 --out mine
      leaves tune mybot --load my_bot.py --against greedy,low --budget 50000
      leaves tune weighted --against taker,counter --rules take=ends --out ends

    With --rules every game of the search and of the verification is played under that
    variant (tune.json records it; verify/tuned and verify/start are runs under it).

    Every finished generation is saved in --out: interrupted (Ctrl-C, SIGTERM or SIGHUP), the
    same command with --resume continues from there and ends as the uninterrupted tuning would.
    """
    from .rules import parse_rules, table_size

    _refuse_match_rules(opts["rules"])
    if opts["players"] is None:  # not typed: the default the rules allow
        opts = {**opts, "players": str(table_size(parse_rules(opts["rules"]), None))}
    request = Request.of(opts)
    from leaves_cli.strategies_cmd import load_files, refuse_empty_items

    refuse_empty_items(request.against)
    load_files(request.load)
    specs = split_specs(request.against)
    if not specs:
        raise CLIError("--against needs at least one opponent strategy", usage=True)
    for spec in [request.spec, *specs]:
        _refuse_other_games(spec)
    check_jobs(request.jobs)
    refuse_repeated_sizes(request.players)
    progress = request.progress
    if progress is None:
        progress = sys.stderr.isatty()
    result = _run(request, specs, progress)
    for line in lines(result):
        click.echo(line)
    from .run import jobs_said  # start-up: only to say a capped --jobs

    capped = jobs_said((Path(result.out) / "verify").glob("*"), request.jobs)  # its arms' runs
    if capped:
        click.echo(capped)


@stops_on_term
def _run(request: Request, specs: list[str], progress: bool) -> Any:
    """The tuning the request asks for (continued with --resume). Ctrl-C, SIGTERM or SIGHUP
    stops it with every finished generation saved, and says the command that continues it."""
    from leaves_cli.writable import check_writable
    from tuning import tune as run_tune
    from tuning.checkpoint import StateError

    try:
        return run_tune(
            request.spec,
            specs,
            players=request.players,
            budget=request.budget,
            seed=request.seed,
            n_jobs=request.jobs,
            out=request.out,
            popsize=request.popsize,
            candidate_games=request.candidate_games,
            verify_games=request.verify_games,
            sigma=request.sigma,
            progress=progress,
            game=_game(request.rules),
            resume=request.resume,
            log=lambda line: click.echo(line, err=True),
            ready=check_writable,  # once every option is checked, before the folder is made
        )
    except StateError as exc:  # a damaged saved tuning: the input, not the usage, is wrong
        raise CLIError.of(exc) from None
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None
    except KeyboardInterrupt:
        said = interrupted(request.out, resume_command(request.spec), request.seed is not None)
        click.echo(said, err=True)
        raise


def _refuse_other_games(spec: str) -> None:
    """One line for a spec that names a strategy of another installed game: the registry's
    words for whose it is, then that leaves tune plays this game only and which commands
    take --game. Any other bad spec is said where the spec is resolved."""
    from leaves_cli.options import commands_with_game
    from strategies import registry

    from ..players import GAME

    try:
        name = registry.parse_spec(spec, GAME)[0]
        if ":" not in name:
            registry.get_class(name, GAME)
    except registry.OtherGameStrategy as exc:
        takes = ", ".join(f"leaves {c}" for c in commands_with_game())
        said = (f"{exc.head}, and leaves tune plays {registry.title(GAME)} only; commands "
                f"that take {exc.asks('--game')}: {takes}")  # fmt: skip
        raise CLIError(said, usage=True) from None
    except ValueError:
        return


def _refuse_match_rules(texts: tuple[str, ...]) -> None:
    """One line for ``--rules expert_target``, typed (its default too): it ends a match, never
    a game, and a tuning plays single games, so it would change nothing the rules line names
    (as ``leaves play`` refuses it without a match)."""
    from leaves.rule_text import rule_items

    from .rules import parse_rules

    ruled = parse_rules(texts).expert_target  # a rule that cannot be read said first
    if "expert_target" in {key for key, _ in rule_items(texts)}:
        raise CLIError(
            f"--rules expert_target={ruled} {ENDS_A_MATCH}, and leaves tune plays "
            "single games: leave expert_target out",
            usage=True,
        )


def _game(rules: tuple[str, ...]) -> Any:
    """13 Leaves under ``--rules`` (today's rules when none); one line for rules that cannot be."""
    from leaves.plugin import LeavesGame

    from .rules import parse_rules

    return LeavesGame(rules=parse_rules(rules))


def interrupted(out: str, command: str, seeded: bool = True) -> str:
    """What a Ctrl-C leaves: what is saved in ``out`` and the ``command`` that continues it;
    where the result is, when it was written; where nothing was saved yet, what to do
    instead (``seeded``: the command gave --seed, so running it again plays the same
    games; one without draws a fresh seed, none saved yet)."""
    from tournaments.storage import holds_files
    from tuning.checkpoint import finished, saved_words

    saved = saved_words(out)
    if saved is not None:
        return f"interrupted: {saved} saved in {out}; continue with: {command}"
    done = finished(out)
    if done is not None:  # stopped once the result was written: nothing is lost
        return f"interrupted once the tuning had finished: {done}"
    path = Path(out)
    left = holds_files(path)  # its lock file aside: the run let go of it
    clear = f"remove {out} or pick a new --out, then " if left else ""
    again = (
        "with the same --seed it plays the same games"
        if seeded
        else "without --seed it draws a fresh seed: give one to make a tuning repeatable"
    )
    return (
        f"interrupted before a generation was saved: the tuning cannot be resumed; {clear}run "
        f"the command again ({again})"
    )


def resume_command(spec: str) -> str:
    """The command that continues this tuning: the options given on this command line, as
    given (the others keep their defaults; the seed, when none was given, is the saved one),
    with --resume."""
    import shlex

    from click.core import ParameterSource

    ctx = click.get_current_context()
    words = ["leaves", "tune", spec]
    for param in ctx.command.params:
        name = str(param.name)
        if name in ("spec", "resume", "progress") or (
            ctx.get_parameter_source(name) is not ParameterSource.COMMANDLINE
        ):
            continue
        value = ctx.params[name]
        flag = flag_of(param)  # the long flag: --jobs, not -j
        values = value if getattr(param, "multiple", False) else (value,)
        words += [w for v in values for w in (flag, str(v))]
    return shlex.join([*words, "--resume"])


def lines(result: Any) -> list[str]:
    """The account of a tuning, verdict first. Where the verification found the tuned
    parameters better, its interval and then the parameters; otherwise the result's own first
    line already says to keep the start, and why (``tuning.advice``)."""
    out = result.lines()
    if out[0] != f"best: {result.best_spec}":
        return out
    return [verdict(result), f"tuned parameters: {result.best_spec} (in {result.out}/best.txt)",
            *out[1:]]  # fmt: skip


def verdict(result: Any) -> str:
    """The verification's finding that the tuned parameters are better, in one line: the
    paired difference of win rate over the starting parameters on fresh deals, with its 95%
    interval."""
    v = result.verification
    diff = v.difference(of="of win rate")
    return (
        f"Better than the start: {diff} over the start ({result.spec}) on {v.units:,} "
        f"fresh deals, {_p(v.p_value)}"
    )


def _p(p: float) -> str:
    """The p-value as the reports and the paired line below the verdict write it
    (``reports.numbers.p_text``): one output should not give two values."""
    from reports.numbers import p_text

    return p_text(p)
