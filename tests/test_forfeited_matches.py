"""A match holding a forfeited game has no winner, as a forfeited game has none: a strategy
that raised at its first decision of every game shared the match wins of the seats it stopped
(each game ended at once, every seat scoring its cards left), 11.1% of the matches of a run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tournaments
from gamekit.batches import PerGame
from gamekit.matches import play_waves
from tests.helpers import cli

SOMETIMES_LEAVES = """
from strategies import Strategy


class Sometimes(Strategy, register=False):
    def choose(self, view, legal, rng):
        if view.hand[12] and view.turn >= 4:  # a 13 in hand: a forfeit in some games only
            raise RuntimeError("a 13")
        return min(legal, key=lambda a: (a.is_pass, a.value))
"""
RAISES = """
from strategies import Strategy


class Raises(Strategy, register=False):
    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""
SOMETIMES = {"leaves": None, "ligretto": Path(__file__).with_name("sometimes_strategy.py")}
UNITS = {"leaves": "matches", "ligretto": "games"}  # what a match is called
FIELD = {"leaves": ["greedy", "low", "high"], "ligretto": ["stack", "row", "cautious"]}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["leaves", "ligretto"])
def test_a_match_with_a_forfeited_game_has_no_winner(game, tmp_path, capsys):
    path = SOMETIMES[game]
    if path is None:
        path = tmp_path / "sometimes.py"
        path.write_text(SOMETIMES_LEAVES)
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", game, f"{path}:Sometimes", *FIELD[game],
                       "--players", "3", "--expert", "--games", "24", "--seed", "3",
                       "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    games = tournaments.load(out).games()
    void = games.groupby("match")["forfeit_seat"].max() >= 0
    assert 0 < void.sum() < len(void)  # the check needs both kinds of match
    matches = pd.read_parquet(out / "matches")
    winners = matches.set_index("match")["match_winners"].map(len)
    assert (winners[void[void].index] == 0).all()
    assert (winners[void[~void].index] > 0).all()
    code, _, err = cli(capsys, "report", str(out))
    assert code == 0, err
    table = "expert" if game == "leaves" else "matches"
    expert = pd.read_csv(out / "report" / f"{table}.csv").set_index("strategy")
    assert expert["forfeited_matches"].sum() == 3 * void.sum()
    assert expert.loc["Sometimes", "forfeited_matches"] == void.sum()
    top = expert.sort_values("match_win_rate", ascending=False).iloc[0]
    assert (
        f"{int(top['forfeited_matches'])} of its {int(top['matches'])} {UNITS[game]} held a "
        "forfeited" in (out / "report" / "findings.txt").read_text()
    )


@dataclass
class _Games(PerGame):
    forfeited: np.ndarray  # bool (G,)


def test_play_waves_gives_a_match_with_a_forfeit_no_winner() -> None:
    """Two matches of two games, seat 1 scoring 5 a game: seat 0 wins both, but the first
    game of match 0 was forfeited, so match 0 has no winner."""
    waves = []

    def play(deal: np.ndarray, seeds: np.ndarray) -> _Games:
        waves.append(len(deal))
        return _Games(np.arange(len(deal)) == 0 if len(waves) == 1 else np.zeros(len(deal), bool))

    seeds = np.arange(2, dtype=np.uint64)
    w = play_waves(play, lambda b: np.tile([0, 5], (len(b.forfeited), 1)), seeds, seeds, 2,
                   rounds=2, forfeits=lambda b: b.forfeited)  # fmt: skip
    assert waves == [2, 2]  # a forfeit does not end a match early: its games are played alike
    assert w.match_winners.tolist() == [[False, False], [True, False]]
    assert w.match_forfeited.tolist() == [True, False]


def test_the_workbench_counts_no_shared_win_in_a_match_won_by_nobody(tmp_path, capsys):
    """A strategy that raises at once leaves every seat its whole hand: the totals tie, and the
    workbench's shared-wins measure counted such a match, which nobody wins, as shared."""
    from reports.loading import as_run
    from reports.variants_metrics import measures

    path = tmp_path / "raises.py"
    path.write_text(RAISES)
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", f"{path}:Raises", "greedy", "low", "high",
                       "--players", "3", "--expert", "--games", "24", "--seed", "3",
                       "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1, err  # Raises has no valid game
    matches = pd.read_parquet(out / "matches")
    truth = (matches["match_winners"].map(len) > 1).mean()
    (shared,) = [m.value for m in measures(as_run(out)) if m.metric == "shared_wins"]
    assert shared == truth < 1


def test_split_match_wins_do_not_depend_on_the_chunking(tmp_path, capsys):
    """The aggregates summed each chunk's split wins (thirds, sixths) in floating point, so
    the run's match_win_share changed with the chunk size in its last bits."""
    shares = []
    for name, chunk in (("a", "480"), ("b", "96"), ("c", "48")):
        out = tmp_path / name
        code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "minimal",
                           "--players", "4", "--games", "480", "--expert", "--seed", "3",
                           "--jobs", "1", "--chunk-size", chunk, "--out", str(out))  # fmt: skip
        assert code == 0, err
        shares.append(tournaments.load(out).summary()["match_win_share"].tolist())
    assert shares[0] == shares[1] == shares[2]
    assert any(s % 1 for s in shares[0])  # the check needs split wins
