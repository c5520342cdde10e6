"""Small things said truly: a finished grown run asked for by the games it holds is this run;
a broken OpenSpiel is no missing one; a file argument refused in one source's words; --top's
bounds of the library's; a Dask worker compares the global random states as a local player
does; an entry point that cannot load is marked where the strategies are listed."""

from __future__ import annotations

import importlib
import json
import random
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import click
import numpy as np
import pytest
from click.core import ParameterSource

from gamekit.errors import ParameterError
from leaves.plugin import LeavesGame
from leaves_cli.errors import CLIError
from leaves_cli.request import Request
from strategies import global_random, registry
from tests.helpers import cli
from tournaments import Tournament, arguments, parallel
from tournaments.notices import Watched
from tournaments.work import run_chunk

ROLLERS = """
import random

import numpy as np

from strategies import Strategy


class Roller(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[random.randrange(len(legal))]


class NpRoller(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[np.random.randint(len(legal))]
"""
SAID = "draws from the global random state"


@pytest.fixture
def rollers(tmp_path) -> str:
    """The file of a strategy that draws from Python's random (Roller), one numpy's."""
    path = tmp_path / "rolling70.py"
    path.write_text(ROLLERS)
    return str(path)


@pytest.fixture(autouse=True)
def global_states_put_back():
    """A Roller draws from the global states: each test leaves them as it found them."""
    py, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py)
    np.random.set_state(np_state)


# ------------------------------------------------------- a grown run asked for by its games
GROWN = {"games_asked": 1, "n_games": 1440, "deals_per_table": 2, "deal_stages": [1, 2]}


def _options(games: int, spec: dict[str, Any], resume: bool = False) -> Request:
    """``stored_options`` as ``leaves run --games GAMES`` (typed) over a run of ``spec``."""
    from leaves.commands.run_stored import stored_options

    ctx = click.Context(click.Command("run"))
    ctx.set_parameter_source("games", ParameterSource.COMMANDLINE)
    with ctx:
        return stored_options(Request.of({"games": games, "resume": resume}), {"spec": spec})


@pytest.mark.parametrize("games", [721, 1440])
def test_the_games_a_grown_run_holds_ask_for_it_as_it_was_asked_and_grown(games):
    """Was: the run asked for at once, refused as 'cannot resume' (no --resume was typed)."""
    request = _options(games, GROWN)
    assert (request.games, request.grow_to) == (1, games)


def test_other_games_than_a_grown_run_holds_are_asked_for_as_typed():
    for games in (1441, 700):  # more (it names the --resume that grows it), or its first stage
        assert (_options(games, GROWN).games, _options(games, GROWN).grow_to) == (games, None)
    not_grown = {**GROWN, "games_asked": 1440, "deal_stages": [2]}
    assert (_options(1440, not_grown).games, _options(1440, not_grown).grow_to) == (1440, None)
    assert _options(2000, GROWN, resume=True).grow_to == 2000  # --resume grows, as before


@pytest.mark.slow
def test_leaves_run_with_the_games_of_a_finished_grown_run_says_it_holds_it(capsys, tmp_path,
                                                                            monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    small = ["run", "--players", "3", "--jobs", "1", "--format", "md", "--out", "r"]
    assert cli(capsys, *small, "--games", "1")[0] == 0
    assert cli(capsys, *small, "--games", "1000", "--resume")[0] == 0
    held = json.loads(Path("r/manifest.json").read_text())["spec"]
    assert (held["n_games"], held["deal_stages"]) == (1440, [1, 2])
    for games in ("1440", "721", "1"):  # as a run asked for 1,440 at once would be said
        code, out, err = cli(capsys, *small, "--games", games)
        assert (code, err) == (0, ""), err
        assert out.splitlines()[0] == (
            "r already holds this run, finished: 1,440 games, asked 1, grown by 1 more stage "
            "of deals, seed 0; its report: r/report/report.md"
        )
    code, _, err = cli(capsys, *small, "--games", "1441")
    assert code == 2 and "holds this run with fewer games (games 1,440 there, 2,160 here)" in err


# ---------------------------------------------------------------------- a broken OpenSpiel
class _Broken:
    """A finder whose ``pyspiel`` is installed but cannot load (a shared library missing)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pyspiel":
            raise ImportError("libspiel.so: cannot open shared object file")


def _import_error(monkeypatch) -> str:
    """The line importing ``interop.openspiel`` fails with (its module put back after)."""
    monkeypatch.delitem(sys.modules, "interop.openspiel", raising=False)
    with pytest.raises(ImportError) as caught:
        importlib.import_module("interop.openspiel")
    return str(caught.value)


def test_a_missing_openspiel_is_said_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # ModuleNotFoundError, name 'pyspiel'
    assert _import_error(monkeypatch) == "OpenSpiel is not installed: pip install '.[research]'"


def test_a_broken_openspiel_is_said_broken_with_the_imports_words(monkeypatch):
    monkeypatch.delitem(sys.modules, "pyspiel", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_Broken(), *sys.meta_path])
    said = _import_error(monkeypatch)  # was: "OpenSpiel is not installed: ..."
    assert said.startswith("OpenSpiel ") and "not installed" not in said
    assert said.endswith(" cannot be imported: libspiel.so: cannot open shared object file")


def test_openspiels_release_is_read_from_its_distribution(monkeypatch):
    from gamekit import requirement

    asked = []
    monkeypatch.setattr(requirement, "_version", lambda name: asked.append(name) or "2.0.2")
    said = requirement.import_failure(ImportError("no"), "pyspiel", "OpenSpiel", "open_spiel")
    assert (said, asked) == ("OpenSpiel 2.0.2 cannot be imported: no", ["open_spiel"])


# ---------------------------------------------------------------- one refusal of a file
def test_a_file_argument_is_refused_in_the_words_of_not_a_file(monkeypatch, tmp_path):
    from leaves_cli.writable import check_file_writable
    from tournaments import session

    monkeypatch.setattr(arguments, "not_a_file", lambda *a: ParameterError(f"said {a}"))
    with pytest.raises(CLIError) as caught:
        check_file_writable(tmp_path, "--save")
    assert caught.value.message == f"said ('--save', {tmp_path!r}, 'a directory')"
    assert caught.value.exit_code == 2  # bad usage, a directory too
    monkeypatch.setattr(session, "not_a_file", arguments.not_a_file)
    with pytest.raises(ParameterError, match=r"^said \('record', '/dev/null', 'a device'\)$"):
        session._check_record({"record_file": "/dev/null"})


def test_the_words_are_the_ones_said_before(tmp_path):
    from leaves_cli.writable import check_file_writable
    from tournaments import session

    with pytest.raises(CLIError) as caught:
        check_file_writable(tmp_path, "--save")
    assert caught.value.message == (
        f"--save {tmp_path} is not a regular file but a directory: name a file"
    )
    with pytest.raises(ValueError) as refused:
        session._check_record({"record_file": "/dev/null"})
    assert str(refused.value) == "record /dev/null is not a regular file but a device: name a file"


# ---------------------------------------------------------------------------------- --top
def test_reports_top_takes_the_fewest_the_paired_tests_compare():
    from leaves_cli import report_cmd
    from reports.significance import TOP_LEAST

    (top,) = [p for p in report_cmd.report.params if p.name == "top"]
    assert (top.type.min, top.type.max) == report_cmd.TOP
    assert report_cmd.TOP[0] == TOP_LEAST


# ----------------------------------------------- the global random states on a Dask worker
def _task(strategy: str, seed: int) -> Any:
    t = Tournament([strategy, "greedy", "low"], players=3, games=6, seed=seed,
                   game=LeavesGame(decision_timeout=0))  # fmt: skip
    (task,) = t._tasks([0], 0)
    return task


def _off_the_main_thread(call: Any) -> Any:
    got = {}
    thread = threading.Thread(target=lambda: got.update(value=call()))
    thread.start()
    thread.join()
    return got["value"]


def _on_a_worker(task: Any) -> Any:
    """What a Dask worker's thread (not the main one) notes of ``task``."""
    return _off_the_main_thread(lambda: Watched(parallel.OnWorker(run_chunk))(task)).notes


def test_a_worker_that_plays_alone_notes_what_its_chunk_drew(rollers, monkeypatch):
    """A Dask worker's thread is not its main one: with no timeout's helper it compared none."""
    task = _task(f"{rollers}:NpRoller", 70)
    assert _on_a_worker(task).sources == ()  # no Dask worker here: it does not play alone
    monkeypatch.setattr(parallel, "plays_alone", lambda: True)
    notes = _on_a_worker(task)
    assert (notes.sources, notes.drew) == (("numpy.random",), ("NpRoller",))
    assert global_random.take_noted() == ()  # nothing left for the next task of the thread
    # Python's random module: a worker's own messages draw from it as a chunk plays there
    assert _on_a_worker(_task(f"{rollers}:Roller", 70)).sources == ()


def test_off_a_dask_worker_no_one_plays_alone():
    assert parallel.plays_alone() is False


@pytest.mark.slow
def test_a_dask_run_without_a_decision_timeout_says_who_drew(rollers, tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = Tournament([f"{rollers}:NpRoller", "greedy", "low"], players=3, games=18, seed=3,
                       chunk_size=6, game=LeavesGame(decision_timeout=0))  # fmt: skip
        t.run(n_jobs=1, backend="dask", out=tmp_path / "run")
    said = [str(w.message) for w in caught if SAID in str(w.message)]
    assert len(said) == 1 and said[0].startswith(f"NpRoller {SAID} (numpy.random)")


# ------------------------------------------------------- an entry point that cannot load
class _Missing:
    value = "mypkg70.nothere:X"

    def load(self) -> Any:
        raise ModuleNotFoundError("No module named 'mypkg70'")


def test_the_listing_marks_an_entry_point_that_cannot_load(monkeypatch):
    monkeypatch.setattr(registry, "_entry_points", lambda game="leaves": {"broken70": _Missing()})
    assert "broken70" in registry.names()  # listed unloaded, as a name to suggest
    listed = registry.listing()
    assert listed["broken70"] == (
        "cannot load strategy 'broken70' from entry point 'mypkg70.nothere:X': "
        "ModuleNotFoundError: No module named 'mypkg70'"
    )
    assert listed["greedy"] is None and set(listed) == set(registry.names())
    with pytest.warns(UserWarning, match="cannot load strategy 'broken70'"):
        assert "broken70" not in registry.filtered(search=False)
