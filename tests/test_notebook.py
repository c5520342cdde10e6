"""Notebook use: results, gauntlets and reports render as HTML; one-call plots return figures."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

import reports
import tournaments
from reports.synthetic import synthetic_games, write_run
from tournaments import result as result_mod


@pytest.fixture(scope="module")
def res(tmp_path_factory):
    out = tmp_path_factory.mktemp("nb") / "run"
    return tournaments.Tournament(["greedy", "low", "taker"], players=3, games=300, seed=1).run(
        out=out
    )


def test_result_renders_its_summary_as_html(res):
    html = res._repr_html_()
    assert "<b>TournamentResult</b>" in html and "complete, 300 of 300 games" in html
    for name in ("greedy", "low", "taker"):
        assert f"<td>{name}</td>" in html
    assert "<table" in html


def test_gauntlet_result_says_what_it_compares(tmp_path):
    g = tournaments.gauntlet("low", ["taker"], players=3, games=60, seed=1, out=tmp_path)
    html = g._repr_html_()
    assert "Gauntlet: <b>low</b> and the baseline <b>weighted</b> against taker" in html


@pytest.mark.parametrize("chart", ["win_rates", "head_to_head", "seats", "lengths", "rating"])
def test_one_call_plots_return_the_figure(res, chart):
    fig = getattr(res.plot, chart)()
    assert isinstance(fig, Figure) and fig.axes
    assert fig.axes[0].has_data()


def test_win_rates_plot_shows_every_strategy(res):
    fig = res.plot.win_rates()
    labels = {t.get_text() for t in fig.axes[0].get_yticklabels()}
    assert {"greedy", "low", "taker"} <= labels


def test_plot_without_reports_says_what_to_import(res, monkeypatch):
    monkeypatch.setattr(result_mod, "_ACCESSORS", {})
    with pytest.raises(AttributeError, match="import reports"):
        res.plot  # noqa: B018


@pytest.mark.slow
def test_report_object_shows_findings_tables_and_chart(tmp_path):
    games = synthetic_games({"a": 0.35, "b": 0.0, "c": -0.2}, players=(3,), deals=200, seed=1,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    rep = reports.Report(write_run(tmp_path / "run", games))
    html = rep._repr_html_()
    assert "<h3>Key findings</h3>" in html and "a is the best strategy" in html
    assert html.index("Key findings") < html.index("<h3>Summary</h3>")
    assert "data:image/png;base64," in html
    assert rep._repr_markdown_().startswith("### Key findings\n\n- a is the best strategy")
    assert repr(rep).startswith("- a is the best strategy")
    assert isinstance(rep.plot.win_rates(), Figure)
    page = rep.save(tmp_path / "out", fmt="md")
    assert page.name == "report.md" and "a is the best strategy" in page.read_text()
