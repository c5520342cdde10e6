"""The summary's ``par`` (what a win rate is read against where games count as nobody's win
or wins are shared) computed by hand, and the matches' sentence read as one sentence where
the run is too small for an interval."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ligretto.plugin import LigrettoGame
from reports.data import default_declaration
from reports.findings import _expert
from reports.loading import games_from_frame
from reports.page import readable
from reports.tables import summary
from tournaments.declaration import Declaration


def _leaves_games() -> pd.DataFrame:
    """Four games of 13 Leaves: a beats b; a and c unfinished; c wins at three; all three
    unfinished (nobody's win)."""
    return pd.DataFrame({
        "seat_0": ["a", "a", "a", "a"], "seat_1": ["b", "c", "b", "b"],
        "seat_2": [None, None, "c", "c"],
        "cards_left_0": [0, 3, 2, 4], "cards_left_1": [5, 2, 6, 1],
        "cards_left_2": [None, None, 0, 2],
        "n_players": [2, 2, 3, 3], "first_player": [0, 0, 0, 0], "winner_seat": [0, -1, 2, -1],
        "turns": [40, 1000, 60, 1000], "rounds": [1, 9, 2, 9],
        "unfinished": [False, True, False, True],
    })  # fmt: skip


def test_summary_par_is_each_games_wins_shared_among_its_seats():
    s = summary(games_from_frame(_leaves_games(), default_declaration())).set_index("strategy")
    # by hand: a sat at 1/2, 1/2, 1/3, 1/3 and games with a winner gave it 1/2 and 1/3
    truth = {"a": (5 / 12, 5 / 24), "b": (7 / 18, 5 / 18), "c": (7 / 18, 1 / 9)}
    for k, (fair, par) in truth.items():
        assert s.loc[k, "fair_share"] == pytest.approx(fair)
        assert s.loc[k, "par"] == pytest.approx(par)
    assert (s["par"] * s["games"]).sum() == pytest.approx(s["wins"].sum())  # 2 wins in all


def test_summary_par_counts_a_shared_win_for_each_winner():
    frame = pd.DataFrame({
        "seat_0": ["a", "a"], "seat_1": ["b", "b"], "score_0": [5, 7], "score_1": [5, 3],
        "n_players": [2, 2], "winner_seat": [-1, 0], "seconds": [20, 30], "plays": [9, 9],
    })  # fmt: skip
    s = summary(games_from_frame(frame, Declaration.of(LigrettoGame()))).set_index("strategy")
    assert s["wins"].to_dict() == {"a": 2, "b": 1}  # the tie won by both
    assert s["fair_share"].tolist() == [0.5, 0.5]
    assert s["par"].tolist() == pytest.approx([0.75, 0.75])  # (2/2 + 1/2) / 2 rounds


def test_the_page_shows_the_summarys_par_as_a_rate():
    s = summary(games_from_frame(_leaves_games(), default_declaration()))
    shown = readable("summary", s).set_index("strategy")
    assert shown.loc["a", "par"] == "20.8%"  # 5/24


def _matches(lo: float, hi: float) -> pd.DataFrame:
    return pd.DataFrame({"strategy": ["a"], "match_win_rate": [0.6], "ci_low": [lo],
                         "ci_high": [hi], "match_win_rate_split": [0.55], "fair_share": [0.25],
                         "shared_wins": [3], "match_wins": [12], "matches": [20]})  # fmt: skip


@pytest.mark.parametrize("lo, hi, rate", [
    (math.nan, math.nan, "60.0% of its matches (too few deals for an interval)"),
    (0.4, 0.8, "60.0% [40.0, 80.0] of its matches"),
])  # fmt: skip
def test_the_matches_sentence_has_no_two_brackets_in_a_row(lo, hi, rate):
    (found,) = _expert(_matches(lo, hi), default_declaration())
    assert found.text == (
        f"Expert matches: a wins {rate}, counting shared wins as wins (55.0% with each shared "
        "win split); fair share 25.0%; 3 of its 12 wins were shared."
    )
    assert ") (" not in found.text
