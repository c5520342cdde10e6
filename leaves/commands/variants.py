"""``leaves variants``: the same field under the default rules and each variant, one report.

Long for one job: the command's options and their checks, which must all be read before any
run starts (its resume lives in ``variants_resume``).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.options import (
    FileName,
    WholeNumber,
    count_option,
    format_option,
    load_option,
    progress_option,
    value_option,
)
from leaves_cli.request import Request
from leaves_cli.tournament_checks import DEFAULT_PLAYERS
from leaves_cli.tournament_parts import playing, stops_on_term

from .rules import shared_table_size
from .run import builtin_heuristics, jobs_said, short_jobs_option
from .variants_sweep import sizes_text

DEFAULT_GAMES = 20_000
DEFAULT_TRACE_GAMES = 1000
DEFAULT_RESTRICTED_GAMES = 300
BASELINE = "default"


def folder_name(label: str, taken: set[str]) -> str:
    """A folder name for a rule set's run that every filesystem takes ('hand_size=9',
    'take=ends,min_count=off', 'hand_size=3_12_4_11'), unique among ``taken``."""
    name = re.sub(r"[^A-Za-z0-9._=,+-]", "_", label.replace(", ", ","))[:100] or "rules"
    out, i = name, 2
    while out.lower() in taken:
        out, i = f"{name}-{i}", i + 1
    taken.add(out.lower())
    return out


def _rule_sets(texts: tuple[str, ...], sizes: list[int], expert: bool) -> list[Any]:
    """The default rules, then each --rules variant (one-line errors for bad rules, and for a
    rule set that plays as today's or as another one at the table sizes ``sizes``, with
    ``expert`` matches or not: the same games twice, as ``--sweep`` refuses them)."""
    from leaves.ruleset import DEFAULT_RULES, Rules

    from .variants_sweep import only_matches, plays_as

    if not texts:
        raise CLIError("give at least one variant: --rules KEY=VALUE (see 'leaves rules')",
                       usage=True)  # fmt: skip
    out = [DEFAULT_RULES]
    for text in texts:
        try:
            rules = Rules.parse(text)
        except ValueError as exc:
            raise CLIError(f"--rules {text!r}: {exc}", usage=True) from None
        if rules.is_default:
            raise CLIError(f"--rules {text!r} is today's rules, the baseline every variant is "
                           "compared with: give a rule that changes something", usage=True)  # fmt: skip
        if rules in out:
            raise CLIError(f"--rules {text!r}: the rule set {rules} is given twice", usage=True)
        same = next((i for i, o in enumerate(out) if plays_as(rules, o, sizes, expert)), None)
        if same is not None:
            what = "today's rules" if same == 0 else f"--rules {texts[same - 1]!r}"
            what += f" at {sizes_text(sizes)}{only_matches(rules, out[same], expert)}"
            raise CLIError(f"--rules {text!r} plays as {what}: the same games twice; give a "
                           "rule that changes them", usage=True)  # fmt: skip
        out.append(rules)
    return out


def _field(specs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The strategies (default: ``leaves run``'s built-ins) with random added where missing,
    and the notes saying so."""
    field = list(specs) or builtin_heuristics()
    if any(s.split(":")[0].split("(")[0] == "random" for s in field):
        return field, []
    note = ("random was added to the field (it is what the best strategy's play against "
            "random is measured on).")  # fmt: skip
    return [*field, "random"], [note[0].upper() + note[1:]]


def _tournaments(rule_sets: list[Any], field: list[str], request: Request) -> list[Any]:
    """One Tournament per rule set, all with the same seed and design (checked before any
    game is played)."""
    from leaves.plugin import LeavesGame
    from tournaments import Tournament

    sizes = _sizes(request.players)
    for rules in rule_sets:
        for n in sizes:
            try:
                rules.hand_size_for(n)
            except ValueError as exc:
                why = ""  # today's refusing a count a variant deals: they are the baseline
                if rules is rule_sets[0] and any(n in r.players for r in rule_sets[1:]):
                    why = " (today's rules, the baseline every variant is compared with)"
                raise CLIError(f"--players {n}: {exc}{why}", usage=True) from None
    seed = request.seed
    out = []
    for rules in rule_sets:
        try:
            t = Tournament(field, players=sizes, games=request.games, seed=seed,
                           expert=request.expert, game=LeavesGame(rules=rules))  # fmt: skip
        except ValueError as exc:
            raise CLIError.of(exc, usage=True) from None
        seed = t.seed  # a fresh seed is drawn once: every rule set plays the same deal seeds
        out.append(t)
    return out


def _refuse_if_played(out: Path) -> None:
    """One line (exit 1) where another process plays a comparison in ``out``: not the advice
    to resume it, which the lock would refuse."""
    from tournaments.storage import refuse_if_played

    try:
        refuse_if_played(out)
    except ValueError as exc:
        raise CLIError(str(exc)) from None


@click.command(name="variants")
@click.argument("specs", nargs=-1, metavar="[STRATEGY ...]")
@click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="KEY=VALUE[,KEY=VALUE]",
    help="A variant (repeatable: each --rules is one rule set; see 'leaves rules'); with "
    "--sweep, rules held fixed at every value.",
)
@click.option(
    "--sweep",
    metavar="KEY=V1,V2,...|KEY=LO..HI",
    default=None,
    help="Play one rule key at each value (every --rules held fixed), drawn against the value.",
)
@click.option(
    "--players",
    multiple=True,
    help=f'Seats per table: "3,4,5" or repeated (default: {DEFAULT_PLAYERS}, or the one count '
    "every rule set allows).",
)
@count_option(
    "--games",
    DEFAULT_GAMES,
    "Games per rule set (matches with --expert), rounded up to whole duplicate sets.",
    least=1,
)
@value_option(
    "--seed",
    WholeNumber(0),
    "Seed of every rule set's run (default: fresh, printed and saved).",
)
@short_jobs_option
@click.option("--expert", is_flag=True, help="Play expert matches (to the rules' expert_target).")
@click.option(
    "--out",
    type=FileName(path_type=Path, file_okay=False),
    required=True,
    help="Output directory: a run per rule set, the comparison's report.html.",
)
@count_option(
    "--trace-games",
    DEFAULT_TRACE_GAMES,
    "Games per rule set replayed turn by turn for lead changes, drama and when games "
    "are decided (whole duplicate sets; 0: none).",
    least=0,
)
@count_option(
    "--restricted-games",
    DEFAULT_RESTRICTED_GAMES,
    "Games per rule set and restriction for restricted play (0: none).",
    least=0,
)
@click.option(
    "--restrict",
    default=None,
    metavar="STRATEGY",
    help="The strategy restricted play restricts (default: weighted, where it plays).",
)
@click.option(
    "--ladder",
    default=None,
    metavar="S1,S2,...",
    help="The skill ladder's rungs, strategies of the field (default: the whole field, in the "
    "default rules' order of strength).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the comparison in --out (after Ctrl-C): finished runs are kept, verified "
    "against their manifests; every other option is read from OUT/variants.json, and "
    "options given must agree.",
)
@format_option
@progress_option
@load_option
def variants(**opts: Any) -> None:  # fmt: skip
    """Play the same field under the default rules and each --rules variant, one report.

    Each rule set is a tournament of its own (OUT/default, OUT/hand_size=9, ...) with the
    same seed, tables and seatings, so every rule set is dealt from the same deal seeds; the
    comparison (OUT/report.html, findings.txt, variants_*.csv, charts/) opens with every
    difference to the default rules in one chart, then gives per rule set game length, the
    first player's and every seat's edge, how much skill matters (best less worst strategy;
    the best against random, added to the field if missing; the skill ladder), how close
    games are, unfinished games, the designers' measures of a replayed sample (lead changes,
    drama, comebacks, when the game is decided; restricted play) and, with --expert, shared
    match wins, each with a 95% interval, and each variant's differences, in words first.
    --sweep KEY=V1,V2,... (or KEY=LO..HI) plays one key at each value instead, every
    --rules held fixed, and draws each measure against the value (variants_sweep.csv).
    'leaves report OUT/RULES' builds one run's full report.

    \b
    Examples:
      leaves variants --rules hand_size=9 --rules take=ends --out runs/v
      leaves variants --sweep hand_size=8..11 --games 4000 --seed 1 --out runs/sweep
      leaves variants random low greedy counter weighted --rules "take=ends,min_count=off" \\
          --players 4 --games 20000 --seed 1 --out runs/v2
      leaves variants --rules expert_target=30 --expert --games 5000 --out runs/v3
      leaves variants --out runs/v --resume       # after Ctrl-C: the rest from the run
    """
    from .variants_resume import check_games, check_out, settle

    _refuse_if_played(Path(opts["out"]))  # before reading what it holds, or advising on it
    values, state = settle(click.get_current_context(), opts)
    if not values["players"]:  # not typed (nor read from the comparison resumed)
        values["players"] = (str(shared_table_size(values["rules"], values["sweep"])),)
    request = Request.of(values)
    if request.jobs == 0 or request.jobs < -1:
        raise CLIError(f"--jobs must be a positive number (or -1), got {request.jobs}", usage=True)
    sizes = _sizes(request.players)
    rule_sets, points = _sets(request, sizes)
    from leaves_cli.strategies_cmd import load_files

    load_files(request.load)
    field, notes = _field(request.specs)
    out: Path = request.out
    check_out(out, resume=state is not None)
    runs = _tournaments(rule_sets, field, request)
    check_games(request, rule_sets[0], field, runs[0].n_games)  # resumed: a --games given
    who, ladder = _designer_setup(runs[0], request)
    echo = lambda line: click.echo(line, err=True)  # noqa: E731
    n = len(runs[0].labels)
    echo(f"{n} {'strategy' if n == 1 else 'strategies'}: {', '.join(runs[0].labels)}")
    echo(f"per rule set, at {sizes_text(sizes)}: {runs[0].rounded_note}")  # chosen if not typed
    echo(f"seed {runs[0].seed}; results in {out}")
    with playing(out):  # a second process on this --out is refused while this one plays
        if state is None:  # what the comparison is, kept before any game: --resume reads it
            from .variants_resume import new_state, save

            state = new_state(values, runs[0].seed, sizes)
            save(out, state)
        _compare_or_stop(request, state, runs, rule_sets, (who, ladder, notes, points))


@stops_on_term
def _compare_or_stop(request: Request, state: dict[str, Any], runs: list[Any],
                     rule_sets: list[Any], setup: tuple[Any, ...]) -> None:  # fmt: skip
    """``_compare``, which Ctrl-C or SIGTERM stops saying how to go on (every finished run,
    chunk and designers' file is kept)."""
    from .variants_resume import resume_command

    try:
        _compare(request, state, runs, rule_sets, setup)
    except KeyboardInterrupt:
        click.echo(
            f"interrupted: '{resume_command(request.out)}' continues it (what is done is kept)",
            err=True,
        )
        raise


def _compare(request: Request, state: dict[str, Any], runs: list[Any], rule_sets: list[Any],
             setup: tuple[Any, ...]) -> None:  # fmt: skip
    """Play (or, resumed, finish) every rule set's run, replay the designers' samples, build
    the report and say what it found."""
    who, ladder, notes, points = setup
    out: Path = request.out
    progress = sys.stderr.isatty() if request.progress is None else request.progress
    start = time.perf_counter()
    dirs = _play(runs, rule_sets, out, request.jobs, progress, request.resume)
    played = time.perf_counter() - start
    forfeits = _forfeits(dirs)  # said first; a run with no valid game stops here
    designed = _designer(runs, rule_sets, dirs, (_samples(request), who), state)
    built = time.perf_counter()
    notes = [*forfeits, *_unmeasured(request, who), *notes]
    page = _report(dirs, out, request.fmt, notes, _sweep(request.sweep, points, dirs), ladder)
    from leaves_cli.report_cmd import echo_findings

    for line in forfeits:
        click.echo(line)
    echo_findings(out, skip=forfeits)
    said = "no designers' measures" if designed is None else (
        f"designers' measures in {designed:.1f} s")  # fmt: skip
    how = "verified and finished" if request.resume else "played"  # resumed: little played
    click.echo(f"{len(runs)} rule sets {how} in {played:.1f} s, {said}, compared in "
               f"{time.perf_counter() - built:.1f} s")  # fmt: skip
    click.echo(f"report: {page}")
    if capped := jobs_said((where for _, where in dirs), request.jobs):  # said once for all
        click.echo(capped)


def _sizes(players: tuple[str, ...]) -> list[int]:
    from tournaments.schedule import parse_players

    try:
        return list(parse_players(",".join(players)))
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None


def _sets(request: Request, sizes: list[int]) -> tuple[list[Any], list[tuple[str, int]]]:
    """The rule sets (default first) and, for a sweep, its points (value, rule set)."""
    from .rules import check_items

    check_items(request.rules)
    if request.sweep is None:
        return _rule_sets(request.rules, sizes, request.expert), []
    from .variants_sweep import sweep_sets

    return sweep_sets(request.sweep, request.rules, sizes, request.expert)


def _sweep(text: str | None, points: list[tuple[str, int]], dirs: list[tuple[str, Path]]):
    if text is None:
        return None
    from reports.variants_sweep import Sweep

    return Sweep(text.partition("=")[0].strip(), [(v, dirs[i][0]) for v, i in points])


def _samples(request: Request) -> tuple[int, int]:
    """Games replayed for the designers' measures and for restricted play: none for matches
    (a match's games are not replayed one by one)."""
    return (0, 0) if request.expert else (request.trace_games, request.restricted_games)


def _designer_setup(t: Any, request: Request) -> tuple[str | None, list[str] | None]:
    """The strategy restricted play restricts, and the ladder's rungs asked for (checked
    before any game is played)."""
    from .variants_designer import check_restrictable, restricted_strategy

    restricted = _samples(request)[1]
    asked = request.restrict  # checked even where it is not played: a typo is still refused
    who = restricted_strategy(t, asked) if restricted or asked is not None else None
    check_restrictable(t, who)
    who = who if restricted else None
    if request.ladder is None:
        return who, None
    rungs = [r.strip() for r in request.ladder.split(",") if r.strip()]
    labels = [_label(t, r) for r in rungs]
    twice = next((r for i, r in enumerate(rungs) if labels[i] in labels[:i]), None)
    if twice is not None:  # the rungs are ordered by strength: a repeat would mean nothing
        raise CLIError(f"--ladder {request.ladder}: {twice} is given twice", usage=True)
    by_label = dict(zip(labels, rungs, strict=True))
    missing = [r for label, r in by_label.items() if label not in t.labels]
    if missing or len(by_label) < 2:
        what = f"{', '.join(missing)} not in the field" if missing else "give two rungs or more"
        raise CLIError(f"--ladder {request.ladder}: {what} ({', '.join(t.labels)})", usage=True)
    return who, list(by_label)


def _label(t: Any, spec: str) -> str:
    """The label a spec has in the field (the spec itself where it names nothing)."""
    from .variants_designer import field_label

    return field_label(t, spec)


def _unmeasured(request: Request, who: str | None) -> list[str]:
    """The designers' measures asked for that the run cannot give, in words for the findings
    (rather than left out silently)."""
    if request.expert and (request.trace_games or request.restricted_games):
        return ["The designers' measures (lead changes, drama, wins from behind, when games "
                "are decided, restricted play) are not measured for expert matches: a "
                "match's games are not replayed one by one."]  # fmt: skip
    if request.restricted_games and who is None and not request.expert:
        return ["Restricted play is not measured: no strategy of the field ranks its actions "
                "(explain(view)), as weighted does; add weighted to the field to measure it."]  # fmt: skip
    return []


def _forfeits(dirs: list[tuple[str, Path]]) -> list[str]:
    """A caution per rule set whose run holds games ended by a forfeit (a strategy raised:
    ``tournaments.run_state``), naming the rule set; CLIError (exit 1) where every game of a
    run was: no figure of it would say anything about the rules."""
    from tournaments.run_state import replay_command, run_state

    lines = []
    for label, where in dirs:
        state = run_state(where)
        if state is None or not state.forfeited:
            continue
        f = state.first or {}
        first = ""
        if "game" in f:
            first = f" (the first, {state.game_unit} {f['game']}: {f.get('error')})"
        if state.nothing_valid:
            raise CLIError(f"no valid {state.game_unit} under {label}: all {state.games:,} "
                           f"{state.game_units} in {where} ended by a forfeit{first}, so there is "
                           "nothing to compare; fix the strategy and play again")  # fmt: skip
        replay = f"; replay it with '{replay_command(where, f['game'])}'" if first else ""
        lines.append(f"Caution: under {label}, {state.forfeited:,} of {state.games:,} "
                     f"{state.game_units} ({100 * state.forfeited / state.games:.1f}%) ended "
                     f"by a forfeit{first}: those games say nothing about the rules{replay}.")  # fmt: skip
    return lines


def _designer(runs: list[Any], rule_sets: list[Any], dirs: list[tuple[str, Path]],
              asked: tuple[tuple[int, int], str | None], state: dict[str, Any]
              ) -> float | None:  # fmt: skip
    """Replay each rule set's sample for the designers' measures (``asked``: the games
    sampled, the strategy restricted), each recorded in ``state`` once written; a resumed
    comparison keeps those recorded that still match. The seconds it took (None: nothing to
    replay, so that no time is reported for measures never taken)."""
    from .variants_designer import replay_designer
    from .variants_resume import designer_earlier, designer_kept, record_designer

    games, who = asked
    start = time.perf_counter()
    if not (games[0] or (games[1] and who is not None)):
        return None
    for t, rules, (label, where) in zip(runs, rule_sets, dirs, strict=True):
        if designer_kept(state, where):
            click.echo(f"{label}: designers' measures kept (checked against their checksums)",
                       err=True)  # fmt: skip
            continue
        earlier = designer_earlier(state, where)  # said before the new record replaces it
        said = replay_designer(t, rules, where, games, who)
        record_designer(where.parent, state, where)
        click.echo(f"{label}: designers' measures{earlier}: {said}", err=True)
    return time.perf_counter() - start


def _report(dirs: list[tuple[str, Path]], out: Path, fmt: str, notes: list[str], sweep: Any,
            ladder: list[str] | None) -> Path:  # fmt: skip
    from reports import ReportError
    from reports.variants import build_variants_report

    try:
        return build_variants_report(dirs, out, fmt=fmt, notes=notes, sweep=sweep, ladder=ladder)
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {exc}") from exc


def _play(runs: list[Any], rule_sets: list[Any], out: Path, jobs: int, progress: bool,
          resume: bool) -> list[tuple[str, Path]]:  # fmt: skip
    """Play each rule set's tournament into its folder under ``out``: (label, folder).
    ``resume``: each run continues as ``leaves tournament --resume`` does (its chunks
    verified against its manifest; a finished run plays nothing)."""
    taken: set[str] = set()
    done = []
    for t, rules in zip(runs, rule_sets, strict=True):
        label = str(rules)
        where = out / folder_name(label, taken)
        t0 = time.perf_counter()
        try:
            log = lambda line, of=label: click.echo(f"{of}: {line}", err=True)  # noqa: E731
            result = t.run(n_jobs=jobs, out=where, progress=progress, resume=resume, log=log)
        except ValueError as exc:
            raise CLIError.of(exc) from None
        played = int(result.manifest["sessions"][-1].get("units_played", t.n_games))
        did = f"{played:,} {t.units} played"
        if played < t.n_games:  # resumed: what the run already held is verified, not replayed
            did = (f"all {t.n_games:,} {t.units} kept" if not played else
                   f"{played:,} of {t.n_games:,} {t.units} played (the rest kept)")  # fmt: skip
        click.echo(f"{label}: {did} in {time.perf_counter() - t0:.1f} s -> {where}", err=True)
        done.append((label, where))
    return done
