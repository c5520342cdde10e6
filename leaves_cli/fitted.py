"""Tables that fit the terminal they are printed on, without cutting a word.

rich shrinks a column below its words when a table is wider than the console, and cuts them
with "...": a number, a name, a figure or an interval cut short says something false.
``FittedTable`` lays its columns out once the console's width is known, each at least its
longest unit (a word, or a bracketed group such as an interval ``[30.6, 42.3]``, which never
breaks across lines); ``share_widths`` is the one rule that shares the room left between
columns (other renderables' rows use it too). ``printed_table`` is the table of plain cells the
commands print (rich's default look where it fits).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

__all__ = ["FittedTable", "printed_table", "share_widths", "units", "wrap"]


def share_widths(least: Sequence[int], natural: Sequence[int], room: int) -> list[int]:
    """Columns' widths: each its ``least``, and the ``room`` left over shared out, a character
    a column in turn, up to each column's ``natural`` width."""
    widths, spare = list(least), room - sum(least)
    while spare > 0 and widths != list(natural):
        for i, most in enumerate(natural):
            if spare and widths[i] < most:
                widths[i], spare = widths[i] + 1, spare - 1
    return widths


def units(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s units: its words, but a bracketed group (an interval such as
    ``[30.6, 42.3]``) is one unit with the words it touches."""
    spans: list[tuple[int, int]] = []
    start, depth = None, 0
    for i, ch in enumerate(text):
        if ch.isspace() and depth == 0:
            if start is not None:
                spans.append((start, i))
            start = None
            continue
        start = i if start is None else start
        depth += (ch == "[") - (ch == "]" and depth > 0)
    if start is not None:
        spans.append((start, len(text)))
    return spans


def wrap(text: str, width: int) -> str:
    """``text`` broken into lines at most ``width`` wide between its units, each unit whole on
    a line (one wider than ``width`` alone on its line, left for the console to fold); a line
    break it holds is kept."""
    return "\n".join(_wrapped(line, width) for line in text.split("\n"))


def _wrapped(text: str, width: int) -> str:
    lines, first, last = [], None, None
    for start, end in units(text):
        if first is not None and cell_len(text[first:end]) > width:
            lines.append(text[first:last])
            first = None
        first, last = start if first is None else first, end
    if first is not None:
        lines.append(text[first:last])
    return "\n".join(lines)


def _longest(text: str) -> int:
    """The width of ``text``'s widest unit in terminal cells (a wide character takes two)."""
    return max([1] + [cell_len(text[start:end]) for start, end in units(text)])


class FittedTable:
    """A table of plain cells laid out when the console's width is known: every column at
    least as wide as its longest unit, so a narrow terminal breaks a cell between its units and
    never cuts a word, a card, a figure or an interval short (rich shrinks columns below their
    words and cuts them with "..."). The ``WHOLE`` columns are whole on a line where the table
    then fits. A console narrower than the least table (a name, one unit however long, whole
    in it) gets ``lines`` instead: a name broken inside ("weight" over "ed") would read as
    two."""

    BOX: box.Box | None = box.SIMPLE_HEAD
    PAD_EDGE = False
    EXPAND = False
    """Whether the last column takes the room the others leave (the table as wide as the
    console)."""
    RIGHT: tuple[str, ...] = ()
    WHOLE: tuple[str, ...] = ()

    def __init__(self, heads: Sequence[str], rows: list[list[str]], title: str | None = None):
        self.heads, self.rows, self.title = list(heads), rows, title

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        widths = self.widths(width)
        yield self.lines(console, width) if widths is None else self.table(widths)

    def measure(self) -> tuple[list[int], list[int]]:
        """Each column's least width (its longest unit, its header's included) and natural
        width (its longest cell)."""
        columns = [list(cells) for cells in zip(self.heads, *self.rows, strict=True)]
        least = [max(map(_longest, cells)) for cells in columns]
        natural = [max(most, *(cell_len(x) for c in cells for x in c.split("\n")))
                   for most, cells in zip(least, columns, strict=True)]  # fmt: skip
        return least, natural

    def room(self, width: int) -> int:
        """The room the columns' cells have in a console ``width`` wide: less a column's
        padding, a space each side (at the table's edges too where ``PAD_EDGE``), and with a
        box a divider between two columns and an edge each side."""
        k = len(self.heads)
        return width - 2 * (k - 1) - (2 if self.PAD_EDGE else 0) - (k + 1 if self.BOX else 0)

    def widths(self, width: int) -> list[int] | None:
        """The columns' widths in a console ``width`` wide; None when even the least table
        (every column as wide as its longest unit) would not fit. Tried in turn: the ``WHOLE``
        columns whole, then each column as wide as its longest unit; both with every header
        whole on a line first."""
        unfolded, natural = self.measure()
        whole = [n if h in self.WHOLE else m
                 for h, n, m in zip(self.heads, natural, unfolded, strict=True)]  # fmt: skip
        heads = list(map(len, self.heads))
        tries = [[max(a, b) for a, b in zip(x, heads, strict=True)] for x in (whole, unfolded)]
        room = self.room(width)
        least = next((x for x in (tries[0], whole, tries[1], unfolded) if sum(x) <= room), None)
        if least is None:
            return None
        widths = share_widths(least, natural, room)
        widths[-1] += (room - sum(widths)) if self.EXPAND else 0
        return widths

    def styles(self, row: list[str]) -> list[str]:
        """The style of each cell of ``row``."""
        return [""] * len(row)

    def table(self, widths: list[int]) -> Table:
        """The table, its columns ``widths`` wide, each cell broken between its units."""
        t = Table(box=self.BOX, padding=(0, 1), pad_edge=self.PAD_EDGE, title=self.title,
                  title_justify="left")  # fmt: skip
        for head, width in zip(self.heads, widths, strict=True):
            t.add_column(head, justify="right" if head in self.RIGHT else "left", width=width,
                         overflow="fold")  # fmt: skip
        for row in self.rows:
            t.add_row(*(self.cell(row, i, w) for i, w in enumerate(widths)))
        return t

    def cell(self, row: list[str], i: int, width: int) -> Text:
        """The ``i``-th cell of ``row`` in a column ``width`` wide, broken between its units."""
        return Text(wrap(row[i], width), style=self.styles(row)[i])

    def lines(self, console: Console, width: int) -> RenderableType:
        """What a console too narrow for the least table shows: the title, then a row's first
        cell on a line and its other cells under it, 'header: cell' each, broken between them
        (a cell whole on a line where it fits) and indented: 'seats: 160; wins: 58; ...'."""
        said: list[RenderableType] = [Text(self.title)] if self.title else []
        for row in self.rows:
            head, *rest = row
            pairs = [f"{h}: {x}" for h, x in zip(self.heads[1:], rest, strict=True)]
            said.append(Text(head, style=self.styles(row)[0]))
            said.append(Text("\n".join("  " + x for x in _joined(pairs, max(1, width - 2)))))
        return Group(*said)


def _joined(items: Sequence[str], width: int) -> list[str]:
    """``items`` joined by '; ', broken into lines at most ``width`` wide between them, and an
    item wider than that between its own units."""
    lines: list[str] = []
    for i, item in enumerate(items):
        item += ";" if i < len(items) - 1 else ""
        if lines and "\n" not in item and cell_len(lines[-1]) + 1 + cell_len(item) <= width:
            lines[-1] += " " + item
        else:
            lines += wrap(item, width).split("\n")
    return lines


def printed_table(title: str, columns: Sequence[tuple[str, str]],
                  rows: Sequence[Sequence[str]]) -> FittedTable:  # fmt: skip
    """The table a command prints: rich's default look (heavy head, title on the left) where it
    fits; its first column holds the rows' labels, whole on a line where the table fits so (a
    narrower console gets a label a line, the row's other cells under it); a column's header
    and justification ("left", "right") are ``columns``'s."""
    table = FittedTable([h for h, _ in columns], [list(map(str, r)) for r in rows], title)
    table.BOX, table.PAD_EDGE = box.HEAVY_HEAD, True
    table.RIGHT = tuple(h for h, justify in columns if justify == "right")
    table.WHOLE = tuple(h for h, _ in columns[:1])
    return table
