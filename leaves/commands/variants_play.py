"""Playing a ``leaves variants`` comparison once its options are checked: every rule set's
run, each in its own folder, the designers' measures replayed from a sample of each, the
comparison's report built, and what it found said, stopped by Ctrl-C, SIGTERM or SIGHUP with
the way to go on.

Imports inside functions: start-up. The packages a comparison runs on load once it is played,
so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.request import Request
from leaves_cli.tournament_parts import stops_on_term

from .run import jobs_said


def folder_name(label: str, taken: set[str]) -> str:
    """A folder name for a rule set's run that every filesystem takes ('hand_size=9',
    'take=ends,min_count=off', 'hand_size=3_12_4_11'), unique among ``taken``."""
    name = re.sub(r"[^A-Za-z0-9._=,+-]", "_", label.replace(", ", ","))[:100] or "rules"
    out, i = name, 2
    while out.lower() in taken:
        out, i = f"{name}-{i}", i + 1
    taken.add(out.lower())
    return out


@stops_on_term
def compare_or_stop(request: Request, state: dict[str, Any], runs: list[Any],
                    rule_sets: list[Any], setup: tuple[Any, ...]) -> None:  # fmt: skip
    """``_compare``, which Ctrl-C, SIGTERM or SIGHUP stops saying how to go on (every finished
    run, chunk and designers' file is kept)."""
    from .variants_resume import resume_command

    try:
        _compare(request, state, runs, rule_sets, setup)
    except KeyboardInterrupt:
        click.echo(
            f"interrupted: '{resume_command(request.out, request.fmt)}' continues it (what is done "
            "is kept)",
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
    designed = _designer(runs, rule_sets, dirs, (samples(request), who), state)
    built = time.perf_counter()
    notes = [*forfeits, *_unmeasured(request, who), *notes]
    todays = todays_at(rule_sets, runs[0].sizes, request.expert)
    page = _report(
        dirs,
        out,
        request.fmt,
        notes,
        _sweep(request.sweep, points, dirs, todays),
        ladder,
        {label: sizes for (label, _), sizes in zip(dirs[1:], todays[1:], strict=True)},
    )
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


def todays_at(rule_sets: list[Any], sizes: list[int], expert: bool) -> list[tuple[int, ...]]:
    """Per rule set, the table sizes among ``sizes`` at which it plays as today's rules
    (``hand_size=10`` at 5 players), with ``expert`` matches or not: its games there are the
    default run's, which the findings say instead of a difference."""
    from leaves.ruleset import DEFAULT_RULES

    from .variants_sweep import plays_as

    return [tuple(n for n in sizes if plays_as(rules, DEFAULT_RULES, [n], expert))
            for rules in rule_sets]  # fmt: skip


def _sweep(
    text: str | None,
    points: list[tuple[str, int]],
    dirs: list[tuple[str, Path]],
    todays: list[tuple[int, ...]],
) -> Any:
    """The sweep the report draws each measure against: its key, each point's value with its
    rule set's label, and the table sizes at which each value plays as today's rules
    (``todays``, per rule set; None: no --sweep)."""
    if text is None:
        return None
    from reports.variants_sweep import Sweep

    at = {v: todays[i] for v, i in points}
    return Sweep(text.partition("=")[0].strip(), [(v, dirs[i][0]) for v, i in points], at)


def samples(request: Request) -> tuple[int, int]:
    """Games replayed for the designers' measures and for restricted play: none for matches
    (a match's games are not replayed one by one)."""
    return (0, 0) if request.expert else (request.trace_games, request.restricted_games)


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
            ladder: list[str] | None, todays: dict[str, tuple[int, ...]]) -> Path:  # fmt: skip
    from reports import ReportError
    from reports.variants import build_variants_report

    try:
        return build_variants_report(dirs, out, fmt=fmt, notes=notes, sweep=sweep, ladder=ladder,
                                     todays=todays)  # fmt: skip
    except ReportError as exc:
        raise CLIError.of(exc) from exc
    except OSError as exc:
        from leaves_cli.writable import unwritten  # start-up: only a failed write needs it

        raise CLIError(f"cannot write the report: {unwritten(exc)}") from exc


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
