"""``leaves variants`` where one table size has a single table dealt once: its duplicate set is
alone in its stratum. Under ``hand_size=3:10/4:11`` the 4-player games are today's, and only
the one 3-player deal differs; the comparison said 'games are 0.08 turns shorter [0.06, 0.09]'
(p_holm 1.7e-7) and 'every duplicate set gave the same difference' of the spread. That set's
luck now counts (``reports.strata``): nothing is clear, and nothing is said to have no spread."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli


@pytest.mark.slow
def test_a_difference_from_one_lone_deal_is_not_clear(tmp_path):
    out = tmp_path / "lone"
    args = ["variants", "greedy", "taker", "random", "--rules", "hand_size=3:10/4:11",
            "--players", "3,4", "--games", "60", "--seed", "2", "--jobs", "1",
            "--trace-games", "0", "--restricted-games", "0", "--out", str(out)]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    diffs = pd.read_csv(out / "variants_differences.csv")
    assert not diffs["significant"].any()
    turns = diffs.set_index(["metric", "n_players"]).loc[("turns", "all")]
    assert turns["ci_low"] < 0 < turns["ci_high"]
    assert "turns shorter" not in res.output and "no spread to test it by" not in res.output
    runs = pd.read_csv(out / "variants_runs.csv", keep_default_na=False)
    assert runs["changes"].tolist() == ["today's rules", "hand_size=3:10/4:11"]
