"""A damaged manifest said in the project's words, alike by every command that opens the run:
an entrant's parameters that are no table (replay), a game declaration without its name
(verify, report, resume, each naming the file), and a run that names a ``--record`` file
whose chunks' records are not there (the resume plays those chunks again and gathers the
same records, or refuses in one line where the run kept none)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from strategies.provenance import entrant_params
from tests.helpers import cli, copied_run, one_error_line, refused_alike
from tournaments import Tournament, storage

RUN = dict(games=8, seed=3, chunk_size=4)  # 20 games (every seating), in chunks


@pytest.fixture(scope="module")
def leaves_run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves, no records."""
    out = tmp_path_factory.mktemp("leftovers64") / "leaves"
    Tournament(["greedy", "random"], **RUN).run(out=out)
    return out


def _params(value: object):
    def edit(m: dict) -> None:
        m["spec"]["entrants"][0]["params"] = value

    return edit


@pytest.mark.parametrize(("value", "shown"), [("x", "'x'"), ([["keep_pairs", False]], None)])
def test_replay_names_an_entrants_params_that_are_no_table(
    leaves_run, tmp_path, capsys, value, shown
):
    """It said "dictionary update sequence element #0 has length 1; 2 is required" for "x",
    and took a list of pairs for a table; verify said the run was fine."""
    bad = copied_run(leaves_run, tmp_path, _params(value))
    why = (f"greedy: its params in the manifest (spec.entrants) are {shown or repr(value)}, "
           "expected a table of parameter names to values")  # fmt: skip
    code, _, err = cli(capsys, "replay", str(bad), "--game", "1", "--all")
    assert code == 1
    path = bad / storage.MANIFEST
    assert one_error_line(err) == f"leaves: error: corrupt manifest {path}: {why}"
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {path}: {why}" in out.splitlines(), out
    assert cli(capsys, "replay", str(leaves_run), "--game", "1", "--all")[0] == 0


def test_an_entrants_params_are_its_table_or_none():
    assert entrant_params({"params": {"keep_pairs": True}}) == {"keep_pairs": True}
    assert entrant_params({"params": None}) == entrant_params({}) == {}
    with pytest.raises(ValueError, match=r"^its params in the manifest \(spec.entrants\) are 5,"):
        entrant_params({"params": 5})


def _nameless(m: dict) -> None:
    del m["game_declaration"]["name"]


def test_a_declaration_without_its_name_is_refused_alike_naming_the_file(
    leaves_run, tmp_path, capsys, monkeypatch
):
    """verify said the run was fine; report and resume said "corrupt manifest: the game
    declaration lacks name", naming no file."""
    monkeypatch.setenv("COLUMNS", "400")
    refused_alike(
        capsys, copied_run(leaves_run, tmp_path, _nameless), "the game declaration lacks name"
    )
    assert cli(capsys, "verify", str(leaves_run))[0] == 0


def _recorded_run(tmp_path: Path) -> tuple[Path, Path]:
    """A small complete run of 13 Leaves recording every game into a file beside it."""
    out, record = tmp_path / "run", tmp_path / "games.jsonl"
    Tournament(["greedy", "random"], record=record, **RUN).run(out=out)
    return out, record


def _forget_chunk_records(out: Path) -> None:
    """The chunks' records gone, and with them their entries in the manifest."""
    manifest = json.loads((out / storage.MANIFEST).read_text())
    for files in manifest["integrity"]["chunks"].values():
        for rel in [rel for rel in files if rel.startswith("records/")]:
            del files[rel]
    (out / storage.MANIFEST).write_text(json.dumps(manifest))
    shutil.rmtree(out / "records")


def test_a_resume_plays_again_the_chunks_whose_records_are_not_kept(tmp_path, capsys, monkeypatch):
    """It ended with "records/chunk-000000.jsonl: No such file or directory"; now the chunks
    are played again from their seeds, and the records gathered are the run's own."""
    monkeypatch.setenv("COLUMNS", "400")
    out, record = _recorded_run(tmp_path)
    before = record.read_bytes()
    spec = json.loads((out / storage.MANIFEST).read_text())["spec"]
    assert before.count(b"\n") == spec["n_games"]  # every game recorded
    _forget_chunk_records(out)
    record.unlink()
    code, said, _ = cli(capsys, "verify", str(out))  # verify says what the resume will do
    assert code == 1
    assert "records/chunk-000000.jsonl: not in the manifest's entry of the chunk" in said
    code, said, err = cli(capsys, "tournament", "--out", str(out), "--resume")
    assert code == 0, err
    n = spec["n_chunks"]
    assert f"resume: 0 of {n} chunks verified, {n} replayed" in said + err
    assert (
        "records/chunk-000000.jsonl (chunk 0): not in the manifest's entry of the chunk"
        in said + err
    )
    assert record.read_bytes() == before
    assert cli(capsys, "verify", str(out))[0] == 0


def _named_record(m: dict) -> None:
    m["record_file"] = "games.jsonl"
    m["status"] = "interrupted"


def test_a_run_that_kept_no_records_but_names_a_record_file_is_refused_in_one_line(
    leaves_run, tmp_path, capsys, monkeypatch
):
    """Its chunks wrote no records (``spec.record_stride`` 0): the resume played nothing and
    ended on a chunk's records file that is not there; verify advised that resume."""
    monkeypatch.setenv("COLUMNS", "400")
    bad = copied_run(leaves_run, tmp_path, _named_record)
    path = bad / storage.MANIFEST
    why = ("record_file is 'games.jsonl', but spec.record_stride is 0: the run kept no records "
           "to gather into it")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    )
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {path}: {why}" in out.splitlines()
    refused = f"leaves: error: a resume refuses the manifest of {bad}: {why};"  # docs/cli.md's
    assert one_error_line(err).startswith(refused)
