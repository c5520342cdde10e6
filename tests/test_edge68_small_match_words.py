"""The expert tables say a match in the game's own words where the game calls it otherwise: a
Ligretto match is a game of rounds (its declaration's ``match_unit``), said beside both
tables; 13 Leaves calls its matches matches, and its tables add nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from reports import expert, expert_lengths

from .helpers import cli

RUNS = {
    "ligretto": ["--game", "ligretto", "stack", "row", "--players", "2", "--target", "20"],
    "leaves": ["random", "counter", "taker", "--players", "3", "--target", "20"],
}


@pytest.mark.parametrize(
    ("game", "said"),
    [("ligretto", "a match in these columns is a game of rounds"), ("leaves", "")],
)
def test_the_expert_tables_say_what_a_match_is_in_the_games_words(game, said, tmp_path, capsys):
    run = str(tmp_path / game)
    code, _, err = cli(capsys, "tournament", *RUNS[game], "--games", "4", "--seed", "1",
                       "--jobs", "1", "--expert", "--out", run)  # fmt: skip
    assert code == 0, err
    assert expert(run).attrs["measured"] == said
    lengths = expert_lengths(run).attrs["measured"]
    unit, rows = ("game", "rounds") if game == "ligretto" else ("match", "games")
    assert lengths == "; ".join(
        filter(None, [f"{unit} length in {rows}: mean, median, p10, p90, max", said])
    )
    code, out, err = cli(capsys, "report", run, "--format", "md", "--out", str(tmp_path / "r"))
    assert code == 0, err
    page = (tmp_path / "r" / "report.md").read_text()
    assert (f"({said})" in page) == bool(said)


def test_the_reports_guide_says_it_as_the_page_does():
    guide = " ".join((Path(__file__).parents[1] / "docs" / "reports.md").read_text().split())
    assert "the page says so beside the tables: a match in these columns is a game of rounds" in (
        guide
    )
