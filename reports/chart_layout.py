"""Where a chart's texts go: names wrapped onto lines, the margins and sizes they need, and
the room a chart keeps for its figures, so that every text stays inside the picture and
clear of the others; and how a percent axis writes its ticks (``_percent``). ``reports.charts``
and the variants' charts draw with these."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from .numbers import fixed

if TYPE_CHECKING:  # matplotlib loads on the first chart: 'import reports' stays quick
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """The axes to draw in: the caller's, or a new figure's (laid out by ``_fit`` at the end:
    fixed margins from the text lengths, a tenth of what constrained layout costs per chart)."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure  # start-up: matplotlib loads to draw

    fig = Figure(figsize=size, dpi=100)
    fig._leaves_fit = True  # type: ignore[attr-defined]
    return fig, fig.add_subplot()


def _text_width(labels, size: float) -> float:
    """Estimated width in inches of the longest line of ``labels`` at font ``size`` points."""
    longest = max((len(line) for t in labels for line in str(t).split("\n")), default=0)
    return longest * size * 0.6 / 72


LEGEND_CHARS = 30
"""The longest line of an outside legend's label, and of a name on a chart's axis (a
strategy with its parameters): a longer one wraps (``wrapped``), so neither takes the chart's
room nor runs off the picture."""
_BREAK = re.compile(r"(?<=\S\()|(?<=[, ])")
"""Where a label may go on on the next line: after a comma or a space, or after the opening
parenthesis of a spec ('counter(keep_weight=6.0,' / 'safe_bonus=5.0,' /
'near_win_penalty=2.0)'; not that of a note in words: '(ties = ½)')."""


_BREAK_LONG = re.compile(r"(?<=[/:_.])(?!\d)")
"""Where a piece longer than a line may break besides (a file's path, a long name): after a
slash, a colon, an underscore or a dot not followed by a digit ('2.0' stays whole)."""


def _pieces(part: str, width: int) -> list[str]:
    """``part`` cut where ``_BREAK`` allows; a piece still longer than ``width`` cut where
    ``_BREAK_LONG`` allows, and what is still longer every ``width`` characters."""
    out = []
    for piece in _BREAK.split(part):
        for sub in _BREAK_LONG.split(piece) if len(piece) > width else [piece]:
            out += [sub[i : i + width] for i in range(0, max(len(sub), 1), width)]
    return out


def wrapped(text: str, width: int = LEGEND_CHARS) -> str:
    """``text`` on lines of at most ``width`` characters (``_pieces``): a sentence broken
    between its words, a strategy's spec after its parenthesis and its commas."""
    lines: list[str] = []
    for part in str(text).split("\n"):
        line = ""
        for piece in _pieces(part, width):
            if line.strip() and len((line + piece).rstrip()) > width:
                lines.append(line.rstrip())
                line = piece.lstrip()
            else:
                line += piece
        lines.append(line.rstrip())
    return "\n".join(lines)


def _names(names) -> list[str]:
    """Names as a chart's axis writes them (``wrapped``)."""
    return [wrapped(s) for s in names]


def _lines(labels: list[str]) -> int:
    """The most lines any of ``labels`` takes."""
    return max((t.count("\n") + 1 for t in labels), default=1)


def _wrap_legend(ax: Axes) -> list[str]:
    """Wrap the labels of ``ax``'s legend at ``LEGEND_CHARS`` and return them."""
    legend = ax.get_legend()
    if legend is None:
        return []
    for t in legend.get_texts():
        t.set_text(wrapped(t.get_text()))
    return [t.get_text() for t in legend.get_texts()]


def _fit(fig: Figure, ax: Axes, rotated: float = 0.0, extra_right: float = 0.0) -> Figure:
    """Margins for a figure ``_axes`` made: room for the y tick labels and axis label on the
    left, the title on top, the x labels below (``rotated``: extra inches for slanted tick
    labels) and the outside legend on the right."""
    if not getattr(fig, "_leaves_fit", False):
        return fig
    w, h = fig.get_size_inches()
    left = 0.25 + _text_width([t.get_text() for t in ax.get_yticklabels()], 10) + 0.1
    left += 0.3 if ax.get_ylabel() else 0.0
    right = 0.2 + extra_right
    if ax.get_legend() is not None:
        right += 0.45 + _text_width(_wrap_legend(ax), 8)
    bottom = 0.55 + rotated + (0.25 if ax.get_xlabel() else 0.0)
    top = 0.45 + 0.18 * ax.get_title().count("\n")  # a title of two lines: room for both
    right = min(right, w * 0.45)
    fig.subplots_adjust(left=min(left / w, 0.45), right=1 - right / w,
                        bottom=min(bottom / h, 0.45), top=1 - top / h)  # fmt: skip
    return fig


def _fit_panels(fig: Figure, axes: list[Axes]) -> Figure:
    """Margins for a row of panels sharing their rows (a title above each, the figure's above
    them): the first panel's names on the left as ``_fit`` leaves room for them."""
    w, h = fig.get_size_inches()
    left = 0.25 + _text_width([t.get_text() for t in axes[0].get_yticklabels()], 10) + 0.1
    fig.subplots_adjust(left=min(left / w, 0.45), right=1 - 0.2 / w, bottom=min(0.55 / h, 0.45),
                        top=1 - 0.8 / h, wspace=0.15)  # fmt: skip
    return fig


def _height(n: float, lines: int = 1) -> float:
    """A chart's height for ``n`` rows whose names take up to ``lines`` lines each."""
    return max(2.6, 0.9 + max(0.38, 0.17 * lines + 0.1) * n)


CELL = 0.52
"""A heatmap cell's side in inches, whatever the lengths of the names around it (names of
two lines or more grow it: ``_cell``)."""
SLANT = 40
"""The angle of a heatmap's column names, in degrees."""
LINE = 10 * 1.2 / 72
"""A line of 10-point text, in inches."""
SCALE = 0.8
"""A heatmap's colour scale, as a share of the grid's height."""


def _heatmap_size(rows: list[str], cols: list[str], right: float, title_lines: int = 1
                  ) -> tuple[float, float]:  # fmt: skip
    """A heatmap's figure size: its grid of ``_cell`` inches a cell (2.6 inches at least, room
    for its scale's label), plus the margins ``_fit`` gives it for the names on the left and
    slanted below (a y label and an x label), the colour scale (a fifth of the axes) and
    ``right`` inches beside it, and a title of ``title_lines``: long names grow the picture,
    never shrink the cells."""
    cell = _cell(rows + cols)  # square: the longest names' room both ways
    grid_w, grid_h = _grid(cols, cell), _grid(rows, cell)
    left = 0.25 + _text_width(rows, 10) + 0.1 + 0.3
    bottom = 0.55 + _slanted(cols) + 0.25
    top = 0.45 + 0.18 * (title_lines - 1)
    return left + grid_w / 0.8 + 0.2 + right, bottom + grid_h + top


def _cell(names: list[str]) -> float:
    """A heatmap cell's side in inches: ``CELL``, or more where names of several lines need
    it: two slanted names a line apart, as two names of one line are in cells of ``CELL``."""
    return max(CELL, (_lines(names) + 1) * LINE / np.sin(np.radians(SLANT)))


def _grid(names: list[str], cell: float = CELL) -> float:
    return max(2.6, cell * len(names))


def _slanted(names: list[str]) -> float:
    """The inches that ``names``, slanted by ``SLANT`` degrees, take below a heatmap."""
    a = np.radians(SLANT)
    return _text_width(names, 10) * np.sin(a) + (_lines(names) - 1) * LINE * np.cos(a)


def _scale_label(text: str, rows: list[str]) -> tuple[str, float]:
    """A colour scale's label wrapped to the scale's length (``SCALE`` of the grid of
    ``rows``), and the inches it takes beside the grid with the scale's ticks."""
    per_line = max(12, int(SCALE * _grid(rows, _cell(rows)) / _text_width(["x"], 10)))
    lines = wrapped(text, per_line).split("\n")
    return "\n".join(lines), 0.8 + 0.2 * len(lines)


def _room(ax: Axes, low, high, text: float) -> None:
    """The x limits of ``ax`` that leave ``text`` inches right of the highest interval end
    (``high``) for its figures, however wide the axes are once laid out (long names, a
    legend): the room is measured in inches, not as a share of the data's span."""
    lo_x, hi_x = float(np.nanmin(low)), float(np.nanmax(high))
    x0 = lo_x - 0.05 * max(hi_x - lo_x, 1e-9)
    w = ax.get_position().width * ax.figure.get_figwidth()  # the axes' width in inches
    share = min(text / w, 0.8)  # of the axes' width, for the text (never all of it)
    ax.set_xlim(x0, x0 + (hi_x - x0) / (1 - share))


def _percent(decimals: int | None = None, of: float = 1.0):
    """A percent axis's labels (``of``: the value that is 100%): with ``decimals`` fixed;
    without, the fewest decimals that write every tick of the axis exactly, the same for all
    of them ('25%', not '25.0%'; '3.5%', not '3.50%')."""
    from matplotlib.ticker import Formatter, PercentFormatter  # start-up: matplotlib loads

    if decimals is not None:
        return PercentFormatter(of, decimals=decimals)

    class TidyPercent(Formatter):
        digits = 1  # before any ticks are set: a value for the pointer's readout

        def set_locs(self, locs) -> None:
            super().set_locs(locs)
            ticks = [100 * float(t) / of for t in locs]
            self.digits = next(
                (d for d in range(3) if all(abs(t - round(t, d)) < 1e-6 for t in ticks)), 3
            )

        def __call__(self, x: float, pos: int | None = None) -> str:
            return f"{fixed(100 * x / of, self.digits)}%"

    return TidyPercent()
