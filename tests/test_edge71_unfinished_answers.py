"""The gauntlet's verdict and a tuning's verification say how many of their games stopped
unfinished at the game's limits, in the tournament's words (``reports.unfinished_line``, one
source): a verdict drawn mostly from games that never ended said nothing of it ('taker wins
10.0% ... No significant difference' with 85% of the games stopped at the turn limit)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from reports.data import default_declaration
from reports.unfinished_line import unfinished_clause, unfinished_line
from tests.helpers import cli
from tuning.tune import _verified
from tuning.verify import Arm, Verification

LIMIT = "a limit of the game (25 turns a game)"


def _run(games: int, unfinished: int, won: int = 0, counted: bool = True) -> SimpleNamespace:
    """A run as the line reads it: its aggregates (over two table sizes) and its manifest
    (13 Leaves under turn_limit=25); ``counted`` False: aggregates written before the
    unfinished counts."""
    agg = {"size_games": np.array([0, games])}
    if counted:
        agg |= {"size_unfinished": np.array([0, unfinished]),
                "size_unfinished_won": np.array([0, won])}  # fmt: skip
    declared = {**default_declaration().to_dict(), "limits": "25 turns a game"}
    return SimpleNamespace(aggregates=lambda: agg, manifest={"game_declaration": declared})


def test_the_clause_counts_the_runs_together():
    both = unfinished_clause([_run(48, 44), _run(48, 40)])
    assert both == f"84 games (87.5%) stopped unfinished at {LIMIT} and count as nobody's win"
    assert unfinished_clause([_run(48, 0), _run(48, 0)]) == ""  # none stopped: nothing said
    assert unfinished_clause([_run(48, 4), _run(48, 9, counted=False)]) == (
        f"4 games (8.3%) stopped unfinished at {LIMIT} and count as nobody's win"
    )  # a run that does not tell is left out, not counted as none
    assert unfinished_clause([_run(48, 9, counted=False)]) == ""


def test_the_line_is_a_sentence_after_whose_games_it_counts():
    assert unfinished_line(_run(960, 816), who="both sides together: ") == (
        f"Both sides together: 816 games (85.0%) stopped unfinished at {LIMIT} and count as "
        "nobody's win."
    )
    assert unfinished_line(_run(960, 0)) == ""


def _verification(unfinished: str) -> Verification:
    arm = Arm("weighted", "weighted", 48, 2, 2 / 48, 0.01, 0.14)
    return Verification(1, arm, arm, 0.0, -0.05, 0.05, 1.0, 8, 0, unfinished)


def test_the_verification_says_how_many_of_its_games_stopped_unfinished():
    said = f"88 games (91.7%) stopped unfinished at {LIMIT} and count as nobody's win"
    lines = _verified(_verification(said), "weighted")
    assert lines[-1] == f"  both arms together: {said}"
    assert not any("unfinished" in x for x in _verified(_verification(""), "weighted"))


@pytest.fixture
def _wide(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "300")


@pytest.mark.slow
def test_a_gauntlet_says_how_many_games_stopped_unfinished(capsys, tmp_path, _wide):
    args = ["gauntlet", "greedy", "--against", "low", "--baseline", "random", "--players", "3",
            "--games", "60", "--jobs", "1", "--seed", "0"]  # fmt: skip
    code, out, err = cli(capsys, *args, "--rules", "turn_limit=30", "--out", str(tmp_path / "a"))
    assert code == 0, err
    lines = out.splitlines()
    said = next(i for i, x in enumerate(lines) if "stopped unfinished" in x)
    assert lines[said] == ("Both sides together: 69 games (57.5%) stopped unfinished at a limit "
                           "of the game (30 turns a game) and count as nobody's win.")  # fmt: skip
    assert lines[said - 1].startswith("No significant difference"), out  # under the verdict
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "b"))  # every game finished
    assert code == 0, err
    assert "stopped unfinished" not in out, out


@pytest.mark.slow
def test_a_tuning_says_how_many_verification_games_stopped_unfinished(capsys, tmp_path, _wide):
    code, out, err = cli(capsys, "tune", "weighted", "--against", "taker,greedy", "--rules",
                         "turn_limit=25", "--budget", "264", "--popsize", "2",
                         "--candidate-games", "24", "--verify-games", "24", "--jobs", "1",
                         "--seed", "1", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    said = next(i for i, x in enumerate(lines) if "stopped unfinished" in x)
    assert lines[said - 1].startswith("  paired difference"), out
    assert lines[said].startswith("  both arms together: "), out
    assert lines[said].endswith(f"stopped unfinished at {LIMIT} and count as nobody's win")
