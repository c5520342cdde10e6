"""The tournament summary's mean of the rank value leaves forfeited games out, and says so
under the table; a strategy whose every game was forfeited has no mean: 'n/a', never 'nan'."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

SOMETIMES = str(Path(__file__).with_name("sometimes_strategy.py")) + ":Sometimes"
DEAD = '''
from strategies import Strategy


class Dead(Strategy, register=False):
    """Raises at every decision: every game it sits in ends by its forfeit."""

    def choose(self, view, legal, rng):
        raise RuntimeError("no")
'''


@pytest.mark.slow
def test_the_summary_says_its_means_leave_forfeited_rounds_out(tmp_path, capsys):
    code, out, err = cli(capsys, "tournament", "--game", "ligretto", SOMETIMES, "stack",
                         "--players", "2", "--games", "40", "--seed", "1", "--jobs", "1",
                         "--out", str(tmp_path / "r"))  # fmt: skip
    assert code == 0, err
    assert "The score means leave out the 8 rounds ended by a forfeit." in out, out
    assert "n/a" not in out


def test_a_strategy_with_every_game_forfeited_has_no_mean_not_nan(tmp_path, capsys):
    path = tmp_path / "dead.py"
    path.write_text(DEAD)
    code, out, err = cli(capsys, "tournament", f"{path}:Dead", "greedy", "low", "--players",
                         "3", "--games", "12", "--seed", "3", "--jobs", "1",
                         "--out", str(tmp_path / "r"))  # fmt: skip
    assert "nan" not in out and "n/a" in out, out
    assert "ended by a forfeit (n/a: every one of the strategy's was)." in out, out
