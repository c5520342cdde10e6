"""Where a run's ``--record`` file lives: a resume or ``--add`` from another folder writes the
file the run wrote (not one beside the user), a project moved whole still finds its records,
``leaves report`` does not checksum a file it never reads, every advised command quotes the
paths it embeds, and a directory in place of the records is called one."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.helpers import cli, cli_output, stopped

GAMES = ["greedy", "low", "high", "--players", "3", "--games", "24", "--chunk-size", "6",
         "--seed", "1", "--jobs", "1"]  # fmt: skip


def _run(out: str, record: str) -> None:
    code, _, err = cli_output("tournament", *GAMES, "--out", out, "--record", record)
    assert code == 0, err


def _stopped(out: str, record: str) -> str:
    """The run stopped as Ctrl-C stops it once 2 of its 4 chunks are written; its stderr."""
    code, _, err = stopped("tournament", *GAMES, "--out", out, "--record", record)
    assert code != 0
    return err


@pytest.fixture
def whole(tmp_path, monkeypatch) -> bytes:
    """The records of the uninterrupted run."""
    (tmp_path / "c").mkdir()
    monkeypatch.chdir(tmp_path / "c")
    _run("run", "rec.jsonl")
    return (tmp_path / "c" / "rec.jsonl").read_bytes()


def test_a_resume_from_another_folder_rewrites_the_runs_own_record_file(
    tmp_path, capsys, monkeypatch, whole
):
    """Resumed from /b, the run wrote /b/rec.jsonl (its --record named relative to /a)."""
    for d in "ab":
        (tmp_path / d).mkdir()
    monkeypatch.chdir(tmp_path / "a")
    _stopped("run", "rec.jsonl")
    (tmp_path / "a" / "rec.jsonl").write_text("stale\n")  # a file the resume must replace
    monkeypatch.chdir(tmp_path / "b")
    run = str(tmp_path / "a" / "run")
    code, _, err = cli(capsys, "tournament", "--out", run, "--resume")
    assert code == 0, err
    assert not (tmp_path / "b" / "rec.jsonl").exists()
    assert (tmp_path / "a" / "rec.jsonl").read_bytes() == whole
    code, out, err = cli(capsys, "verify", run)
    assert code == 0 and "records in" in out and "verified" in out, out + err
    code, _, err = cli(capsys, "tournament", "--out", run, "--resume", "--add", "6")
    assert code == 0, err
    assert not (tmp_path / "b" / "rec.jsonl").exists()
    assert len((tmp_path / "a" / "rec.jsonl").read_bytes().splitlines()) == 30
    assert cli(capsys, "verify", run)[0] == 0


def test_an_old_manifest_resumes_its_records_where_it_did(tmp_path, capsys, monkeypatch):
    """A manifest with only ``record_file`` (an older version's): relative to where the
    command runs, as before."""
    for d in "ab":
        (tmp_path / d).mkdir()
    monkeypatch.chdir(tmp_path / "a")
    _stopped("run", "rec.jsonl")
    path = tmp_path / "a" / "run" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["integrity"].pop("record_file", None)
    path.write_text(json.dumps(manifest))
    monkeypatch.chdir(tmp_path / "b")
    code, _, err = cli(capsys, "tournament", "--out", str(tmp_path / "a" / "run"), "--resume")
    assert code == 0, err
    assert len((tmp_path / "b" / "rec.jsonl").read_bytes().splitlines()) == 24


def test_a_project_moved_whole_finds_its_records(tmp_path, capsys, monkeypatch):
    """The run and its records beside it, moved together: verify said the records were
    missing; moved apart, it says where it looked."""
    (tmp_path / "proj").mkdir()
    monkeypatch.chdir(tmp_path / "proj")
    _run("run", "rec.jsonl")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "proj").rename(tmp_path / "proj2")
    monkeypatch.chdir(tmp_path / "proj2")
    code, out, err = cli(capsys, "verify", "run")
    assert code == 0 and "records in" in out and "verified" in out, out + err
    (tmp_path / "proj2" / "run").rename(tmp_path / "alone")
    code, out, err = cli(capsys, "verify", str(tmp_path / "alone"))
    looked = (tmp_path / "rec.jsonl").resolve()
    assert code == 1 and f"bad: {looked}: missing" in out, out


def test_a_run_moved_alone_keeps_its_records_not_anothers_beside_it(tmp_path, capsys, monkeypatch):
    """Moved away from its records, next to another file of the same name: that file is
    neither checked as the run's nor overwritten by a resume."""
    for d in ("proj", "other"):
        (tmp_path / d).mkdir()
    monkeypatch.chdir(tmp_path / "proj")
    _run("run", "rec.jsonl")
    (tmp_path / "proj" / "run").rename(tmp_path / "other" / "run")
    (tmp_path / "other" / "rec.jsonl").write_text("another run's\n")
    monkeypatch.chdir(tmp_path / "other")
    code, out, err = cli(capsys, "verify", "run")
    assert code == 0 and f"records in {tmp_path / 'proj' / 'rec.jsonl'} verified" in out, err
    assert cli(capsys, "tournament", "--out", "run", "--resume", "--add", "6")[0] == 0
    assert (tmp_path / "other" / "rec.jsonl").read_text() == "another run's\n"
    assert len((tmp_path / "proj" / "rec.jsonl").read_bytes().splitlines()) == 30


def test_the_advice_for_records_whose_folder_is_gone_writes_them_anew(
    tmp_path, capsys, monkeypatch
):
    """Records in a folder of their own, removed: '--record' into it would be refused; the
    advice writes them where it says, and verify then passes."""
    for d in ("proj", "recs"):
        (tmp_path / d).mkdir()
    monkeypatch.chdir(tmp_path / "proj")
    _run("run", "../recs/g.jsonl")
    whole = (tmp_path / "recs" / "g.jsonl").read_bytes()
    (tmp_path / "recs" / "g.jsonl").unlink()
    (tmp_path / "recs").rmdir()
    code, out, err = cli(capsys, "verify", "run")
    assert code == 1 and f"bad: {(tmp_path / 'recs' / 'g.jsonl').resolve()}: missing" in out
    advised = re.search(r"'(leaves .*)' writes it again from the run's chunks, into (\S+) ", err)
    assert advised, err
    assert cli(capsys, *shlex.split(advised.group(1))[1:])[0] == 0
    assert Path(advised.group(2)).read_bytes() == whole
    assert cli(capsys, "verify", "run")[0] == 0


def test_the_report_does_not_checksum_the_record_file(tmp_path, capsys, monkeypatch):
    """'leaves report' checksummed the --record file it never reads."""
    monkeypatch.chdir(tmp_path)
    _run("run", "rec.jsonl")
    import tournaments.storage as storage

    read = []
    real = storage.file_digest
    monkeypatch.setattr(storage, "file_digest", lambda p: read.append(Path(p)) or real(p))
    code, _, err = cli(capsys, "report", "run", "--out", "r")
    assert code == 0, err
    assert not any(p.name == "rec.jsonl" for p in read), read
    code, _, err = cli(capsys, "verify", "run")
    assert code == 0 and any(p.name == "rec.jsonl" for p in read), err


@pytest.mark.parametrize("name", ["my runs", "it's"])
def test_advised_commands_quote_the_run_folder(tmp_path, capsys, monkeypatch, name):
    """'leaves tournament --out my runs --resume' could not be pasted."""
    from tests.helpers import stopped_run

    monkeypatch.chdir(tmp_path)
    code, err = stopped_run(name, ["greedy", "low", "high"])
    assert code != 0
    quoted = shlex.quote(name)
    assert f"leaves tournament --out {quoted} --resume" in err, err
    # the report's hint for the unfinished run
    code, out, _ = cli(capsys, "report", name, "--out", "r")
    hint = re.search(r"continue it with '(leaves .*)'\.", out)
    assert code == 0 and hint, out
    assert shlex.split(hint.group(1)) == ["leaves", "tournament", "--resume", "--out", name]
    # verify's advice for a bad chunk, pasted, mends it
    part = next((tmp_path / name / "games").glob("part-*.parquet"))
    part.write_bytes(b"")
    code, _, err = cli(capsys, "verify", name)
    assert code == 1 and f"'leaves tournament --out {quoted} --resume'" in err, err
    words = shlex.split(f"leaves tournament --out {quoted} --resume")
    assert words[3] == name
    assert cli(capsys, *words[1:])[0] == 0
    assert cli(capsys, "verify", name)[0] == 0


@pytest.mark.parametrize("name", ["my runs", "it's"])
def test_verify_advice_for_records_quotes_paths(tmp_path, capsys, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "recs dir").mkdir()
    _run(name, "recs dir/g's.jsonl")
    record = tmp_path / "recs dir" / "g's.jsonl"
    whole = record.read_bytes()
    record.write_bytes(whole[:10])
    (tmp_path / "else").mkdir()
    monkeypatch.chdir(tmp_path / "else")
    code, _, err = cli(capsys, "verify", str(tmp_path / name))
    assert code == 1, err
    m = re.search(r"'(leaves .*)' writes it again", err)
    assert m, err
    words = shlex.split(m.group(1))
    assert words[3] == str(tmp_path / name), words
    assert cli(capsys, *words[1:])[0] == 0
    assert record.read_bytes() == whole


def test_a_directory_in_place_of_the_records_is_called_one(tmp_path, capsys, monkeypatch):
    """It was 'truncated or replaced (4,096 of ... bytes)'."""
    monkeypatch.chdir(tmp_path)
    _run("run", "rec.jsonl")
    (tmp_path / "rec.jsonl").unlink()
    (tmp_path / "rec.jsonl").mkdir()
    code, out, _ = cli(capsys, "verify", "run")
    bad = [x for x in out.splitlines() if x.startswith("bad:")]
    assert code == 1 and len(bad) == 1 and "is a directory" in bad[0], out
    assert "truncated" not in bad[0], out
    _, _, err = cli(capsys, "verify", "run")
    assert f"remove the directory {tmp_path / 'rec.jsonl'}, then 'leaves tournament" in err, err
    (tmp_path / "rec.jsonl").rmdir()
    assert cli(capsys, "tournament", "--out", "run", "--resume")[0] == 0
    assert cli(capsys, "verify", "run")[0] == 0
