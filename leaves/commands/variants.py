"""``leaves variants``: the same field under the default rules and each variant, one report.

The command's options and their checks, which must all be read before any run starts; the
comparison is played by ``variants_play`` and resumed by ``variants_resume``.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gamekit.text import printable
from leaves_cli.errors import CLIError
from leaves_cli.options import (
    FileName,
    WholeNumber,
    check_jobs,
    count_option,
    format_option,
    load_option,
    progress_option,
    refuse_repeated_sizes,
    value_option,
)
from leaves_cli.request import Request
from leaves_cli.tournament_checks import DEFAULT_PLAYERS
from leaves_cli.tournament_parts import playing

from .rules import shared_table_size
from .run import builtin_heuristics, short_jobs_option
from .variants_play import compare_or_stop, samples
from .variants_play import folder_name as folder_name  # where tests read it
from .variants_sweep import sizes_text

DEFAULT_GAMES = 20_000
DEFAULT_TRACE_GAMES = 1000
DEFAULT_RESTRICTED_GAMES = 300
BASELINE = "default"


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
    from tournaments.checks import size_after_flag  # start-up: as the two above

    sizes = _sizes(request.players)
    for rules in rule_sets:
        for n in sizes:
            try:
                rules.hand_size_for(n)
            except ValueError as exc:
                why = ""  # today's refusing a count a variant deals: they are the baseline
                if rules is rule_sets[0] and any(n in r.players for r in rule_sets[1:]):
                    why = " (today's rules, the baseline every variant is compared with)"
                raise CLIError(f"--players{size_after_flag(n)}: {exc}{why}", usage=True) from None
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


def one_sweep(given: tuple[str, ...]) -> str | None:
    """The one --sweep given (None: none). A comparison sweeps one key: a second --sweep
    would replace the first unsaid (only the last was played), so it is refused in one line."""
    if len(given) > 1:
        each = " and ".join(f"--sweep {g}" for g in given)
        raise CLIError(f"--sweep is given {len(given)} times ({each}): a comparison sweeps one "
                       "key; give one --sweep, and hold other keys fixed with --rules",
                       usage=True)  # fmt: skip
    return given[0] if given else None


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
    metavar="KEY=VALUE[,...]",
    help="A variant (repeatable: each --rules is one rule set; see 'leaves rules'); with "
    "--sweep, rules held fixed at every value.",
)
@click.option(
    "--sweep",
    metavar="KEY=V1,V2,...|KEY=LO..HI",
    multiple=True,  # counted, so that a second is refused rather than replacing the first
    callback=lambda ctx, param, given: one_sweep(given),
    help="Play one rule key at each value (every --rules held fixed), drawn against the value.",
)
@click.option(
    "--players",
    multiple=True,
    metavar="N[,N...]",
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
      leaves variants --sweep hand_size=8..11 --games 4000 --out runs/sweep
      leaves variants random low greedy counter weighted \\
          --rules "take=ends,min_count=off" --games 20000 --out runs/v2
      leaves variants --rules expert_target=30 --expert --games 5000 --out runs/v3
      leaves variants --out runs/v --resume    # after Ctrl-C: the rest of it
    """
    from .variants_resume import check_games, check_out, settle

    _refuse_if_played(Path(opts["out"]))  # before reading what it holds, or advising on it
    values, state = settle(click.get_current_context(), opts)
    if not values["players"]:  # not typed (nor read from the comparison resumed)
        values["players"] = (str(shared_table_size(values["rules"], values["sweep"])),)
    request = Request.of(values)
    check_jobs(request.jobs)
    sizes = _sizes(request.players)
    rule_sets, points = _sets(request, sizes)
    from leaves_cli.strategies_cmd import load_files

    load_files(request.load)
    field, notes = _field(request.specs)
    out: Path = request.out
    check_out(out, resume=state is not None, fmt=request.fmt)
    runs = _tournaments(rule_sets, field, request)
    check_games(request, rule_sets[0], field, runs[0].n_games)  # resumed: a --games given
    who, ladder = _designer_setup(runs[0], request)
    echo = lambda line: click.echo(line, err=True)  # noqa: E731
    n = len(runs[0].labels)
    echo(f"{n} {'strategy' if n == 1 else 'strategies'}: {', '.join(runs[0].labels)}")
    echo(f"per rule set, at {sizes_text(sizes)}: {runs[0].rounded_note}")  # chosen if not typed
    echo(f"seed {runs[0].seed}; results in {printable(str(out))}")
    from .variants_resume import new_state, save

    with playing(out):  # a second process on this --out is refused while this one plays
        if state is None:  # what the comparison is, kept before any game: --resume reads it
            state = new_state(values, runs[0].seed, sizes)
            save(out, state)
        compare_or_stop(request, state, runs, rule_sets, (who, ladder, notes, points))
        save(out, state)  # and one made again from its runs (``rebuilt``), now they played


def _sizes(players: tuple[str, ...]) -> list[int]:
    from tournaments.schedule import parse_players

    refuse_repeated_sizes(",".join(players))
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


def _designer_setup(t: Any, request: Request) -> tuple[str | None, list[str] | None]:
    """The strategy restricted play restricts, and the ladder's rungs asked for (checked
    before any game is played)."""
    from .variants_designer import check_restrictable, restricted_strategy

    restricted = samples(request)[1]
    asked = request.restrict  # checked even where it is not played: a typo is still refused
    who = restricted_strategy(t, asked) if restricted or asked is not None else None
    check_restrictable(t, who)
    who = who if restricted else None
    if request.ladder is None:
        return who, None
    from leaves_cli.strategies_cmd import refuse_empty_items  # start-up: a ladder asked for

    refuse_empty_items([request.ladder], "--ladder")  # 'greedy,,low': a slip, as --against says
    rungs = [r.strip() for r in request.ladder.split(",")]
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
