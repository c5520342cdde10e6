"""A resumed run says which versions played which part of it. A release that plays alike (the
same play version) resumes a run; the manifest's ``versions`` stays what the run began with,
and each session's entry records its own ``versions`` and the chunks it played, so the report's
overview, and the command line's resume, say when a later session played under others. An
older manifest, whose sessions record neither, still loads and resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import leaves
import strategies.provenance
from reports import load_run
from reports.run_overview import overview
from tests.helpers import cli, copied_run
from tournaments import Tournament

ENTRANTS = ["random", "greedy", "low"]
NEW = "0.2.0"
OLD = leaves.__version__


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves: 12 games in 2 chunks."""
    out = tmp_path_factory.mktemp("versions72") / "run"
    _tournament().run(out=out)
    return out


def _tournament() -> Tournament:
    return Tournament(ENTRANTS, players=3, games=12, seed=1, chunk_size=6)


def _grow(out: Path) -> None:
    """Resume the run grown by a stage of deals: 6 games more, in a third chunk."""
    _tournament().with_stages([2, 3]).run(out=out, resume=True)


def _new_release(monkeypatch) -> None:
    """Another package version of the project that plays alike (where versions are read)."""
    monkeypatch.setattr(leaves, "__version__", NEW)
    monkeypatch.setattr(strategies.provenance, "_package_version", lambda _: f"leaves {NEW}")


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _items(out: Path) -> dict[str, str]:
    return dict(overview(load_run(out), out / "report"))


def _listed(versions: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in versions.items())


def test_each_session_records_its_versions_and_chunks(run):
    m = _manifest(run)
    (session,) = m["sessions"]
    assert session["versions"] == m["versions"]
    assert session["versions"]["leaves"] == OLD != NEW
    assert session["chunks"] == [[0, 1]] and session["units_played"] == 12


def test_a_resume_by_another_release_records_its_versions_beside_the_runs(
    run, tmp_path, monkeypatch
):
    """The manifest said 'leaves 0.1.0' alone after 6 of the 18 games were played by 0.2.0."""
    copy = copied_run(run, tmp_path)
    began = _manifest(copy)["versions"]
    _new_release(monkeypatch)
    _grow(copy)
    m = _manifest(copy)
    assert m["versions"] == began  # what the run began with, as before
    first, second = m["sessions"]
    assert first["versions"] == began and first["chunks"] == [[0, 1]]
    assert second["versions"] == {**began, "leaves": NEW}
    assert second["chunks"] == [[2, 2]] and second["units_played"] == 6
    items = _items(copy)
    assert items["versions"] == f"{_listed(began)} when the run began"
    assert items["versions changed"] == (
        f"session 2 played 6 of 18 games with leaves {NEW} (the run began with {OLD})"
    )


def test_a_resume_by_the_same_release_says_the_versions_once(run, tmp_path):
    copy = copied_run(run, tmp_path)
    _grow(copy)
    m = _manifest(copy)
    assert m["sessions"][1]["versions"] == m["versions"]
    items = _items(copy)
    assert items["versions"] == _listed(m["versions"])
    assert "versions changed" not in items


def test_the_command_line_resume_says_this_session_played_under_another_release(
    run, tmp_path, capsys, monkeypatch
):
    copy = copied_run(run, tmp_path)
    _new_release(monkeypatch)
    code, out, err = cli(capsys, "tournament", "--resume", "--out", str(copy), "--games", "18",
                         "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    line = f"this session played with leaves {NEW} (the run began with {OLD})"
    assert line in out.splitlines(), out


def test_the_command_line_resume_by_the_same_release_says_nothing_of_versions(
    run, tmp_path, capsys
):
    copy = copied_run(run, tmp_path)
    code, out, err = cli(capsys, "tournament", "--resume", "--out", str(copy), "--games", "18",
                         "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 0, err
    assert "this session played with" not in out and "\n\n" not in out, out


def _older(m: dict) -> None:
    """As a version before sessions recorded their versions and chunks wrote it."""
    for session in m["sessions"]:
        session.pop("versions", None), session.pop("chunks", None)


def test_an_older_manifest_loads_and_resumes_under_another_release(run, tmp_path, monkeypatch):
    copy = copied_run(run, tmp_path, _older)
    assert _items(copy)["versions"] == _listed(_manifest(copy)["versions"])
    _new_release(monkeypatch)
    _grow(copy)
    m = _manifest(copy)
    assert "versions" not in m["sessions"][0]
    assert m["sessions"][1]["versions"]["leaves"] == NEW
    assert _items(copy)["versions changed"].startswith("session 2 played 6 of 18 games with ")


def test_a_later_session_that_recorded_no_versions_is_said_so(run, tmp_path):
    """A release that records them began the run, an older one resumed it: nothing tells
    which versions played its games."""

    def older_resumed(m: dict) -> None:
        m["sessions"].append({"started": m["created"], "units_played": 6, "wall_s": 0.1})
        m["units_done"] = 18

    copy = copied_run(run, tmp_path, older_resumed)
    assert _items(copy)["versions changed"] == (
        "session 2 played 6 of 18 games with versions it did not record (an older version "
        "played it)"
    )


def test_a_session_that_played_nothing_is_not_named(run, tmp_path):
    def idle(m: dict) -> None:
        later = {**m["sessions"][0], "units_played": 0, "chunks": []}
        m["sessions"].append({**later, "versions": {**m["versions"], "leaves": NEW}})

    copy = copied_run(run, tmp_path, idle)
    assert "versions changed" not in _items(copy)


def test_a_sessions_versions_that_are_no_table_are_named_as_damage(run, tmp_path):
    def damaged(m: dict) -> None:
        m["sessions"][0]["versions"] = "0.2.0"

    copy = copied_run(run, tmp_path, damaged)
    with pytest.raises(ValueError, match=r"sessions is .*expected a list of tables"):
        load_run(copy)
