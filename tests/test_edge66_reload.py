"""A user's strategy file loaded again in one process, as a notebook does: a file edited since
it was loaded is run again and its strategies replace the old ones (by name and by
``file.py:Class``, in the library and on the command line, where a run's manifest records the
code it played), a name unregistered comes back when its file is loaded again, and a file that
fails keeps no name."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import py_compile
import sys
from pathlib import Path

import pytest

import strategies
from strategies import registry, user_code
from strategies.user_code import load_class, load_file
from tests.helpers import cli, loaded_files_forgotten, one_error_line

BOT = """from strategies import Strategy


class {cls}(Strategy):
    name = "{name}"
    description = "version {version}"

    def __init__(self, pick: int = {version}):
        self.pick = pick

    def choose(self, view, legal, rng):
        return legal[min(self.pick, len(legal) - 1)]
"""


def _bot(version: int, cls: str = "Bot", name: str = "edge66-bot") -> str:
    return BOT.format(cls=cls, name=name, version=version)


def _edit(path: Path, text: str, *, same_time: bool = False) -> None:
    """Write ``text`` to ``path``; with ``same_time`` its modification time stays as it was
    (an edit within the file system's clock tick, or a tool that keeps the time)."""
    stat = path.stat()
    path.write_text(text, encoding="utf-8")
    if same_time:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.fixture(autouse=True)
def _forgotten(monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    with loaded_files_forgotten():
        yield


# ----------------------------------------------------------------------- load, edit, load
@pytest.mark.parametrize("same_time", [False, True])
def test_a_file_edited_since_it_was_loaded_is_run_again(tmp_path, same_time):
    """Was: the first version's class, by its file and by its name, after any edit."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    assert strategies.get(f"{path}:Bot").description == "version 1"
    assert strategies.get("edge66-bot").description == "version 1"
    _edit(path, _bot(2), same_time=same_time)  # one byte changed: the same size
    assert strategies.get(f"{path}:Bot").description == "version 2"
    assert strategies.get("edge66-bot").description == "version 2"
    assert strategies.get("edge66-bot").pick == 2


def test_a_file_touched_since_it_was_loaded_is_run_again_and_one_untouched_is_not(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    first = load_class(str(path), "Bot")
    assert load_class(str(path), "Bot") is first
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    again = load_class(str(path), "Bot")
    assert again is not first and registry.get_class("edge66-bot") is again


def test_a_file_is_run_from_its_bytes_not_an_earlier_versions_bytecode(tmp_path):
    """A version's bytecode cached beside the file (as Python's import writes it) is valid for
    any source of the same size and second: the import system ran version 1 for version 2."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path)),
                       invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)  # fmt: skip
    _edit(path, _bot(2), same_time=True)
    assert strategies.get(f"{path}:Bot").description == "version 2"


def test_an_edit_that_renames_the_class_or_its_name_leaves_no_old_name(tmp_path):
    """The old version's names go: a renamed class keeps the name (it was "already taken by
    bot.py:Bot"), a renamed strategy's old name is unknown (it played the old class)."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    load_file(str(path))
    _edit(path, _bot(2, cls="Renamed"))
    assert strategies.get(f"{path}:Renamed").description == "version 2"
    assert type(strategies.get("edge66-bot")).__name__ == "Renamed"
    _edit(path, _bot(3, cls="Renamed", name="edge66-other"))
    load_file(str(path))
    assert strategies.get("edge66-other").description == "version 3"
    with pytest.raises(ValueError, match="unknown strategy 'edge66-bot'"):
        strategies.get("edge66-bot")


def test_a_file_that_fails_when_loaded_again_keeps_none_of_its_names(tmp_path):
    """Was: the edit that broke the file went unseen (the old module, no error)."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    load_file(str(path))
    _edit(path, _bot(2) + "\nraise RuntimeError('half way')\n")
    for _ in range(2):  # said again, not served from a copy
        with pytest.raises(ValueError, match=r"error while loading .*RuntimeError: half way"):
            load_file(str(path))
    assert "edge66-bot" not in registry.names()
    _edit(path, _bot(3))
    assert strategies.get(f"{path}:Bot").description == "version 3"
    assert strategies.get("edge66-bot").description == "version 3"


def test_a_file_that_fails_on_its_first_load_keeps_none_of_its_names(tmp_path):
    """Was: the class defined above the error stayed registered, from a file said not to load."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1) + "\nraise RuntimeError('half way')\n", encoding="utf-8")
    with pytest.raises(ValueError, match="RuntimeError: half way"):
        load_file(str(path))
    assert "edge66-bot" not in registry.names()


def test_a_file_runs_under_its_own_future_imports_not_the_loaders(tmp_path):
    """The loader's module imports ``annotations`` from __future__; a user's file without it
    keeps its annotations evaluated (a dataclass or a check of types reads them)."""
    path = tmp_path / "typed.py"
    path.write_text("def f(x: int) -> int:\n    return x\n", encoding="utf-8")
    assert load_file(str(path)).f.__annotations__ == {"x": int, "return": int}


# ----------------------------------------------------------------------- unregister, load
def test_a_name_unregistered_is_registered_again_when_its_file_is_loaded_again(tmp_path):
    """Was: the second load gave the loader's copy and ran nothing: 'unknown strategy'."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    load_file(str(path))
    registry.unregister("edge66-bot")
    with pytest.raises(ValueError, match="unknown strategy 'edge66-bot'"):
        strategies.get("edge66-bot")
    load_file(str(path))
    assert strategies.get("edge66-bot").description == "version 1"
    registry.unregister("edge66-bot")
    assert strategies.get(f"{path}:Bot").description == "version 1"  # the spec's form too
    assert "edge66-bot" in registry.names()


def test_files_loaded_under_the_shared_fixture_are_loaded_afresh_after_it(tmp_path, capsys):
    """What a test loads is forgotten after it: its names, the loader's copy of each file
    (one whose class registers no name too), the modules; a later load registers the names
    again (the names unregistered alone left the copy, and with it a later load that
    registered nothing)."""
    path, quiet = tmp_path / "bot.py", tmp_path / "quiet.py"
    path.write_text(_bot(1), encoding="utf-8")
    quiet.write_text(_bot(1, cls="Quiet").replace("(Strategy)", "(Strategy, register=False)"))
    with loaded_files_forgotten():
        assert cli(capsys, "strategies", "--load", str(path), "--names")[0] == 0
        modules = {load_file(str(f)).__name__ for f in (path, quiet)}
        assert "edge66-bot" in registry.names()
    assert "edge66-bot" not in registry.names()
    assert not {str(path.resolve()), str(quiet.resolve())} & set(user_code._FILE_MODULES)
    assert not modules & set(sys.modules)
    code, out, err = cli(capsys, "strategies", "--load", str(path), "--names")
    assert code == 0 and "edge66-bot" in out.split(), err


# ----------------------------------------------------------------------- the command line
def test_strategies_load_after_an_edit_lists_the_new_version(tmp_path, capsys):
    """Was: the first version's row again, in a process that listed the file before."""
    path = tmp_path / "bot.py"
    for version in (1, 2):
        path.write_text(_bot(version), encoding="utf-8")
        code, out, err = cli(capsys, "strategies", "--load", str(path))
        listed = " ".join(out.split())
        assert code == 0 and f"version {version}" in listed, err
        assert f"version {3 - version}" not in listed


@pytest.mark.parametrize("form", ["spec", "load"])
def test_a_tournament_after_an_edit_plays_and_records_the_new_file(tmp_path, capsys, form):
    """Two tournaments in one process, the file edited between them. Was: the second played
    the first version (the game kept its strategy for the spec string for the process) and
    recorded the new file's SHA-256 beside the first version's parameters."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    entrant = f"{path}:Bot" if form == "spec" else "edge66-bot"
    load = ["--load", str(path)] if form == "load" else []
    for version in (1, 2):
        if version == 2:
            _edit(path, _bot(2), same_time=True)
        out = tmp_path / f"run{version}"
        code, _, err = cli(capsys, "tournament", entrant, "greedy", "low", *load, "--players",
                           "3", "--games", "3", "--jobs", "1", "--no-progress", "--out",
                           str(out))  # fmt: skip
        assert code == 0, err
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        mine = next(e for e in manifest["spec"]["entrants"] if e.get("file"))
        assert mine["file_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert mine["params"] == {"pick": version}


def test_a_file_that_cannot_be_read_is_said_in_one_line(tmp_path, capsys, monkeypatch):
    """Was: "PermissionError: [Errno 13] Permission denied: '...'" in the middle of the line."""
    path = tmp_path / "bot.py"
    path.write_text(_bot(1), encoding="utf-8")
    real_open, real_read = io.open_code, Path.read_bytes

    def refuse(name):
        if Path(name) == path.resolve():
            raise PermissionError(13, "Permission denied", str(name))

    monkeypatch.setattr(io, "open_code", lambda name: refuse(name) or real_open(name))
    monkeypatch.setattr(Path, "read_bytes", lambda self: refuse(self) or real_read(self))
    code, _, err = cli(capsys, "strategies", "--load", str(path))
    assert code == 2
    assert one_error_line(err) == f"leaves: error: --load: cannot read {path}: Permission denied"
