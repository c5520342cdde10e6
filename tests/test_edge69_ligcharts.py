"""Ligretto's means chart drew the score alone while the page's means table lists the score,
the cards left in the stack and the cards in the centre per round: each mean the page lists
now has a panel, on its own scale, the rows shared; which side is better is said of the
score alone, the one mean whose better side the game declares."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reports
from reports import charts
from reports.report import _chart_jobs
from tournaments import Tournament
from tournaments.games import get_game


@pytest.fixture(scope="module")
def ligretto_tables(tmp_path_factory) -> tuple[dict[str, pd.DataFrame], object]:
    out = tmp_path_factory.mktemp("lig") / "run"
    game = get_game("ligretto")
    Tournament(["stack", "row", "cycler"], players=3, games=60, seed=1, game=game).run(
        n_jobs=1, out=out
    )
    run = reports.as_run(out)
    tables, _ = reports.compute_tables(run)
    return tables, run.declaration


def test_the_means_chart_draws_every_mean_the_page_lists(ligretto_tables):
    tables, d = ligretto_tables
    name, args, kwargs = _chart_jobs(tables, d)["means"]
    fig = getattr(charts, name)(*args, **kwargs)
    axes = fig.get_axes()
    assert [ax.get_title() for ax in axes] == ["score (higher is better)", "stack left",
                                               "centre cards"]  # fmt: skip
    assert list(d.mean_columns) == ["score", "stack_left", "centre_cards"]  # the page's
    title = fig._suptitle.get_text()
    assert title.startswith("Mean score, stack left and centre cards per round by strategy")
    means = tables["means"].iloc[::-1]  # best on top: the table's last row drawn first
    for ax, column in zip(axes, d.mean_columns, strict=True):
        widths = [p.get_width() for p in ax.patches]
        assert np.allclose(widths, means[f"{column}_mean"].to_numpy(float)), column
    names = [t.get_text() for t in axes[0].get_yticklabels()]  # the others share its rows
    assert names == means["strategy"].tolist()
    assert all(ax.get_shared_y_axes().joined(axes[0], ax) for ax in axes)
    box = axes[0].get_position()  # the names' room on the left, the titles' on top
    assert 0.05 < box.x0 < 0.45 and axes[-1].get_position().x1 < 1


def test_a_means_table_of_one_mean_or_an_axes_given_draws_that_mean_alone(ligretto_tables):
    tables, _ = ligretto_tables
    fig = charts.means(tables["means"], "score", "higher", "round", ax=None)
    assert len(fig.get_axes()) == 3
    alone = tables["means"][["strategy", "score_mean", "score_ci_low", "score_ci_high"]]
    fig = charts.means(alone, "score", "higher", "round")
    (ax,) = fig.get_axes()
    assert ax.get_title() == "Mean score per round by strategy"
    assert ax.get_xlabel() == "mean score per round (95% interval; higher is better)"
    from matplotlib.figure import Figure  # only here: a caller's own axes

    mine = Figure().add_subplot()
    charts.means(tables["means"], "score", "higher", "round", ax=mine)
    assert len(mine.figure.get_axes()) == 1
