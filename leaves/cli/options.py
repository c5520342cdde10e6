"""Options several commands share, declared once so their flags and help stay the same."""

from __future__ import annotations

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
