"""``leaves replay RUN --game N`` of a forfeited game shows its error whatever the game: a game
shown as lines (a plug-in with no viewer of its own, whose record need not hold the error)
ends with the forfeit in the words 13 Leaves' viewer gives its result, ``Result: seat N
(LABEL) forfeited: WHY.``; before, it showed the moves and nothing of the forfeit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaves_cli.replay_run import forfeit_words
from tests.toygame import ToyGame
from tournaments.runner import Tournament

from .helpers import cli

HERE = Path(__file__).parent


class LinesToy(ToyGame):
    """The toy game with its records shown as lines: its points, never the forfeit."""

    def replay_lines(self, record: str) -> list[str]:
        return [f"points: {json.loads(record)['points']}"]


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory) -> Path:
    """A run of the lines game whose ``crash`` entrant forfeits some of its games."""
    out = tmp_path_factory.mktemp("toy") / "run"
    Tournament(["crash", "p1", "p2"], game=LinesToy(), players=3, games=30, seed=1,
               rows=True).run(out=out)  # fmt: skip
    return out


def test_a_forfeited_game_shown_as_lines_ends_with_its_error(toy_run, capsys):
    (first, *_) = json.loads((toy_run / "forfeits.json").read_text())
    code, out, err = cli(capsys, "replay", str(toy_run), "--game", str(first["game"]))
    assert (code, err) == (0, "")
    seat = first["seat"]
    assert first["error"] == f"seat {seat} (crash): toy: crash crashed"  # the run's words
    assert out.splitlines()[1].startswith("points: [")
    assert out.splitlines()[-1] == f"Result: seat {seat} (crash) forfeited: toy: crash crashed."


def test_a_game_played_to_its_end_shows_no_forfeit(toy_run, capsys):
    forfeited = {f["game"] for f in json.loads((toy_run / "forfeits.json").read_text())}
    game = min(set(range(30)) - forfeited)
    code, out, _ = cli(capsys, "replay", str(toy_run), "--game", str(game))
    assert code == 0 and "forfeited" not in out and out.splitlines()[-1].startswith("points:")


@pytest.mark.parametrize(
    ("error", "seat", "said"),
    [
        ("seat 1 (b): boom", 1, "seat 1 (b) forfeited: boom"),  # the run's words already
        ("seat 1: boom", 1, "seat 1 (b) forfeited: boom"),  # its seat alone
        ("illegal card 14", 0, "seat 0 (a) forfeited: illegal card 14"),  # nothing of its seat
        (None, 1, "seat 1 (b) forfeited"),
        ("boom", -1, "forfeited: boom"),  # no seat to name
        (None, -1, None),  # no forfeit
        ("ring\x07", 0, "seat 0 (a) forfeited: ring\\x07"),  # never obeyed by the terminal
    ],
)
def test_forfeit_words(error, seat, said):
    assert forfeit_words(error, seat, ["a", "b"]) == said


def test_a_13_leaves_forfeit_replays_in_the_same_words(tmp_path, capsys, monkeypatch):
    """13 Leaves' viewer says its result itself: in the words a game shown as lines ends with."""
    monkeypatch.setenv("COLUMNS", "200")  # the result's line unwrapped
    run = tmp_path / "run"
    Tournament([f"{HERE / 'boom_strategy.py'}:Boom", "random", "counter"], players=3, games=3,
               seed=1).run(out=run, n_jobs=1)  # fmt: skip
    (first, *_) = json.loads((run / "forfeits.json").read_text())
    code, out, _ = cli(capsys, "replay", str(run), "--game", str(first["game"]), "--all")
    said = forfeit_words(first["error"], first["seat"], first["seats"])
    assert code == 0 and f"Result: {said}." in out.splitlines()
