"""Reports called directly count what the page counts: a run every game of which was forfeited
has no seats, lengths or neighbours rows (``Games.finished``, the one rule); the summary's
``games`` counts games, once each, and ``seats`` the seats behind its per-seat rates, where a
strategy holds two seats at one table; a runner's rows without ``game`` numbers that give a
game twice are refused as a repeated number is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reports
from reports.data import ReportError
from reports.synthetic import synthetic_games
from tests.test_edge69_notebook import RAISER  # a strategy that raises: one text


@pytest.fixture(scope="module")
def void(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run every game of which Raiser forfeited: it sits at every table."""
    from tournaments import Tournament

    folder = tmp_path_factory.mktemp("void70")
    (folder / "raiser.py").write_text(RAISER)
    specs = [f"{folder / 'raiser.py'}:Raiser", "greedy", "low"]
    Tournament(specs, players=3, games=12, seed=1).run(n_jobs=1, out=folder / "run")
    return folder / "run"


# --- 1. a run every game of which was forfeited ------------------------------------------------


def test_direct_tables_of_a_run_all_forfeited_count_no_game_as_the_page(void):
    run = reports.load_run(void)
    assert run.games.forfeited.all()
    page, _ = reports.compute_tables(run)
    lengths = reports.lengths(run)  # it counted the 12 forfeited games: '1 turn on median'
    assert lengths.empty and list(lengths.columns) == list(page["lengths"].columns)
    assert reports.seats(run).empty and "seats" not in page  # it read 12 games per position
    assert reports.neighbours(run).empty and "neighbours" not in page
    assert reports.tables.length_distribution(run).empty
    assert len(run.games.finished()) == 0


def test_a_run_partly_forfeited_counts_its_other_games_only(tmp_path):
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=8, seed=1)
    games["forfeit"] = np.arange(len(games)) % 3 == 0
    kept = int((~games["forfeit"]).sum())
    lengths = reports.lengths(games).set_index(["by", "group", "measure"])
    assert lengths.at[("all", "all", "turns"), "games"] == kept
    assert reports.seats(games)["games"].unique().tolist() == [kept]


# --- 2. games count games, seats count seats ---------------------------------------------------


def _frame(tables: list[tuple[str, ...]], winners: list[int], **extra) -> pd.DataFrame:
    """A 13 Leaves games frame of 3-seat tables (labels per seat), with the winning seat."""
    n = len(tables)
    cols: dict[str, object] = {"game": np.arange(n)}
    for s in range(3):
        cols[f"seat_{s}"] = [t[s] for t in tables]
        cols[f"cards_left_{s}"] = [0 if w == s else 5 for w in winners]
    cols.update(n_players=[3] * n, first_player=[0] * n, winner_seat=winners, turns=[20] * n,
                rounds=[4] * n, **extra)  # fmt: skip
    return pd.DataFrame(cols)


def test_a_strategy_seated_twice_counts_one_game_and_two_seats():
    """weighted sits twice at both tables, taker once: 2 games each, 4 and 2 seats (it read
    weighted 4 games in a run of 2); the win rate stays per seat: weighted won 1 of 4 seats."""
    tables = [("weighted", "weighted", "taker"), ("taker", "weighted", "weighted")]
    s = reports.summary(_frame(tables, winners=[1, 0])).set_index("strategy")
    assert s.loc["weighted", ["games", "seats", "wins", "valid_games"]].tolist() == [2, 4, 1, 2]
    assert s.loc["taker", ["games", "seats", "wins", "valid_games"]].tolist() == [2, 2, 1, 2]
    assert s.at["weighted", "win_rate"] == 1 / 4 and s.at["taker", "win_rate"] == 1 / 2
    assert s.at["weighted", "fair_share"] == pytest.approx(1 / 3)


def test_unfinished_and_forfeited_games_count_each_game_once():
    tables = [("weighted", "weighted", "taker")] * 2
    frame = _frame(tables, winners=[-1, -1], unfinished=[True, False], forfeit=[False, True])
    s = reports.summary(frame).set_index("strategy")
    assert s.loc["weighted", ["games", "unfinished", "forfeits", "valid_games"]].tolist() == [
        2, 1, 1, 1,
    ]  # fmt: skip
    assert s.loc["weighted", "seats"] == 4


@settings(max_examples=40, deadline=None)  # a summary of a frame a draw: about 15 ms each
@given(st.lists(st.tuples(*[st.sampled_from("abc")] * 3, st.integers(0, 2)), min_size=1,
                max_size=12))  # fmt: skip
def test_games_count_the_games_a_strategy_sat_in_and_seats_its_seats(rows):
    frame = _frame([r[:3] for r in rows], winners=[r[3] for r in rows])
    s = reports.summary(frame).set_index("strategy")
    for label in s.index:
        assert s.at[label, "games"] == sum(label in r[:3] for r in rows)
        assert s.at[label, "seats"] == sum(r[:3].count(label) for r in rows)
    assert s["wins"].sum() == len(rows)  # one winner a game: wins count games won
    assert np.allclose(s["win_rate"], s["wins"] / s["seats"])


# --- 3. a game given twice without its number --------------------------------------------------


def test_a_runs_rows_without_game_numbers_that_give_a_game_twice_are_refused(void):
    rows = pd.read_parquet(void / "games").drop(columns="game")
    assert len(reports.as_games(rows)) == len(rows)  # once each: read
    first = rows.iloc[3]
    where = f"table {first['table']}, deal {first['deal']}, rotation {first['rotation']}"
    with pytest.raises(ReportError, match=rf"^games DataFrame gives 1 game more than once \(the "
                                          rf"first: {where}\): give each game once"):  # fmt: skip
        reports.summary(pd.concat([rows, rows.iloc[[3]]]))
    with pytest.raises(ReportError, match=f"gives {len(rows)} games more than once"):
        reports.lengths(pd.concat([rows, rows]))


def test_the_games_of_one_match_are_told_apart_by_their_place_in_it():
    tables = [("weighted", "taker", "low")] * 2
    seating = {"table": [0, 0], "deal": [0, 0], "rotation": [0, 0], "match": [0, 0]}
    frame = _frame(tables, winners=[0, 1], **seating, game_in_match=[0, 1]).drop(columns="game")
    assert len(reports.as_games(frame)) == 2
    with pytest.raises(ReportError, match=r"\(the first: table 0, deal 0, rotation 0, "
                                          r"game_in_match 1\)"):  # fmt: skip
        reports.as_games(pd.concat([frame, frame.iloc[[1]]]))
    unplaced = frame.drop(columns="game_in_match")  # games of a match share their seating
    assert len(reports.as_games(unplaced)) == 2


def test_rows_with_nothing_to_tell_a_game_by_are_read_as_given():
    """Rows alike in every column can be two games: without a game's number or seating
    there is no repeat to refuse."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=2, seed=1)
    rows = games.drop(columns="game")
    assert len(reports.as_games(pd.concat([rows, rows]))) == 2 * len(rows)
