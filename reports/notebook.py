"""Notebook use: a report object that renders as HTML, and one-call plots of a run.

``reports.Report(res)`` computes every table once and shows, in Jupyter, the key findings, the
summary and the pairwise comparisons; ``res.plot.win_rates()`` (after ``import reports``) or
``reports.Report(res).plot.win_rates()`` returns the matplotlib Figure of one chart.
"""

from __future__ import annotations

import base64
import html
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from gamekit.errors import shown
from tournaments.run_state import RunState, run_state

from . import charts
from .data import ReportError, Run
from .finding import and_words
from .findings import Finding, key_findings
from .loading import as_run
from .rating import rating
from .report import _html_table, _md_table, _png, build_report, compute_tables
from .tables import head_to_head, length_distribution, seats, summary

if TYPE_CHECKING:  # matplotlib loads on the first chart
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Plots", "Report"]


class Plots:
    """The report's charts for one run, each computed from the run and returned as a Figure
    (pass ``ax=`` to draw into your own axes)."""

    def __init__(self, source: Any):
        self._source = source

    @cached_property
    def run(self) -> Run:
        return as_run(self._source)

    def win_rates(self, ax: Axes | None = None) -> Figure:
        """Win rate per strategy with 95% intervals and the fair share."""
        return charts.win_rates(summary(self.run), ax=ax, unit=self.run.declaration.unit)

    def head_to_head(self, ax: Axes | None = None) -> Figure:
        """How often each strategy finished ahead of each other one (heatmap)."""
        return charts.head_to_head(head_to_head(self.run), ax=ax)

    def seats(self, ax: Axes | None = None) -> Figure:
        """Win rate by position from the first player, per player count (games ended by a
        forfeit left out: a run of nothing else has none to draw, ``ReportError``, as has a
        game without a first player: ``reports.seats`` refuses it)."""
        table = seats(self.run)
        self._valid("seats")
        return charts.seat_advantage(table, ax=ax)

    def lengths(self, measure: str | None = None, ax: Axes | None = None) -> Figure:
        """Distribution of a declared length column (default the first, e.g. turns); another
        name is refused with the run's (``ReportError``), as is a run with no game played to
        its end (the lengths leave forfeited games out)."""
        d = self.run.declaration
        names = list(d.length_columns)
        measure = names[0] if measure is None else measure
        if measure not in names:
            raise ReportError(f"no length measure {shown(measure, typed=False)} in this run: "
                              f"its lengths are {and_words(names)}")  # fmt: skip
        self._valid("lengths")
        return charts.length_distribution(length_distribution(self.run), measure, ax=ax,
                                          unit=d.unit)  # fmt: skip

    def rating(self, ax: Axes | None = None) -> Figure:
        """Plackett-Luce worth per strategy with 95% intervals; a run with no game played to
        its end rates nobody (``ReportError``)."""
        self._valid("ratings")  # its table is empty then (``reports.rating``)
        return charts.rating(rating(self.run), ax=ax)

    def _valid(self, what: str) -> None:
        """Refuse a chart of ``what`` (a table that leaves forfeited games out) where every
        game ended by a forfeit, in one line: there is nothing to draw."""
        if self.run.games.forfeited.all():
            unit = self.run.declaration.unit
            raise ReportError(f"no {what} to draw: every {unit} of this run ended by a forfeit")


class Report:
    """The report of a run (directory, results object, Run or games DataFrame) as an object:
    every table computed once (``tables``, ``findings``, ``plot``); shows as HTML in a
    notebook; ``save`` writes the full report (page, CSVs, charts)."""

    def __init__(self, source: Any, top: int = 5):
        self.run = as_run(source)
        self.top = top
        self.tables, self.method = compute_tables(self.run, top=top)
        # where the run stood when its tables were read (None: rows with no manifest)
        self.state: RunState | None = run_state(self.run.path) if self.run.path else None

    @property
    def findings(self) -> list[Finding]:
        """The key findings, in sentences, as the saved page says them: where the run stands
        first (unfinished, nothing valid), then what still says something (``key_findings``)."""
        return key_findings(self.tables, self.method, self.run.declaration, self.state)

    @property
    def summary(self) -> pd.DataFrame:
        return self.tables["summary"]

    @property
    def plot(self) -> Plots:
        return Plots(self.run)

    def save(self, out: str | Path | None = None, fmt: str = "html") -> Path:
        """Write the report (see ``build_report``) and return the page's path."""
        return build_report(self.run, out=out, fmt=fmt, top=self.top, state=self.state)

    def __repr__(self) -> str:
        return "\n".join(f"- {f.text}" for f in self.findings)

    def _repr_html_(self) -> str:
        esc = html.escape
        fig = charts.win_rates(self.summary)
        png = base64.b64encode(_png(fig)).decode("ascii")
        parts = [
            "<h3>Key findings</h3><ul>",
            *(f"<li>{esc(f.text)}</li>" for f in self.findings),
            "</ul>",
        ]
        if "gauntlet" in self.tables:
            parts += ["<h3>Gauntlet</h3>", _html_table(self.tables["gauntlet"])]
        parts += [
            "<h3>Summary</h3>",
            _html_table(self.summary),
            f'<img alt="win rates" src="data:image/png;base64,{png}">',
            "<h3>Differences that matter</h3>",
            _html_table(self.tables["significance"]),
        ]
        return "\n".join(parts)

    def _repr_markdown_(self) -> str:
        lines = ["### Key findings", ""] + [f"- {f.text}" for f in self.findings]
        lines += ["", "### Summary", "", _md_table(self.summary)]
        return "\n".join(lines)
