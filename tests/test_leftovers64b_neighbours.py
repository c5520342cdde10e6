"""The neighbours table follows the summary's rules: ``relative`` is the win rate over the
fair share, and ``par`` (the share of the games' wins a seat at random would take, which a
game nobody won lowers) stands beside it, counted as the summary counts it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.neighbours import neighbours
from reports.synthetic import synthetic_games
from reports.tables import summary


def _games(seats: list[str], winners: list[str | None]) -> pd.DataFrame:
    """Three-player games of one table, seated in rotation, one deal per three games; a
    winner None: the game stopped unfinished, nobody's win."""
    rows = []
    for i, winner in enumerate(winners):
        order = seats[i % 3 :] + seats[: i % 3]
        won = order.index(winner) if winner else -1
        rows.append({
            "game": i, "seat_0": order[0], "seat_1": order[1], "seat_2": order[2],
            "cards_left_0": 0 if won == 0 else 5, "cards_left_1": 0 if won == 1 else 5,
            "cards_left_2": 0 if won == 2 else 5, "n_players": 3, "first_player": 0,
            "winner_seat": won, "winner": winner, "turns": 40, "rounds": 10,
            "unfinished": winner is None, "forfeit": -1, "deal": i // 3, "table": 0,
            "seed": i // 3,
        })  # fmt: skip
    return pd.DataFrame(rows)


def test_relative_after_a_neighbour_is_over_the_fair_share_with_par_beside_it():
    # six games of a, b, c (c sits after b, b after a, a after c), three unfinished: par is
    # 1/3 of the three won games, 1 game in 6 (1/6); relative is against the fair share 1/3
    nb = neighbours(_games(["a", "b", "c"], ["a", None, "a", None, "c", None]))
    nb = nb.set_index(["strategy", "before"])
    assert nb["par"].tolist() == pytest.approx([1 / 6] * 3)
    assert nb["fair_share"].tolist() == pytest.approx([1 / 3] * 3)
    assert nb.loc[("a", "c"), "relative"] == pytest.approx((2 / 6) / (1 / 3))  # 1.0, not 2.0
    assert nb.loc[("b", "a"), "relative"] == 0
    assert nb.loc[("c", "b"), "relative"] == pytest.approx(0.5)


def test_a_pair_whose_games_nobody_won_has_par_0_and_relative_0():
    nb = neighbours(_games(["a", "b", "c"], [None] * 3))
    assert (nb["par"] == 0).all() and (nb["relative"] == 0).all()


def test_the_pairs_of_a_strategy_add_up_to_its_summary_wins_and_par():
    # every seat has one seat before it, so a strategy's rows over its neighbours hold all
    # its games, wins and par wins, and where its only neighbour is one strategy (three
    # strategies at tables of three, seated in rotation) its relative is the summary's
    games = synthetic_games({"a": 1.0, "b": 0.0, "c": -0.5}, players=(3,), deals=40, seed=2,
                            unfinished_p=0.3, forfeit_p=0.0)  # fmt: skip
    summ = summary(games).set_index("strategy")
    nb = neighbours(games)
    assert summ["unfinished"].sum() > 0
    totals = (
        nb.assign(par_wins=nb["par"] * nb["games"])
        .groupby("strategy")[["games", "wins", "par_wins"]]
        .sum()
    )
    assert totals["games"].to_dict() == summ["games"].to_dict()
    assert totals["wins"].to_dict() == summ["wins"].to_dict()
    par_wins = (summ["par"] * summ["games"]).to_dict()
    assert totals["par_wins"].to_dict() == pytest.approx(par_wins)
    for strategy, rows in nb.groupby("strategy"):  # rotations keep who sits after whom
        assert len(rows) == 1
        assert rows["relative"].iloc[0] == pytest.approx(summ.loc[strategy, "relative"])
    assert np.isfinite(nb["relative"]).all()
