"""The command line's summary lists the strategies in the report's order, by win rate over
the fair share; where their fair shares differ, so that order need not be the win rates', it
shows them, and where they are alike (every balanced round robin) the table is as it was."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from leaves_cli.tournament_parts import summary_table
from reports.synthetic import synthetic_games


def _run(games: pd.DataFrame) -> SimpleNamespace:
    """A run whose rows are ``games``, its aggregates' columns counted from them by hand."""
    seats = games[[f"seat_{i}" for i in range(6)]].to_numpy(dtype=object)
    names = sorted({s for s in seats.ravel() if isinstance(s, str)})
    count = {n: int((seats == n).sum()) for n in names}
    wins = {n: int((games["winner"] == n).sum()) for n in names}
    order = sorted(names, key=lambda n: -wins[n] / count[n])  # by win rate, as aggregates sort
    cols = {"strategy": np.array(order, dtype=object),
            "games": np.array([count[n] for n in order]),
            "seats": np.array([count[n] for n in order]),
            "wins": np.array([wins[n] for n in order]),
            "win_rate": np.array([wins[n] / count[n] for n in order]),
            "cards_left_mean": np.ones(len(order)), "forfeits": np.zeros(len(order), int)}  # fmt: skip
    return SimpleNamespace(summary_columns=lambda: cols, spec={"expert": False, "rows": True},
                           manifest={"rank_value": "cards_left", "game_declaration": {}},
                           aggregates=lambda: {}, out=games)  # fmt: skip


def _games(drop_d_from_three: bool) -> pd.DataFrame:
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.3, "d": 0.2}, players=(3, 4), deals=4,
                            seed=28, unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    if not drop_d_from_three:
        return games
    three = games[["seat_0", "seat_1", "seat_2"]].astype(str)
    keep = (games["n_players"] == 4) | ~(three == "d").any(axis=1)
    return games[keep].reset_index(drop=True)  # d sits at tables of 4 only


def _lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [line for line in capsys.readouterr().out.splitlines() if "│" in line or "┃" in line]


def test_fair_shares_that_differ_are_shown_beside_the_order_they_set(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    games = _games(drop_d_from_three=True)
    summary_table(_run(games))
    lines = _lines(capsys)
    assert "fair share" in lines[0]  # the header
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:]] for line in
            lines if line.startswith("│")}  # fmt: skip
    assert list(rows) == ["d", "a", "b", "c"]  # d above a, whose win rate is the higher
    assert rows["d"][2] == "37.5%" and rows["a"][2] == "39.3%"
    seats = games[[f"seat_{i}" for i in range(4)]].to_numpy(dtype=object)
    for name in rows:  # by hand: the mean of 1/players over a strategy's seats
        mine = (seats == name).sum(axis=1)
        fair = (mine / games["n_players"].to_numpy()).sum() / mine.sum()
        assert rows[name][4] == f"{100 * fair:.1f}%"
    assert rows["d"][4] == "25.0%" and rows["a"][4] == "28.6%"


def test_alike_fair_shares_leave_the_table_as_it_was(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    summary_table(_run(_games(drop_d_from_three=False)))
    lines = _lines(capsys)
    assert "fair share" not in "".join(lines)
    rates = [float(line.split("│")[4].strip(" %")) for line in lines if line.startswith("│")]
    assert rates == sorted(rates, reverse=True)
