"""A table size is refused in one sentence by every command that seats one, and the help of
``--players`` says what the rules allow (a count other than today's is seated where the
rules deal it)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from leaves.ruleset import DEFAULT_RULES
from leaves_cli.main import cli as leaves
from tests.helpers import cli, usage_error

REFUSED = "leaves: error: --players 2: 13 Leaves is played by 3 to 6 players, got 2"
TWO = "players=2,hand_size=20"
"""Rules that deal two hands of 20."""


@pytest.mark.parametrize(
    "args",
    [
        ["play"],
        ["run", "--out", "{d}/run"],
        ["tournament", "greedy", "random", "low", "--out", "{d}/t"],
        ["gauntlet", "greedy", "--against", "random"],
        ["variants", "--rules", "take=ends", "--out", "{d}/v"],
        ["tune", "taker", "--against", "low", "--out", "{d}/tune"],
        ["bench"],
    ],
    ids=lambda a: a[0],
)
def test_every_command_refuses_a_table_in_one_sentence(capsys, tmp_path, args):
    args = [a.replace("{d}", str(tmp_path)) for a in args]
    assert usage_error(capsys, [*args, "--players", "2"]) == REFUSED


@pytest.mark.parametrize("command", ["play", "run"])
def test_players_help_says_todays_counts_and_that_rules_change_them(command):
    result = CliRunner().invoke(leaves, [command, "--help"], terminal_width=300)
    line = " ".join(result.output.split())
    said = re.search(r"--players INTEGER .*?\((\d)-(\d) under today's, others under --rules "
                     r"players=\.\.\.\)", line)  # fmt: skip
    assert said is not None, line
    low, high = map(int, said.groups())
    assert tuple(range(low, high + 1)) == DEFAULT_RULES.players


def test_play_seats_two_where_the_rules_deal_two():
    result = CliRunner().invoke(leaves, ["play", "--rules", TWO, "--players", "2", "--seed", "1",
                                         "--against", "random"], input="q\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.startswith("13 Leaves, 2 players, seed 1")


def test_run_plays_two_where_the_rules_deal_two(capsys, tmp_path):
    out = tmp_path / "two"
    code, stdout, err = cli(capsys, "run", "--rules", TWO, "--players", "2", "--games", "50",
                            "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert "at 2 players" in stdout
    assert "no comparison with today's rules: they do not deal 2 hands" in stdout + err
