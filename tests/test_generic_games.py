"""The runner, aggregates, matches and reports read only what a game declares.

The toy game (tests/toygame.py) differs from 13 Leaves on purpose: higher is better, other
columns, no first player, shared wins, up to 8 seats.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reports
from tests.toygame import ToyGame
from tournaments import Tournament
from tournaments.game import GamePlugin, declaration


def test_toy_and_real_games_implement_the_declared_plugin():
    from tournaments.games import get_game

    for game in (ToyGame(), get_game("leaves"), get_game("ligretto")):
        assert isinstance(game, GamePlugin)
        d = declaration(game)
        assert d["rank_value"] in d["seat_columns"] or d["rank_value"] == "cards_left"
        assert d["length_value"] in d["game_columns"]


def test_eight_seats_no_first_player_and_direction(tmp_path):
    res = Tournament(["a", "p1", "p2", "p3", "p4", "p5", "p6", "p7"], players=8, games=160,
                     seed=2, game=ToyGame(), seating="rotations").run(out=tmp_path)  # fmt: skip
    df = res.games()
    assert [c for c in df.columns if c.startswith("seat_")] == [f"seat_{s}" for s in range(8)]
    assert "first_player" not in df
    agg = res.aggregates()
    assert agg["offset_games"].sum() == 0  # nothing about a first player is invented
    assert agg["table_wins"].shape[1] == 8
    # higher points finish ahead: the most skilled entrant is ahead of the least most often
    h2h = res.head_to_head()
    assert h2h.loc["p7", "a"] > 0.9 and h2h.loc["a", "p7"] < 0.1
    pts = df[[f"points_{s}" for s in range(8)]].to_numpy()
    seats = df[[f"seat_{s}" for s in range(8)]].astype(str).to_numpy()
    i, j = res.labels.index("p7"), res.labels.index("a")
    ahead = sum(
        int((pts[r, seats[r] == "p7"] > pts[r, seats[r] == "a"]).all()) for r in range(len(df))
    )
    assert agg["ahead"][i, j] == ahead


@pytest.mark.slow
def test_report_of_a_toy_run_follows_the_declaration(tmp_path):
    """The whole report of the toy game (higher is better, other columns, no first player,
    shared wins): every table follows its declaration, nothing of 13 Leaves shows."""
    res = Tournament(["a", "p1", "p3"], players=3, games=300, seed=4, game=ToyGame()).run(
        out=tmp_path / "run"
    )
    page = reports.build_report(tmp_path / "run")
    out = page.parent
    rows = res.games()
    summary = pd.read_csv(out / "summary.csv")
    assert summary["strategy"].tolist() == ["p3", "p1", "a"]  # higher points first
    assert {"win_share", "mean_points_when_losing"} <= set(summary.columns)
    # shared wins: every seat tied for the most points wins (none in a forfeited game)
    pts = rows[[f"points_{s}" for s in range(3)]].to_numpy()
    won = pts == pts.max(axis=1, keepdims=True)
    labels = rows[[f"seat_{s}" for s in range(3)]].astype(str).to_numpy()
    wins = {lab: int(won[labels == lab].sum()) for lab in ("a", "p1", "p3")}
    assert summary.set_index("strategy")["wins"].to_dict() == wins
    means = pd.read_csv(out / "means.csv").set_index("strategy")
    assert means.loc["p3", "points_mean"] == pytest.approx(pts[labels == "p3"].mean())
    assert "bonus_mean" in means
    outcomes = pd.read_csv(out / "outcomes.csv").set_index("n_players")
    assert outcomes.loc["all", "tied_share"] == pytest.approx(rows["tied"].mean())
    assert set(pd.read_csv(out / "lengths.csv")["measure"]) == {"steps"}
    rating = pd.read_csv(out / "rating.csv")
    assert rating["strategy"].iloc[0] == "p3" and rating["strategy"].iloc[-1] == "a"
    h2h = pd.read_csv(out / "head_to_head.csv").set_index(["strategy", "opponent"])
    assert h2h.loc[("p3", "a"), "ahead_rate"] > 0.5 > h2h.loc[("a", "p3"), "ahead_rate"]
    assert not (out / "seats.csv").exists() and not (out / "neighbours.csv").exists()
    assert not (out / "by_parameter.csv").exists()  # the toy declares no parameters
    text = page.read_text()
    assert "more points is better" in text and "Toy" in text
    assert "cards" not in text.lower() and "turns" not in text
    findings = (out / "findings.txt").read_text()
    assert "Games won by tied players" in findings and "steps on median" in findings
    for chart in ("win_rates", "means", "rating", "head_to_head", "lengths_steps"):
        assert (out / "charts" / f"{chart}.png").stat().st_size > 1000
    # matches: the highest total wins
    Tournament(["a", "p3"], players=2, games=20, seed=1, game=ToyGame(), expert=True).run(
        out=tmp_path / "m"
    )
    page = reports.build_report(tmp_path / "m", fmt="md")
    m = pd.read_csv(page.parent / "matches.csv").set_index("strategy")
    assert m.loc["p3", "match_win_rate"] > m.loc["a", "match_win_rate"]
    assert "the highest total wins" in page.read_text()


def test_toy_matches_run_to_the_declared_target_in_its_direction(tmp_path):
    res = Tournament(["a", "p2"], players=2, games=20, seed=1, game=ToyGame(), expert=True).run(
        out=tmp_path
    )
    m = res.matches()
    totals = m[["total_0", "total_1"]].to_numpy()
    assert (totals.max(axis=1) >= ToyGame.match_target).all()
    winners = [list(w) for w in m["match_winners"]]
    best = totals == totals.max(axis=1, keepdims=True)
    assert winners == [list(np.flatnonzero(b)) for b in best]


def test_report_counts_a_forfeit_for_the_seat_that_forfeited(tmp_path):
    """The runner's rows say which seat forfeited (``forfeit_seat``): only that strategy is
    charged, and it finishes behind everyone in that game."""
    res = Tournament(["a", "crash", "p1"], players=3, games=300, seed=4, game=ToyGame()).run(
        out=tmp_path
    )
    rows = res.games()
    s = reports.summary(tmp_path).set_index("strategy")
    assert s.loc["crash", "forfeits"] == int(rows["forfeit"].sum()) > 0
    assert s.loc["a", "forfeits"] == s.loc["p1", "forfeits"] == 0
    g = reports.as_games(tmp_path)
    assert (g.forfeit_seat[g.forfeited] >= 0).all()
    key = g.ranks_key()[g.forfeited]
    seat = g.forfeit_seat[g.forfeited].astype(int)
    mine = key[np.arange(len(seat)), seat]
    others = np.where(np.arange(3)[None, :] == seat[:, None], -(10**9), key[:, :3])
    assert (mine > others.max(axis=1)).all()  # the forfeiting seat finishes behind all
