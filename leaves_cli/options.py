"""Options several commands share, declared once so their flags and help stay the same, and
the parsing and completion of their strategy lists.

Imports inside functions: start-up (the registry loads only to complete a strategy name).
"""

from __future__ import annotations

from collections.abc import Sequence

import click

load_option = click.option(
    "--load",
    "load",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="A Python file that defines (registers) strategies; repeatable.",
)

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "md"]),
    default="html",
    show_default=True,
    help="Report page format: self-contained HTML or Markdown (charts as PNG files).",
)


rules_option = click.option(
    "--rules",
    "rules",
    multiple=True,
    metavar="KEY=VALUE[,...]",
    help="Play under these rules (see 'leaves rules'): KEY=VALUE, comma-separated; "
    "repeatable, the later winning (default: today's rules).",
)
"""``--rules`` of the commands that play only 13 Leaves (``play``, ``tune``, ``run``); the
others take it from the game plug-in (``GameOption``), which words it the same."""


def split_specs(values: Sequence[str]) -> list[str]:
    """Strategy specs from ``--against`` values, split on commas outside parameter lists.

    ``greedy:a=1,b=2,random`` is two specs: a piece with '=' but no ':' continues the
    parameters of the spec before it; commas inside ``name(k=v,...)`` never split.
    """
    specs: list[str] = []
    for value in values:
        pieces, depth, cur = [], 0, ""
        for ch in value:
            depth += (ch == "(") - (ch == ")")
            if ch == "," and depth <= 0:
                pieces.append(cur)
                cur = ""
            else:
                cur += ch
        pieces.append(cur)
        for piece in (p.strip() for p in pieces):
            if not piece:
                continue
            if (
                specs
                and "=" in piece
                and ":" not in piece
                and "(" not in piece
                and ":" in specs[-1]
            ):
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    return specs


def complete_specs(incomplete: str) -> list[str]:
    """Shell completion of ``--against``: strategy names after the last comma."""
    try:
        import strategies

        known = strategies.names()
    except Exception:  # noqa: BLE001 - completion must never fail loudly
        return []
    head, comma, last = incomplete.rpartition(",")
    return [f"{head}{comma}{name}" for name in known if name.startswith(last)]


def against_option(help: str, required: bool = True, metavar: str = "SPEC[,SPEC...]"):
    """``--against``: strategy specs (repeatable, comma-separated, read by ``split_specs``),
    completed by strategy name in the shell."""
    return click.option(
        "--against",
        "against",
        multiple=True,
        required=required,
        metavar=metavar,
        shell_complete=lambda ctx, param, incomplete: complete_specs(incomplete),
        help=help,
    )
