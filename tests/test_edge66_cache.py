"""The strategies a game keeps per spec string (``GameBase.strategy``) and a user's file edited
between runs: a worker process kept from an earlier run, or one started after the edit, plays
the version of the file its run resolved, or says it cannot; a name of a user's file's
strategy reaches a worker that never loaded the file; a spec is still looked up once while
its file stays as it was; and a strategy records the bytes it was loaded from."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from pathlib import Path

import pytest

import strategies
import tournaments
from strategies import registry
from strategies.provenance import provenance
from strategies.user_code import load_file
from tests.helpers import cli, loaded_files_forgotten, one_error_line
from tournaments.games import get_game

BOT = """from strategies import Strategy


class Bot(Strategy):
    name = "edge66-cached"
    description = "version {version}"

    def __init__(self, pick: int = {version}):
        self.pick = pick

    def choose(self, view, legal, rng):
        return legal[min(self.pick, len(legal) - 1)]
"""


def _write(path: Path, version: int) -> str:
    """Version ``version`` of the bot into ``path`` (its modification time kept where the file
    was there: an edit within the clock's tick); the SHA-256 of what was written."""
    stat = path.stat() if path.exists() else None
    path.write_text(BOT.format(version=version), encoding="utf-8")
    if stat is not None:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _worker(game):
    """The game as a worker process receives it with a chunk (pickled)."""
    return pickle.loads(pickle.dumps(game))


@pytest.fixture(autouse=True)
def _forgotten():
    with loaded_files_forgotten():
        yield


# ----------------------------------------------------------------------- workers
def test_a_worker_kept_from_an_earlier_run_plays_the_version_its_run_resolved(
    tmp_path, monkeypatch
):
    """Was: a worker of the first run (loky keeps them between runs) played version 1 from
    its cache in the second run, whose manifest recorded version 2."""
    path = tmp_path / "bot.py"
    _write(path, 1)
    game = get_game()
    monkeypatch.setattr(type(game), "_cache", {})
    _, payload = game.resolve(f"{path}:Bot")
    first = _worker(game).strategy(payload)  # what the worker keeps
    assert first.pick == 1
    _write(path, 2)
    _, again = game.resolve(f"{path}:Bot")  # the second run, in the driver
    assert again == payload
    type(game)._cache[payload] = first  # the worker's process still holds version 1
    played = _worker(game).strategy(payload)
    assert (played.pick, played.description) == (2, "version 2")


def test_a_worker_started_after_an_edit_says_it_cannot_play_the_runs_version(tmp_path, monkeypatch):
    """Was: a worker that loaded the file after its edit played the new code, silently, in a
    run whose manifest recorded the old one. A tournament's run stops with it."""
    path = tmp_path / "bot.py"
    then = _write(path, 1)
    t = tournaments.Tournament([f"{path}:Bot", "greedy", "low"], players=3, games=6, seed=1)
    now = _write(path, 2)
    monkeypatch.setattr(type(t.game), "_cache", {})  # a fresh process keeps no strategy
    said = (
        f"strategy file {path} changed since the version this run plays was loaded (SHA-256 "
        f"{then[:12]} then, {now[:12]} now): its games would play code the run does not "
        "record; load the file again and start the run again"
    )
    with pytest.raises(ValueError) as exc:
        _worker(t.game).strategy(t.payloads[t.labels.index("edge66-cached")])
    assert str(exc.value) == said
    with pytest.raises(ValueError) as exc:
        t.run(n_jobs=1)
    assert str(exc.value) == said


@pytest.mark.parametrize(
    ("spec", "rest"),
    [("edge66-cached", ""), ("edge66-cached:pick=0", ":pick=0"),
     ("edge66-cached(pick=0)", "(pick=0)"), (" edge66-cached : pick=0 ", ": pick=0")],
)  # fmt: skip
def test_a_name_of_a_users_file_reaches_a_worker_that_never_loaded_the_file(
    tmp_path, monkeypatch, spec, rest
):
    """Was: the name travelled as it was, and a worker (which never ran ``--load``) said
    "unknown strategy": a run of a loaded file's strategy by name failed with ``--jobs``."""
    path = tmp_path / "bot.py"
    _write(path, 1)
    load_file(str(path))
    game = get_game()
    label, payload = game.resolve(spec)
    assert payload == f"{path.resolve()}:Bot{rest}"
    registry.unregister("edge66-cached")  # a fresh process: no name, no loaded file, no cache
    monkeypatch.setattr(type(game), "_cache", {})
    played = _worker(game).strategy(payload)
    assert played.label == label == strategies.get(spec).label
    assert played.params == strategies.get(spec).params


# ----------------------------------------------------------------------- the cache kept
def test_a_spec_is_looked_up_once_while_its_file_stays_as_it_was(tmp_path, monkeypatch):
    """The cache's purpose (a worker plays chunk after chunk of one spec): a built-in, and a
    user's file that did not change, resolved by a run or not, are looked up once."""
    path = tmp_path / "bot.py"
    _write(path, 1)
    game = get_game()
    monkeypatch.setattr(type(game), "_cache", {})
    _, pinned = game.resolve(f"{path}:Bot:pick=2")
    looked: list[str] = []
    real = type(game).lookup
    monkeypatch.setattr(type(game), "lookup", lambda self, s: looked.append(s) or real(self, s))
    specs = ["greedy", f"{path}:Bot", pinned]
    kept = [game.strategy(s) for s in specs]
    assert all(game.strategy(s) is k for s, k in zip(specs, kept, strict=True))
    assert all(_worker(game).strategy(s) is k for s, k in zip(specs, kept, strict=True))
    assert looked == ["greedy", f"{path}:Bot"]  # the run's spec was found when resolved


def test_a_spec_played_outside_a_run_plays_the_file_as_it_is_now(tmp_path):
    """Was: ``game.strategy(spec)`` (a game's ``play`` in a notebook) kept version 1 for the
    process after any edit."""
    path = tmp_path / "bot.py"
    _write(path, 1)
    game = get_game()
    assert game.strategy(f"{path}:Bot").pick == 1
    _write(path, 2)
    assert game.strategy(f"{path}:Bot").pick == 2


# ----------------------------------------------------------------------- provenance
def test_a_strategy_used_by_name_after_an_edit_records_the_bytes_it_was_loaded_from(
    tmp_path, monkeypatch
):
    """Was: the SHA-256 of the file as it was when the manifest was written, beside the
    parameters of the code loaded before the edit."""
    path = tmp_path / "bot.py"
    loaded = _write(path, 1)
    load_file(str(path))
    _write(path, 2)  # not loaded again: the name still plays version 1
    assert provenance(strategies.get("edge66-cached"))["file_sha256"] == loaded
    t = tournaments.Tournament(["edge66-cached", "greedy", "low"], players=3, games=6, seed=1)
    result = t.run(n_jobs=1, out=tmp_path / "run")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    mine = next(e for e in manifest["spec"]["entrants"] if e.get("file"))
    assert (mine["file_sha256"], mine["params"]) == (loaded, {"pick": 1})
    assert result is not None
    worker = _worker(t.game)  # a worker process loads the file as it is now: it says so
    monkeypatch.setattr(type(t.game), "_cache", {})
    with pytest.raises(ValueError, match="changed since the version this run plays was loaded"):
        worker.strategy(t.payloads[t.labels.index("edge66-cached")])


def test_a_file_gone_since_it_was_loaded_records_the_bytes_it_was_loaded_from(tmp_path):
    """Was: "unreadable", for a class that plays the bytes read when it was loaded."""
    path = tmp_path / "bot.py"
    loaded = _write(path, 1)
    strategy = strategies.get(f"{path}:Bot")
    path.unlink()
    assert provenance(strategy)["file_sha256"] == loaded


def test_a_run_whose_file_changed_under_it_stops_in_one_line(tmp_path, capsys, monkeypatch):
    """The command line's words for it: one line, exit 2 as for any strategy that cannot be
    played (a process that never held the version the run resolved, as a worker started
    after the edit, finds the new file). Was: the new code played, silently."""
    monkeypatch.setenv("COLUMNS", "300")
    path = tmp_path / "bot.py"
    then = _write(path, 1)
    game_class = type(get_game())
    resolve = game_class.resolve

    def resolve_then_edit(self, spec):
        found = resolve(self, spec)
        if spec == f"{path}:Bot":
            _write(path, 2)
            game_class._cache.clear()
        return found

    monkeypatch.setattr(game_class, "_cache", {})
    monkeypatch.setattr(game_class, "resolve", resolve_then_edit)
    code, _, err = cli(capsys, "tournament", f"{path}:Bot", "greedy", "low", "--players", "3",
                       "--games", "6", "--jobs", "1", "--no-progress", "--out",
                       str(tmp_path / "run"))  # fmt: skip
    now = hashlib.sha256(path.read_bytes()).hexdigest()
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: strategy file {path} changed since the version this run plays was "
        f"loaded (SHA-256 {then[:12]} then, {now[:12]} now): its games would play code the run "
        "does not record; load the file again and start the run again"
    )
