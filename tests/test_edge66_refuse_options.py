"""Ligretto's run options refused up front, each named where it was given: a config file's
game setting that Ligretto does not have, by its key in that file (not a flag nobody typed),
and a ``--target`` no game of rounds can reach, with the most a game can score."""

from __future__ import annotations

import re

import pytest

from gamekit.matches import MAX_GAMES
from ligretto.match import MAX_GAME_POINTS, Match
from ligretto.plugin import LigrettoGame
from ligretto.rules import SET_SIZE, STACK_SIZE, score
from tests.helpers import cli, one_error_line

BEST_ROUND = score(SET_SIZE, 0)  # all of a player's cards in the centre, its stack empty
MOST = MAX_GAMES * BEST_ROUND  # every round of the longest game at its best
REACH = (
    f"a game plays at most {MAX_GAMES} rounds, which score at most {MOST:,} ({BEST_ROUND} a round)"
)


@pytest.fixture(autouse=True)
def _cli_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "200")  # rich's tables on one line


def _config(tmp_path, lines: str) -> str:
    path = tmp_path / "c.toml"
    path.write_text(f'game = "ligretto"\nstrategies = ["stack", "row"]\n{lines}')
    return str(path)


def test_a_config_files_setting_ligretto_lacks_is_named_by_its_key(tmp_path, capsys):
    """``turn_limit = 50`` in a config file was refused as "--turn-limit is not a Ligretto
    option", a flag nobody typed; typed, the flag is named."""
    config = _config(tmp_path, "turn_limit = 50\n")
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--config", config, "--players", "2",
                       "--games", "2", "--no-progress", "--out", str(out))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == f"leaves: error: {config}: turn_limit is not a Ligretto option"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                       "--turn-limit", "50", "--games", "2", "--out", str(out))  # fmt: skip
    assert code == 2 and one_error_line(err).endswith(": --turn-limit is not a Ligretto option")
    assert not out.exists()


def test_the_most_a_game_scores_is_its_most_rounds_at_their_best():
    assert BEST_ROUND == 40 and STACK_SIZE < SET_SIZE
    with pytest.raises(ValueError):  # no more of one's cards than the set holds
        score(SET_SIZE + 1, 0)
    assert MAX_GAME_POINTS == MOST == 2_560
    assert Match(2, target=MOST).target == MOST


def test_a_game_to_a_target_out_of_reach_is_refused():
    """``Match`` played such a game to the cap on rounds, whose best total then won."""
    with pytest.raises(ValueError, match=f"^the target 2,561 is out of reach: {re.escape(REACH)}$"):
        Match(2, target=MOST + 1)


@pytest.mark.parametrize("where", ["flag", "file"])
def test_a_run_to_a_target_out_of_reach_is_refused_up_front(tmp_path, capsys, where):
    """``--target 100000`` was played out, every game to the cap of 64 rounds, and explained
    afterwards; it is refused in one line naming the most a game can score, nothing written."""
    out = tmp_path / "run"
    args = ["--players", "2", "--games", "2", "--no-progress", "--out", str(out)]
    if where == "flag":
        code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                           "--target", "100000", *args)  # fmt: skip
        named = "--target"
    else:
        config = _config(tmp_path, "target = 100000\n")
        code, _, err = cli(capsys, "tournament", "--config", config, *args)
        named = f"{config}: target"
    assert code == 2, err
    line = one_error_line(err)
    assert line == f"leaves: error: {named} 100,000 is out of reach: {REACH}", line
    assert not out.exists()


def test_the_game_refuses_only_a_target_out_of_reach():
    game = LigrettoGame()
    game.check_target(MOST)
    game.check_target(1)
    with pytest.raises(ValueError, match="^target 2,561 is out of reach"):
        game.check_target(MOST + 1)
