"""Lines a run prints, checked against what happened: a Ligretto run every round of which was
forfeited said "round records in crash.jsonl" of a file it left empty; --turn-limit past its
range was refused as "turn_limit must be 1..1000000" without the flag."""

from __future__ import annotations

import pytest

from tests.helpers import cli, one_error_line

CRASH = """
from ligretto.players import LigrettoStrategy


class Crash(LigrettoStrategy, register=False):
    def __init__(self, speed: float = 1.0):
        pass

    def decide(self, view, rng):
        raise KeyError("oops")
"""


def test_records_of_a_run_whose_rounds_were_all_forfeited_are_said_to_be_none(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "crash.py").write_text(CRASH)
    code, out, err = cli(capsys, "tournament", "--game", "ligretto", "crash.py:Crash", "stack",
                         "row", "--players", "3", "--games", "6", "--seed", "1", "--jobs", "1",
                         "--record", "crash.jsonl", "--no-progress", "--out", "m4")  # fmt: skip
    assert code == 1, err
    assert ("no round records in crash.jsonl: every round ended by a forfeit, and a forfeited "
            "round keeps none") in out.splitlines()  # fmt: skip
    assert "round records in crash.jsonl" not in out.replace("no round records", "")


@pytest.mark.parametrize("command", [["tournament", "greedy", "low"], ["gauntlet", "greedy",
                                                                       "--against", "low"]])  # fmt: skip
def test_a_turn_limit_past_its_range_names_the_flag(tmp_path, capsys, command):
    code, _, err = cli(capsys, *command, "--turn-limit", "2000000", "--games", "12", "--out",
                       str(tmp_path / "never"))  # fmt: skip
    assert code == 2
    assert one_error_line(err) == "leaves: error: --turn-limit must be 1..1000000, got 2000000"


def test_an_empty_rung_of_the_ladder_is_refused_as_an_empty_strategy_is(tmp_path, capsys):
    """'greedy,,low' was read as 'greedy,low': a slip that --against refuses."""
    code, _, err = cli(capsys, "variants", "--rules", "take=ends", "--ladder", "greedy,,low",
                       "--games", "12", "--out", str(tmp_path / "never"))  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (
        "leaves: error: --ladder 'greedy,,low' has an empty item (two commas in a row, or one "
        "at an end): name a strategy between every two commas"
    )
