"""``leaves tournament``: flags, the TOML config, one-line errors, and resume after a real kill."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from leaves_cli.main import main
from tournaments import Tournament, load

ROOT = Path(__file__).resolve().parents[1]
FOUR = ["greedy", "low", "high", "minimal"]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", *args])
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def test_cli_runs_and_reports(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, stderr = run_cli(
        capsys, *FOUR, "--players", "4", "--games", "1001", "--seed", "4", "--jobs", "1",
        "--out", str(out), "--record", str(tmp_path / "r.jsonl"), "--record-sample", "8",
    )  # fmt: skip
    assert code == 0, stderr
    assert "1,008 games" in stderr and "rounded up" in stderr
    assert "win rate" in stdout and "greedy" in stdout
    df = pd.read_parquet(out / "games")
    assert len(df) == 1008
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["spec"]["seed"] == 4
    assert {"leaves", "numpy", "numba", "python"} <= set(manifest["versions"])
    assert manifest["chunks_done"] == [[0, manifest["spec"]["n_chunks"] - 1]]
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) >= 8


def test_config_file_with_command_line_overrides(tmp_path, capsys):
    cfg = tmp_path / "t.toml"
    cfg.write_text(
        '[tournament]\nstrategies = ["greedy", "low", "high"]\nplayers = [3]\n'
        f'games = 30\nseed = 9\njobs = 1\nout = "{tmp_path / "cfg"}"\nexpert = true\n'
    )
    code, _, stderr = run_cli(capsys, "--config", str(cfg), "--games", "6")
    assert code == 0, stderr
    spec = load(tmp_path / "cfg").spec
    assert spec["strategies"] == ["greedy", "high", "low"] and spec["players"] == [3]
    assert spec["expert"] and spec["games_asked"] == 6 and spec["seed"] == 9
    assert len(pd.read_parquet(tmp_path / "cfg" / "matches")) == 6


def test_example_config_is_valid(tmp_path, capsys):
    code, _, stderr = run_cli(
        capsys, "--config", str(ROOT / "examples" / "tournament.toml"), "--games", "200",
        "--jobs", "1", "--out", str(tmp_path / "ex"),
    )  # fmt: skip
    assert code == 0, stderr
    assert load(tmp_path / "ex").spec["players"] == [3, 4]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch", "greedy", "low", "--out", "X"], "unknown strategy 'nosuch'"),
        (["greedy", "low", "high", "--players", "7", "--out", "X"], "3 to 6 players"),
        (["greedy", "low", "high", "--players", "3,four", "--out", "X"], "--players"),
        (["greedy", "low", "high"], "--out DIR is required"),
        (["greedy", "low", "--scheduler", "tcp://x:1", "--out", "X"], "--backend dask"),
        (["greedy", "low", "--record-sample", "5", "--out", "X"], "--record FILE"),
        (["--config", "missing.toml", "--out", "X"], "no such file"),
        (["greedy", "low", "high", "--seating", "spiral", "--out", "X"], "--seating"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    args = [str(tmp_path / "o") if a == "X" else a for a in args]
    code, _, stderr = run_cli(capsys, *args)
    assert code == 2
    assert stderr.count("\n") == 1 and stderr.startswith("leaves: error:") and message in stderr


def test_refuses_a_non_empty_out_and_a_resume_with_another_spec(tmp_path, capsys):
    base = ["greedy", "low", "high", "--players", "3", "--seed", "1", "--jobs", "1"]
    out = ["--out", str(tmp_path)]
    assert run_cli(capsys, *base, "--games", "30", *out)[0] == 0
    code, _, err = run_cli(capsys, *base, "--games", "30", *out)
    assert code == 2 and "not empty" in err and "--resume" in err
    code, _, err = run_cli(capsys, *base, "--games", "30", *out, "--resume", "--repeats")
    assert code == 2 and err.count("\n") == 1
    said = "--repeats differs from this run, played without --repeats: drop --repeats"
    assert f"cannot resume {tmp_path}: {said}" in err


def _chunks_done(out: Path) -> int:
    folder = out / "chunks"
    return len(list(folder.glob("chunk-*.npz"))) if folder.is_dir() else 0


GATED = f"{ROOT / 'tests' / 'gated.py'}:Gated"  # plays like low; can stall a run (tests/gated.py)


def _default_sigint() -> None:
    """In the child, before it runs: Ctrl-C's default disposition. A test suite started from a
    process that ignores SIGINT (a background job, nohup) passes the ignored signal on, and
    Python then never raises KeyboardInterrupt: the run would not stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_stop(args: list[str], out: Path, at_least: int, sig: int, stall: int) -> int:
    """Start the CLI with every process stalling before its game ``stall + 1`` (so the run
    cannot finish), wait until ``at_least`` chunks are done, send ``sig``; its exit code."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LEAVES_TEST_STALL_AFTER": str(stall)}
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, start_new_session=True, preexec_fn=_default_sigint,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600  # a broken run, not a slow machine, gets here
        while _chunks_done(out) < at_least:
            assert proc.poll() is None, "the run ended before it could be stopped"
            assert time.monotonic() < deadline, "no chunk finished in time"
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be stopped"
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # what Ctrl-C in a terminal does
        else:
            os.kill(proc.pid, sig)  # the CLI process itself: no chance to clean up
        return proc.wait(timeout=300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # its worker processes (the session we started)


@pytest.mark.slow
def test_resume_after_ctrl_c_and_a_real_kill_equals_an_uninterrupted_run(tmp_path):
    # One seat stalls each process after 3 chunks' games, so the signals always land on a run
    # with at least 3 chunks done and never all of them, however loaded the machine is.
    out = tmp_path / "killed"
    field = [GATED, "greedy", "high", "minimal"]
    chunk, games = 24, 960  # a chunk holds whole deals: 24 seatings of 4 players
    args = [
        sys.executable, "-m", "leaves_cli", "tournament", *field, "--players", "4",
        "--games", str(games), "--chunk-size", str(chunk), "--seed", "21", "--out", str(out),
        "--no-progress", "--decision-timeout", "0",
    ]  # fmt: skip
    stall = 3 * chunk
    assert _start_and_stop([*args, "--jobs", "2"], out, 3, signal.SIGINT, stall) == 130
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["spec"]["n_chunks"] == games // chunk  # chunks of one deal: the stall's unit
    first = _chunks_done(out)
    assert 3 <= first < manifest["spec"]["n_chunks"]
    code = _start_and_stop([*args, "--jobs", "2", "--resume"], out, first + 3, signal.SIGKILL,
                           stall)  # fmt: skip
    assert code == -signal.SIGKILL
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "running"
    assert first + 3 <= _chunks_done(out) < manifest["spec"]["n_chunks"]

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LEAVES_TEST_STALL_AFTER", None)
    resumed = subprocess.run(
        [*args, "--jobs", "1", "--resume"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    whole = Tournament(field, players=4, games=games, chunk_size=chunk, seed=21).run(
        out=tmp_path / "whole"
    )
    res = load(out)
    assert res.complete and len(res.manifest["sessions"]) == 3
    assert res.summary()["forfeits"].sum() == 0
    pd.testing.assert_frame_equal(res.games(), whole.games())
    pd.testing.assert_frame_equal(res.summary(), whole.summary())
    for key, value in whole.aggregates().items():
        assert (res.aggregates()[key] == value).all(), key


@pytest.mark.parametrize(
    "players, extra",
    [("4", []), ("3", ["--repeats"]), ("5", []), ("6", ["--repeats"])],
)
def test_listing_order_changes_nothing(tmp_path, capsys, players, extra):
    import reports

    specs = ["weighted", "taker", "counter", "high", "low"]
    if extra:
        specs = specs[:3]
    outs = []
    for i, listing in enumerate([specs, list(reversed(specs)), specs[1:] + specs[:1]]):
        out = tmp_path / f"r{i}"
        code, _, stderr = run_cli(
            capsys, *listing, "--players", players, "--games", "1", "--seed", "5",
            "--jobs", "1", "--out", str(out), *extra,
        )  # fmt: skip
        assert code == 0, stderr
        outs.append(out)
    first = pd.read_parquet(outs[0] / "games")
    summary = reports.summary(reports.load_run(outs[0])).to_csv(index=False)
    for out in outs[1:]:
        pd.testing.assert_frame_equal(first, pd.read_parquet(out / "games"))
        assert reports.summary(reports.load_run(out)).to_csv(index=False) == summary


@pytest.mark.slow
def test_listing_order_gives_identical_summary_csv_files(tmp_path, capsys):
    from reports import build_report

    csvs = []
    for i, listing in enumerate([["weighted", "taker", "counter", "high"],
                                 ["high", "counter", "taker", "weighted"]]):  # fmt: skip
        out = tmp_path / f"r{i}"
        code, _, stderr = run_cli(capsys, *listing, "--games", "48", "--seed", "5",
                                  "--jobs", "1", "--out", str(out))  # fmt: skip
        assert code == 0, stderr
        build_report(out, out / "report", fmt="md")
        csvs.append((out / "report" / "summary.csv").read_bytes())
    assert csvs[0] == csvs[1]
