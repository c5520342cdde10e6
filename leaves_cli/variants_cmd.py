"""``leaves variants``: the same field under the default rules and each variant, one report."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import click

from .errors import CLIError
from .options import format_option, load_option

DEFAULT_GAMES = 20_000
DEFAULT_PLAYERS = "4"
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


def _rule_sets(texts: tuple[str, ...]) -> list[Any]:
    """The default rules, then each --rules variant (one-line errors for bad or repeated
    rules)."""
    from leaves.ruleset import DEFAULT_RULES, Rules

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
        out.append(rules)
    return out


def _field(specs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The strategies (default: ``leaves run``'s built-ins) with random added where missing,
    and the notes saying so."""
    from .run_cmd import builtin_heuristics

    field = list(specs) or builtin_heuristics()
    if any(s.split(":")[0].split("(")[0] == "random" for s in field):
        return field, []
    note = ("random was added to the field (it is what the best strategy's play against "
            "random is measured on).")  # fmt: skip
    return [*field, "random"], [note[0].upper() + note[1:]]


def _tournaments(rule_sets: list[Any], field: list[str], opts: dict[str, Any]) -> list[Any]:
    """One Tournament per rule set, all with the same seed and design (checked before any
    game is played)."""
    from tournaments import Tournament
    from tournaments.leaves_game import LeavesGame
    from tournaments.runner import parse_players

    try:
        sizes = parse_players(",".join(opts["players"]))
    except ValueError as exc:
        raise CLIError(str(exc), usage=True) from None
    for rules in rule_sets:
        for n in sizes:
            try:
                rules.hand_size_for(n)
            except ValueError as exc:
                raise CLIError(f"--players {n}: {exc}", usage=True) from None
    seed = opts["seed"]
    out = []
    for rules in rule_sets:
        try:
            t = Tournament(field, players=sizes, games=opts["games"], seed=seed,
                           expert=opts["expert"], game=LeavesGame(rules=rules))  # fmt: skip
        except ValueError as exc:
            raise CLIError(str(exc), usage=True) from None
        seed = t.seed  # a fresh seed is drawn once: every rule set plays the same deal seeds
        out.append(t)
    return out


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {out} exists and is not a directory", usage=True)
    if out.is_dir() and any(out.iterdir()):
        raise CLIError(f"--out {out} is not empty: choose another --out (each rule set's run "
                       "and the comparison go there)", usage=True)  # fmt: skip
    from .writable import check_writable

    check_writable(out)


@click.command(name="variants")
@click.argument("specs", nargs=-1, metavar="[STRATEGY ...]")
@click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="KEY=VALUE[,KEY=VALUE]",
    help="A variant (repeatable: each --rules is one rule set; see 'leaves rules').",
)
@click.option(
    "--players",
    multiple=True,
    default=(DEFAULT_PLAYERS,),
    show_default=True,
    help='Seats per table: 4, "3,4,5" or repeated.',
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=DEFAULT_GAMES,
    show_default=True,
    help="Games per rule set (matches with --expert), rounded up to whole duplicate sets.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    help="Seed of every rule set's run (default: fresh, printed and saved).",
)
@click.option("--jobs", "-j", type=int, default=-1, show_default=True, help="Workers (-1: all).")
@click.option("--expert", is_flag=True, help="Play expert matches (to the rules' expert_target).")
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Output directory: a run per rule set, the comparison's report.html.",
)
@format_option
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a tty).")
@load_option
def variants(**opts: Any) -> None:  # fmt: skip
    """Play the same field under the default rules and each --rules variant, one report.

    Each rule set is a tournament of its own (OUT/default, OUT/hand_size=9, ...) with the
    same seed, tables and seatings, so every rule set is dealt from the same deal seeds; the
    comparison (OUT/report.html, findings.txt, variants_*.csv, charts/) gives per rule set
    game length, the first player's and every seat's edge, how much skill matters (best less
    worst strategy; the best against random, added to the field if missing), how close games
    are (the runner-up's cards left), unfinished games and, with --expert, shared match wins,
    each with a 95% interval, and each variant's differences to the default rules, in words
    first. 'leaves report OUT/RULES' builds one run's full report.

    \b
    Examples:
      leaves variants --rules hand_size=9 --rules take=ends --out runs/v
      leaves variants random low greedy counter weighted --rules "take=ends,min_count=off" \\
          --players 4 --games 20000 --seed 1 --out runs/v2
      leaves variants --rules expert_target=30 --expert --games 5000 --out runs/v3
    """
    if opts["jobs"] == 0 or opts["jobs"] < -1:
        raise CLIError(f"--jobs must be a positive number (or -1), got {opts['jobs']}", usage=True)
    rule_sets = _rule_sets(opts["rules"])
    from .strategies_cmd import load_files

    load_files(opts["load"])
    field, notes = _field(opts["specs"])
    out: Path = opts["out"]
    _check_out(out)
    runs = _tournaments(rule_sets, field, opts)
    progress = sys.stderr.isatty() if opts["progress"] is None else opts["progress"]
    echo = lambda line: click.echo(line, err=True)  # noqa: E731
    echo(f"{len(runs[0].labels)} strategies: {', '.join(runs[0].labels)}")
    echo(f"per rule set: {runs[0].rounded_note}")
    echo(f"seed {runs[0].seed}; results in {out}")
    start = time.perf_counter()
    dirs = _play(runs, rule_sets, out, opts["jobs"], progress)
    played = time.perf_counter() - start
    from reports import ReportError
    from reports.variants import build_variants_report

    try:
        page = build_variants_report(dirs, out, fmt=opts["fmt"], notes=notes)
    except ReportError as exc:
        raise CLIError(str(exc)) from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {exc}") from exc
    from .report_cmd import echo_findings

    echo_findings(out)
    click.echo(f"{len(runs)} rule sets played in {played:.1f} s, compared in "
               f"{time.perf_counter() - start - played:.1f} s")  # fmt: skip
    click.echo(f"report: {page}")


def _play(runs: list[Any], rule_sets: list[Any], out: Path, jobs: int,
          progress: bool) -> list[tuple[str, Path]]:  # fmt: skip
    """Play each rule set's tournament into its folder under ``out``: (label, folder)."""
    taken: set[str] = set()
    done = []
    for t, rules in zip(runs, rule_sets, strict=True):
        label = str(rules)
        where = out / folder_name(label, taken)
        t0 = time.perf_counter()
        try:
            t.run(n_jobs=jobs, out=where, progress=progress,
                  log=lambda line: click.echo(line, err=True))  # fmt: skip
        except ValueError as exc:
            raise CLIError(str(exc)) from None
        click.echo(f"{label}: {t.n_games:,} {t.units} in {time.perf_counter() - t0:.1f} s "
                   f"-> {where}", err=True)  # fmt: skip
        done.append((label, where))
    return done
