"""The report page reads as a document: findings, a run summary, per section the chart and the
numbers that matter, full tables folded and linked as CSV, no empty sections."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import reports
from reports.sections import order_note
from reports.synthetic import synthetic_games, write_run

TEN = {f"s{i}": 0.1 * i - 0.5 for i in range(10)}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    games = synthetic_games(TEN, players=(3, 4), deals=20, seed=5, seating="balanced")
    out = tmp_path_factory.mktemp("page")
    path = reports.build_report(write_run(out / "run", games), out=out / "r")
    return path.read_text()


@pytest.mark.slow
def test_every_table_scrolls_in_its_own_box(page):
    assert page.count("<table>") == page.count('<div class="tw"><table>')
    assert "overflow-x:auto" in page and "overflow-x:hidden" in page


@pytest.mark.slow
def test_full_tables_are_folded_and_linked(page):
    assert page.count("<details>") >= 5
    assert '<a href="head_to_head.csv">head_to_head.csv</a>' in page
    shown = page.split("<details>")[0]
    assert "each strategy against its closest opponent: 10 of 90 rows" in page
    assert shown.count("<tr>") < 60  # the unfolded page shows the key rows only


@pytest.mark.slow
def test_run_summary_not_the_manifest(page):
    assert "<pre>" not in page and '"integrity"' not in page
    assert re.search(r'<dt>manifest</dt><dd><a href="[^"]*manifest.json">', page)
    assert page.index("Key findings") < page.index("<h2>Run</h2>") < page.index("<h2>Summary")


@pytest.mark.slow
def test_single_strategy_run_has_no_empty_sections(tmp_path):
    games = synthetic_games({"solo": 0.0}, players=(3,), deals=5, seed=1)
    for fmt in ("html", "md"):
        text = reports.build_report(games, out=tmp_path / fmt, fmt=fmt).read_text()
        assert "Head to head" not in text and "Differences that matter" not in text
        heads = re.findall(r"<h2>(.*?)</h2>" if fmt == "html" else r"^## (.*)$", text, re.M)
        body = re.split(r"<h2>.*?</h2>" if fmt == "html" else r"^## .*$", text, flags=re.M)
        for head, part in zip(heads, body[1:], strict=True):
            assert part.strip(), head


def test_order_note_says_why_rating_and_win_rate_differ():
    summary = pd.DataFrame({"strategy": ["a", "b", "c"]})
    assert order_note(summary, pd.DataFrame({"strategy": ["a", "b", "c"]})) == ""
    note = order_note(summary, pd.DataFrame({"strategy": ["b", "a", "c"]}))
    assert "puts b above a" in note and "whole finishing order" in note


@pytest.mark.slow
def test_markdown_keeps_full_tables_in_plain_sections(tmp_path):
    games = synthetic_games(TEN, players=(3,), deals=5, seed=2)
    text = reports.build_report(games, out=tmp_path / "m", fmt="md").read_text()
    assert "### Head to head: how it is computed" in text and "[`summary.csv`](summary.csv)" in text


@pytest.mark.slow
def test_charts_drawn_in_the_worker_as_tables_are_made_are_the_charts_drawn_here(
    tmp_path, monkeypatch
):
    # With two cores the report draws each chart in a forked process as soon as its table
    # exists: the charts (and the tables) must not depend on where or when they were drawn.
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2, "d": 0.1}, players=(3, 4),
                            deals=6, seed=3, seating="balanced")  # fmt: skip
    run = write_run(tmp_path / "run", games)
    forked = reports.build_report(run, out=tmp_path / "forked").parent
    monkeypatch.setenv("LEAVES_REPORT_SERIAL", "1")
    here = reports.build_report(run, out=tmp_path / "here").parent
    names = sorted(p.name for p in (here / "charts").iterdir())
    assert names == sorted(p.name for p in (forked / "charts").iterdir()) and len(names) >= 6
    for name in names:
        assert (here / "charts" / name).read_bytes() == (forked / "charts" / name).read_bytes()
    for csv in sorted(here.glob("*.csv")):
        assert csv.read_text() == (forked / csv.name).read_text(), csv.name
