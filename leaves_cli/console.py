"""The console every command prints to, and the plain text of a rich renderable."""

from __future__ import annotations

import io
import os

from rich.console import Console, RenderableType

__all__ = ["make_console", "to_text"]


def make_console(
    file=None, width: int | None = None, force_terminal: bool | None = None
) -> Console:
    """The console commands print to: no syntax highlighting, respects ``NO_COLOR``."""
    return Console(
        file=file,
        width=width,
        force_terminal=force_terminal,
        highlight=False,
        no_color="NO_COLOR" in os.environ,
        soft_wrap=False,
    )


def to_text(renderable: RenderableType, width: int = 100) -> str:
    """Plain text of a renderable (tests, logs): no colour codes."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, highlight=False)
    console.print(renderable)
    return buf.getvalue()
