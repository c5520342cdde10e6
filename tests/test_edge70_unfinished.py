"""A game stopped unfinished is one the game says stopped (its ``unfinished`` column), else one
no seat won: never a shared win, whose ``winner_seat`` is -1 (``aggregates.unfinished_games``,
the one rule of the runner's counts and the reports'). And a ``games`` column counts games,
each once, where a strategy holds two seats at a table; ``seats`` counts the seats."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reports
import tournaments
from reports.findings import key_findings
from reports.loading import games_from_frame
from reports.tables import completion
from tests.helpers import cli
from tests.toygame import ToyGame
from tournaments import Tournament, aggregates
from tournaments.declaration import Declaration
from tournaments.plugin import SeatedBatch

TOY = Declaration.of(ToyGame())  # shared wins, higher is better, no ``unfinished`` column


def _batch(points: np.ndarray, forfeit: np.ndarray, own: np.ndarray | None = None) -> SeatedBatch:
    """Games of the toy's kind: every seat tied for the most points wins (none in a forfeited
    game, nor where ``points`` is all -1: a game nobody won)."""
    g, n = points.shape
    winners = (points == points.max(axis=1, keepdims=True)) & (points >= 0)
    winners[forfeit >= 0] = False
    one = winners.sum(axis=1) == 1
    winner = np.where(one, winners.argmax(axis=1), -1).astype(np.int8)
    values = {"steps": np.full(g, 3, np.int16)}
    if own is not None:
        values["unfinished"] = own
    return SeatedBatch(first_player=None, winner_seat=winner, forfeit_seat=forfeit.astype(np.int8),
                       seat_values={"points": points.astype(np.int16)}, game_values=values,
                       errors=[None] * g, winners=winners)  # fmt: skip


def _counted(batch: SeatedBatch) -> dict[str, np.ndarray]:
    n = batch.seat_values["points"].shape[1]
    agg = aggregates.empty(n, 1, 8, max_seats=8, shared_wins=True)
    aggregates.add_batch(agg, 0, 0, list(range(n)), batch, "points", "steps", True)
    return agg


def _rows(batch: SeatedBatch) -> pd.DataFrame:
    """The batch as a run's rows (seat ``s`` held by strategy ``s``; no points where a game has
    none), without the unfinished column unless the batch has one."""
    points = batch.seat_values["points"]
    rows = {"n_players": np.full(len(batch), points.shape[1]), "winner_seat": batch.winner_seat,
            "forfeit_seat": batch.forfeit_seat, "steps": batch.game_values["steps"]}  # fmt: skip
    for s in range(points.shape[1]):
        rows[f"seat_{s}"] = f"s{s}"
        rows[f"points_{s}"] = pd.array(np.where(points[:, s] < 0, None, points[:, s]), "Int16")
    if "unfinished" in batch.game_values:
        rows["unfinished"] = batch.game_values["unfinished"]
    return pd.DataFrame(rows)


POINTS = np.array([[5, 3, 1], [4, 4, 1], [2, 2, 2], [6, 1, 0], [-1, -1, -1]])
FORFEIT = np.array([-1, -1, -1, 2, -1])  # game 3 forfeited; game 4 nobody won


def test_a_shared_win_is_no_game_stopped_unfinished_in_the_runners_counts():
    agg = _counted(_batch(POINTS, FORFEIT))
    assert int(agg["size_unfinished"][3]) == 1  # game 4 only: two shared wins were not
    assert int(agg["size_unfinished_won"][3]) == 0


def test_a_game_that_says_it_stopped_is_unfinished_won_or_shared():
    own = np.array([False, True, True, True, False])  # the forfeited game 3 is no stopped one
    agg = _counted(_batch(POINTS, FORFEIT, own))
    assert int(agg["size_unfinished"][3]) == 2
    assert int(agg["size_unfinished_won"][3]) == 2  # games 1 and 2: shared wins, still won


def test_the_reports_read_a_shared_win_as_finished():
    g = games_from_frame(_rows(_batch(POINTS, FORFEIT)), TOY)
    assert g.unfinished.tolist() == [False, False, False, False, True]
    row = completion(g).set_index("n_players").loc["all"]
    assert (int(row["unfinished"]), int(row["unfinished_won"])) == (1, 0)


def test_a_game_without_shared_wins_and_no_winner_is_still_unfinished():
    df = _rows(_batch(POINTS, FORFEIT))
    d = Declaration.from_dict({**TOY.to_dict(), "shared_wins": False})
    assert games_from_frame(df, d).unfinished.tolist() == [False, True, True, False, True]


@given(st.data())
def test_the_runner_and_the_reports_count_the_same_games_unfinished(data):
    g, n = data.draw(st.integers(1, 12)), data.draw(st.integers(2, 4))
    points = np.array(data.draw(st.lists(st.lists(st.integers(-1, 2), min_size=n, max_size=n),
                                         min_size=g, max_size=g)))  # fmt: skip
    points[points.min(axis=1) < 0] = -1  # a game nobody won has no points at all
    forfeit = np.array(data.draw(st.lists(st.integers(-1, n - 1), min_size=g, max_size=g)))
    own = data.draw(st.none() | st.lists(st.booleans(), min_size=g, max_size=g))
    batch = _batch(points, forfeit, None if own is None else np.array(own))
    agg = _counted(batch)
    loaded = games_from_frame(_rows(batch), TOY)
    said = np.array(own) if own is not None else (points < 0).all(axis=1)
    truth = int((said & (forfeit < 0)).sum())
    assert int(agg["size_unfinished"].sum()) == int(loaded.unfinished.sum()) == truth


def test_a_toy_run_of_shared_wins_has_no_caution_about_unfinished_games(tmp_path):
    start = time.perf_counter()
    res = Tournament(["a", "p1", "p2"], players=3, games=60, seed=1, game=ToyGame()).run(
        n_jobs=1, out=tmp_path / "r"
    )
    run = reports.load_run(res.out)
    assert int(res.aggregates()["size_unfinished"].sum()) == 0
    assert (run.games.winner < 0).any()  # shared wins there are
    assert not run.games.unfinished.any()
    tables, method = reports.compute_tables(run)
    assert not [f for f in key_findings(tables, method, run.declaration) if "unfinished" in f.text]
    assert time.perf_counter() - start < 5


def test_a_toy_gauntlet_of_shared_wins_neither(tmp_path):
    res = tournaments.gauntlet("a", ["p1"], "p2", players=3, games=60, seed=1,
                               out=tmp_path / "g", game=ToyGame())  # fmt: skip
    run = reports.load_run(res.out)
    assert (run.games.winner < 0).any() and not run.games.unfinished.any()
    tables, method = reports.compute_tables(run)
    assert not [f for f in key_findings(tables, method, run.declaration) if "unfinished" in f.text]
    field = res.summary().set_index("strategy").loc["p1"]  # two seats at every table
    assert field["seats"] == 2 * field["games"]


@pytest.mark.slow
def test_the_tournament_line_says_no_shared_win_stopped_unfinished(capsys, tmp_path):
    code, said, err = cli(capsys, "tournament", "--game", "tests.toygame:ToyGame", "a", "p1",
                          "p2", "--players", "3", "--games", "300", "--seed", "1", "--jobs", "1",
                          "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 0, err
    assert "unfinished" not in said
    code, said, err = cli(capsys, "report", str(tmp_path / "t"))
    assert code == 0, err
    assert "unfinished" not in said


def test_the_python_summary_counts_games_once_and_seats_apart(tmp_path):
    res = Tournament(["a", "p1"], players=3, games=60, seed=2, game=ToyGame()).run(
        n_jobs=1, out=tmp_path / "r"
    )
    rows = res.games()
    summary = res.summary().set_index("strategy")
    for label in ("a", "p1"):
        held = (rows[[f"seat_{s}" for s in range(3)]] == label).sum(axis=1)
        assert summary.loc[label, "games"] == int((held > 0).sum())
        assert summary.loc[label, "seats"] == int(held.sum())
        wins = summary.loc[label, "wins"]
        assert summary.loc[label, "win_rate"] == pytest.approx(wins / held.sum())
    assert (summary["seats"] > summary["games"]).all()  # each holds two seats at some table


def _neighbour_rows(seatings: list[tuple[str, ...]], width: int = 6) -> pd.DataFrame:
    """Finished 13 Leaves rows, seat 0 the winner of each, one deal each."""
    rows = []
    for i, seats in enumerate(seatings):
        row = {"game": i, "n_players": len(seats), "first_player": 0, "winner_seat": 0,
               "turns": 10, "rounds": 2, "unfinished": False, "deal": i}  # fmt: skip
        for s in range(width):
            row[f"seat_{s}"] = seats[s] if s < len(seats) else None
            row[f"cards_left_{s}"] = (0 if s == 0 else 3) if s < len(seats) else None
        rows.append(row)
    df = pd.DataFrame(rows)
    return df.astype({f"cards_left_{s}": "Int16" for s in range(width)})


def test_the_neighbours_games_count_a_game_once_however_many_seats_give_the_pair():
    # x sits after a twice in game 1; there c sits elsewhere from both of a's seats
    t = reports.neighbours(_neighbour_rows([("a", "c"), ("a", "x", "a", "x", "c", "y")]))
    t = t.set_index(["strategy", "before"])
    assert (t.loc[("x", "a"), "games"], t.loc[("x", "a"), "seats"]) == (1, 2)
    assert (t.loc[("a", "c"), "games"], t.loc[("a", "c"), "seats"]) == (1, 1)
    assert t.loc[("a", "c"), "elsewhere_games"] == 1  # not 2: one game, two of a's seats
    t = reports.neighbours(_neighbour_rows([("a", "b", "a", "b")] * 2))
    row = t.set_index(["strategy", "before"]).loc[("a", "b")]
    assert (row["games"], row["seats"], row["wins"]) == (2, 4, 2)
    assert row["win_rate"] == 0.5  # per seat
