"""``leaves replay --game``: a record file's records count from 1, a run directory's games
from 0; the help and every refusal say both, none says "0 or more" of a file's records."""

from __future__ import annotations

from click.testing import CliRunner

from leaves_cli.main import cli as leaves
from leaves_cli.replay_cmd import GameNumber
from tests.helpers import usage_error

BOTH = "from 1 for a record file, from 0 for a run directory"


def test_the_help_says_what_each_takes():
    out = CliRunner().invoke(leaves, ["replay", "--help"], terminal_width=300).output
    assert f"[{BOTH}]" in out and "[0 or more]" not in out
    assert "runs/a/records.jsonl" not in out  # a run folder holds no such file


def test_a_number_below_both_says_what_each_takes(capsys, tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("{}\n")
    line = usage_error(capsys, ["replay", str(path), "--game", "-1"])
    said = f"--game takes a whole number: {BOTH}, got -1"
    assert line == f"leaves: error: {said} (see 'leaves replay --help')"
    assert GameNumber().takes() == f"a whole number: {BOTH}"


def test_game_0_of_a_file_says_a_run_counts_from_0(capsys, tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("{}\n")
    line = usage_error(capsys, ["replay", str(path), "--game", "0"])
    assert line == ("leaves: error: --game counts the records of a file from 1 (the games of a "
                    "run directory from 0), got 0")  # fmt: skip
