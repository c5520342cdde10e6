"""The summary's ``relative`` is the win rate over the fair share (1/players of its tables),
and the summary is sorted by it; ``par`` (the share of its games' wins a seat at random would
take) stands beside it as a reference only, since a strategy's own play moves it. Checked on
hand-made games whose truth is counted by hand below."""

from __future__ import annotations

import pandas as pd
import pytest

from reports.synthetic import synthetic_games
from reports.tables import summary


def _games(tables: list[tuple[list[str], list[str | None]]]) -> pd.DataFrame:
    """Three-player games: per table its strategies and each game's winner (None: the game
    stopped unfinished), one deal per three games, seated in rotation."""
    rows = []
    for t, (seats, winners) in enumerate(tables):
        for i, winner in enumerate(winners):
            order = seats[i % 3 :] + seats[: i % 3]
            won = order.index(winner) if winner else -1
            rows.append({
                "game": len(rows), "seat_0": order[0], "seat_1": order[1], "seat_2": order[2],
                "cards_left_0": 0 if won == 0 else 5, "cards_left_1": 0 if won == 1 else 5,
                "cards_left_2": 0 if won == 2 else 5, "n_players": 3, "first_player": 0,
                "winner_seat": won, "winner": winner, "turns": 40, "rounds": 10,
                "unfinished": winner is None, "forfeit": -1, "deal": 100 * t + i // 3,
                "table": t, "seed": 100 * t + i // 3,
            })  # fmt: skip
    return pd.DataFrame(rows)


# Table 0 (a, b, c): six games, all won, two each. Table 1 (a, b, s): three of its six games
# unfinished, a wins one, s two, b none. By hand (fair share 1/3 everywhere; par: 1/3 of each
# game won):
#   a: 3 wins in 12 games -> relative 0.75 (par 3/12, against which it would be 1.0)
#   b: 2 wins in 12 -> 0.5;  c: 2 wins in 6 -> 1.0 (par 1/3)
#   s: 2 wins in 6 -> 1.0, level with c (par 1/6, against which it would be 2.0)
WON = (["a", "b", "c"], ["a", "b", "c", "a", "b", "c"])
HALF = (["a", "b", "s"], ["a", None, "s", None, "s", None])


def test_relative_is_against_the_fair_share_where_games_went_unfinished():
    summ = summary(_games([WON, HALF])).set_index("strategy")
    assert summ["par"].to_dict() == pytest.approx({"a": 0.25, "b": 0.25, "c": 1 / 3, "s": 1 / 6})
    assert summ["relative"].to_dict() == pytest.approx({"a": 0.75, "b": 0.5, "c": 1.0, "s": 1.0})
    assert summ["fair_share"].to_dict() == pytest.approx(dict.fromkeys("abcs", 1 / 3))


def test_the_summary_ranks_by_the_rate_against_the_fair_share_not_par():
    # against par the order would be s, then a and c (level at 1.0), then b
    assert summary(_games([WON, HALF]))["strategy"].tolist() == ["c", "s", "a", "b"]


def test_a_strategy_whose_games_nobody_won_has_par_0_relative_0_and_comes_last():
    never = (["a", "b", "z"], [None, None, None])
    summ = summary(_games([WON, HALF, never]))
    assert summ["strategy"].iloc[-1] == "z"
    z = summ.set_index("strategy").loc["z"]
    assert z["par"] == 0 and z["wins"] == 0 and z["relative"] == 0


def test_without_unfinished_games_par_is_the_fair_share_and_relative_the_rate_over_either():
    games = synthetic_games({"a": 1.0, "b": 0.5, "c": 0.0, "d": -0.5}, players=(3, 4),
                            deals=20, seed=4, unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    summ = summary(games)
    assert summ["par"].to_numpy() == pytest.approx(summ["fair_share"].to_numpy(), abs=0)
    old = summ["win_rate"] / summ["fair_share"]
    assert summ["relative"].to_numpy() == pytest.approx(old.to_numpy(), abs=0)
    assert summ["relative"].is_monotonic_decreasing


def test_the_summary_section_says_what_relative_is_measured_against():
    from reports.data import default_declaration
    from reports.report import compute_tables
    from reports.sections import sections

    tables = compute_tables(_games([WON, HALF]))[0]
    (summ,) = [s for s in sections(tables, "paired", default_declaration()) if s.title == "Summary"]
    assert "relative = win rate / fair share" in summ.text
    assert (
        "fair share (1/players: the win rate if all were equal and every game had one winner)"
        in summ.text
    )
    assert (
        "par (the win rate if each game's wins went to its seats at random: a reference, not a "
        "ranking, as a strategy's own play moves it)" in summ.text
    )
    assert "relative = win rate / par" not in summ.text


def test_the_summary_lead_reads_the_fair_share_as_what_equal_strategies_win_only_without_ties():
    from dataclasses import replace

    from reports.data import default_declaration
    from reports.report import compute_tables
    from reports.sections import sections

    tables = compute_tables(_games([WON, WON]))[0]  # every game won, by one player each

    def lead(shared: bool) -> str:
        d = replace(default_declaration(), shared_wins=shared)
        return next(s.lead for s in sections(tables, "paired", d) if s.title == "Summary")

    assert lead(False).endswith(
        "the orange tick is the fair share (the win rate if all were equal)."
    )
    tied = lead(True)  # ties count a win for each tied player: equal strategies win par
    assert "(the win rate if all were equal)" not in tied
    assert tied.endswith(
        "the orange tick is the fair share, 1/players: the win rate if all were equal and every "
        "game had one winner; a win shared by tied players counts for each of them, so all alike "
        "would win par, here 33.3% (the par column of the summary's full table), which ties raise "
        "above 1/players."
    )
