"""reports/expert.py at its boundaries, worked out by hand: the best total winning alone or
shared, in either direction; a match holding one forfeited game won by nobody; the first
strategy (code 0) winning; a strategy in one match, one in none; empty seats; the matches
table deciding totals and lengths over the games' scores; match ids that are not game indices
(``benchmarks/bench_mutation.py reports/expert.py``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from reports import ReportError, expert, expert_lengths, expert_scores
from reports.data import MISSING, Games, Run, default_declaration
from reports.expert import match_arrays, match_winners

LOWER = default_declaration()
HIGHER = replace(LOWER, higher_is_better=True)

# (match id, seats (strategy codes, -1 empty), each game's scores, the forfeited games)
MATCHES = [
    (10, (0, 1, 2, -1), [(0, 5, 8, 0), (7, 0, 13, 0)], ()),  # totals A 7, B 5, C 21
    (20, (1, 2, 0, -1), [(0, 9, 9, 0), (9, 0, 3, 0)], ()),  # B 9, C 9, A 12: a tie
    (30, (0, 1, 2, 3), [(0, 4, 4, 4), (1, 0, 2, 3), (2, 2, 0, 5)], ()),  # A 3 B 6 C 6 D 12
    (40, (2, 0, 1, -1), [(5, 0, 4, 0)], (0,)),  # its one game forfeited: no winner
]


def make_games(matches, labels=("A", "B", "C", "D"), declaration=LOWER, scores=True):
    rows = [(mid, seats, game, i in void)
            for mid, seats, played, void in matches for i, game in enumerate(played)]  # fmt: skip
    seats = np.array([r[1] for r in rows], np.int16)
    points = np.array([r[2] for r in rows], np.int16)
    n = len(rows)
    return Games(
        labels=labels, seats=seats, values=np.where(seats >= 0, points, MISSING),
        n_players=(seats >= 0).sum(axis=1).astype(np.int8), first=np.zeros(n, np.int8),
        winner=np.full(n, -1, np.int8), unfinished=np.zeros(n, bool),
        forfeited=np.array([r[3] for r in rows]), forfeit_seat=np.full(n, -1, np.int8),
        match=np.array([r[0] for r in rows], np.int64), scores=points if scores else None,
        declaration=declaration,
    )  # fmt: skip


def table(totals: dict[int, tuple], games: dict[int, int], width=4) -> pd.DataFrame:
    """A matches table: total_s of each match (None for an empty seat)."""
    ids = list(totals)
    cols = {"match": ids, "games": [games[i] for i in ids]}
    for s in range(width):
        cols[f"total_{s}"] = pd.array([totals[i][s] for i in ids], "Int64")
    return pd.DataFrame(cols)


TABLE = table({10: (7, 5, 21, None), 20: (9, 9, 12, None), 30: (3, 6, 6, 12),
               40: (5, 0, 4, None)}, {10: 2, 20: 2, 30: 3, 40: 1})  # fmt: skip
SEATS = [[0, 1, 2, -1], [1, 2, 0, -1], [0, 1, 2, 3], [2, 0, 1, -1]]
TOTALS = [[7, 5, 21, -1], [9, 9, 12, -1], [3, 6, 6, 12], [5, 0, 4, -1]]


@pytest.mark.parametrize("source", ["scores", "table"])
def test_match_arrays_give_minus_1_for_an_empty_seat(source):
    run = Run(make_games(MATCHES), TABLE if source == "table" else None)
    seats, totals, games, n_players = match_arrays(run)
    assert seats.tolist() == SEATS and totals.tolist() == TOTALS
    assert games.tolist() == [2, 2, 3, 1] and n_players.tolist() == [3, 3, 4, 3]


def test_a_matches_table_without_a_games_column_gives_way_to_the_games_scores():
    """A matches table lacking ``games`` raised KeyError: the games' scores decide then."""
    run = Run(make_games(MATCHES), TABLE.drop(columns="games"))
    seats, totals, games, _ = match_arrays(run)
    assert seats.tolist() == SEATS and totals.tolist() == TOTALS and games.tolist() == [2, 2, 3, 1]


def test_a_matches_table_without_some_match_is_refused():
    with pytest.raises(ReportError, match="disagree on match ids"):
        match_arrays(Run(make_games(MATCHES), TABLE[TABLE["match"] != 30]))
    with pytest.raises(ReportError, match="without matches table or score_i"):
        match_arrays(Run(make_games(MATCHES, scores=False)))


def test_match_winners_in_either_direction():
    """Lowest total wins (A, code 0, alone in match 30), tied seats share (B and C in match
    20), a match holding its one forfeited game is won by nobody; highest, when declared."""
    for declaration, expected in (
        (LOWER, [[0, 1, 0, 0], [1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]),
        (HIGHER, [[0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]]),
    ):
        run = Run(make_games(MATCHES, declaration=declaration))
        seats, totals, _, _ = match_arrays(run)
        won, void = match_winners(run, seats, totals)
        assert won.astype(int).tolist() == expected, declaration.higher_is_better
        assert void.tolist() == [False, False, False, True]


EXPECTED = pd.DataFrame({
    "strategy": ["B", "A", "C", "D"],
    "matches": [4, 4, 4, 1],
    "seats": [4, 4, 4, 1],
    "match_wins": [2, 1, 1, 0],
    "shared_wins": [1, 0, 1, 0],
    "forfeited_matches": [1, 1, 1, 0],
    "match_win_rate": [0.5, 0.25, 0.25, 0.0],
    "match_win_rate_split": [1.5 / 4, 0.25, 0.5 / 4, 0.0],
    "fair_share": [0.3125, 0.3125, 0.3125, 0.25],  # (1/3 + 1/3 + 1/4 + 1/3) / 4, D 1/4
    "points_per_game": [24 / 8, 22 / 8, 41 / 8, 12 / 3],
    "mean_final_total": [6.0, 5.5, 10.25, 12.0],
    "median_final_total": [5.5, 5.0, 7.5, 12.0],  # of 4 5 6 9, of 0 3 7 12, of 5 6 9 21
    "mean_match_games": [2.0, 2.0, 2.0, 3.0],
})  # fmt: skip


@pytest.mark.filterwarnings("error")  # no 0/0 of a match won by nobody
@pytest.mark.parametrize("source", ["scores", "table", "table only"])
def test_the_expert_table_by_hand(source):
    """Sorted by match win rate, then name; D played one match. Without per-game scores the
    points per game come from the table's totals and lengths."""
    g = make_games(MATCHES, scores=source != "table only")
    e = expert(g, matches=None if source == "scores" else TABLE)
    pd.testing.assert_frame_equal(e.drop(columns=["ci_low", "ci_high"]), EXPECTED)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("source", ["scores", "table only"])
def test_a_strategy_without_a_match_is_left_out_without_a_warning(source):
    """Every table full (no empty seat), the last strategy never seated. Was: the report of an
    interrupted expert run before every strategy had played printed numpy's 'RuntimeWarning:
    invalid value encountered in divide' with the source line of the points per game."""
    one = [(5, (0, 1, 2), [(1, 2, 3), (3, 0, 0)], ())]  # A 4, B 2, C 3
    g = make_games(one, labels=("A", "B", "C", "D"), scores=source == "scores")
    m = None if source == "scores" else table({5: (4, 2, 3)}, {5: 2}, width=3)
    e = expert(g, matches=m)
    assert e["strategy"].tolist() == ["B", "A", "C"] and e["matches"].tolist() == [1, 1, 1]
    assert e["points_per_game"].tolist() == [1.0, 2.0, 1.5]
    assert e["median_final_total"].tolist() == [2.0, 4.0, 3.0]


def test_the_matches_table_decides_totals_and_lengths():
    """Totals and lengths come from the matches table when given, not the games' scores."""
    g = make_games(MATCHES)
    other = TABLE.copy()
    other.loc[0, ["games", "total_0", "total_1", "total_2"]] = [5, 1, 50, 60]  # A wins 10
    e = expert(g, matches=other).set_index("strategy")
    assert e.loc["A", "match_wins"] == 2 and e.loc["B", "match_wins"] == 1
    assert e.loc["A", "mean_match_games"] == (5 + 2 + 3 + 1) / 4
    scores = expert_scores(g, matches=other)
    assert scores[scores["strategy"] == "B"]["total"].tolist() == [4, 6, 9, 50]
    lengths = expert_lengths(g, matches=other).set_index("n_players")
    assert lengths.loc[3, "max"] == 5 and lengths.loc[3, "mean"] == 8 / 3


@pytest.mark.parametrize("source", ["scores", "table"])
def test_final_totals_and_lengths(source):
    g = make_games(MATCHES)
    m = None if source == "scores" else TABLE
    scores = expert_scores(g, matches=m)
    assert scores.columns.tolist() == ["strategy", "total", "matches"]
    assert scores.values.tolist() == [
        ["A", 0, 1], ["A", 3, 1], ["A", 7, 1], ["A", 12, 1], ["B", 4, 1], ["B", 5, 1],
        ["B", 6, 1], ["B", 9, 1], ["C", 5, 1], ["C", 6, 1], ["C", 9, 1], ["C", 21, 1],
        ["D", 12, 1]]  # fmt: skip
    lengths = expert_lengths(g, matches=m)
    assert lengths.columns.tolist() == ["n_players", "matches", "mean", "median", "p10", "p90",
                                        "max"]  # fmt: skip
    expected = [[3, 3, 5 / 3, 2, 1.2, 2, 2], [4, 1, 3, 3, 3, 3, 3]]  # 10% of [1, 2, 2]: 1.2
    assert lengths.to_numpy(float) == pytest.approx(np.array(expected, float))
