"""One-line errors that say only what is true: a value no one typed is named as the default
(or the resumed run's) it is; a required argument or option left out is said in the
project's words in every command; each game names itself and its table sizes when refused a
count it is not played by."""

from __future__ import annotations

import pytest

from tests.helpers import cli, one_error_line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tournament", "greedy", "low", "high", "--precision", "1", "--max-games", "0"],
         "--max-games (0) must be at least the default --games (100,000)"),
        (["tournament", "greedy", "low", "high", "--precision", "1", "--max-games", "0",
          "--games", "100"],
         "--max-games (0) must be at least --games (100)"),
        (["gauntlet", "greedy", "--against", "low", "--sequential", "--max-games", "10"],
         "--max-games (10) must be at least the default --games (4,000)"),
        (["gauntlet", "greedy", "--against", "low", "--sequential", "--max-games", "10",
          "--games", "20"],
         "--max-games (10) must be at least --games (20)"),
    ],
)  # fmt: skip
def test_a_cap_below_the_first_stage_names_games_as_given_or_as_the_default(
    tmp_path, capsys, args, line
):
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "x"))
    assert code == 2 and not out and one_error_line(err) == f"leaves: error: {line}"
    assert not (tmp_path / "x").exists()


def test_a_cap_from_the_config_file_names_the_default_games_it_is_held_against(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("precision = 1.0\nmax_games = 0\n")
    code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "--config", str(config),
                       "--out", str(tmp_path / "x"))  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (f"leaves: error: {config}: max_games (0) must be at least "
                                   "the default --games (100,000)")  # fmt: skip


def test_a_resumed_runs_cap_below_its_games_names_them_as_the_runs(tmp_path, capsys):
    out = str(tmp_path / "run")
    code, _, err = cli(capsys, "tournament", "greedy", "low", "high", "--games", "60",
                       "--jobs", "1", "--out", out)  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "tournament", "--resume", "--out", out, "--precision", "1",
                       "--max-games", "10")  # fmt: skip
    assert code == 2
    assert one_error_line(err) == ("leaves: error: --max-games (10) must be at least the "
                                   "resumed run's --games (60)")  # fmt: skip


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["gauntlet"], "SPEC is required (see 'leaves gauntlet --help')"),
        (["gauntlet", "greedy"], "--against is required (see 'leaves gauntlet --help')"),
        (["tune"], "SPEC is required (see 'leaves tune --help')"),
        (["tune", "weighted"], "--against is required (see 'leaves tune --help')"),
        (["compare", "a"], "RUN_B is required (see 'leaves compare --help')"),
        (["report"], "RUN_DIR is required (see 'leaves report --help')"),
        (["variants"], "--out is required (see 'leaves variants --help')"),
    ],
)
def test_a_required_argument_or_option_left_out_is_said_in_the_projects_words(capsys, args, line):
    code, out, err = cli(capsys, *args)
    assert code == 2 and not out and one_error_line(err) == f"leaves: error: {line}"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tournament", "--game", "ligretto", "stack", "row", "--players", "1", "--out", "{d}"],
         "--players 1: Ligretto takes 2 to 12 players, got 1"),
        (["tournament", "--game", "ligretto", "stack", "row", "--players", "2,13", "--out",
          "{d}"],
         "--players 13: Ligretto takes 2 to 12 players, got 13"),
        (["bench", "--game", "ligretto", "--players", "1"],
         "--players 1: Ligretto takes 2 to 12 players, got 1"),
        (["tournament", "greedy", "low", "--players", "1", "--out", "{d}"],
         "--players 1: 13 Leaves is played by 3 to 6 players, got 1"),
    ],
)  # fmt: skip
def test_a_table_size_a_game_is_not_played_by_is_refused_naming_the_game(
    tmp_path, capsys, args, line
):
    code, _, err = cli(capsys, *(a.replace("{d}", str(tmp_path / "x")) for a in args))
    assert code == 2 and one_error_line(err) == f"leaves: error: {line}"


def test_ligrettos_table_sizes_are_those_its_declaration_states():
    from ligretto.plugin import LigrettoGame

    game = LigrettoGame()
    for k in range(game.min_players, game.max_players + 1):
        game.check_players(k)
    for k in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError, match=f"^Ligretto takes {game.min_players} to "
                                             f"{game.max_players} players, got {k}$"):  # fmt: skip
            game.check_players(k)


@pytest.mark.parametrize(
    ("args", "said"),
    [(["report", "x", "--out"], "--out needs a value after it (see 'leaves report --help')"),
     (["tournament", "random", "--games"],
      "--games needs a value after it (see 'leaves tournament --help')")],
)  # fmt: skip
def test_an_option_given_without_its_value_is_said_in_the_projects_words(capsys, args, said):
    """click said "Option '--out' requires an argument. (see 'leaves --help')", pointing to the
    top help rather than the command's."""
    code, _, err = cli(capsys, *args)
    assert code == 2 and one_error_line(err) == f"leaves: error: {said}"
