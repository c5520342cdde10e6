"""The scripts in examples/ run as the README shows them (small game counts), so they never rot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _run(script: str, tmp_path: Path, *args: str) -> str:
    env = {
        **os.environ,
        "LEAVES_EXAMPLE_GAMES": "100",
        "LEAVES_EXAMPLE_EXAMPLES": "8",
        "LEAVES_EXAMPLE_OUT": str(tmp_path / "run"),
        "MPLBACKEND": "Agg",
        "PYTHONPATH": str(ROOT),
    }
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_every_example_is_tested():
    tested = {"run_tournament.py", "win_rate_chart.py", "my_strategy.py", "check_my_strategy.py"}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_run_tournament(tmp_path):
    out = _run("run_tournament.py", tmp_path, str(tmp_path / "t"))
    for name in ("greedy", "low", "counter", "random"):
        assert name in out
    assert f"report: {tmp_path / 't' / 'report' / 'report.html'}" in out
    assert (tmp_path / "t" / "report" / "report.html").is_file()


def test_win_rate_chart(tmp_path):
    out = _run("win_rate_chart.py", tmp_path)
    png = tmp_path / "win_rates.png"
    assert "chart: win_rates.png" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_my_strategy(tmp_path):
    out = _run("my_strategy.py", tmp_path)
    assert "registered: True" in out
    assert "hoarder(min_group=3)" in out


def test_check_my_strategy(tmp_path):
    out = _run("check_my_strategy.py", tmp_path)
    assert "Hoarder passed check_strategy and the property test" in out


def test_my_strategy_file_loads_into_the_cli(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "leaves", "strategies", "--load", str(EXAMPLES / "my_strategy.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "160"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "hoarder" in proc.stdout and "min_group=2" in proc.stdout
