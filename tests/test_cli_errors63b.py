"""Option errors name what the user typed: a table size the rules refuse is asked for, never
named as a --players not typed; every number option says what it takes in one line; a config
file's value is named by its key in that file; the turn limit by its flag; and a number is
echoed as typed ('got -1', not Python's 'got -1.0')."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli, usage_error

ASK = ("leaves: error: 13 Leaves under players=3/5 is played by 3 or 5 players, not 4 (the "
       "default): choose one with --players")  # fmt: skip


# ------------------------------------------------------------------ a table the rules allow
@pytest.mark.parametrize(
    "args",
    [
        ["run", "--games", "12"],
        ["tournament", "greedy", "random", "--games", "12"],
        ["gauntlet", "greedy", "--against", "random", "--games", "12"],
        ["tune", "taker", "--against", "low", "--budget", "100"],
        ["variants", "--games", "12"],
    ],
    ids=lambda a: a[0],
)
def test_rules_without_the_default_table_ask_for_players_not_typed(capsys, tmp_path, args):
    """It said "--players must be 3 or 5 ..., got 4" or "--players 4: ...": never typed."""
    line = usage_error(capsys, [*args, "--rules", "players=3/5", "--out", str(tmp_path / "o")])
    assert line == ASK


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["run", "-n", "4"],
            "--players 4: 13 Leaves under players=3/5 is played by 3 or 5 players, got 4",
        ),
        (
            ["tournament", "greedy", "random", "--players", "4"],
            "--players 4: 13 Leaves under players=3/5 is played by 3 or 5 players, got 4",
        ),
    ],
)
def test_a_typed_table_the_rules_refuse_is_named(capsys, tmp_path, args, said):
    line = usage_error(capsys, [*args, "--rules", "players=3/5", "--out", str(tmp_path / "o")])
    assert line == f"leaves: error: {said}"


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "greedy", "random", "low", "--no-progress"],
        ["gauntlet", "greedy", "--against", "random", "--baseline", "low"],
    ],
    ids=lambda a: a[0],
)
def test_rules_of_one_table_size_play_it(capsys, tmp_path, args):
    out = tmp_path / "o"
    rules = ["--rules", "players=3,take=nothing", "--games", "12", "--jobs", "1"]
    code, _, err = cli(capsys, *args, *rules, "--out", str(out))
    assert code == 0, err
    spec = json.loads((out / "manifest.json").read_text())["spec"]
    assert spec["players"] == [3]


def test_the_commands_of_13_leaves_seat_the_one_count_the_rules_allow():
    """run and tune (``table_size``) and variants (the counts today's rules allow too)."""
    from leaves.commands.rules import parse_rules, shared_table_size, table_size

    assert table_size(parse_rules(["players=3,take=nothing"]), None) == 3
    assert table_size(parse_rules(["take=nothing"]), None) == 4
    assert table_size(parse_rules(["players=3/5"]), 5) == 5
    assert shared_table_size(("players=5,take=nothing",)) == 5
    assert shared_table_size(("take=ends",)) == 4


def test_the_default_table_is_chosen_by_one_rule():
    from leaves_cli.errors import CLIError
    from leaves_cli.tournament_checks import default_players

    def refuse(k: int) -> None:
        raise ValueError(f"X is played by 3 or 5 players, got {k}")

    assert default_players([3, 4, 5], refuse) == 4
    assert default_players([5], refuse) == 5
    with pytest.raises(CLIError, match=r"^X is played by 3 or 5 players, not 4 \(the default\)"):
        default_players([3, 5], refuse)


def test_a_game_without_its_own_check_is_asked_by_its_bounds():
    from types import SimpleNamespace

    from leaves_cli.errors import CLIError
    from leaves_cli.tournament_checks import players_of

    assert players_of(SimpleNamespace(min_players=2, max_players=6), None) == 4
    assert players_of(SimpleNamespace(min_players=2, max_players=2), None) == 2
    assert players_of(SimpleNamespace(min_players=2, max_players=6), "3,5") == "3,5"
    with pytest.raises(CLIError) as refused:
        players_of(SimpleNamespace(min_players=5, max_players=6, title="Y"), None)
    assert str(refused.value) == (
        "Y is played by 5 to 6 players, not 4 (the default): choose one with --players"
    )


# ------------------------------------------------------------------ numbers in one line
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["tournament", "a", "b", "--games", "x"], "--games takes a whole number, got 'x'"),
        (["bench", "-p", "x"], "--players takes a whole number, got 'x'"),
        (
            ["tournament", "a", "b", "--decision-timeout", "x"],
            "--decision-timeout takes a number, got 'x'",
        ),
        (["tune", "taker", "--sigma", "x"], "--sigma takes a number, got 'x'"),
        (["gauntlet", "a", "--alpha", "x"], "--alpha takes a number, got 'x'"),
        (["gauntlet", "a", "--beta", "x"], "--beta takes a number, got 'x'"),
        (["gauntlet", "a", "--seed", "x"], "--seed takes a whole number 0 or more, got 'x'"),
        (["gauntlet", "a", "--players", "x"], "--players takes a whole number, got 'x'"),
        (["report", "r", "--top", "1"], "--top takes a whole number from 2 to 20, got 1"),
        (["run", "--seed", "-1"], "--seed takes a whole number 0 or more, got -1"),
        (["variants", "--seed", "x"], "--seed takes a whole number 0 or more, got 'x'"),
        (["tune", "taker", "--popsize", "2.5"], "--popsize takes a whole number, got '2.5'"),
    ],
)
def test_every_number_option_says_what_it_takes(capsys, args, said):
    """Not click's "Invalid value for '--players' / '-p': 'x' is not a valid integer."."""
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


# ------------------------------------------------------------------ a config file's values
@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("games = 0", "games must be at least 1, got 0"),
        ('games = "x"', 'games takes a whole number, got "x"'),
        ("repeats = 1", "repeats takes true or false, got 1"),
        ("precision = true", "precision takes a number, got true"),
        ("jobs = [1]", "jobs takes a whole number, got [1]"),
        ("jobs = 0", "jobs must be a positive number (or -1), got 0"),
        ("precision = -1", "precision must be a positive number of percentage points, got -1"),
        (
            "max_games = 5000000000\nprecision = 1",
            "max_games must be at most 2**32 - 1 (a run's most games), got 5,000,000,000",
        ),
        ("players = 7", "players 7: 13 Leaves is played by 3 to 6 players, got 7"),
        ("turn_limit = 0", "turn_limit must be 1..1000000, got 0"),
        (
            "decision_timeout = -2",
            "decision_timeout: the decision timeout must be 0 (none) or positive, got -2",
        ),
    ],
)
def test_a_config_files_value_is_named_by_its_key(capsys, tmp_path, line, said):
    """It said "--games must be at least 1" (a flag never typed) or "games must be int"."""
    config = tmp_path / "c1.toml"
    config.write_text(f'strategies = ["greedy", "random"]\n{line}\nout = "{tmp_path / "o"}"\n')
    got = usage_error(capsys, ["tournament", "--config", str(config)])
    assert got == f"leaves: error: {config}: {said}"


def test_a_typed_flag_over_the_config_file_is_named_as_typed(capsys, tmp_path):
    config = tmp_path / "c1.toml"
    config.write_text(f'strategies = ["greedy", "random"]\nout = "{tmp_path / "o"}"\n')
    line = usage_error(capsys, ["tournament", "--config", str(config), "--games", "0"])
    assert line == "leaves: error: --games must be at least 1, got 0"


# ------------------------------------------------------------------ the turn limit's flag
@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
def test_the_turn_limit_is_named_by_its_flag(capsys, tmp_path, command):
    spec = ["greedy", "random"] if command == "tournament" else ["greedy", "--against", "random"]
    args = [command, *spec, "--turn-limit", "0", "--out", str(tmp_path / "o")]
    line = usage_error(capsys, args)
    assert line == "leaves: error: --turn-limit must be 1..1000000, got 0"


def test_the_library_names_the_turn_limit_by_its_argument():
    from leaves.plugin import LeavesGame

    with pytest.raises(ValueError, match=r"^turn_limit must be 1\.\.1000000, got 0$"):
        LeavesGame(turn_limit=0)


# ------------------------------------------------------------------ numbers echoed as typed
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["tournament", "greedy", "random", "--decision-timeout", "-1"],
            "--decision-timeout: the decision timeout must be 0 (none) or positive, got -1",
        ),
        (
            ["gauntlet", "greedy", "--against", "random", "--decision-timeout", "-3"],
            "--decision-timeout: the decision timeout must be 0 (none) or positive, got -3",
        ),
        (
            ["gauntlet", "greedy", "--against", "random", "--sequential", "--alpha", "2"],
            "--alpha must be between 0 and 0.5, got 2",
        ),
        (
            ["gauntlet", "greedy", "--against", "random", "--sequential", "--beta", "0.5"],
            "--beta must be between 0 and 0.5, got 0.5",
        ),
        (
            ["tune", "taker", "--against", "low", "--sigma", "0"],
            "--sigma must lie in (0, 1] (a fraction of each range), got 0",
        ),
        (
            ["tune", "taker", "--against", "low", "--sigma", "2.0"],
            "--sigma must lie in (0, 1] (a fraction of each range), got 2.0",
        ),
    ],
)
def test_a_number_is_echoed_as_typed(capsys, tmp_path, args, said):
    """It said "got -1.0", "got 2.0" and "got 0.0": Python's form of what was typed."""
    line = usage_error(capsys, [*args, "--out", str(tmp_path / "o")])
    assert line == f"leaves: error: {said}"


def test_variants_default_table_is_one_every_rule_set_compared_allows():
    """Each --rules of ``leaves variants`` is its own rule set: the table where --players is
    not typed is one every set allows (it parsed them as one, the later winning), and rules
    that cannot be read are left to their own one-line refusal."""
    from leaves.commands.rules import shared_table_size

    assert shared_table_size(("hand_size=16", "take=ends")) == 3
    assert shared_table_size(("players=5", "players=3/5")) == 5  # merged, 3/5 asked for one
    assert shared_table_size(("hand_size=x",)) == 4
