"""Tables that fit the terminal they are printed on, without cutting a word.

rich shrinks a column below its words when a table is wider than the console, and cuts them
with "...": a card number, a name or a figure cut short says something false. ``FittedTable``
lays its columns out once the console's width is known, each at least its longest word;
``share_widths`` is the one rule that shares the room left between columns (the stacks row of
``render`` uses it too).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text


def share_widths(least: Sequence[int], natural: Sequence[int], room: int) -> list[int]:
    """Columns' widths: each its ``least``, and the ``room`` left over shared out, a character
    a column in turn, up to each column's ``natural`` width."""
    widths, spare = list(least), room - sum(least)
    while spare > 0 and widths != list(natural):
        for i, most in enumerate(natural):
            if spare and widths[i] < most:
                widths[i], spare = widths[i] + 1, spare - 1
    return widths


class FittedTable:
    """A table of plain cells laid out when the console's width is known: every column at
    least as wide as its longest word, so a narrow terminal folds a cell at its spaces and never
    cuts a word, a card or a figure short (rich shrinks columns below their words and cuts them
    with "..."). A column in ``FOLDED`` is as wide as its header at least, its cells folding
    anywhere (a name is one word, however long); the ``WHOLE`` columns are whole on a line where
    the table then fits. A console narrower than the least table gets ``lines`` instead."""

    BOX: box.Box | None = box.SIMPLE_HEAD
    RIGHT: tuple[str, ...] = ()
    FOLDED: tuple[str, ...] = ()
    WHOLE: tuple[str, ...] = ()

    def __init__(self, heads: Sequence[str], rows: list[list[str]], title: str | None = None):
        self.heads, self.rows, self.title = list(heads), rows, title

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        widths = self.widths(width)
        yield self.lines(console, width) if widths is None else self.table(widths)

    def measure(self) -> tuple[list[int], list[int]]:
        """Each column's least width (its longest word) and natural width (its longest cell)."""
        columns = [list(cells) for cells in zip(self.heads, *self.rows, strict=True)]
        least = [max([1] + [len(w) for x in (cells[:1] if cells[0] in self.FOLDED else cells)
                            for w in x.split()]) for cells in columns]  # fmt: skip
        natural = [max(most, *map(len, cells)) for most, cells in zip(least, columns, strict=True)]
        return least, natural

    def widths(self, width: int) -> list[int] | None:
        """The columns' widths in a console ``width`` wide; None when even the least table
        (every column as wide as its longest word) would not fit."""
        least, natural = self.measure()
        # a column's padding, a space each side but at the table's edges, and with a box a
        # divider between two columns and an edge each side (box.SIMPLE_HEAD: 3 a column, less 1)
        k = len(least)
        room = width - 2 * (k - 1) - (k + 1 if self.BOX else 0)
        if sum(least) > room:
            return None
        whole = [n if h in self.WHOLE else m
                 for h, n, m in zip(self.heads, natural, least, strict=True)]  # fmt: skip
        return share_widths(whole if sum(whole) <= room else least, natural, room)

    def styles(self, row: list[str]) -> list[str]:
        """The style of each cell of ``row``."""
        return [""] * len(row)

    def table(self, widths: list[int]) -> Table:
        """The table, its columns ``widths`` wide."""
        t = Table(box=self.BOX, padding=(0, 1), pad_edge=False, title=self.title,
                  title_justify="left")  # fmt: skip
        for head, width in zip(self.heads, widths, strict=True):
            t.add_column(head, justify="right" if head in self.RIGHT else "left", width=width,
                         overflow="fold")  # fmt: skip
        for row in self.rows:
            t.add_row(*(Text(x, style=st) for x, st in zip(row, self.styles(row), strict=True)))
        return t

    def lines(self, console: Console, width: int) -> RenderableType:
        """What a console too narrow for the least table shows: here that table, cut."""
        return self.table(self.measure()[0])
