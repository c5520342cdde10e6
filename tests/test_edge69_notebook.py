"""The notebook's ``reports.Report`` says what the saved page says, from one function
(``reports.findings.key_findings`` given the run's state): where the run stands first
(unfinished, nothing valid), then only what still says something. A length finding never
counts forfeited games. Its charts refuse in one line what they cannot draw."""

from __future__ import annotations

from pathlib import Path

import pytest

import reports
from reports.data import ReportError
from tests.helpers import ctrl_c_after_two_chunks

RAISER = """
from strategies import Strategy


class Raiser(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("nope")
"""


@pytest.fixture(scope="module")
def raiser(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("raiser")
    (folder / "raiser.py").write_text(RAISER)
    return f"{folder / 'raiser.py'}:Raiser"


@pytest.fixture(scope="module")
def void(raiser: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run every game of which Raiser forfeited: it sits at every table."""
    from tournaments import Tournament

    out = tmp_path_factory.mktemp("void") / "run"
    Tournament([raiser, "greedy", "low"], players=3, games=12, seed=1).run(n_jobs=1, out=out)
    return out


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run stopped by Ctrl-C once 2 of its 4 chunks were written."""
    from tournaments import Tournament

    out = tmp_path_factory.mktemp("half") / "run"
    t = Tournament(["greedy", "low", "high"], players=3, games=24, seed=1, chunk_size=6)
    with ctrl_c_after_two_chunks(), pytest.raises(KeyboardInterrupt):
        t.run(n_jobs=1, out=out)
    return out


def _said(report: reports.Report, tmp_path: Path) -> tuple[list[str], list[str]]:
    """(the notebook's findings, the saved page's findings.txt) of ``report``."""
    page = report.save(tmp_path / "report", fmt="md")
    written = (page.parent / reports.report.FINDINGS_FILE).read_text(encoding="utf-8")
    return [f.text for f in report.findings], written.splitlines()


def test_an_unfinished_run_is_said_so_first_as_on_the_page(unfinished, tmp_path):
    said, page = _said(reports.Report(unfinished), tmp_path)
    assert said == page
    assert said[0].startswith("Unfinished run: 12 of 24 games played (50.0%)"), said


def test_a_run_with_nothing_valid_says_that_alone_as_on_the_page(void, tmp_path):
    said, page = _said(reports.Report(void), tmp_path)
    assert said == page
    assert len(said) == 1 and said[0].startswith("Nothing valid: all 12 games ended by a forfeit")


def test_a_length_finding_never_counts_forfeited_games(void):
    """Rows with no manifest (no state to say it): the caution and that none is ranked; no
    length of a forfeited game (it read 'a game lasts 1.5 turns on median')."""
    from tournaments import load

    rows = load(void).games()
    tables, method = reports.compute_tables(rows)
    assert not len(tables["lengths"]) and "seats" not in tables and "neighbours" not in tables
    found = reports.key_findings(tables, method)
    assert [f.topic for f in found] == ["completion", "summary"], [f.text for f in found]


def test_a_gauntlet_one_side_of_which_forfeited_everything_says_that_alone(raiser, tmp_path):
    from tournaments import gauntlet

    run = gauntlet(raiser, ["greedy"], baseline="low", players=3, games=12, seed=1,
                   out=tmp_path / "g")  # fmt: skip
    said, page = _said(reports.Report(run), tmp_path)
    assert said == page
    assert len(said) == 1 and said[0].startswith("Nothing valid was played: Raiser forfeited"), said


def test_a_length_chart_of_no_such_measure_names_the_run_s(unfinished):
    with pytest.raises(ReportError, match=r"^no length measure 'Turns' in this run: its lengths "
                                          r"are turns and rounds$"):  # fmt: skip
        reports.Report(unfinished).plot.lengths("Turns")


@pytest.mark.parametrize("chart, what", [("rating", "ratings"), ("lengths", "lengths"),
                                         ("seats", "seats")])  # fmt: skip
def test_a_chart_of_a_run_with_nothing_valid_is_refused_in_one_line(void, chart, what):
    with pytest.raises(ReportError, match=rf"^no {what} to draw: every game of this run ended "
                                          r"by a forfeit$"):  # fmt: skip
        getattr(reports.Report(void).plot, chart)()
