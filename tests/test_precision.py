"""``leaves tournament --precision``: stages until every interval is narrow enough, the same
stopping point whatever --jobs."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

import reports
from tests.helpers import cli


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    return cli(capsys, "tournament", *args)


ARGS = ["greedy", "low", "high", "--players", "3", "--games", "120", "--seed", "4",
        "--no-progress"]  # fmt: skip


def test_precision_stops_narrow_enough_and_whatever_the_jobs(tmp_path, capsys):
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        code, stdout, stderr = run_cli(capsys, *ARGS, "--precision", "4", "--jobs", jobs,
                                       "--out", str(out))  # fmt: skip
        assert code == 0, stderr
        line = next(x for x in stdout.splitlines() if x.startswith("precision "))
        m = re.match(r"precision \+-4 percentage points reached: ([\d,]+) games, widest 95% "
                     r"half-width "
                     r"(\d+\.\d\d) percentage points", line)  # fmt: skip
        assert m, line
        s = reports.summary(out)
        far = (s["ci_high"] - s["win_rate"]).combine(s["win_rate"] - s["ci_low"], max)
        half = 100 * far  # the farther side: +-4 holds on either side
        assert (half <= 4).all() and f"{half.max():.2f}" == m.group(2)
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["precision"]["reached"] and len(manifest["spec"]["deal_stages"]) >= 2
        runs.append((m.group(1), manifest["spec"]["deal_stages"], out))
    assert runs[0][:2] == runs[1][:2]
    ga = pd.read_parquet(runs[0][2] / "games").sort_values("game").reset_index(drop=True)
    gb = pd.read_parquet(runs[1][2] / "games").sort_values("game").reset_index(drop=True)
    pd.testing.assert_frame_equal(ga, gb)


def test_precision_stops_at_the_cap(tmp_path, capsys):
    code, stdout, stderr = run_cli(capsys, *ARGS, "--precision", "0.1", "--max-games", "400",
                                   "--jobs", "1", "--out", str(tmp_path / "c"))  # fmt: skip
    assert code == 0, stderr
    line = next(x for x in stdout.splitlines() if x.startswith("precision "))
    assert "NOT reached (cap on games)" in line
    assert stdout.strip().splitlines()[-1].startswith("next: 'leaves report ")
    assert json.loads((tmp_path / "c" / "manifest.json").read_text())["spec"]["n_games"] <= 400


@pytest.mark.parametrize(
    "args, message",
    [
        (["--precision", "0"], "--precision must be a positive"),
        (["--precision", "-1"], "--precision must be a positive"),
        (["--precision", "1", "--no-rows"], "--precision needs per-game rows"),
        (["--precision", "1", "--add", "10", "--resume"], "--add and --precision"),
        (["--max-games", "1000"], "--max-games needs --precision"),
        (["--precision", "1", "--max-games", "10"], "--max-games (10) must be at least"),
    ],
)
def test_bad_precision_input_is_one_line(capsys, tmp_path, args, message):
    code, _, err = run_cli(capsys, *ARGS, "--out", str(tmp_path / "x"), *args)
    assert code == 2, err
    assert err.startswith("leaves: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
