"""docs/findings.md regenerates from benchmarks/findings.py with the same numbers for the same
seeds (run small: one player count, a sliver of the games)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import load_benchmark

ROOT = Path(__file__).resolve().parents[1]


def _findings(out: Path) -> list[str]:
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "findings.py"), "--scale", "0.002",
         "--players", "3", "--jobs", "1", "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    return (out / "findings.md").read_text().splitlines()


@pytest.mark.slow
def test_findings_regenerate_with_the_same_numbers(tmp_path):
    first = _findings(tmp_path / "a")
    second = _findings(tmp_path / "b")
    assert [x for x in first if not x.startswith("Run time:")] == [
        x for x in second if not x.startswith("Run time:")
    ]
    text = "\n".join(first)
    for section in ("seat advantage", "take choice", "per player count", "neighbour", "Expert"):
        assert section in text
    assert (tmp_path / "a" / "findings" / "seats_random.png").stat().st_size > 5_000
    assert (tmp_path / "a" / "findings" / "round_robin_3.png").exists()


def _findings_module():
    return load_benchmark("findings")


def test_self_play_copies_of_a_game_count_once_in_the_seat_intervals(tmp_path):
    import numpy as np
    import pytest
    from scipy import stats as sps

    import reports
    from tournaments import Tournament

    findings = _findings_module()
    # weighted is deterministic: the 4 seatings of a deal are the very same game
    res = Tournament(["weighted"], players=4, games=400, seed=2).run(n_jobs=1, out=tmp_path / "w")
    g = reports.as_games(reports.load_run(res.out))
    seats = findings._clustered_seats(g)
    m = int(seats["deals"].iloc[0])
    assert m == 100 and (seats["games"] == 400).all()
    assert seats["design_effect"].to_numpy() == pytest.approx(4 * m / (m - 1))
    assert (seats["deal_sets"] == m).all()
    plain_lo, plain_hi = reports.stats.wilson(seats["wins"], seats["games"])
    assert ((seats["ci_high"] - seats["ci_low"]) > 1.9 * (plain_hi - plain_lo)).all()
    # the same for a rate over matches: four identical copies of each of 50 deals' outcome
    hits = np.repeat(np.arange(50) % 5 == 0, 4)
    lo, hi = findings._clustered_rate(hits, np.zeros(200, np.int8), np.repeat(np.arange(50), 4))
    deff = 4 * 50 / 49  # 40 hits of 200 matches, 10 of 50 deals
    once = reports.stats.wilson(40 / deff, 200 / deff, sps.t.ppf(0.975, 49))
    assert (lo, hi) == pytest.approx((float(once[0]), float(once[1])))
