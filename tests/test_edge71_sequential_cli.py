"""The command line's side of the sequential bounds: ``leaves gauntlet --margin`` past 100
percentage points is refused in its own unit, and ``leaves tournament --precision 1e-300``
plays to its cap and says so (it raised OverflowError after three stages)."""

from __future__ import annotations

import pytest

from tests.helpers import cli, one_error_line


@pytest.mark.parametrize("typed, said", [("200", "200"), ("100.0001", "100.0001")])
def test_the_gauntlet_refuses_a_margin_past_100_points(tmp_path, capsys, typed, said):
    out = tmp_path / "g"
    code, _, err = cli(capsys, "gauntlet", "greedy", "--against", "random", "--games", "12",
                       "--jobs", "1", "--sequential", "--margin", typed, "--out", str(out))  # fmt: skip
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: --margin must be at most 100 percentage points (no win rate exceeds "
        f"another by more), got {said}"
    )
    assert not out.exists()


@pytest.mark.slow
def test_a_tiny_precision_plays_to_its_cap_and_says_so(tmp_path, capsys):
    code, said, err = cli(capsys, "tournament", "random", "greedy", "--games", "12", "--jobs",
                          "1", "--precision", "1e-300", "--max-games", "120", "--seed", "1",
                          "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 0, err
    assert "NOT reached (cap on games): 120 games" in said, said
