"""The scripts in examples/ run as the docs show them (small game counts), so they never rot."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _run(script: str, tmp_path: Path, *args: str, games: int = 100) -> str:
    env = {
        **os.environ,
        "LEAVES_EXAMPLE_GAMES": str(games),
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
    tested = {"run_tournament.py", "win_rate_chart.py", "my_strategy.py", "check_my_strategy.py",
              "train_reinforce.py", "rule_variants.py"}  # fmt: skip
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested
    assert {p.name for p in EXAMPLES.glob("*.ipynb")} == {"notebook.ipynb"}


@pytest.mark.slow
def test_run_tournament(tmp_path):
    out = _run("run_tournament.py", tmp_path, str(tmp_path / "t"))
    for name in ("greedy", "low", "counter", "random"):
        assert name in out
    assert f"report: {tmp_path / 't' / 'report' / 'report.html'}" in out
    assert (tmp_path / "t" / "report" / "report.html").is_file()


@pytest.mark.slow
def test_win_rate_chart(tmp_path):
    out = _run("win_rate_chart.py", tmp_path, games=2000)
    png = tmp_path / "win_rates.png"
    assert "chart: win_rates.png" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the bars are the summary's intervals over duplicate sets, not binomial ones over games
    import reports
    import tournaments

    summary = reports.summary(tournaments.load(tmp_path / "run")).set_index("strategy")
    printed = {}
    for line in out.splitlines()[1:-1]:
        name, _games, _rate, low, high = line.split()
        printed[name] = (float(low), float(high))
    assert set(printed) == set(summary.index)
    for name, (low, high) in printed.items():
        assert abs(low - summary.loc[name, "ci_low"]) < 1e-5
        assert abs(high - summary.loc[name, "ci_high"]) < 1e-5
    wins, games = summary["wins"], summary["games"]
    binomial = reports.wilson(wins, games)[0]
    assert (abs(summary["ci_low"] - binomial) > 1e-4).any()  # not the binomial interval


@pytest.mark.slow
def test_my_strategy(tmp_path):
    out = _run("my_strategy.py", tmp_path)
    assert "registered: True" in out
    assert "hoarder(min_group=3)" in out


@pytest.mark.slow
def test_check_my_strategy(tmp_path):
    out = _run("check_my_strategy.py", tmp_path)
    assert "Hoarder passed check_strategy and the property test" in out


@pytest.mark.slow
def test_my_strategy_file_loads_into_the_cli(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leaves_cli",
            "strategies",
            "--load",
            str(EXAMPLES / "my_strategy.py"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "160"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "hoarder" in proc.stdout and "min_group=2" in proc.stdout


# Runs a notebook's code cells in order in one namespace, as a kernel would, and renders each
# cell's last expression the way Jupyter does (its _repr_html_, else repr), printing a marker
# line per cell. No Jupyter install is needed.
NOTEBOOK_RUNNER = """
import ast, json, sys
cells = json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
ns = {"__name__": "__main__"}
for i, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
    tree = ast.parse("".join(cell["source"]))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, f"cell {i}", "exec"), ns)
    shown = "none"
    if last is not None:
        value = eval(compile(ast.Expression(last.value), f"cell {i}", "eval"), ns)
        html = getattr(value, "_repr_html_", lambda: None)()
        if html is not None:
            shown = f"html {type(value).__name__} {len(html)}"
        elif value is not None:
            shown = f"repr {type(value).__name__}"
    print(f"cell {i}: {shown}")
"""


@pytest.mark.slow
def test_example_notebook_executes(tmp_path):
    nb = json.loads((EXAMPLES / "notebook.ipynb").read_text())
    assert nb["nbformat"] == 4 and all("id" in c and "source" in c for c in nb["cells"])
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    env = {**os.environ, "LEAVES_EXAMPLE_GAMES": "400", "MPLBACKEND": "Agg",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", NOTEBOOK_RUNNER, str(EXAMPLES / "notebook.ipynb")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    shown = dict(
        line.split(": ", 1) for line in proc.stdout.splitlines() if line.startswith("cell ")
    )
    kinds = [v.split()[:2] for v in shown.values()]
    assert ["html", "TournamentResult"] in kinds  # the result renders as HTML
    assert ["repr", "Figure"] in kinds  # a kernel shows it as an image
    assert ["html", "Report"] in kinds and ["html", "DataFrame"] in kinds
    assert re.search(r"counter (beats|loses to) weighted|No significant difference", proc.stdout)


@pytest.mark.slow
def test_train_reinforce(tmp_path):
    import importlib.util

    import pytest

    if not os.environ.get("CI") and importlib.util.find_spec("pettingzoo") is None:
        pytest.skip("the research extra is not installed")
    out = _run("train_reinforce.py", tmp_path)
    assert "trained on 100 games" in out
    assert "train_reinforce.py.act') wins" in out and "against a field of greedy and random" in out
    assert (tmp_path / "run" / "weights.npz").is_file()


@pytest.mark.slow
def test_rule_variants(tmp_path):
    """The designer's example: each variant's length with its interval and its difference."""
    out = _run("rule_variants.py", tmp_path)
    lines = {line.split()[0]: line for line in out.splitlines() if line[:1].isalpha()}
    for rules in ("default", "hand_size=9", "take=ends", "min_count=off"):
        assert rules in lines, out
    assert "100 games per rule set" in out
    diff = re.search(r"([+-]\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]", lines["hand_size=9"])
    assert diff and float(diff[3]) < 0, out  # shorter games, the whole interval below 0
