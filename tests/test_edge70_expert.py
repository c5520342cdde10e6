"""The expert (match) table counts each match once in ``matches`` and ``forfeited_matches``,
as the summary counts games, with its seats beside them (``seats``) and every rate over its
seats: a strategy at two seats of a table had each of its seats counted as a match (54
matches of a 36-match run; 7 forfeited of the 3 matches that held one)."""

from __future__ import annotations

import pandas as pd
import pytest

from reports import expert
from reports.data import default_declaration
from reports.findings import _expert
from reports.page import key_rows
from reports.sections import _match_text
from tests.helpers import cli
from tests.test_boundaries_expert_report import make_games

# (match id, seats (A 0, B 1), each game's scores, the forfeited games); lowest total wins
MATCHES = [
    (1, (0, 0, 1), [(2, 5, 9)], ()),  # A at two seats wins once
    (2, (0, 1, 1), [(4, 3, 8)], ()),  # B at two seats wins once
    (3, (0, 0, 1), [(1, 1, 1)], (0,)),  # forfeited: nobody wins; A at two seats
    (4, (1, 1, 1), [(1, 2, 3)], ()),  # B alone, three seats: one match won
]


def _table() -> pd.DataFrame:
    return expert(make_games(MATCHES, labels=("A", "B"))).set_index("strategy")


def test_matches_and_forfeited_matches_count_each_match_once():
    """Was: A 5 matches (its seats) and 2 forfeited; B 7 matches."""
    t = _table()
    assert t.loc["A", ["matches", "seats", "match_wins", "forfeited_matches"]].tolist() == [
        3, 5, 1, 1]  # fmt: skip
    assert t.loc["B", ["matches", "seats", "match_wins", "forfeited_matches"]].tolist() == [
        4, 7, 2, 1]  # fmt: skip


def test_every_rate_and_mean_is_over_its_seats():
    t = _table()
    assert t.loc["A", "match_win_rate"] == pytest.approx(1 / 5)
    assert t.loc["B", "match_win_rate"] == pytest.approx(2 / 7)
    assert t.loc["B", "fair_share"] == pytest.approx(1 / 3)
    assert t.loc["A", "mean_final_total"] == pytest.approx((2 + 5 + 4 + 1 + 1) / 5)


def test_the_page_s_key_rows_show_the_seats_beside_the_matches():
    top, _ = key_rows("expert", expert(make_games(MATCHES, labels=("A", "B"))))
    assert list(top.columns[:4]) == ["strategy", "matches", "seats", "match_wins"]


def test_the_finding_says_its_rate_of_seats_and_its_void_matches_of_matches():
    """The leader, B, held 7 seats in 4 matches, one of them void. Was: '... of its matches'
    (no summary given) and '1 of its 7 matches held a forfeited game'."""
    ex = expert(make_games(MATCHES, labels=("A", "B")))
    (found,) = _expert(ex, default_declaration())
    assert found.text.startswith("Expert matches: B wins 28.6% of its seats (")
    assert found.text.endswith(" 1 of its 4 matches held a forfeited game and was won by nobody.")


def test_at_one_seat_a_match_it_says_of_its_matches():
    one = [(1, (0, 1), [(1, 2)], ()), (2, (1, 0), [(1, 2)], ()), (3, (0, 1), [(3, 1)], (0,))]
    ex = expert(make_games(one, labels=("A", "B")))
    assert ex["matches"].tolist() == ex["seats"].tolist() == [3, 3]
    (found,) = _expert(ex, default_declaration())
    assert found.text.startswith("Expert matches: A wins 33.3% of its matches (")
    assert " 1 of its 3 matches held a forfeited game and was won by nobody. " in found.text


@pytest.mark.slow
def test_a_run_at_two_seats_a_table_counts_its_matches_once(capsys, tmp_path):
    out = tmp_path / "e"
    code, _, err = cli(capsys, "tournament", "weighted", "taker", "--players", "3", "--expert",
                       "--games", "36", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert cli(capsys, "report", str(out))[0] == 0
    table = pd.read_csv(out / "report" / "expert.csv")
    (played,) = pd.read_csv(out / "report" / "expert_lengths.csv")["matches"]
    assert played == 36
    assert (table["matches"] <= played).all() and (table["matches"] < table["seats"]).all()
    assert table["seats"].sum() == 3 * played
    rates = table["match_wins"] / table["seats"]
    assert table["match_win_rate"].tolist() == pytest.approx(rates.tolist())


def test_the_section_says_what_matches_and_seats_count():
    text = _match_text(default_declaration(), {"target": 20})
    assert text.endswith(
        " Per strategy: the matches it sat in, each once (matches; forfeited_matches: those "
        "that held a forfeited game, won by nobody), and its seats (more than its matches where "
        "it held two seats at a table), which its wins, rates and means count."
    )
