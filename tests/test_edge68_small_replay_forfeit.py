"""`leaves replay` of a forfeited game exits as a replay that shows what the game was: 0, for
13 Leaves (stopped at the failing decision) and for Ligretto (a forfeited round keeps no
round record: the printed line says so, where a timeline would stand), as docs/cli.md's
exit-code table keeps 1 for input that cannot be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import cli, cli_output, one_error_line

HERE = Path(__file__).parent


def test_a_forfeited_13_leaves_game_replays_with_exit_0(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the result's line unwrapped
    run = str(tmp_path / "run")
    code, _, err = cli(capsys, "tournament", f"{HERE / 'boom_strategy.py'}:Boom", "random",
                       "counter", "--players", "3", "--games", "3", "--seed", "1", "--jobs", "1",
                       "--out", run)  # fmt: skip
    assert code in (0, 1), err  # 1 where every game was forfeited: the run's own code
    code, out, err = cli(capsys, "replay", run, "--all")
    assert code == 0, err
    assert "Result: seat 0 (Boom) forfeited: RuntimeError: boom at turn 1" in out, out


def test_a_forfeited_ligretto_round_replays_with_exit_0_saying_why_no_timeline(tmp_path, capsys):
    run = str(tmp_path / "run")
    code, _, err = cli(capsys, "tournament", "--game", "ligretto",
                       f"{HERE / 'sometimes_strategy.py'}:Sometimes", "stack", "--players", "2",
                       "--games", "4", "--seed", "1", "--jobs", "1", "--out", run)  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "replay", run, "--game", "0")  # round 0 is forfeited
    assert (code, err) == (0, ""), err
    (line,) = out.splitlines()
    assert line.startswith(f"Round 0 of run {run}, replayed from its seeds: the round was "
                           "forfeited (")  # fmt: skip
    assert "KeyError: 'a 6'" in line
    assert line.endswith("a forfeited round keeps no round record, so there is no timeline "
                         "to show.")  # fmt: skip


def test_the_command_table_says_the_exit_code_of_a_forfeit_replayed():
    row = next(
        line
        for line in (HERE.parent / "docs" / "cli.md").read_text().splitlines()
        if line.startswith("| `leaves replay ")
    )
    assert "either way exit 0: a forfeit is a game the run played" in row
    assert "a forfeited Ligretto round, which keeps no round record, is one line" in row


@pytest.fixture(scope="module")
def ligretto_run(tmp_path_factory) -> str:
    """A Ligretto run whose round 0 is forfeited and round 1 played to its end."""
    run = str(tmp_path_factory.mktemp("lig") / "run")
    code, _, err = cli_output("tournament", "--game", "ligretto",
                              f"{HERE / 'sometimes_strategy.py'}:Sometimes", "stack",
                              "--players", "2", "--games", "4", "--seed", "1", "--jobs", "1",
                              "--out", run)  # fmt: skip
    assert code == 0, err
    return run


@pytest.mark.parametrize("game", ["0", "1"])
@pytest.mark.parametrize("play_refuses", [False, True])
def test_a_replay_refused_for_another_reason_stays_refused(
    ligretto_run, game, play_refuses, monkeypatch, capsys
):
    """Only a forfeit the play confirms is shown with exit 0: a replay refused otherwise (here
    made to refuse) is one line and exit 1, whether the play then finishes the round, forfeits
    it or refuses too."""
    from ligretto.plugin import LigrettoGame

    def refuse(*args, **kwargs):
        raise ValueError("made to refuse")

    monkeypatch.setattr(LigrettoGame, "replay", refuse)
    if play_refuses:
        monkeypatch.setattr(LigrettoGame, "play", refuse)
    code, out, err = cli(capsys, "replay", ligretto_run, "--game", game)
    if game == "0" and not play_refuses:  # the play confirms the forfeit: said, exit 0
        assert (code, out.strip()) == (0, f"Round 0 of run {ligretto_run}, replayed from its "
                                          "seeds: made to refuse."), err  # fmt: skip
        return
    line = one_error_line(err)
    assert (code, line) == (1, f"leaves: error: {ligretto_run}, round {game}: made to refuse")
