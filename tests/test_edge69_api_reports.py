"""The report functions refuse in one line what would make a false sentence: ``top`` below 2
(the command's --top takes 2 to 20; with 1, the best two 'never sat at one table'), a games
DataFrame that gives a game twice (every game counted again, the intervals narrowed by games
never played); and one neighbour pair compared is corrected over nothing ('over the 1
pairs')."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reports
from reports.data import ReportError
from reports.findings import _verdicts
from reports.synthetic import synthetic_games

GAMES = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=8, seed=1)
TOP = "^top must be at least 2 \\(the strategies compared pairwise\\), got 1$"


def test_top_1_is_refused_as_the_command_refuses_it(tmp_path):
    for make in (reports.Report, reports.compute_tables):
        with pytest.raises(ValueError, match=TOP):
            make(GAMES, top=1)
    with pytest.raises(ValueError, match=TOP):
        reports.build_report(GAMES, out=tmp_path / "r", top=1)
    assert not (tmp_path / "r").exists()


def test_a_games_frame_that_gives_a_game_twice_is_refused():
    with pytest.raises(ReportError, match=r"^games DataFrame gives 1 game number more than once "
                                          r"\(the first: game 5\): give each game once"):  # fmt: skip
        reports.summary(pd.concat([GAMES, GAMES.iloc[[5]]]))
    with pytest.raises(ReportError, match=f"gives {len(GAMES)} game numbers more than once"):
        reports.summary(pd.concat([GAMES, GAMES]))
    again = GAMES.assign(game=GAMES["game"] + len(GAMES))  # numbered apart: twice the games
    assert reports.summary(pd.concat([GAMES, again]))["games"].sum() == 2 * 3 * len(GAMES)


PAIR = pd.DataFrame({"strategy": ["a", "b"], "before": ["b", "a"], "vs_elsewhere": [0.1, 0.05],
                     "vs_elsewhere_low": [0.02, -0.01], "vs_elsewhere_high": [0.18, 0.11],
                     "vs_elsewhere_p": [0.01, 0.2]})  # fmt: skip


@pytest.mark.parametrize("p, said", [
    (0.2, "; not significant (the only pair compared, so no correction): it may be chance"),
    (0.01, "; it holds (the only pair compared, so no correction)"),
])  # fmt: skip
def test_one_neighbour_pair_is_corrected_over_nothing(p, said):
    assert _verdicts(PAIR.iloc[:1], np.array([p])) == said


def test_pairs_are_counted_in_words_true_of_their_number():
    two = _verdicts(PAIR, np.array([0.6, 0.4]))
    assert two == "; not significant after correction over the 2 pairs: it may be chance"
