"""Damaged and interrupted runs, file by file: a merged file, the manifest, the ``--record``
file truncated, emptied, replaced or given the wrong shape. The Python API names the file in
one line (never a Python error from deep inside), the run's state is told from what the run
holds, and a resume says what it rewrites and why."""

from __future__ import annotations

import json
import shutil

import pytest

from tournaments import load
from tournaments.run_state import run_state

from .helpers import cli, cli_output, forfeiting_run, one_error_line

PYTHON_WORDS = ("Error", "object has no", "codec", "subscriptable", "indices", "scalar values")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A finished 2-player run of 40 rounds in 4 chunks with forfeits, its records beside it."""
    where = tmp_path_factory.mktemp("damage62")
    return forfeiting_run(where / "run", "--chunk-size", "10", "--record",
                          str(where / "run.jsonl"))  # fmt: skip


def _copy(run, tmp_path, edit=None):
    """A copy of the run and its records, as a run played there writes them (its manifest
    names its own records), its manifest changed in place by ``edit``."""
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    shutil.copy(run.parent / "run.jsonl", tmp_path / "run.jsonl")
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["record_file"] = manifest["integrity"]["record_file"]["path"] = str(
        tmp_path / "run.jsonl"
    )
    if edit is not None:
        edit(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def _without_entry(name):
    """The manifest as a version that kept no checksum of merged file ``name`` wrote it."""
    return lambda m: m["integrity"]["files"].pop(name)


DAMAGED_JSON = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "emptied": lambda p: p.write_bytes(b""),
    "a list of numbers": lambda p: p.write_text("[1, 2]"),
    "a table": lambda p: p.write_text('{"game": 1}'),
    "not text": lambda p: p.write_bytes(b"\xff\xfe\x00garbage"),
}


@pytest.mark.parametrize("how", DAMAGED_JSON)
def test_a_damaged_forfeits_json_the_manifest_vouches_for_gives_way_to_the_chunks(
    run, tmp_path, how
):
    """``run_state`` read forfeits.json unchecked: truncated, the run's forfeits vanished
    from its state (no 'Partly forfeited' line: it read as a clean run); a list of numbers
    raised "AttributeError: 'int' object has no attribute 'get'". The file does not match
    the manifest's checksum, so the chunks tell its forfeits, as ``load(run).forfeits`` does."""
    truth = run_state(run).lines()
    assert truth and truth[0].startswith("Partly forfeited: 8 of 40 rounds")
    bad = _copy(run, tmp_path)
    DAMAGED_JSON[how](bad / "forfeits.json")
    assert [line.replace(str(bad), str(run)) for line in run_state(bad).lines()] == truth
    assert load(bad).forfeits.equals(load(run).forfeits)


@pytest.mark.parametrize("how", DAMAGED_JSON)
def test_a_damaged_forfeits_json_no_checksum_vouches_for_is_named_in_one_line(run, tmp_path, how):
    """Where the manifest keeps no checksum of forfeits.json (an older version's), a damaged
    one raised a bare JSONDecodeError or AttributeError, or read as a table of junk: now
    ``DamagedFile`` names it and what writes it again, through the run's state and its
    forfeits alike."""
    bad = _copy(run, tmp_path, _without_entry("forfeits.json"))
    path = bad / "forfeits.json"
    DAMAGED_JSON[how](path)
    for read in (lambda: run_state(bad), lambda: load(bad).forfeits):
        with pytest.raises(OSError) as exc:
            read()
        line = str(exc.value)
        assert "\n" not in line and line.startswith(f"{path} is bad: "), line
        assert not any(w in line for w in PYTHON_WORDS), line
        assert line.endswith(f"'leaves tournament --resume --out {bad}' writes it again from "
                             "the run's chunks")  # fmt: skip


DAMAGED_NPZ = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "emptied": lambda p: p.write_bytes(b""),
    "a zip's first bytes": lambda p: p.write_bytes(b"PK\x03\x04"),
    "text": lambda p: p.write_text("[1, 2]"),
}


@pytest.mark.parametrize("how", DAMAGED_NPZ)
def test_damaged_aggregates_no_checksum_vouches_for_are_named_in_one_line(run, tmp_path, how):
    """A damaged aggregates.npz of a run whose manifest keeps no checksum of it: the summary
    raised numpy's "This file contains pickled (object) data" or zipfile's BadZipFile, and the
    run's state swallowed it and told no forfeits at all."""
    bad = _copy(run, tmp_path, _without_entry("aggregates.npz"))
    path = bad / "aggregates.npz"
    DAMAGED_NPZ[how](path)
    for read in (lambda: run_state(bad), lambda: load(bad).summary()):
        with pytest.raises(OSError) as exc:
            read()
        line = str(exc.value)
        assert "\n" not in line and line.startswith(f"{path} is bad: "), line
        assert not any(w in line for w in PYTHON_WORDS) and "pickle" not in line, line
        assert line.endswith(f"'leaves tournament --resume --out {bad}' writes it again from "
                             "the run's chunks")  # fmt: skip


def _unfinished_without_checksums(manifest):
    """An older version's manifest of a stopped run: no checksums, its chunks found on disk."""
    manifest.pop("integrity")
    manifest["status"] = "interrupted"


@pytest.mark.parametrize("how", DAMAGED_NPZ)
def test_a_damaged_chunk_no_checksum_vouches_for_is_named_in_one_line(run, tmp_path, how):
    bad = _copy(run, tmp_path, _unfinished_without_checksums)
    path = bad / "chunks" / "chunk-000002.npz"
    DAMAGED_NPZ[how](path)
    for read in (lambda: run_state(bad), lambda: load(bad).summary(), lambda: load(bad).forfeits):
        with pytest.raises(OSError) as exc:
            read()
        line = str(exc.value)
        assert "\n" not in line and line.startswith(f"{path} is bad: "), line
        assert not any(w in line for w in PYTHON_WORDS) and "pickle" not in line, line
        assert line.endswith(f"'leaves tournament --resume --out {bad}' plays its chunk again")


def _flip(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


DAMAGED_RECORDS = {
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[:100]), "truncated or replaced (100 of "),
    "emptied": (lambda p: p.write_bytes(b""), "truncated or replaced (0 of "),
    "changed": (_flip, "corrupt or replaced by another run's file (checksum differs)"),
    "removed": (lambda p: p.unlink(), "missing"),
}


@pytest.mark.parametrize("how", DAMAGED_RECORDS)
def test_a_resume_that_rewrites_damaged_records_says_so(run, tmp_path, capsys, how):
    """'leaves verify' named the run's damaged --record file and advised the resume, which
    wrote it again and said 'resume: 4 of 4 chunks verified, 0 replayed' and 'Nothing to
    do': not a word of the file it rewrote. Now its one line says which and why."""
    bad = _copy(run, tmp_path)
    records = tmp_path / "run.jsonl"
    damage, why = DAMAGED_RECORDS[how]
    damage(records)
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {records}: {why}" in out
    code, out, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 0, err
    said = [line for line in err.splitlines() if line.startswith("resume: ")]
    assert len(said) == 1, err
    assert said[0].startswith(
        "resume: 4 of 4 chunks verified, 0 replayed, the records "
        f"{records} rewritten from the chunks at the end ({why}"
    )
    assert records.read_bytes() == (run.parent / "run.jsonl").read_bytes()
    assert cli(capsys, "verify", str(bad))[0] == 0


def test_a_resume_of_sound_records_says_nothing_of_them(run, tmp_path, capsys):
    bad = _copy(run, tmp_path)
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 0 and "resume: 4 of 4 chunks verified, 0 replayed\n" in err, err


def _not_text(path):
    path.write_bytes(b"\xff\xfe\x00garbage")


COMMANDS = {
    "verify": lambda bad: ["verify", str(bad)],
    "report": lambda bad: ["report", str(bad), "--out", str(bad.parent / "report")],
    "resume": lambda bad: ["tournament", "--resume", "--out", str(bad), "--jobs", "1"],
    "replay": lambda bad: ["replay", str(bad), "--game", "3"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_manifest_that_is_not_text_is_named(run, tmp_path, capsys, command):
    """Bytes that are not UTF-8 in the manifest: every command said "'utf-8' codec can't
    decode byte 0xff in position 0: invalid start byte", naming no file (the resume and the
    report not even the run)."""
    bad = _copy(run, tmp_path)
    _not_text(bad / "manifest.json")
    code, _, err = cli(capsys, *COMMANDS[command](bad))
    line = one_error_line(err)
    assert code == 1 and "codec" not in line and "0xff" not in line, line
    assert f"{bad / 'manifest.json'} is not valid JSON: not UTF-8 text" in line, line


def test_a_manifest_that_is_not_text_is_named_by_the_python_api(run, tmp_path):
    bad = _copy(run, tmp_path)
    _not_text(bad / "manifest.json")
    with pytest.raises(ValueError, match="manifest.json is not valid JSON: not UTF-8 text"):
        load(bad)


@pytest.mark.parametrize(
    ("text", "why"),
    [("[1, 2]", "the manifest is [1, 2], expected a JSON object"),
     ('{"a": 1}', "spec is missing, expected a table of the run's settings"),
     ('{"spec": 3}', "spec is 3, expected a table of the run's settings")],
)  # fmt: skip
def test_a_manifest_of_the_wrong_shape_is_named_by_the_python_api(run, tmp_path, text, why):
    """``load(run)`` of a manifest that is a list raised "TypeError: list indices must be
    integers or slices, not str"; of one with no spec, "KeyError: 'spec'" (once a summary was
    asked for): now one line naming the file, in the words the commands use."""
    bad = _copy(run, tmp_path)
    (bad / "manifest.json").write_text(text)
    with pytest.raises(ValueError) as exc:
        load(bad).summary()
    assert str(exc.value) == f"corrupt manifest {bad / 'manifest.json'}: {why}"
    assert run_state(bad) is None  # no readable manifest: nothing said of the run


def test_a_directory_in_place_of_the_manifest_is_not_said_to_be_no_manifest_by_replay(
    run, tmp_path, capsys
):
    """'leaves replay' said "RUN is a directory but not a tournament run (no manifest.json)"
    (exit 2) of a run whose manifest.json is a directory, as no other command does."""
    bad = _copy(run, tmp_path)
    (bad / "manifest.json").unlink()
    (bad / "manifest.json").mkdir()
    code, _, err = cli(capsys, "replay", str(bad), "--game", "3")
    line = one_error_line(err)
    assert code == 1 and "no manifest.json" not in line
    assert f"{bad / 'manifest.json'} is a directory" in line


def _stopped_in_chunk(monkeypatch, chunk_id):
    """Ctrl-C while chunk ``chunk_id`` is being played (the chunks before it are done)."""
    from tournaments import runner

    real = runner.run_chunk

    def play(task):
        if task.chunk.id == chunk_id:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(runner, "run_chunk", play)


@pytest.mark.parametrize("kind", ["tournament", "gauntlet"])
def test_a_run_stopped_inside_a_chunk_resumes_to_the_uninterrupted_run(tmp_path, monkeypatch, kind):
    """Ctrl-C in the middle of a chunk: what was done is kept, and the resumed run holds the
    same games, aggregates and records, to the bit, as a run never stopped."""
    from tournaments import Gauntlet, Tournament

    from .helpers import same_run

    def make(record):
        if kind == "gauntlet":
            return Gauntlet("greedy", ["low", "high"], baseline="weighted", players=3, games=24,
                            seed=1, chunk_size=6)  # fmt: skip
        return Tournament(["greedy", "low", "high"], players=3, games=24, seed=1, chunk_size=6,
                          record=record)  # fmt: skip

    whole = make(tmp_path / "whole.jsonl").run(out=tmp_path / "whole")
    stopped = tmp_path / "stopped"
    _stopped_in_chunk(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        make(tmp_path / "stopped.jsonl").run(out=stopped)
    state = run_state(stopped)
    assert state.unfinished and state.played == 12 < state.planned  # chunks 0 and 1
    monkeypatch.undo()
    again = make(tmp_path / "stopped.jsonl").run(out=stopped, resume=True)
    same_run(whole, again)
    if kind == "tournament":
        assert (tmp_path / "stopped.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def _unreadable(monkeypatch, path):
    """``path`` as a file the system refuses to read (chmod 000 blocks nothing for root, who
    runs these tests in some places): every read of it raises PermissionError."""
    import builtins
    import io

    real_open, real_io_open = builtins.open, io.open

    def refuse(opener):
        def opened(file, *args, **kwargs):
            if str(file) == str(path):
                raise PermissionError(13, "Permission denied", str(file))
            return opener(file, *args, **kwargs)

        return opened

    monkeypatch.setattr(builtins, "open", refuse(real_open))
    monkeypatch.setattr(io, "open", refuse(real_io_open))


IN_PLACE = {
    "a directory": (lambda mp, p: (p.unlink(), p.mkdir()),
                    "a directory where the run's file belongs (no resume writes over it); "
                    "remove it, then "),
    "unreadable": (_unreadable, "unreadable (Permission denied); "),
}  # fmt: skip


@pytest.mark.parametrize("name", ["aggregates.npz", "forfeits.json"])
@pytest.mark.parametrize("how", IN_PLACE)
def test_a_merged_file_no_checksum_vouches_for_that_cannot_be_read_says_why(
    run, tmp_path, monkeypatch, name, how
):
    """Not a word about its content where the file cannot be read at all: a directory in
    its place is to be removed first (no resume writes over it), a file the system refuses
    is said to be unreadable."""
    bad = _copy(run, tmp_path, _without_entry(name))
    path = bad / name
    damage, why = IN_PLACE[how]
    damage(monkeypatch, path)
    read = (lambda: load(bad).summary()) if name == "aggregates.npz" else lambda: load(bad).forfeits
    with pytest.raises(OSError) as exc:
        read()
    assert str(exc.value) == (f"{path} is bad: {why}'leaves tournament --resume --out {bad}' "
                              "writes it again from the run's chunks")  # fmt: skip


def test_a_directory_in_place_of_the_records_is_named_and_the_run_kept(tmp_path):
    """``Tournament(record=DIR).run()``: every chunk was played, then the records' rename
    failed with "[Errno 21] Is a directory" and left a hidden temporary file beside them. Now
    one line says what is in the way; the run keeps every chunk, and once the directory is
    gone the resume writes the records a run never stopped writes."""
    from tournaments import Tournament

    from .helpers import same_run

    def make(record):
        return Tournament(["greedy", "low", "high"], players=3, games=24, seed=1, chunk_size=6,
                          record=record)  # fmt: skip

    whole = make(tmp_path / "whole.jsonl").run(out=tmp_path / "whole")
    records = tmp_path / "records.jsonl"
    late = make(records)  # a directory made there after the tournament (refused at once)
    records.mkdir()
    with pytest.raises(ValueError) as exc:
        late.run(out=tmp_path / "run")
    assert str(exc.value) == (f"cannot write {records}: a directory is in its place (remove "
                              "it, then try again)")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl", "run", "whole",
                                                          "whole.jsonl"]  # fmt: skip
    state = run_state(tmp_path / "run")
    assert state.played == state.planned == 24 and not load(tmp_path / "run").complete
    records.rmdir()
    same_run(whole, make(records).run(out=tmp_path / "run", resume=True))
    assert records.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def test_a_directory_in_place_of_the_lock_file_is_named_in_one_line(run, tmp_path, capsys):
    """The resume said "[Errno 21] Is a directory: 'RUN/.run.lock'"; the Python API raised
    IsADirectoryError. Now one line says what is in the way and what to do; nothing of the
    run is touched, and once it is gone the resume goes on."""
    from tournaments import Tournament, storage

    bad = _copy(run, tmp_path)
    lock = bad / storage.LOCK
    lock.mkdir()
    before = (bad / "manifest.json").read_bytes()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot write {lock}: a directory is in its place (remove it, then try "
        "again)"
    )
    with pytest.raises(ValueError, match=f"cannot write {lock}: a directory is in its place"):
        Tournament(["greedy", "low", "high"], players=3, games=6).run(out=bad, resume=True)
    assert (bad / "manifest.json").read_bytes() == before
    lock.rmdir()
    assert cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")[0] == 0


def test_records_whose_folder_is_gone_are_not_said_to_be_rewritten_there(run, tmp_path, capsys):
    """Where the records' folder is gone, the resume writes them where ``--record`` says
    (as 'leaves verify' advises): it must not say it rewrote them where they were."""

    def gone(manifest):
        manifest["record_file"] = str(tmp_path / "gone" / "run.jsonl")
        manifest["integrity"]["record_file"]["path"] = manifest["record_file"]
        manifest["integrity"]["record_file"]["beside"] = "../gone/run.jsonl"

    bad = _copy(run, tmp_path, gone)
    new = tmp_path / "new.jsonl"
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1",
                       "--record", str(new))  # fmt: skip
    assert code == 0, err
    assert "resume: 4 of 4 chunks verified, 0 replayed\n" in err, err
    assert new.read_bytes() == (run.parent / "run.jsonl").read_bytes()


def test_a_killed_gathering_of_the_records_leaves_no_temporary_file(run, tmp_path, capsys):
    """The records are gathered into a temporary file beside them, then renamed: a run
    killed meanwhile leaves it there (the run's own folders are cleared of such files by a
    resume, the records' folder was not). The resume that gathers them again clears it."""
    bad = _copy(run, tmp_path)
    left = [tmp_path / ".run.jsonl.tmp", tmp_path / ".run.jsonl.k2x9q1.tmp"]
    for path in left:
        path.write_bytes(b"half")
    (tmp_path / "run.jsonl").unlink()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 0, err
    assert not any(path.exists() for path in left)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run", "run.jsonl"]


def test_a_damaged_file_of_a_gauntlet_names_the_gauntlets_resume(tmp_path):
    """What mends a gauntlet's damaged file is its own command's resume, never
    'leaves tournament --resume', which refuses a gauntlet."""
    from tournaments import Gauntlet

    out = tmp_path / "g"
    Gauntlet("greedy", ["low"], baseline="high", players=3, games=12, seed=1).run(out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["integrity"]["files"].pop("forfeits.json")
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "forfeits.json").write_text("{")
    with pytest.raises(OSError) as exc:
        load(out).forfeit_details()
    assert str(exc.value) == (f"{out / 'forfeits.json'} is bad: not a list of forfeits as a "
                              f"run writes them; 'leaves gauntlet --resume --out {out}' writes "
                              "it again from the run's chunks")  # fmt: skip


def test_a_notebooks_view_of_a_damaged_run_names_the_file(run, tmp_path):
    """A notebook showed a run whose chunk is damaged as 'no finished chunks yet': it has
    four, one of them bad. Now its view names the bad file, as the summary does."""
    import html

    def stopped(manifest):
        manifest["status"] = "interrupted"  # its merged files are not read: the chunks are

    bad = _copy(run, tmp_path, stopped)
    chunk = bad / "chunks" / "chunk-000001.npz"
    chunk.write_bytes(chunk.read_bytes()[:100])
    view = load(bad)._repr_html_()
    assert "no finished chunks yet" not in view
    assert html.escape(f"{chunk} is bad: truncated or replaced (100 of") in view


def test_a_directory_in_place_of_a_merged_file_stops_the_resume_before_it_plays(
    run, tmp_path, capsys
):
    """A directory where aggregates.npz belongs: the resume said 'aggregates.npz rewritten
    from the chunks at the end (damaged)', replayed the bad chunks, then failed at the end
    on the directory. Now it says so in one line before anything is played or written; once
    the directory is gone the resume mends the run."""
    bad = _copy(run, tmp_path)
    merged = bad / "aggregates.npz"
    merged.unlink()
    merged.mkdir()
    part = bad / "games" / "part-000002.parquet"
    part.write_bytes(part.read_bytes()[:100])
    before = (bad / "manifest.json").read_bytes()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")
    assert code == 1 and "rewritten" not in err, err
    assert err.splitlines()[-1] == (f"leaves: error: cannot write {merged}: a directory is in "
                                    "its place (remove it, then try again)")  # fmt: skip
    assert (bad / "manifest.json").read_bytes() == before and part.stat().st_size == 100
    merged.rmdir()
    assert cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1")[0] == 0
    assert cli(capsys, "verify", str(bad))[0] == 0
    assert load(bad).summary().equals(load(run).summary())


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory):
    out = tmp_path_factory.mktemp("gauntlet62") / "g"
    code, _, err = cli_output("gauntlet", "greedy", "--against", "low", "--baseline", "high",
                              "--players", "3", "--games", "12", "--seed", "1", "--jobs", "1",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _gauntlet_part(edit):
    def change(manifest):
        edit(manifest["spec"]["gauntlet"])

    return change


DAMAGED_GAUNTLET = {
    "no strategy": (_gauntlet_part(lambda g: g.pop("strategy")),
                    "spec.gauntlet.strategy is missing, expected one of the run's strategies"),
    "a number for a baseline": (_gauntlet_part(lambda g: g.update(baseline=5)),
                                "spec.gauntlet.baseline is 5, expected one of the run's "
                                "strategies"),
    "no field": (_gauntlet_part(lambda g: g.pop("field")),
                 "spec.gauntlet.field is missing, expected a list of the run's strategies"),
    "a test without alpha": (_gauntlet_part(lambda g: g.update(sequential={"margin": 2.0})),
                             "spec.gauntlet.sequential is {'margin': 2.0}, expected a table of "
                             "margin, alpha, beta and max_games"),
}  # fmt: skip


@pytest.mark.parametrize("how", DAMAGED_GAUNTLET)
@pytest.mark.parametrize("command", ["resume", "verify"])
def test_a_gauntlet_whose_part_of_the_manifest_is_damaged_is_named(
    gauntlet, tmp_path, capsys, how, command
):
    """A gauntlet's manifest without its strategy, field or test settings: the resume said
    "leaves: error: 'strategy'" (a bare KeyError), and 'leaves verify' said "ok" of a run no
    report could read. Now both name the manifest and the field, and exit 1 (the test's
    settings only a resume needs: verify still passes a run without them)."""
    bad = tmp_path / "g"
    shutil.copytree(gauntlet, bad)
    manifest = json.loads((bad / "manifest.json").read_text())
    edit, why = DAMAGED_GAUNTLET[how]
    edit(manifest)
    (bad / "manifest.json").write_text(json.dumps(manifest))
    resume = ["gauntlet", "--resume", "--out", str(bad)]
    code, out, err = cli(capsys, *(resume if command == "resume" else ["verify", str(bad)]))
    if how == "a test without alpha" and command == "verify":  # reading needs no test
        assert code == 0 and out.startswith("ok: "), err
        return
    line = one_error_line(err)
    assert code == 1 and why in line, line
    assert str(bad) in line


@pytest.mark.parametrize("folder", ["chunks", "games", "records"])
def test_a_file_in_place_of_a_runs_folder_is_advised_away_first(tmp_path, capsys, folder):
    """A file where the run's chunks/ (games/, records/) folder belongs: verify called every
    file in it 'unreadable (Not a directory)' and advised the resume, which then failed
    ("cannot write in RUN/chunks: it is a file"). Now the advice is to remove that file
    first; followed, it mends the run."""
    from tournaments import Tournament

    def play(out):
        return Tournament(["greedy", "low", "high"], players=3, games=24, seed=1, chunk_size=6,
                          record=out.with_suffix(".jsonl")).run(out=out)  # fmt: skip

    whole, bad = play(tmp_path / "whole"), tmp_path / "bad"
    play(bad)
    shutil.rmtree(bad / folder)
    (bad / folder).write_text("not a folder")
    code, out, err = cli(capsys, "verify", str(bad))
    line = one_error_line(err)
    assert code == 1 and "Not a directory" not in out + line, out + line
    assert "its folder is a file" in out
    assert line.endswith(f"remove {bad / folder} (a file where the run's folder belongs), then "
                         f"'leaves tournament --out {bad} --resume' replays them")  # fmt: skip
    (bad / folder).unlink()
    assert cli(capsys, "tournament", "--out", str(bad), "--resume", "--jobs", "1")[0] == 0
    assert cli(capsys, "verify", str(bad))[0] == 0
    assert load(bad).summary().equals(whole.summary())
