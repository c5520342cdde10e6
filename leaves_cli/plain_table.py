"""A table printed as rich prints it, without importing rich where its output is plain text.

Importing rich costs a command about 0.1 s, more than the rest of a small tournament's
summary. Where rich would write plain characters anyway (the output is not a terminal, no
colour is forced, the encoding is UTF-8, the table fits the width rich would use and holds
only printable ASCII), ``print_table`` writes the same text itself; anywhere else it hands the
table to rich, laid out so that no label, figure or interval is cut (``fitted``).
``tests/test_plain_table.py`` compares the two.

Imports inside functions: start-up (rich loads only where it draws).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO

__all__ = ["plain_words", "print_table", "render", "rich_would_print_plain"]

Column = tuple[str, str]
"""A column's header and its justification, "left" or "right"."""


def render(title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> str:
    """The text of rich's default table (heavy head, title on the left) with these cells."""
    widths = [max([len(c[0]), *(len(r[i]) for r in rows)]) for i, c in enumerate(columns)]

    def line(cells: Sequence[str], edge: str, inner: str) -> str:
        padded = [
            f" {cell.rjust(w) if justify == 'right' else cell.ljust(w)} "
            for cell, w, (_, justify) in zip(cells, widths, columns, strict=True)
        ]
        return edge + inner.join(padded) + edge

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    width = sum(widths) + 3 * len(widths) + 1
    lines = [
        *([title.ljust(width)] if title else []),
        rule("┏", "━", "┳", "┓"),
        line([c[0] for c in columns], "┃", "┃"),
        rule("┡", "━", "╇", "┩"),
        *(line(r, "│", "│") for r in rows),
        rule("└", "─", "┴", "┘"),
    ]
    return "\n".join(lines) + "\n"


def plain_words(words: Sequence[str]) -> bool:
    """True when rich prints every word as it is, one column per character: printable ASCII
    without rich's markup (``[``) or emoji codes (``:``), and no space at either end (rich
    trims it when it justifies a cell)."""
    return all(
        w.isascii() and w.isprintable() and w == w.strip() and not {"[", ":"} & set(w)
        for w in words
    )


def _width(environ: dict[str, str] | os._Environ[str]) -> int:
    """The width rich's console would use: the first standard stream that is a terminal,
    ``COLUMNS`` over it, else 80."""
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return width or 80


def rich_would_print_plain(file: IO[str], width: int) -> bool:
    """True when rich's console would write plain text ``width`` columns wide to ``file``:
    a stream that is not a terminal, with no terminal forced (``TTY_COMPATIBLE``,
    ``FORCE_COLOR``), in UTF-8 (rich draws boxes in ASCII otherwise), outside Windows and
    notebooks, at least ``width`` columns wide."""
    environ = os.environ
    if sys.platform == "win32" or "IPython" in sys.modules:
        return False
    tty_compatible = environ.get("TTY_COMPATIBLE", "")
    if tty_compatible == "1" or (tty_compatible != "0" and environ.get("FORCE_COLOR", "")):
        return False
    try:
        if file.isatty():
            return False
    except (AttributeError, ValueError):
        return False
    if not (getattr(file, "encoding", None) or "utf-8").lower().startswith("utf"):
        return False
    return width <= _width(environ)


def print_table(
    title: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    file: IO[str] | None = None,
) -> None:
    """Print the table to ``file`` (stdout): as plain text where rich would print the same,
    else through rich, fitted to the console's width without cutting a cell."""
    out = sys.stdout if file is None else file
    text = render(title, columns, rows)
    words = [title, *(c[0] for c in columns), *(cell for row in rows for cell in row)]
    if plain_words(words) and rich_would_print_plain(out, len(text.splitlines()[-1])):
        out.write(text)
        return
    from .console import make_console
    from .fitted import printed_table

    make_console(file=out).print(printed_table(title, columns, rows))
