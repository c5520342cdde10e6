"""A --precision run said "resume: 1 of 2 chunks verified, 0 replayed, 1 still to play"
between its stages, on a run nobody resumed: its later stages grow the run this command
plays. The line is said once, where the user resumed."""

from __future__ import annotations

from tests.helpers import cli

RUN = ("greedy", "low", "taker", "--players", "3", "--games", "60", "--seed", "2", "--jobs", "1")


def test_a_new_precision_run_says_no_resume_line(tmp_path, capsys):
    code, _, err = cli(capsys, "tournament", *RUN, "--precision", "3", "--out", str(tmp_path))
    assert code == 0, err
    assert "stage 2:" in err and "resume:" not in err, err


def test_a_resumed_precision_run_says_its_resume_line_once(tmp_path, capsys):
    assert cli(capsys, "tournament", *RUN, "--out", str(tmp_path))[0] == 0
    code, _, err = cli(capsys, "tournament", "--out", str(tmp_path), "--resume", "--precision",
                       "3")  # fmt: skip
    assert code == 0, err
    assert err.count("resume: 1 of 1 chunks verified, 0 replayed") == 1 and "stage 2:" in err
