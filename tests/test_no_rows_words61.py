"""A --no-rows run's summary says why it has no intervals in the game's unit: "per-round
rows" for a game played in rounds (it said "per-game rows" of every game)."""

from __future__ import annotations

import pytest

from tests.helpers import cli


@pytest.mark.parametrize(
    ("game", "unit"),
    [(["--game", "ligretto", "stack", "row"], "round"), (["greedy", "low"], "game")],
)
def test_a_no_rows_summary_says_why_it_has_no_intervals_in_the_games_unit(tmp_path, capsys,
                                                                          game, unit):  # fmt: skip
    code, out, err = cli(capsys, "tournament", *game, "--players", "3", "--games", "12",
                         "--seed", "1", "--jobs", "1", "--no-rows", "--out", str(tmp_path))  # fmt: skip
    assert code == 0, err
    said = " ".join((out + err).split())
    assert (
        f"no intervals: the run kept no per-{unit} rows (--no-rows), and they count deals" in said
    )
