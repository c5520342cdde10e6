"""The report as a reader sees it: long strategy specs on the charts, and the words beside
the figures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports import charts
from reports.page import key_rows
from reports.report import _make_charts
from reports.sections import order_note, sections
from reports.synthetic import synthetic_games
from tests.helpers import cli_output
from tests.test_visual60 import _outside, _overlaps, _texts

LONG = [
    "counter(keep_weight=3.5,safe_bonus=2.0,shed_weight=-1.0)",
    "counter(keep_weight=6.0,safe_bonus=5.0,near_win_penalty=2.0)",
    "low",
    "greedy",
]


@pytest.fixture(scope="module")
def long_tables():
    names = [*LONG, "examples/my_strategy.py:Hoarder_of_a_name_with_no_comma"]
    games = synthetic_games({n: 0.1 * i for i, n in enumerate(names)}, players=(4,), deals=6,
                            seed=4, seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, _ = reports.compute_tables(run)
    return run, tables


@pytest.mark.slow
def test_every_chart_of_long_strategy_specs_keeps_its_names_whole_and_apart(long_tables):
    """A strategy with three parameters ('counter(keep_weight=6.0,safe_bonus=5.0,
    near_win_penalty=2.0)') was cut at the picture's left edge on the win-rate, rating and
    heatmap charts, and the rating's figures ran into its legend: a long name is written on
    lines broken after its commas (a name with none after its slashes, colons and
    underscores), every text inside the picture and clear of the others."""
    run, tables = long_tables
    figs = _make_charts(tables, run.declaration)
    assert {"win_rates", "rating", "head_to_head", "neighbours"} <= set(figs)
    for name, fig in figs.items():
        assert _outside(fig) == [], name
        assert _overlaps(fig) == [], name
    labels = [t.get_text() for t in figs["win_rates"].axes[0].get_yticklabels()]
    assert "counter(keep_weight=6.0,\nsafe_bonus=5.0,\nnear_win_penalty=2.0)" in labels
    assert [x.replace("\n", "") for x in labels] == tables["summary"]["strategy"][::-1].tolist()
    for name in ("head_to_head", "neighbours"):  # slanted names of three lines, side by side
        fig = figs[name]
        _, rend = _texts(fig)
        ax = fig.axes[0]
        cell = ax.get_images()[0].get_window_extent(rend).width / len(ax.get_xticks()) / fig.dpi
        assert cell * np.sin(np.radians(40)) >= 4 * 10 * 1.2 / 72 - 0.01, name  # a line apart


def test_the_meta_game_legend_of_long_specs_stays_inside():
    t = np.geomspace(0.01, 100, 30)
    trajectory = pd.DataFrame({"time": np.r_[0.0, t], LONG[0]: np.r_[0.5, 0.5 + 0 * t],
                               LONG[1]: np.r_[0.5, 0.5 + 0 * t]})  # fmt: skip
    fig = charts.metagame_trajectory(trajectory)
    assert _outside(fig) == [] and _overlaps(fig) == []


def test_the_rating_figures_of_long_names_stay_inside_the_frame():
    """The rating's figures beside each interval are given room in inches (the axes' width
    once the names and the legend have theirs), so they never cross the frame."""
    r = np.array([0.04, 0.003, -0.003, -0.04])
    table = pd.DataFrame({"rank": range(1, 5), "strategy": LONG, "rating": r,
                          "ci_low": r - 0.035, "ci_high": r + 0.035})  # fmt: skip
    fig = charts.rating(table)
    ax = fig.axes[0]
    _, rend = _texts(fig)
    frame = ax.get_window_extent(rend)
    for t in ax.texts:
        assert t.get_window_extent(rend).x1 <= frame.x1, t.get_text()


def _rated(rows: list[tuple[str, float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["strategy", "rating", "ci_low", "ci_high"])


def test_a_rating_order_within_its_intervals_is_not_explained_as_a_finding():
    """Twelve games: the rating put greedy (+1.94 [-0.01, +3.88]) above high (+1.81 [-0.13,
    +3.75]), high won more often, and the page explained the order ('a strategy that often
    comes second can rank higher by rating') though the run cannot tell the two ratings
    apart: such an order is said to be possibly chance, and a clear reversal elsewhere is
    the one explained."""
    summary = pd.DataFrame({"strategy": ["low", "high", "greedy"], "relative": [3, 2, 1]})
    close = _rated([("low", 1.96, 0.02, 3.91), ("greedy", 1.94, -0.01, 3.88),
                    ("high", 1.81, -0.13, 3.75)])  # fmt: skip
    note = order_note(summary, close)
    assert "puts greedy above high" in note and "may be chance" in note
    assert "comes second" not in note
    clear = _rated([("greedy", 0.9, 0.8, 1.0), ("low", 0.5, 0.45, 0.55),
                    ("high", 0.1, 0.0, 0.2)])  # fmt: skip
    note = order_note(summary, clear)
    assert "puts greedy above low" in note and "whole finishing order" in note
    assert "chance" not in note
    both = _rated([("greedy", 0.5, 0.2, 0.8), ("high", 0.45, 0.1, 0.7),
                   ("low", -0.9, -1.0, -0.8)])  # fmt: skip
    summary = pd.DataFrame({"strategy": ["high", "low", "greedy"], "relative": [3, 2, 1]})
    note = order_note(summary, both)  # greedy above high is not clear; above low it is
    assert "puts greedy above low" in note and "chance" not in note


def test_the_head_to_head_scale_label_keeps_its_ties_note_on_one_line():
    """With seven strategies the colour scale's label broke as 'row finished ahead of column
    (ties' / '= ½)': the note in parentheses stays whole on its line."""
    names = [f"s{i}" for i in range(7)]
    h2h = pd.DataFrame([dict(strategy=a, opponent=b, score=0.5) for a in names for b in names
                        if a != b])  # fmt: skip
    label = charts.head_to_head(h2h).axes[1].yaxis.label.get_text()
    assert not any(line.startswith("=") for line in label.split("\n")), label
    assert "(ties\u00a0=\u00a0½)" in label.replace("\n", " ")


@pytest.fixture(scope="module")
def cut_short(tmp_path_factory):
    """A run whose turn limit stops about half its games unfinished (nobody's win): the run
    docs/reports.md quotes."""
    out = tmp_path_factory.mktemp("cut") / "run"
    code, _, err = cli_output("tournament", "greedy", "low", "high", "minimal", "--players", "4",
                              "--games", "480", "--seed", "13", "--turn-limit", "50",
                              "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def test_the_seat_verdict_of_a_run_with_unfinished_games_is_against_what_a_seat_can_win(
    cut_short,
):
    """Half the games stopped at the turn limit and count as nobody's win: every position
    won about 13%, and the first player's 13% was called 'a disadvantage' against a fair
    share of 25%. The fair share it is read against is the games someone won shared among the
    positions (``par``: 1 / players where every game has a winner), as the rows have it."""
    games = pd.read_parquet(cut_short / "games")
    won = games[games["winner_seat"] >= 0]
    assert 0.3 < 1 - len(won) / len(games) < 0.7  # the run is what the test needs
    first = ((won["winner_seat"] - won["first_player"]) % 4 == 0).sum() / len(games)
    fair = len(won) / len(games) / 4
    run = reports.load_run(cut_short)
    tables, method = reports.compute_tables(run)
    seats = tables["seats"]
    assert seats["par"].to_numpy() == pytest.approx([fair] * 4)
    assert seats["fair"].to_numpy() == pytest.approx([0.25] * 4)  # 1 / players, as before
    row = seats.iloc[0]
    verdict = "an advantage" if row["ci_low"] > fair else (
        "a disadvantage" if row["ci_high"] < fair else "no clear effect")  # fmt: skip
    text = next(f.text for f in reports.key_findings(tables, method, run.declaration)
                if f.topic == "seats")  # fmt: skip
    assert f"wins {first:.1%}" in text and f"fair share of {fair:.1%}" in text, text
    assert f"(1/4 of the {len(won) / len(games):.1%} of games someone won)" in text, text
    assert f": {verdict}." in text, text
    ax = charts.seat_advantage(seats).axes[0]
    dashed = [c for c in ax.collections if c.get_linestyle()[0][1] is not None]
    assert [seg[0][1] for c in dashed for seg in c.get_segments()] == pytest.approx([fair])
    lead = next(s.lead for s in sections(tables, method, run.declaration)
                if s.tables and s.tables[0][0] == "seats")  # fmt: skip
    assert "nobody's win" in lead and "1/players of the games someone won (par)" in lead
    top, _ = key_rows("seats", seats)
    assert top["par"].tolist() == [f"{fair:.1%}"] * 4


def test_a_run_whose_games_all_have_a_winner_reads_its_seats_as_before(long_tables):
    run, tables = long_tables
    seats = tables["seats"]
    seats = seats.assign(par=seats["fair"])  # every game won: the two agree
    lead = next(s.lead for s in sections({**tables, "seats": seats}, "", run.declaration)
                if s.tables and s.tables[0][0] == "seats")  # fmt: skip
    assert "nobody's win" not in lead


def test_a_tiny_runs_seat_chart_says_it_has_no_intervals():
    """Two deals: the seat chart drew positions at 17% and 67% with no interval to read them
    by, and its lead said nothing of that (the summary's says it has none)."""
    games = synthetic_games({"a": 0.2, "b": 0.0, "c": -0.2}, players=(3,), deals=2, seed=1,
                            seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, method = reports.compute_tables(run)
    assert tables["seats"]["ci_low"].isna().all()
    lead = next(s.lead for s in sections(tables, method, run.declaration)
                if s.tables and s.tables[0][0] == "seats")  # fmt: skip
    assert "No 95% intervals" in lead and "too few deals" in lead, lead


def test_the_summary_lead_says_what_the_fair_share_means_when_games_have_no_winner(cut_short):
    """Half the games have no winner: 'the orange tick is the fair share (the win rate if all
    were equal)' put equal strategies at 25%, where they would win half that; the lead says
    the tick is 1/players and how many games have no winner, from the rows."""
    games = pd.read_parquet(cut_short / "games")
    none = (games["winner_seat"] < 0).mean()
    run = reports.load_run(cut_short)
    tables, method = reports.compute_tables(run)
    lead = next(s.lead for s in sections(tables, method, run.declaration)
                if s.tables and s.tables[0][0] == "summary")  # fmt: skip
    assert "the win rate if all were equal)" not in lead, lead
    assert f"here {none:.1%} of games have none" in lead, lead
    assert f"all alike would each win {1 - none:.1%} of it" in lead, lead


def test_the_figures_docs_reports_quotes_of_that_run(cut_short):
    run = reports.load_run(cut_short)
    tables, method = reports.compute_tables(run)
    found = " ".join(f.text for f in reports.key_findings(tables, method, run.declaration))
    assert "a fair share of 12.6% (1/4 of the 50.2% of games someone won)" in found
    lead = next(s.lead for s in sections(tables, method, run.declaration)
                if s.tables and s.tables[0][0] == "summary")  # fmt: skip
    assert "here 49.8% of games have none (unfinished), so all alike would each win 50.2%" in lead
    docs = (Path(__file__).resolve().parents[1] / "docs" / "reports.md").read_text()
    assert "--games 480 --seed 13 --turn-limit 50" in docs.replace("\n", " ")
    assert "(1/4 of the 50.2% of games someone won)" in docs.replace("\n", " ")
