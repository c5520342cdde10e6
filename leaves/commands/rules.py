"""``leaves rules``: the rule keys a variant may change, and a check of a variant's text.

The keys, their defaults, the values they take and what they change come from
``leaves.ruleset.KEYS``, so the table is the one ``Rules`` itself validates against; ``--check``
reads ``KEY=VALUE[,KEY=VALUE...]`` text as ``--rules`` does and prints the rules it makes
and the player counts they deal, or the one line that says why they cannot be.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from typing import Any

import click

from leaves.rules import MAX_PLAYERS, MIN_PLAYERS
from leaves_cli.errors import CLIError
from leaves_cli.tournament_checks import DEFAULT_PLAYERS, default_players

from .variants_sweep import point_rules

__all__ = ["PLAYERS_HELP", "check_items", "check_players", "parse_rules", "rules", "rules_option",
           "table_size"]  # fmt: skip

rules_option = click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="KEY=VALUE[,...]",
    help="Play under these rules (see 'leaves rules'): KEY=VALUE, comma-separated; "
    "repeatable, the later winning (default: today's rules).",
)
"""``--rules`` of 13 Leaves' own commands (``play``, ``tune``, ``run``); the shared commands
take it from the game plug-in (``GameOption``), which words it the same."""

PLAYERS_HELP = (f"a count the rules deal ({MIN_PLAYERS}-{MAX_PLAYERS} under today's, others under "
                f"--rules players=...); default: {DEFAULT_PLAYERS}, or the one count --rules "
                "allow")  # fmt: skip
"""What ``--players`` of ``play`` and ``run`` takes: the counts ``table_size`` accepts."""


def check_items(texts: Any, flag: str = "--rules") -> None:
    """A one-line usage error naming ``flag`` where a text has an empty item (two commas in
    a row, or one at an end), rather than reading it as if that comma were not there."""
    for text in texts or ():
        items = str(text).split(",")
        if len(items) > 1 and any(not item.strip() for item in items):
            raise CLIError(
                f"{flag} {text!r} has an empty item (two commas in a row, or one at an end): "
                "write KEY=VALUE between every two commas",
                usage=True,
            )


def parse_rules(texts: Any, flag: str = "--rules") -> Any:
    """The ``leaves.Rules`` that ``--rules`` texts make (several: the later winning); a
    one-line usage error naming ``flag`` otherwise."""
    from leaves.ruleset import Rules

    check_items(texts, flag)
    try:
        return Rules.parse(list(texts or ()))
    except ValueError as exc:
        raise CLIError(f"{flag}: {exc}", usage=True) from None


def check_players(parsed: Any, players: int) -> None:
    """A usage error unless the rules ``parsed`` deal ``players`` hands, in the one line every
    command says of a table the game is not played by (``tournaments.checks.player_counts``:
    "--players 2: 13 Leaves is played by 3 to 6 players, got 2")."""
    from types import SimpleNamespace

    from tournaments.checks import player_counts

    try:
        player_counts(SimpleNamespace(check_players=parsed.hand_size_for), [players])
    except ValueError as exc:
        raise CLIError.of(exc, usage=True) from None


def table_size(parsed: Any, players: int | None) -> int:
    """The table's size under the rules ``parsed``: ``--players`` as typed (``players``),
    checked against them; else the default ``default_players`` picks for the counts they
    allow, or its one line that asks for ``--players``."""
    if players is None:
        return default_players(parsed.players, parsed.hand_size_for)
    check_players(parsed, players)
    return players


def shared_table_size(texts: tuple[str, ...], sweep: str | None = None) -> int:
    """The table where --players is not typed, for rule sets compared with today's (``leaves
    variants``): ``default_players`` for the counts today's rules and every set compared
    allow (each of ``texts``; with a ``sweep``, the rules of each of its values, ``texts``
    held fixed). Rules that cannot be read leave the default: their own check says why,
    later. Sets that share no count are refused in one line that names each one's counts
    (no --players could seat them all)."""
    from leaves.ruleset import DEFAULT_RULES, Rules, counts_text

    try:
        if sweep is None:
            named = [(text, Rules.parse(text)) for text in texts]
        else:
            key, values, parsed = point_rules(sweep, texts)
            named = [(f"{key}={v}", r) for v, r in zip(values, parsed, strict=True)]
    except (ValueError, CLIError):
        return DEFAULT_PLAYERS
    sets = [r for _, r in named]
    allowed = [n for n in DEFAULT_RULES.players if all(n in r.players for r in sets)]
    if not allowed:
        each = "; ".join(f"{name}: {counts_text(r.players)}"
                         for name, r in [("today's rules", DEFAULT_RULES), *named])  # fmt: skip
        raise CLIError(f"the rule sets compared share no player count ({each}): every one "
                       "plays at each table size, so no --players seats them all", usage=True)  # fmt: skip
    narrow = next((r for r in sets if DEFAULT_PLAYERS not in r.players), DEFAULT_RULES)
    return default_players(allowed, narrow.hand_size_for)


def _keys_table() -> Any:
    from rich import box
    from rich.table import Table

    from leaves.ruleset import KEYS

    table = Table(box=box.SIMPLE_HEAD, title="Rule keys (--rules KEY=VALUE,...)",
                  title_justify="left")  # fmt: skip
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("default (today's)", overflow="fold")
    table.add_column("values", overflow="fold")
    table.add_column("meaning", overflow="fold", ratio=1)
    for key in KEYS:
        table.add_row(key.name, key.default, key.values, key.meaning)
    return table


def _rules_table(parsed: Any) -> Any:
    """Every key's value under ``parsed``, the changed ones marked."""
    from rich import box
    from rich.table import Table

    from leaves.ruleset import DEFAULT_RULES, KEYS, value_text

    full, changed = parsed.to_dict(), parsed.changes()
    today = DEFAULT_RULES.to_dict()
    table = Table(box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    table.add_column("", no_wrap=True)
    for key in KEYS:
        mark = "changed" if key.name in changed else "today's"
        if key.name not in changed and full[key.name] != today[key.name]:
            mark = "follows hand_size and deck"  # the counts they deal
        table.add_row(key.name, value_text(key.name, full[key.name]), mark)
    return table


def dealt_lines(parsed: Any) -> list[str]:
    """The player counts the rules allow, each with its hand size and the cards dealt."""
    lines = []
    for n in parsed.players:
        hand = parsed.hand_size_for(n)
        lines.append(f"  {n} players: {hand} cards each ({n * hand} of the deck's "
                     f"{parsed.deck_size} dealt)")  # fmt: skip
    return lines


@click.command(name="rules")
@click.option(
    "--check",
    "check",
    multiple=True,
    metavar="KEY=VALUE[,...]",
    help="Read these rules as --rules does (repeatable, the later winning) and print them "
    "with the player counts they deal, or why they cannot be.",
)
def rules(check: tuple[str, ...]) -> None:
    """List the rule keys a variant may change: name, today's value, the values it takes and
    what it changes.

    The commands gauntlet, play, run, tournament, tune and variants take --rules
    KEY=VALUE[,KEY=VALUE...] (repeatable, the later winning), and a --config file a [rules]
    table; a run records its rules, and --resume refuses others (bench times today's rules
    only). Lists in text are written with '/' (deck=2/3/4/5/6/7/8/7/6/5/4/3/2,
    hand_size=3:12/4:11, players=3/5 or 3-5).

    \b
    Examples:
      leaves rules
      leaves rules --check "hand_size=9,take=ends"
      leaves tournament greedy low high --rules take=nothing --out runs/v
    """
    from leaves_cli.console import make_console

    console = make_console()
    if not check:
        console.print(_keys_table())
        console.print("Check a variant with: leaves rules --check \"hand_size=9,take=ends\"",
                      style="dim")  # fmt: skip
        return
    parsed = parse_rules(check, "--check")
    name = "today's rules" if parsed.is_default else str(parsed)
    console.print(f"Rules: {name}")
    console.print(_rules_table(parsed))
    console.print(f"Player counts: {', '.join(map(str, parsed.players))}")
    for line in dealt_lines(parsed):
        console.print(line)
