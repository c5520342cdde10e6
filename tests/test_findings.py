"""docs/findings.md regenerates from benchmarks/findings.py with the same numbers for the same
seeds (run small: one player count, a sliver of the games)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
