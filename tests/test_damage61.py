"""Damaged runs: a hand-edited or damaged manifest's checksums, files the resume rewrites, a
run kept without rows. Each is named in one line by ``leaves verify`` and ``leaves report``
(no Python error shown), and ``--resume`` mends it to exactly the undamaged run."""

from __future__ import annotations

import shlex
import shutil

import pytest

from tournaments import Tournament, load

from .helpers import cli, copied_run, one_error_line

THREE = ["greedy", "low", "high"]
PYTHON_WORDS = ("invalid literal", "Error", "object", "subscriptable", "index out of range")


def _run(capsys, *args):
    return cli(capsys, *(str(a) for a in args))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("damage") / "run"
    Tournament(THREE, players=3, games=36, seed=4, chunk_size=12).run(out=out)
    return out


def _first_file(manifest):
    return next(iter(manifest["integrity"]["chunks"]["1"]))


def _set_entry(value):
    def edit(manifest):
        manifest["integrity"]["chunks"]["1"][_first_file(manifest)] = value

    return edit


def _advised(line: str) -> list[str]:
    """The ``leaves ...`` command a line advises (between single quotes), as arguments."""
    start = line.index("'leaves ") + 1
    return shlex.split(line[start : line.index("'", start)])[1:]


def _same_as(run, copy) -> bool:
    return load(copy).summary().equals(load(run).summary())


MALFORMED = {
    "a size in words": _set_entry(["abc", "0" * 32]),
    "an entry too short": _set_entry([5]),
    "an entry of null": _set_entry(None),
    "a chunk's files as a list": lambda m: m["integrity"]["chunks"].__setitem__("1", []),
    "a chunk that is not a number": lambda m: m["integrity"]["chunks"].__setitem__("x", {}),
    "chunks as a list": lambda m: m["integrity"].__setitem__("chunks", []),
    "the integrity part as a word": lambda m: m.__setitem__("integrity", "x"),
    "a merged file's entry as a word": lambda m: m["integrity"]["files"].__setitem__(
        "aggregates.npz", "x"
    ),
    "merged files as a list": lambda m: m["integrity"].__setitem__("files", []),
}


@pytest.mark.parametrize("how", MALFORMED)
def test_malformed_checksums_are_named_in_one_line_and_the_resume_mends_them(
    run, tmp_path, capsys, how
):
    """A manifest's integrity part edited into something the runner never writes: verify and
    report named a Python error ("invalid literal for int()", "AttributeError: 'list' object
    has no attribute 'items'"); the resume crashed the same way. Now the malformed checksums
    are named, and the resume plays again what they vouched for."""
    bad = copied_run(run, tmp_path, MALFORMED[how])
    code, out, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and not any(w in line + out for w in PYTHON_WORDS), line + out
    assert "malformed" in out and "--resume" in line
    code, _, err = _run(capsys, "report", bad, "--out", tmp_path / "r")
    line = one_error_line(err)
    assert code == 1 and "malformed" in line and not any(w in line for w in PYTHON_WORDS)
    code, _, err = _run(capsys, "tournament", "--out", bad, "--resume", "--jobs", "1")
    assert code == 0, err
    code, out, _ = _run(capsys, "verify", bad)
    assert code == 0 and out.startswith("ok: 3 of 3 chunks verified")
    assert _same_as(run, bad)


def test_an_unknown_checksum_algorithm_is_replaced_by_the_resume(run, tmp_path, capsys):
    """The resume replayed every chunk of a manifest naming another checksum, but kept its
    name: the run it mended failed 'leaves verify' for ever after."""
    bad = copied_run(run, tmp_path, lambda m: m["integrity"].__setitem__("algorithm", "md5"))
    code, out, err = _run(capsys, "verify", bad)
    assert code == 1 and "unknown checksum 'md5'" in out
    assert _run(capsys, *_advised(one_error_line(err)), "--jobs", "1")[0] == 0
    code, out, _ = _run(capsys, "verify", bad)
    assert code == 0 and out.startswith("ok: 3 of 3 chunks verified")
    assert _same_as(run, bad)


def test_files_of_a_chunk_the_resume_replays_are_not_said_to_be_left_there(run, tmp_path, capsys):
    """A complete run whose manifest lost one chunk's record: its files were called 'not the
    run's: a resume leaves it there', to be removed, though the resume replays that chunk and
    writes them again."""
    bad = copied_run(run, tmp_path, lambda m: m["integrity"]["chunks"].pop("1"))
    code, out, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "leaves it there" not in line + out and "remove" not in line
    assert _run(capsys, *_advised(line), "--jobs", "1")[0] == 0
    assert _run(capsys, "verify", bad)[0] == 0 and _same_as(run, bad)


def test_an_unrecorded_file_of_a_good_chunk_is_to_be_removed(run, tmp_path, capsys):
    """A file named like a chunk's own that the run does not write (records of a run kept
    without): the chunk is good, so no resume touches it: remove it, as said."""
    bad = copied_run(run, tmp_path)
    stray = bad / "records" / "chunk-000001.jsonl"
    stray.parent.mkdir()
    stray.write_text("{}\n")
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and line.endswith(f"remove {stray} (not the run's: a resume leaves it there)")
    assert _run(capsys, "tournament", "--out", bad, "--resume", "--jobs", "1")[0] == 0
    assert stray.exists() and _run(capsys, "verify", bad)[0] == 1


def test_a_file_of_a_chunk_the_run_does_not_have_is_said_to_be_removed(run, tmp_path, capsys):
    """The line said the resume 'replays them'; it deletes such a file."""
    bad = copied_run(run, tmp_path)
    foreign = bad / "chunks" / "chunk-000099.npz"
    shutil.copy(bad / "chunks" / "chunk-000000.npz", foreign)
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and line.endswith(f"'leaves tournament --out {bad} --resume' deletes it")
    assert _run(capsys, *_advised(line), "--jobs", "1")[0] == 0
    assert not foreign.exists() and _run(capsys, "verify", bad)[0] == 0


def test_a_report_of_a_run_kept_without_rows_does_not_say_it_has_no_games(tmp_path, capsys):
    """'no games in RUN' of a run that played 36 of them: it kept no rows to report from."""
    out = tmp_path / "norows"
    Tournament(THREE, players=3, games=36, seed=4, chunk_size=12, rows=False).run(out=out)
    code, _, err = _run(capsys, "report", out, "--out", tmp_path / "r")
    line = one_error_line(err)
    assert code == 1 and "no games in" not in line
    assert "kept no per-game rows (--no-rows)" in line and "tournaments.load(" in line


def test_a_manifest_without_labels_still_reads_and_resumes(run, tmp_path, capsys):
    """Labels are the spec's strategies (the manifest check says so); without them the
    resume played nothing and then failed with "'labels'" as its error."""
    bad = copied_run(run, tmp_path, lambda m: m.pop("labels"))
    assert _run(capsys, "verify", bad)[0] == 0
    code, _, err = _run(capsys, "tournament", "--out", bad, "--resume", "--jobs", "1")
    assert code == 0, err
    assert _same_as(run, bad)


def _flip_middle(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def test_the_python_api_never_reads_a_changed_part_as_rows(run, tmp_path):
    """One bit changed in a part: pandas read it as other rows (or failed in Arrow's words)
    through ``load(run).games()`` and ``reports.load_run``, which check nothing; now both name
    the part, as 'leaves verify' does."""
    from reports import ReportError, load_run

    bad = copied_run(run, tmp_path)
    part = bad / "games" / "part-000001.parquet"
    _flip_middle(part)
    with pytest.raises(OSError, match=f"{part} is bad: corrupt"):
        load(bad).games()
    with pytest.raises(ReportError, match=f"{part} is bad: corrupt"):
        load_run(bad)


def test_a_changed_merged_file_gives_way_to_the_chunks(run, tmp_path):
    """A complete run's aggregates.npz replaced by another run's (same strategies): the
    summary read its figures as this run's; now the chunks, which the manifest vouches for,
    are merged again instead."""
    other = tmp_path / "other"
    Tournament(THREE, players=3, games=36, seed=5, chunk_size=12).run(out=other)
    bad = copied_run(run, tmp_path)
    shutil.copy(other / "aggregates.npz", bad / "aggregates.npz")
    assert not load(other).summary().equals(load(run).summary())
    assert _same_as(run, bad)


def test_a_damaged_chunk_of_an_unfinished_run_is_named_by_the_python_api(run, tmp_path):
    bad = copied_run(run, tmp_path, lambda m: m.__setitem__("status", "interrupted"))
    chunk = bad / "chunks" / "chunk-000001.npz"
    chunk.write_bytes(chunk.read_bytes()[:100])
    with pytest.raises(OSError, match=f"{chunk} is bad: truncated"):
        load(bad).summary()


def test_a_directory_in_place_of_a_chunk_file_is_to_be_removed(run, tmp_path, capsys):
    """A directory where a chunk's file belongs: verify called it 'truncated or replaced
    (4,096 of N bytes)' and advised the resume, which failed on '[Errno 21] Is a directory'.
    Now verify says what it is and to remove it; a resume says so in one line; once it is
    gone, the resume replays the chunk."""
    bad = copied_run(run, tmp_path)
    chunk = bad / "chunks" / "chunk-000001.npz"
    chunk.unlink()
    chunk.mkdir()
    code, out, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "a directory where the run's file belongs" in out
    assert line.endswith(f"remove {chunk} (not the run's: a resume leaves it there)")
    code, _, err = _run(capsys, "tournament", "--out", bad, "--resume", "--jobs", "1")
    assert "Traceback" not in err and "Errno" not in err
    assert code == 1 and err.splitlines()[-1] == (
        f"leaves: error: cannot write {chunk}: a directory is in its place (remove it, then "
        "try again)"
    )
    code, out, err = _run(capsys, "verify", bad)  # not 'unfinished (--resume finishes it)'
    assert code == 1 and one_error_line(err).endswith(f"remove {chunk} (not the run's: a resume "
                                                      "leaves it there)")  # fmt: skip
    chunk.rmdir()
    assert _run(capsys, "tournament", "--out", bad, "--resume", "--jobs", "1")[0] == 0
    assert _run(capsys, "verify", bad)[0] == 0 and _same_as(run, bad)


def test_a_directory_in_place_of_the_manifest_is_not_said_to_be_no_manifest(run, tmp_path, capsys):
    bad = copied_run(run, tmp_path)
    (bad / "manifest.json").unlink()
    (bad / "manifest.json").mkdir()
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "no manifest.json" not in line
    assert f"{bad / 'manifest.json'} is a directory" in line and "cannot be used" in line


@pytest.mark.parametrize("command", ["verify", "report"])
def test_a_manifest_that_cannot_be_used_says_what_to_do(run, tmp_path, capsys, command):
    """A truncated manifest was named, and the line stopped there: nothing said what to do."""
    bad = copied_run(run, tmp_path)
    text = (bad / "manifest.json").read_text()
    (bad / "manifest.json").write_text(text[: len(text) // 2])
    code, _, err = _run(capsys, command, bad)
    line = one_error_line(err)
    assert code == 1 and "is not valid JSON" in line
    assert line.endswith("play the run again into a new --out (the same options and seed give "
                         "the same results)")  # fmt: skip


def test_a_damaged_run_being_played_is_advised_the_resume_once_it_ends(run, tmp_path, capsys):
    """While a process plays the run, '--resume' is refused: the advice said to run it now."""
    import os

    from tournaments import storage

    bad = copied_run(run, tmp_path)
    part = bad / "games" / "part-000001.parquet"
    part.write_bytes(part.read_bytes()[:100])
    with storage.run_lock(bad):
        code, _, err = _run(capsys, "verify", bad)
    assert code == 1 and one_error_line(err).endswith(
        f"'leaves tournament --out {bad} --resume' replays it once the process playing the "
        f"run now (pid {os.getpid()}) ends"
    )
