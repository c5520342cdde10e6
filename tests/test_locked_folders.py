"""Every command that writes a folder of its own holds its lock while it plays: a second
process tuning or comparing variants into it played beside the first (both saved the same
state files), and 'leaves run --resume' on a run another process plays gave advice about
another run instead of the lock's refusal. SIGTERM stops a comparison of variants as Ctrl-C
does (it left the manifest of the run it played 'running' and the lock file behind)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_audit4_runs import _end, _hold

ROOT = Path(__file__).resolve().parents[1]


def _refused(err: str, out: Path, holder: subprocess.Popen) -> None:
    assert err == (f"leaves: error: another process is playing this run in {out} (pid "
                   f"{holder.pid}): wait for it to end, or stop it, then try again\n")  # fmt: skip


def test_a_tuning_another_process_plays_is_refused(tmp_path, capsys):
    out = tmp_path / "t"
    holder = _hold(out)
    try:
        for resume in ([], ["--resume"]):
            code, said, err = cli(capsys, "tune", "taker", "--against", "low", "--budget", "200",
                                  "--jobs", "1", "--out", str(out), *resume)  # fmt: skip
            assert code == 1 and said == "", err
            _refused(err, out, holder)
    finally:
        _end(holder)
    assert [p.name for p in out.iterdir()] == []  # the holder's lock file, removed as it ended


def test_a_comparison_another_process_plays_is_refused(tmp_path, capsys):
    out = tmp_path / "v"
    holder = _hold(out)
    try:
        for resume in ([], ["--resume"]):
            code, said, err = cli(capsys, "variants", "low", "greedy", "--rules", "take=ends",
                                  "--games", "24", "--jobs", "1", "--out", str(out),
                                  *resume)  # fmt: skip
            assert code == 1 and said == "", err
            _refused(err, out, holder)
    finally:
        _end(holder)


def test_leaves_run_resumed_while_another_process_plays_is_refused(tmp_path, capsys):
    out = tmp_path / "r"
    holder = _hold(out)
    try:
        code, said, err = cli(capsys, "run", "--games", "24", "--players", "3", "--jobs", "1",
                              "--out", str(out), "--resume")  # fmt: skip
    finally:
        _end(holder)
    assert code == 1 and said == "", err
    _refused(err, out, holder)


@pytest.mark.slow
def test_sigterm_stops_a_comparison_in_order(tmp_path):
    out = tmp_path / "v"
    proc = subprocess.Popen(
        [sys.executable, "-m", "leaves_cli", "variants", "random", "low", "greedy", "--rules",
         "take=ends", "--games", "3000000", "--jobs", "1", "--trace-games", "0",
         "--restricted-games", "0", "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / "default" / "chunks").is_dir() and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted: 'leaves variants --out" in err and "--resume' continues it" in err
    assert err.rstrip().endswith("leaves: error: interrupted"), err
    assert '"status": "interrupted"' in (out / "default" / "manifest.json").read_text()
    assert not (out / ".run.lock").exists() and not (out / "default" / ".run.lock").exists()
