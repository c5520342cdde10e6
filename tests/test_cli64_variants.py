"""``leaves variants`` without ``--players`` seats a table every rule set compared deals (a
sweep's values included), says which, and never names a ``--players`` that was not typed; rule
sets that share no table size are refused as such, not with advice no count could follow."""

from __future__ import annotations

import pytest

from leaves.commands.rules import shared_table_size
from tests.helpers import cli, usage_error


def test_a_sweeps_values_choose_the_table_they_all_deal():
    # hand_size=16 deals 3 hands of the 62 cards, not 4: the sweep plays at 3
    assert shared_table_size((), "hand_size=14,16") == 3
    assert shared_table_size(("take=ends",), "hand_size=9,10") == 4


@pytest.mark.parametrize(
    ("args", "each"),
    [
        (["--sweep", "players=4,5"], "players=4: 4; players=5: 5"),
        (["--sweep", "players=3,4,5"], "players=3: 3; players=4: 4; players=5: 5"),
        (["--rules", "players=3", "--rules", "players=5"], "players=3: 3; players=5: 5"),
    ],
)
def test_rule_sets_that_share_no_table_are_refused_as_such(capsys, tmp_path, args, each):
    line = usage_error(capsys, ["variants", *args, "--out", str(tmp_path / "v")])
    assert line == (
        "leaves: error: the rule sets compared share no player count (today's rules: 3 to 6; "
        f"{each}): every one plays at each table size, so no --players seats them all"
    )


def test_a_typed_table_a_sweep_value_refuses_is_named(capsys, tmp_path):
    args = ["variants", "--sweep", "players=3,4", "--players", "3", "--out", str(tmp_path)]
    line = usage_error(capsys, args)
    assert (
        line
        == "leaves: error: --players 3: 13 Leaves under players=4 is played by 4 players, got 3"
    )


def test_the_table_chosen_for_a_sweep_is_said(capsys, tmp_path):
    out = tmp_path / "v"
    args = ["variants", "random", "low", "--sweep", "hand_size=14,16", "--games", "6",
            "--jobs", "1", "--seed", "1", "--trace-games", "0", "--restricted-games", "0",
            "--out", str(out)]  # fmt: skip
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    assert "per rule set, at 3 players: " in err
