"""Two ``leaves tournament --jobs 2`` runs in one process, a user's file edited between them:
the worker processes the first run started are kept for the second, and every decision of
the second run is the new version's, in the driver and in each worker, by a file's spec and
by the name its ``--load`` registers (which a worker never loaded)."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from tests.helpers import cli, loaded_files_forgotten, logging_bot


@pytest.mark.slow
@pytest.mark.parametrize("form", ["spec", "load"])
def test_workers_kept_between_runs_play_the_edited_file(tmp_path, capsys, monkeypatch, form):
    """Was: the kept workers played version 1 in the second run (by the spec), whose manifest
    recorded version 2's file; by the name, every worker said "unknown strategy". (A name of
    its own for each form: a kept worker keeps the names the files it loaded registered.)"""
    monkeypatch.setenv("COLUMNS", "300")
    path, log = tmp_path / "bot.py", tmp_path / "decisions.txt"
    entrant = f"{path}:Bot" if form == "spec" else f"edge66-worker-{form}"
    load = ["--load", str(path)] if form == "load" else []
    players: list[set[int]] = []
    with loaded_files_forgotten():
        for version in (1, 2):
            bot = logging_bot(f"edge66-worker-{form}", f"version {version}", version, str(log),
                              os.getpid())  # fmt: skip
            path.write_text(bot, encoding="utf-8")
            out = tmp_path / f"run{version}"
            code, _, err = cli(capsys, "tournament", entrant, "greedy", "low", *load,
                               "--players", "3", "--games", "600", "--jobs", "2",
                               "--no-progress", "--out", str(out))  # fmt: skip
            assert code == 0, err
            decisions = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
            log.unlink()
            assert {pick for _, pick in decisions} == {str(version)}
            players.append({int(pid) for pid, _ in decisions} - {os.getpid()})
            manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
            mine = next(e for e in manifest["spec"]["entrants"] if e.get("file"))
            assert mine["file_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            assert mine["params"] == {"pick": version}
    assert players[0] & players[1], f"no worker played both runs: {players}"
