"""Damaged run folders said truly: a chunk's aggregates held against its own rows (``verify
--deep``), the run a run's folder holds verified with it and never said finished while a file
is missing, a stray Parquet file warned of for what reads it, a lost ``variants.json`` made
again from its runs, and a failed write named by the file it was writing."""

from __future__ import annotations

import errno
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaves_cli.errors import CLIError, worded
from tests.helpers import cli, cli_output
from tests.test_verify import toy
from tournaments import storage
from tournaments.checked_files import sizes_differ
from tournaments.verify import verify_run
from tournaments.verify_contents import _counts_differ

PART, CHUNK = "games/part-000002.parquet", "chunks/chunk-000002.npz"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Two runs of one design, seeds 7 and 8: the second's files are another run's."""
    root = tmp_path_factory.mktemp("damage")
    toy(seed=7).run(out=root / "whole")
    toy(seed=8).run(out=root / "other")
    return {"whole": root / "whole", "other": root / "other"}


def _chunks(run: Path) -> str:
    n = storage.read_manifest(run)["spec"]["n_chunks"]
    return f"{n} of {n} chunks"


def _copy(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


def _swap_in(run: Path, other: Path, rel: str) -> None:
    """``rel`` of ``other`` copied into ``run``, its checksum too: a manifest that vouches."""
    shutil.copyfile(other / rel, run / rel)
    manifest = json.loads((run / "manifest.json").read_text())
    theirs = json.loads((other / "manifest.json").read_text())
    cid = str(int(rel.split("-")[-1].split(".")[0]))
    manifest["integrity"]["chunks"][cid][rel] = theirs["integrity"]["chunks"][cid][rel]
    (run / "manifest.json").write_text(json.dumps(manifest))


# ------------------------------------------------------------------ verify --deep


def test_deep_names_a_chunk_whose_aggregates_are_not_its_rows(runs, tmp_path, capsys):
    run = _copy(runs["whole"], tmp_path / "run")
    _swap_in(run, runs["other"], CHUNK)  # the sizes and shapes of this run, other games
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1
    lines = out.splitlines()  # the chunk, not the merged file its sum is no longer
    assert len(lines) == 1, out
    assert lines[0].startswith(f"bad: {run / CHUNK}: its aggregates disagree with its rows in "
                               f"{PART} (")  # fmt: skip
    assert "aggregates.npz" not in out and "rank value sum" in out
    assert f"remove {run / CHUNK}, then 'leaves tournament --out {run} --resume' replays it" in err
    (run / CHUNK).unlink()  # the advice followed: the chunk played again, the sum written again
    assert cli(capsys, "tournament", "--out", str(run), "--resume")[0] == 0
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith(f"ok: {_chunks(run)} verified and read")
    assert (run / "aggregates.npz").read_bytes() == (runs["whole"] / "aggregates.npz").read_bytes()


def test_deep_reads_a_whole_run_as_whole(runs, capsys):
    run = runs["whole"]
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith(f"ok: {_chunks(run)} verified and read"), out


LABELS = ["a", "b", "c"]


@given(st.lists(st.tuples(*[st.integers(0, 50)] * 4), min_size=3, max_size=3),
       st.integers(0, 2), st.integers(0, 3), st.integers(1, 5), st.booleans())  # fmt: skip
def test_counts_differ_names_the_first_count_the_rows_do_not_hold(rows, who, what, by, shared):
    counts = dict(zip(LABELS, rows, strict=True))
    agg = {k: np.array([r[i] for r in rows], np.int64)
           for k, i in (("games", 0), ("wins", 1), ("forfeits", 2), ("rank_sum", 3))}  # fmt: skip
    assert _counts_differ(agg, counts, LABELS, PART, shared) is None
    key = ("games", "wins", "forfeits", "rank_sum")[what]
    agg[key][who] += by
    said = _counts_differ(agg, counts, LABELS, PART, shared)
    if shared and key == "wins":  # shared wins: the plug-in's word, not held against the rows
        assert said is None
    else:
        words = ("seats taken", "wins", "forfeits", "rank value sum")[what]
        n = rows[who][what]
        assert said == (f"its aggregates disagree with its rows in {PART} ({LABELS[who]}'s "
                        f"{words}: {n + by:,}, the rows {n:,})")  # fmt: skip


# ------------------------------------------------------------------ strays


def test_a_stray_part_is_warned_of_for_what_reads_it_and_refuses_no_report(runs, tmp_path,
                                                                           capsys):  # fmt: skip
    from leaves_cli.report_cmd import check_parts

    run = _copy(runs["whole"], tmp_path / "run")
    shutil.copyfile(run / PART, run / "games/extra.parquet")
    assert verify_run(run).ok  # the run's own files are whole: nothing reads the stray
    check_parts(run)  # report, compare and replay read only the parts the manifest records
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 0
    assert out.splitlines()[0] == (
        f"warning: {run / 'games/extra.parquet'}: not a part of this run: its manifest records "
        "no such part, so 'leaves report', 'compare' and 'replay' skip it, but "
        f"pandas.read_parquet of {run / 'games'} would read it with the run's rows; remove it"
    )
    assert out.splitlines()[1].startswith(f"ok: {_chunks(run)} verified")


# ------------------------------------------------------------------ runs in a run's folder


def test_verify_checks_and_names_the_run_a_runs_folder_holds(runs, tmp_path, capsys):
    run = _copy(runs["whole"], tmp_path / "run")
    inner = _copy(runs["other"], run / "default-rules")
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 0
    assert [line.split(" verified")[0] for line in out.splitlines()] == [
        f"ok: {_chunks(run)} of {run}", f"ok: {_chunks(inner)} of {inner}"]  # fmt: skip
    (inner / PART).unlink()
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 1
    assert f"bad: {inner / PART}: missing" in out.splitlines()
    assert err.strip() == (f"leaves: error: 1 bad file(s) in {inner}: 'leaves tournament --out "
                           f"{inner} --resume' replays it")  # fmt: skip


def test_a_look_at_sizes_finds_a_finished_runs_missing_or_changed_files(runs, tmp_path):
    from leaves.commands.run_stored import _files_gone

    run = _copy(runs["whole"], tmp_path / "run")
    assert sizes_differ(run, storage.read_manifest(run)) == [] and _files_gone(run) is None
    (run / PART).unlink()
    assert (
        _files_gone(run) == f"{run / PART} is missing or changed: pass --resume to write it again"
    )
    (run / "aggregates.npz").write_bytes(b"short")
    assert sorted(sizes_differ(run, storage.read_manifest(run))) == ["aggregates.npz", PART]
    assert "and 1 more of its files are missing or changed: pass --resume to write them" in (
        _files_gone(run))  # fmt: skip


@pytest.mark.slow
def test_leaves_run_never_says_finished_with_a_file_of_its_runs_missing(tmp_path):
    out = tmp_path / "r"
    args = ["run", "--rules", "take=ends", "--games", "48", "--seed", "1", "--jobs", "1",
            "--out", str(out)]  # fmt: skip
    assert cli_output(*args)[0] == 0
    (out / "default-rules" / PART).unlink()  # the same field under today's rules
    code, said, err = cli_output("verify", str(out))
    assert code == 1 and f"bad: {out / 'default-rules' / PART}: missing" in said, err
    code, said, err = cli_output(*args)
    assert code == 2 and "finished" not in said
    assert err.strip() == (f"leaves: error: --out {out} holds this run, but "
                           f"{out / 'default-rules' / PART} is missing or changed: pass --resume "
                           "to write it again, or choose another --out")  # fmt: skip
    assert cli_output(*args, "--resume")[0] == 0
    assert cli_output("verify", str(out))[0] == 0
    code, said, _ = cli_output(*args)
    assert code == 0 and "already holds this run, finished" in said


# ------------------------------------------------------------------ variants.json lost


def _values(**given) -> dict:
    values = {"specs": ("random", "weighted"), "load": (), "rules": ("take=ends",),
              "sweep": None, "players": (), "games": 20_000, "seed": None, "expert": False,
              "trace_games": 8, "restricted_games": 0, "restrict": None, "ladder": None}  # fmt: skip
    return {**values, **given}


def _runs_of(root: Path, **spec) -> Path:
    for name in ("default", "take=ends"):
        played = {"seed": 3, "players": [4], "games_asked": 40, "expert": False, "n_games": 48,
                  **spec.get(name, {})}  # fmt: skip
        (root / name).mkdir(parents=True)
        (root / name / "manifest.json").write_text(json.dumps({"spec": played}))
    return root


def test_a_lost_variants_json_is_made_again_from_the_runs_and_the_options(tmp_path, capsys):
    from leaves.commands.variants_resume import _Lost, rebuilt

    out = _runs_of(tmp_path / "v")
    lost = _Lost("no variants.json")
    state, note = rebuilt(out, _values(), {"specs", "rules"}, lost)
    assert state["options"] == {
        "specs": ["random", "weighted"], "load": [], "rules": ["take=ends"], "sweep": None,
        "players": [4], "games": 40, "seed": 3, "expert": False, "trace_games": 8,
        "restricted_games": 0, "restrict": None, "ladder": None}  # fmt: skip
    assert state["designer"] == {} and "made again from the options given" in note
    with pytest.raises(CLIError, match=r"give the comparison's options again with --resume"):
        rebuilt(out, _values(), set(), lost)  # its rule sets: never guessed from its folders
    other = _runs_of(tmp_path / "w", **{"take=ends": {"seed": 4}})
    with pytest.raises(CLIError, match=r"were not played alike .*another --out$"):
        rebuilt(other, _values(), {"rules"}, lost)
    empty = tmp_path / "e"
    empty.mkdir()
    with pytest.raises(_Lost):  # no run to make it from: the refusal as it was
        rebuilt(empty, _values(), {"rules"}, lost)
    (empty / "variants.json").write_text("{")
    with pytest.raises(CLIError) as exc:  # unreadable, and nothing else there: what to do
        rebuilt(empty, _values(), {"rules"}, _Lost("cannot resume E: it cannot be read", "bad"))
    assert str(exc.value) == ("cannot resume E: it cannot be read; it holds no run of the "
                              f"comparison to make it again from: remove {empty / 'variants.json'}, then leave "
                              "out --resume to start one there")  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["delete", "corrupt"])
def test_a_comparison_resumes_without_its_variants_json(comparison, tmp_path, damage):
    from tests.variants_comparison import SMALL, run

    out = _copy(comparison, tmp_path / "v")
    state = json.loads((out / "variants.json").read_text())
    if damage == "delete":
        (out / "variants.json").unlink()
    else:
        (out / "variants.json").write_text('{"format": 1, "opt')
    code, said = run(["variants", "--out", str(out), "--resume"])
    assert code == 2 and "give the comparison's options again with --resume" in said
    args = ["variants", *SMALL, "--rules", "hand_size=9", "--rules", "take=ends", "--out",
            str(out), "--resume"]  # fmt: skip
    code, said = run([*args[:-1], "--seed", "4", "--resume"])
    assert code == 2 and "--seed 4 differs from this run's --seed 3: resume with --seed 3" in said
    code, said = run(args)
    assert code == 0, said
    assert "made again from the options given and the manifests of its runs" in said
    again = json.loads((out / "variants.json").read_text())
    assert again["options"] == state["options"]
    assert (out / "findings.txt").read_text() == (comparison / "findings.txt").read_text()


# ------------------------------------------------------------------ writing


def test_a_failed_write_names_the_file_not_its_hidden_temporary(tmp_path, monkeypatch):
    target = tmp_path / "games" / "part-000002.parquet"

    def refused(src, dst):
        raise PermissionError(errno.EPERM, "Operation not permitted", src, dst)

    monkeypatch.setattr(storage.os, "replace", refused)
    with pytest.raises(OSError) as exc:
        storage.atomic_write_bytes(target, b"rows")
    assert worded(exc.value) == f"{target}: Operation not permitted"
    assert isinstance(exc.value, PermissionError) and list(target.parent.iterdir()) == []
    with pytest.raises(OSError) as exc:
        storage.write_manifest(tmp_path, {"format": storage.FORMAT})
    assert worded(exc.value) == f"{tmp_path / 'manifest.json'}: Operation not permitted"


def test_a_folder_that_takes_no_file_names_the_file(tmp_path, monkeypatch):
    target = tmp_path / "manifest.json"

    def full(*args, dir=None, **kw):
        raise OSError(errno.ENOSPC, "No space left on device", str(Path(dir) / ".m.x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", full)
    with pytest.raises(OSError) as exc:
        storage.atomic_write_bytes(target, b"{}")
    assert worded(exc.value) == f"{target}: No space left on device"


def test_a_file_where_a_folder_of_the_run_belongs_is_named(runs, tmp_path, capsys):
    from tournaments.verify import folders_blocked

    run = _copy(runs["whole"], tmp_path / "run")
    manifest = storage.read_manifest(run)
    assert folders_blocked(run, manifest) == []
    shutil.rmtree(run / "games")
    (run / "games").write_text("x")
    assert folders_blocked(run, manifest) == ["games"]  # what a resume asks before a word
    manifest["status"], manifest["integrity"]["chunks"] = "interrupted", {}  # none recorded
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = cli(capsys, "verify", str(run))  # not "ok ... --resume finishes it"
    assert code == 1
    assert out.splitlines() == [f"bad: {run / 'games'}: a file where the run's folder belongs "
                                "(no resume writes in it)"]  # fmt: skip
    with pytest.raises(storage.InTheWay) as exc:  # what the write would meet, in its words
        storage.atomic_write_bytes(run / PART, b"rows")
    assert str(exc.value) == (f"cannot write in {run / 'games'}: it is a file, not a folder "
                              "(remove it, then try again)")  # fmt: skip
