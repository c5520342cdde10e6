"""Reports over tournament runs: tables (DataFrames + CSV), charts, HTML / Markdown pages.

Tables take a games DataFrame in the pinned run layout, a run directory, a results object
(``.out`` path) or a loaded :class:`Run`; :func:`build_report` writes everything at once.
"""

from __future__ import annotations

from tournaments.result import register_accessor

from . import charts
from .compare import Comparison, compare
from .data import Games, ReportError, Run
from .expert import expert, expert_lengths, expert_scores
from .findings import Finding, key_findings
from .gauntlet import gauntlet
from .loading import as_games, as_run, games_from_frame, load_run
from .neighbours import neighbour_matrix, neighbours
from .notebook import Plots, Report
from .rating import rating
from .report import build_report, compute_tables
from .significance import significance
from .stats import wilson
from .tables import head_to_head, head_to_head_matrix, length_distribution, lengths, seats, summary

__all__ = [
    "Comparison",
    "Plots",
    "Report",
    "Finding",
    "Games",
    "ReportError",
    "Run",
    "as_games",
    "as_run",
    "build_report",
    "charts",
    "compare",
    "compute_tables",
    "expert",
    "expert_lengths",
    "expert_scores",
    "games_from_frame",
    "gauntlet",
    "head_to_head",
    "head_to_head_matrix",
    "key_findings",
    "length_distribution",
    "lengths",
    "load_run",
    "neighbour_matrix",
    "neighbours",
    "rating",
    "seats",
    "significance",
    "summary",
    "wilson",
]


def _register() -> None:
    """``res.plot`` on tournament results: tournaments sit below reports and cannot import
    it, so reports registers its plots when imported."""
    register_accessor("plot", Plots)


_register()
