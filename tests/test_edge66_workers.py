"""Two users' files that declare one strategy name, played one after the other by
``leaves tournament --jobs 2`` in one process, the first's name unregistered between the runs:
the worker processes the first run started are kept for the second, and a kept worker holds
the name its load of the first file registered. The process that resolves the run is the one
that says a name is taken; a worker plays the file the run resolved."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from strategies import registry
from tests.helpers import cli, loaded_files_forgotten, logging_bot

NAME = "edge66-workers-same"
"""The strategy name both files declare."""


@pytest.mark.slow
@pytest.mark.parametrize("form", ["spec", "load"])
def test_a_kept_worker_plays_another_file_of_the_same_name(tmp_path, capsys, monkeypatch, form):
    """Was: the second run stopped in its worker with "error while loading .../second/bot.py:
    ValueError: strategy name 'edge66-workers-same' is already taken by .../first/bot.py:Bot",
    the name having been unregistered (and the second file loaded) in this process."""
    monkeypatch.setenv("COLUMNS", "300")
    log = tmp_path / "decisions.txt"
    players: list[set[int]] = []
    for pick, which in ((1, "first"), (2, "second")):
        path = tmp_path / which / "bot.py"
        path.parent.mkdir()
        bot = logging_bot(NAME, f"file {which}", pick, str(log), os.getpid())
        path.write_text(bot, encoding="utf-8")
        entrant = f"{path}:Bot" if form == "spec" else NAME
        load = ["--load", str(path)] if form == "load" else []
        with loaded_files_forgotten():  # the name unregistered after each run, as a notebook may
            code, _, err = cli(capsys, "tournament", entrant, "greedy", "low", *load,
                               "--players", "3", "--games", "600", "--jobs", "2",
                               "--no-progress", "--out", str(tmp_path / f"run-{which}"))  # fmt: skip
        assert code == 0, err
        decisions = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
        log.unlink()
        assert {p for _, p in decisions} == {str(pick)}
        players.append({int(pid) for pid, _ in decisions} - {os.getpid()})
    assert players[0] & players[1], f"no worker played both runs: {players}"


def _write(path: Path, which: str) -> str:
    path.parent.mkdir(exist_ok=True)
    path.write_text(logging_bot(NAME, f"file {which}", 0, "unused"), encoding="utf-8")
    return f"{path}:Bot"


def test_in_a_worker_a_file_takes_a_name_another_file_holds(tmp_path, monkeypatch):
    """Was: "already taken" there too. A worker's registry follows the file it loads last; the
    process that resolves a run still refuses a name two files declare
    (``test_audit_user_strategies``)."""
    first, second = _write(tmp_path / "a" / "bot.py", "a"), _write(tmp_path / "b" / "bot.py", "b")
    monkeypatch.setattr(registry, "_plays_for_another", lambda: True)
    with loaded_files_forgotten():
        a = registry.get(first)
        b = registry.get(second)
        assert registry.get_class(NAME) is type(b)
        assert registry.get(first) == a  # the first file's class still plays by its spec


def test_in_a_worker_a_file_takes_no_built_in_name(tmp_path, monkeypatch):
    """Only a user's file's name moves: a built-in's is refused in a worker as anywhere."""
    path = tmp_path / "greedy.py"
    path.write_text(logging_bot("greedy", "file x", 0, "unused"), encoding="utf-8")
    monkeypatch.setattr(registry, "_plays_for_another", lambda: True)
    with loaded_files_forgotten(), pytest.raises(ValueError, match="'greedy' is already taken"):
        registry.get(f"{path}:Bot")


def test_this_process_plays_for_no_other():
    """The process a user runs is no worker: two files of one name are refused there."""
    assert not registry._plays_for_another()


@pytest.mark.slow
def test_a_dask_worker_plays_for_another():
    """A Dask worker (started by its nanny) is a worker as loky's are."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=1, processes=True, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        assert client.submit(registry._plays_for_another, pure=False).result()
