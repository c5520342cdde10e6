"""Two rules of ``reports/neighbours.py`` counted by hand on hand-made frames: ``par``, per
pair the mean over its games of the share of each game's wins a seat at random would take
(winners / players, 0 in a game nobody won), which no other test reads; and the seats
elsewhere at a table wider than the run has games."""

from __future__ import annotations

import pandas as pd
import pytest

from reports.neighbours import neighbours


def _frame(seatings: list[tuple[str, ...]], winners: list[int]) -> pd.DataFrame:
    """Finished games, one a deal, from their seat labels (up to four) and winning seats (-1:
    nobody won, unfinished at its turn limit)."""
    rows = []
    for i, (seats, winner) in enumerate(zip(seatings, winners, strict=True)):
        row = {"game": i, "n_players": len(seats), "first_player": 0, "winner_seat": winner,
               "turns": 10, "rounds": 2, "unfinished": winner < 0, "deal": i}  # fmt: skip
        for s in range(4):
            row[f"seat_{s}"] = seats[s] if s < len(seats) else None
            row[f"cards_left_{s}"] = (0 if s == winner else 3) if s < len(seats) else None
        rows.append(row)
    df = pd.DataFrame(rows)
    for s in range(4):
        df[f"cards_left_{s}"] = df[f"cards_left_{s}"].astype("Int16")
    return df


def test_par_is_the_mean_share_of_each_game_s_wins_a_seat_at_random_takes():
    """A at seat 0 and B at seat 1 in each game: a table of three that A wins, a table of
    four that B wins and a table of four that nobody wins."""
    seatings = [("A", "B", "C"), ("A", "B", "C", "D"), ("A", "B", "D", "C")]
    t = neighbours(_frame(seatings, [0, 1, -1])).set_index(["strategy", "before"])
    # B after A: 1/3 (one winner, three players), 1/4, and 0 (nobody won): 7/12 over 3 games
    assert t.loc[("B", "A"), "games"] == 3
    assert t.loc[("B", "A"), "par"] == pytest.approx(7 / 36)
    # A after C (seat 2 of three), after D and after C (seat 3 of four): the same three games
    assert t.loc[("A", "C"), "par"] == pytest.approx((1 / 3 + 0) / 2)
    assert t.loc[("A", "D"), "par"] == pytest.approx(1 / 4)
    # D after C in the game B won (1/4), C after D in the game nobody won (0)
    assert t.loc[("D", "C"), "par"] == pytest.approx(1 / 4)
    assert t.loc[("C", "D"), "par"] == 0.0


def test_two_games_at_a_table_of_four_count_the_seat_three_before_as_elsewhere():
    """Two games of one deal: A B C D, A wins (A after D); A D B C, D wins (D three seats
    before A: elsewhere). A after D: 1 game, won; with D elsewhere: 1 game, lost, in the one
    duplicate set both share: +100 points."""
    df = _frame([("A", "B", "C", "D"), ("A", "D", "B", "C")], [0, 1]).assign(deal=0)
    row = neighbours(df).set_index(["strategy", "before"]).loc[("A", "D")]
    assert (row["games"], row["wins"], row["elsewhere_games"]) == (1, 1, 1)
    assert not row["no_other_seat"] and row["vs_elsewhere_sets"] == 1
    assert (row["shared_rate"], row["elsewhere_rate"], row["vs_elsewhere"]) == (1.0, 0.0, 1.0)
