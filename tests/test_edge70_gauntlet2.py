"""Gauntlets at their edges: a run chunked by other sizes than this version chooses (an older
version chunked a slow gauntlet by 2,000 games) resumes in its own chunks, from the command
line and from Python, as a tournament does; a sequential gauntlet of a strategy against its
own copy on a plug-in game with no strategy registry is probed, not refused as an unknown
game; and the probe plays at most 200 games a side, in whole deals of every table."""

from __future__ import annotations

import pytest

import tournaments
from leaves_cli.sequential import PROBE_GAMES, played_alike, probe_games
from tests.helpers import cli, copied_run, doc_text, one_error_line, same_run
from tests.toygame import ToyGame
from tournaments import Gauntlet, GauntletResult

TOY = "tests.toygame:ToyGame"
SETTINGS = {"margin": 1.0, "alpha": 0.05, "beta": 0.05, "max_games": 400}


@pytest.fixture(autouse=True)
def _environment(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "300")


@pytest.fixture(scope="module")
def chunked(tmp_path_factory):
    """A complete toy gauntlet in chunks of 12 games, not the 2,000 this version gives it."""
    out = tmp_path_factory.mktemp("edge70g2") / "g"
    res = tournaments.gauntlet("p2", ["a", "p3"], baseline="p1", players=3, games=60, seed=2,
                               out=out, game=ToyGame(), chunk_size=12)  # fmt: skip
    assert res.manifest["spec"]["chunk_games"] == 12
    assert Gauntlet("p2", ["a", "p3"], "p1", players=3, games=60, seed=2,
                    game=ToyGame()).schedule.chunk_games != 12  # fmt: skip
    return out


def _interrupted(run, tmp_path):
    """A copy of ``run`` stopped with its chunk 2 unplayed."""

    def edit(m: dict) -> None:
        m["integrity"]["chunks"].pop("2")
        m["status"] = "interrupted"

    return copied_run(run, tmp_path, edit)


def test_the_command_resumes_a_gauntlet_in_its_own_chunks(chunked, tmp_path, capsys):
    """It said 'it holds a different tournament (differs in chunk_games: 2,000 here, 12 in
    the run)', exit 2, while verify and report advised that very command."""
    copy = _interrupted(chunked, tmp_path)
    code, said, err = cli(capsys, "gauntlet", "--resume", "--out", str(copy), "--jobs", "1",
                          "--no-progress")  # fmt: skip
    assert code == 0, err
    assert "p2 wins" in said, said
    assert "1 still to play" in err, err
    same_run(GauntletResult(copy), GauntletResult(chunked))


def test_the_api_resumes_a_gauntlet_in_its_own_chunks(chunked, tmp_path):
    copy = _interrupted(chunked, tmp_path)
    res = tournaments.gauntlet("p2", ["a", "p3"], baseline="p1", players=3, games=60, seed=2,
                               out=copy, game=ToyGame(), resume=True)  # fmt: skip
    assert res.manifest["spec"]["chunk_games"] == 12
    same_run(res, GauntletResult(chunked))


def test_a_chunk_size_asked_of_the_api_is_still_compared(chunked, tmp_path):
    """Only a resume that names none takes the run's."""
    with pytest.raises(ValueError, match="differs in chunk_games"):
        tournaments.gauntlet("p2", ["a", "p3"], baseline="p1", players=3, games=60, seed=2,
                             out=copied_run(chunked, tmp_path), game=ToyGame(), resume=True,
                             chunk_size=30)  # fmt: skip


def test_a_copy_on_a_game_with_no_strategy_registry_is_probed():
    """It said "unknown game 'toy'": the probe looked each entrant up in a registry the game
    does not keep. The toy copy plays otherwise (its noise is the play seed's)."""
    g = Gauntlet("p1", ["a"], "p1", players=3, games=6, seed=0, allow_same=True,
                 game=ToyGame(), sequential=SETTINGS)  # fmt: skip
    assert played_alike(g) is None


def test_the_command_plays_a_copy_on_a_game_with_no_strategy_registry(tmp_path, capsys):
    code, said, err = cli(capsys, "gauntlet", "--game", TOY, "p1", "--against", "a",
                          "--baseline", "p1", "--sequential", "--players", "3", "--games", "60",
                          "--max-games", "120", "--jobs", "1", "--no-progress",
                          "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert "unknown game" not in err and "p1 (baseline)" in said, said


@pytest.mark.parametrize(("players", "asked", "probed"), [
    (3, 216, 198),  # a deal of every table: 18 games a side
    (5, 210, 180),  # 30
    (6, 216, 180),  # 36
    (4, 216, 192),  # 24
])  # fmt: skip
def test_the_probe_plays_at_most_200_games_a_side_in_whole_deals(players, asked, probed):
    """It rounded 200 up to whole deals: 'the first 216 games per side' at 3 and 6 players."""
    g = Gauntlet("weighted", ["taker", "greedy", "low"], "weighted", players=players,
                 games=4_000, seed=0, allow_same=True, sequential=SETTINGS)  # fmt: skip
    assert Gauntlet("weighted", ["taker", "greedy", "low"], "weighted", players=players,
                    games=PROBE_GAMES, seed=0, allow_same=True,
                    sequential=SETTINGS).games_per_side == asked  # fmt: skip
    assert probe_games(g) == probed <= PROBE_GAMES
    probe = Gauntlet("weighted", ["taker", "greedy", "low"], "weighted", players=players,
                     games=probed, seed=0, allow_same=True, sequential=SETTINGS)  # fmt: skip
    assert probe.games_per_side == probed


def test_a_first_batch_under_200_is_probed_whole_and_a_deal_over_200_once():
    small = Gauntlet("weighted", ["taker"], "weighted", players=3, games=24, seed=0,
                     allow_same=True, sequential=SETTINGS)  # fmt: skip
    assert probe_games(small) == 24
    wide = ["taker", "greedy", "low", "random", "blocker", "counter", "high"]
    g = Gauntlet("weighted", wide, "weighted", players=4, games=4_000, seed=0, allow_same=True,
                 sequential=SETTINGS)  # fmt: skip
    assert probe_games(g) == 840  # 35 tables x 24 seatings: one deal of each


def test_the_command_says_the_games_the_probe_played(tmp_path, capsys):
    """At 3 players it said 'the first 201 games per side' (200 rounded up)."""
    out = tmp_path / "g"
    code, said, err = cli(capsys, "gauntlet", "weighted", "--against", "taker", "--players", "3",
                          "--sequential", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 2 and said == "", said
    assert "its copy ended each of the first 198 games per side as weighted did" in \
        one_error_line(err)  # fmt: skip
    assert not out.exists()


def test_the_docs_say_at_most_200_in_whole_deals():
    for page in ("cli.md", "tournaments.md"):
        said = doc_text(page)
        assert "at most 200 a side" in said and "one deal of every table where" in said, page
