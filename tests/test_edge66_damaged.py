"""A run's file that its checksum vouches for but that Python will not read (lists nested past
its recursion, a number past its digits): every command that reads it says one line naming
the file and what mends it, and exits non-zero; none draws a conclusion from it (a report
said every round ended by a forfeit), none shows a traceback."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import cli, forfeiting_run, one_error_line
from tournaments import aggregates, load, storage
from tournaments.verify import verify_run

MOST = sys.get_int_max_str_digits()
DEEP = 100_000  # lists nested past any recursion limit

PAST = {
    "nesting": ("[" * DEEP + "]" * DEEP, "it holds lists or objects nested too deep to read"),
    "number": ('[{"game": ' + "1" * (MOST + 1) + "}]",
               f"it holds a number of more than {MOST:,} digits"),
}  # fmt: skip
"""Valid JSON Python will not read, and the words that say why."""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished 2-player Ligretto run of 40 rounds in 4 chunks, some of them forfeited."""
    return forfeiting_run(tmp_path_factory.mktemp("damaged") / "run", "--chunk-size", "10")


@pytest.fixture(autouse=True)
def _env(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # what the command line sets


def _vouched(run: Path, tmp_path: Path, rel: str, data: bytes, status: str | None = None) -> Path:
    """A copy of ``run`` whose file ``rel`` holds ``data`` and whose manifest's checksum of
    it matches (``status``: the run's status written instead)."""
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    (copy / rel).write_bytes(data)
    manifest = json.loads((copy / storage.MANIFEST).read_text())
    integrity = manifest["integrity"]
    entries = [integrity["files"], *integrity["chunks"].values()]
    holder = next(e for e in entries if rel in e)
    holder[rel] = storage.file_entry(data)
    if status is not None:
        manifest["status"] = status
    (copy / storage.MANIFEST).write_text(json.dumps(manifest))
    return copy


def _chunk_bytes(run: Path, forfeits: str, where: Path) -> bytes:
    """Chunk 1 of ``run`` with its forfeit details replaced by ``forfeits``."""
    agg, extra = aggregates.load(storage.chunk_path(run, 1))
    extra["forfeits"] = np.array(forfeits)
    path = where / "chunk.npz"
    aggregates.save(path, agg, **extra)
    return path.read_bytes()


READERS = {
    "report": lambda bad, run: ("report", str(bad)),
    "verify": lambda bad, run: ("verify", str(bad)),
    "compare": lambda bad, run: ("compare", str(bad), str(run)),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("past", PAST)
def test_a_vouched_forfeits_json_python_will_not_read_is_named_in_one_line(
    run, tmp_path, capsys, command, past
):
    """Was: nested too deep, ``leaves report`` wrote a report and said "no valid round ...:
    every one ended by a forfeit" (the RecursionError was taken for a run with nothing in
    it); ``leaves verify`` said "ok" and ``leaves compare`` compared the run."""
    text, why = PAST[past]
    bad = _vouched(run, tmp_path, "forfeits.json", text.encode())
    code, _, err = cli(capsys, *READERS[command](bad, run))
    path = bad / "forfeits.json"
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: {path} is bad: {why}; 'leaves tournament --resume --out {bad}' "
        "writes it again from the run's chunks"
    )


def test_the_resume_writes_a_vouched_forfeits_json_python_will_not_read_again(
    run, tmp_path, capsys
):
    bad = _vouched(run, tmp_path, "forfeits.json", PAST["nesting"][0].encode())
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 0, err
    assert verify_run(bad).ok
    assert load(bad).forfeit_details() == load(run).forfeit_details()


@pytest.mark.parametrize("command", ["report", "compare", "resume"])
@pytest.mark.parametrize("past", PAST)
def test_a_vouched_chunk_python_will_not_read_is_named_in_one_line(
    run, tmp_path, capsys, command, past
):
    """A chunk whose forfeit details Python will not read, its checksum matching: the resume
    raised a RecursionError from deep inside (``session.Merged`` read them unguarded), a
    report and a comparison of the unfinished run did too. The resume takes a file its
    checksum vouches for as whole, so the line says to remove it first."""
    rel = storage.chunk_path(Path(), 1).as_posix()
    data = _chunk_bytes(run, PAST[past][0], tmp_path)
    bad = _vouched(run, tmp_path, rel, data, status="interrupted")  # the chunks are read
    said = (f"leaves: error: {bad / rel} is bad: {PAST[past][1]}; remove it, then 'leaves "
            f"tournament --resume --out {bad}' plays its chunk again")  # fmt: skip
    if command != "resume":
        code, _, err = cli(capsys, *READERS[command](bad, run))
        assert code == 1 and one_error_line(err) == said
        return
    before = (bad / storage.MANIFEST).read_bytes()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 1 and "Traceback" not in err, err
    lines = err.splitlines()  # what it resumes, its verification, then the refusal
    assert lines[-2:] == ["resume: 4 of 4 chunks verified, 0 replayed", said], err
    assert (bad / storage.MANIFEST).read_bytes() == before  # nothing played or written


def test_a_vouched_chunk_python_will_not_read_is_played_again_once_removed(run, tmp_path, capsys):
    rel = storage.chunk_path(Path(), 1).as_posix()
    bad = _vouched(run, tmp_path, rel, _chunk_bytes(run, PAST["nesting"][0], tmp_path))
    (bad / rel).unlink()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 0 and "1 replayed" in err, err
    assert verify_run(bad).ok
    assert load(bad).forfeit_details() == load(run).forfeit_details()


@pytest.mark.parametrize("past", PAST)
def test_verify_names_a_manifest_python_will_not_read_once(run, tmp_path, capsys, past):
    """Was: "bad: RUN/manifest.json: RUN/manifest.json cannot be read: ..." (only the words
    "PATH is " were taken off the line)."""
    bad = tmp_path / "run"
    shutil.copytree(run, bad)
    path = bad / storage.MANIFEST
    path.write_text('{"spec": ' + PAST[past][0] + "}")
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and out.splitlines() == [f"bad: {path}: cannot be read: {PAST[past][1]}"]


def test_verify_names_a_manifest_that_is_no_json_once(run, tmp_path, capsys):
    bad = tmp_path / "run"
    shutil.copytree(run, bad)
    path = bad / storage.MANIFEST
    path.write_text("{")
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and out.startswith(f"bad: {path}: not valid JSON: "), out
    assert out.count(str(path)) == 1, out
