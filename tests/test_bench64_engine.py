"""`leaves bench` times the engine runs play on: the C engine where it can be had, numba's
kernels where not or under ``LEAVES_ENGINE=numba``; its table names the one that played, and
every figure but the speed is the same on either (both play the same games from a seed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leaves.players.compiled import engine as c_engine

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ("mean_turns", "max_turns", "mean_rounds", "unfinished")
"""What the bench reports besides speed (docs/rules.md quotes them)."""

needs_c = pytest.mark.skipif(not c_engine.available(), reason="no C engine here")


def _bench_rows(monkeypatch: pytest.MonkeyPatch) -> tuple[dict, list[str]]:
    """The JSON result and the table's lines of one small ``leaves bench``."""
    from click.testing import CliRunner

    from leaves_cli.main import cli

    monkeypatch.setenv("COLUMNS", "200")  # the row on one line
    args = ["bench", "--games", "300", "--api-games", "0", "--repeats", "1"]
    runner = CliRunner()
    as_json = runner.invoke(cli, [*args, "--json"])
    table = runner.invoke(cli, args)
    assert as_json.exit_code == 0 and table.exit_code == 0, as_json.output + table.output
    return json.loads(as_json.output), table.output.splitlines()


def _compiled_row(lines: list[str]) -> str:
    (row,) = [line for line in lines if "compiled (" in line]
    return row


@needs_c
def test_the_table_names_the_c_engine_where_runs_play_on_it(monkeypatch):
    result, lines = _bench_rows(monkeypatch)
    assert result["engine"] == "c"
    assert "compiled (C engine)" in _compiled_row(lines)


def test_the_table_names_numba_where_no_c_engine_plays(monkeypatch):
    monkeypatch.setattr(c_engine, "available", lambda: False)
    result, lines = _bench_rows(monkeypatch)
    assert result["engine"] == "numba"
    assert "compiled (numba kernels)" in _compiled_row(lines)


@needs_c
def test_leaves_engine_numba_times_the_numba_kernels():
    env = {**os.environ, "LEAVES_ENGINE": "numba", "PYTHONPATH": str(ROOT)}
    args = ["bench", "--games", "300", "--api-games", "0", "--repeats", "1", "--json"]
    proc = subprocess.run([sys.executable, "-m", "leaves_cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["engine"] == "numba"


@needs_c
@pytest.mark.parametrize(
    ("players", "seed"), [(3, 0), (4, 0), (5, 11), (6, 2**63 - 1), (6, 2**63 + 5), (4, 2**64 - 1)]
)
def test_the_figures_besides_speed_are_the_same_on_both_engines(players, seed):
    """Seeds past int64 included: after an int64 seed compiled the numba form, one of 2**63
    or more could not be converted to it (OverflowError) in the same process."""
    from leaves.bench import run_bench

    on = {e: run_bench(players, 500, seed, 0, 1, engine=e) for e in ("numba", "c")}
    assert on["c"]["engine"] == "c" and on["numba"]["engine"] == "numba"
    assert {k: on["c"][k] for k in FIGURES} == {k: on["numba"][k] for k in FIGURES}


def test_an_engine_that_is_none_of_the_two_is_refused():
    from leaves.bench import run_bench

    with pytest.raises(ValueError, match="engine must be one of c, numba, got 'gpu'"):
        run_bench(4, 10, 0, 0, 1, engine="gpu")
