"""Verified runs: checksums in the manifest, ``leaves verify``, resume replaying bad chunks,
``leaves report`` refusing a damaged run, durable writes."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import cli
from tests.toygame import ToyGame
from tournaments import Tournament, load, storage
from tournaments.verify import row_strays, verify_run

TOY = ["a", "p1", "p2", "p3"]
TOY_ARGS = [*TOY, "--game", "tests.toygame:ToyGame", "--players", "4", "--games", "400",
            "--chunk-size", "80", "--jobs", "1", "--no-progress"]  # fmt: skip


def toy(seed: int = 7, **kw) -> Tournament:
    return Tournament(TOY, players=4, games=400, seed=seed, chunk_size=80, game=ToyGame(), **kw)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """An uninterrupted run (seed 7) and another run (seed 8) to swap files from."""
    root = tmp_path_factory.mktemp("runs")
    toy(seed=7, record=root / "rec.jsonl").run(out=root / "whole")
    toy(seed=8, record=root / "rec8.jsonl").run(out=root / "other")
    return {"whole": root / "whole", "other": root / "other"}


def _damage(path: Path, how: str, other: Path) -> None:
    data = path.read_bytes()
    if how == "corrupt":  # same size, a few bytes of junk in the middle
        mid = len(data) // 2
        path.write_bytes(
            data[:mid] + bytes(b ^ 0x5A for b in data[mid : mid + 8]) + data[mid + 8 :]
        )
    elif how == "truncate":
        path.write_bytes(data[: len(data) // 3])
    elif how == "delete":
        path.unlink()
    elif how == "swap":  # the same file of another run, copied in by mistake
        shutil.copyfile(other, path)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["corrupt", "truncate", "delete", "swap"])
@pytest.mark.parametrize("rel", ["games/part-000002.parquet", "chunks/chunk-000002.npz"])
def test_each_damage_is_detected_and_resume_replays_it_exactly(runs, tmp_path, capsys, how, rel):
    run = tmp_path / "run"
    shutil.copytree(runs["whole"], run)
    code, out, err = cli(capsys, "verify", str(run))
    n = toy().schedule.n_chunks
    assert code == 0 and f"ok: {n} of {n} chunks verified" in out, err

    _damage(run / rel, how, runs["other"] / rel)
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 1
    assert f"bad: {run / rel}: " in out and "(chunk 2)" not in out
    assert err.startswith("leaves: error: 1 bad file(s)") and "--resume" in err
    assert {"delete": "missing", "truncate": "truncated"}.get(how, "replaced") in out

    code, out, err = cli(capsys, "tournament", *TOY_ARGS, "--seed", "7", "--out", str(run),
                         "--record", str(tmp_path / "rec.jsonl"), "--resume")  # fmt: skip
    assert code == 0, err
    line = next(x for x in err.splitlines() if x.startswith("resume:"))
    assert line.startswith(f"resume: {n - 1} of {n} chunks verified, 1 replayed") and rel in line
    pd.testing.assert_frame_equal(load(run).games(), load(runs["whole"]).games())
    for name in ("aggregates.npz", "forfeits.json"):
        assert (run / name).read_bytes() == (runs["whole"] / name).read_bytes()
    assert (run / "chunks/chunk-000002.npz").read_bytes() == (
        runs["whole"] / "chunks/chunk-000002.npz"
    ).read_bytes()
    assert verify_run(run).ok


def test_verify_checks_merged_files_records_and_strays(runs, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(runs["whole"], run)
    (run / "records/chunk-000001.jsonl").write_text("{}\n")
    (run / "aggregates.npz").write_bytes((run / "aggregates.npz").read_bytes()[:-1])
    shutil.copyfile(run / "games/part-000000.parquet", run / "games/part-000077.parquet")
    shutil.copyfile(run / "games/part-000000.parquet", run / "games/copy.parquet")
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 1
    bad = {line.split(": ")[1] for line in out.splitlines() if line.startswith("bad: ")}
    assert bad == {str(run / p) for p in ("records/chunk-000001.jsonl", "aggregates.npz",
                   "games/part-000077.parquet")}  # fmt: skip
    assert f"warning: {run / 'games/copy.parquet'}: not a part of this run" in out
    result = toy(seed=7, record=tmp_path / "r.jsonl").run(out=run, resume=True, log=print)
    assert "1 replayed" in capsys.readouterr().out
    assert not (run / "games/part-000077.parquet").exists()  # another run's chunk: removed
    assert verify_run(run).ok  # a file named otherwise is left to the user, warned of
    assert row_strays(run, storage.read_manifest(run)) == ["games/copy.parquet"]
    (run / "games/copy.parquet").unlink()
    assert verify_run(run).ok and len(result.games()) == result.spec["n_games"]


def test_an_unfinished_run_verifies_and_unrecorded_chunks_are_just_pending(runs, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(runs["whole"], run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["status"] = "running"  # killed after chunks 3 and 4 were written, before the
    for cid in ("3", "4"):  # manifest recorded them
        del manifest["integrity"]["chunks"][cid]
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, _ = cli(capsys, "verify", str(run))
    n = manifest["spec"]["n_chunks"]
    assert code == 0 and f"ok: {n - 2} of {n} chunks verified" in out and "unfinished" in out
    toy(seed=7, record=tmp_path / "r.jsonl").run(out=run, resume=True, log=print)
    assert f"{n - 2} of {n} chunks verified, 0 replayed, 2 still to play" in capsys.readouterr().out
    assert verify_run(run).ok


def test_verify_and_report_refuse_bad_input_in_one_line(runs, tmp_path, capsys):
    code, _, err = cli(capsys, "verify", str(tmp_path / "none"))
    assert code == 2 and err.startswith("leaves: error: run directory not found")
    (tmp_path / "m").mkdir()
    (tmp_path / "m/manifest.json").write_text("{not json")
    code, out, err = cli(capsys, "verify", str(tmp_path / "m"))
    assert code == 1 and "manifest.json" in out and "not valid JSON" in out
    assert err.count("\n") == 1 and "Traceback" not in err


def test_report_names_the_bad_part_and_suggests_resume(tmp_path, capsys):
    run = tmp_path / "run"
    Tournament(["greedy", "low", "high"], players=3, games=600, seed=3, chunk_size=150).run(out=run)
    part = run / "games/part-000001.parquet"
    part.write_bytes(part.read_bytes()[:100])
    code, _, err = cli(capsys, "report", str(run), "--out", str(tmp_path / "rep"))
    assert code == 1 and err.count("\n") == 1
    assert f"{part} is bad: truncated" in err and "--resume" in err
    assert not (tmp_path / "rep").exists()


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small") / "run"
    toy(seed=5, record=out.parent / "r.jsonl").run(out=out)
    return out


@settings(max_examples=40)
@given(data=st.data())
def test_any_changed_byte_of_any_recorded_file_is_detected(small_run, data):
    manifest = storage.read_manifest(small_run)
    files = sorted(
        [p for chunk in manifest["integrity"]["chunks"].values() for p in chunk]
        + list(manifest["integrity"]["files"])
    )
    rel = data.draw(st.sampled_from(files))
    path = small_run / rel
    original = path.read_bytes()
    at = data.draw(st.integers(0, len(original) - 1))
    flip = data.draw(st.integers(1, 255))
    path.write_bytes(original[:at] + bytes([original[at] ^ flip]) + original[at + 1 :])
    try:
        problems = verify_run(small_run).problems
    finally:
        path.write_bytes(original)
    assert [p.path for p in problems] == [rel]
    assert verify_run(small_run).ok


def test_writes_are_synced_before_and_after_the_rename(tmp_path, monkeypatch):
    """Each file is fsynced before its rename; its folder after the rename, and before the
    manifest that records it is written."""
    events: list[tuple[str, str]] = []
    real_fsync, real_replace, real_fsync_dir = os.fsync, os.replace, storage.fsync_dir

    def rel(path) -> str:
        return Path(path).relative_to(tmp_path).as_posix()

    def fsync(fd):
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            events.append(("file", ""))
        real_fsync(fd)

    def replace(src, dst):
        events.append(("rename", rel(dst)))
        real_replace(src, dst)

    def fsync_dir(folder):
        events.append(("dir", rel(folder)))
        real_fsync_dir(folder)

    monkeypatch.setattr(storage.os, "fsync", fsync)
    monkeypatch.setattr(storage.os, "replace", replace)
    monkeypatch.setattr(storage, "fsync_dir", fsync_dir)
    n = toy(seed=7).run(out=tmp_path).spec["n_chunks"]
    renamed = {name for kind, name in events if kind == "rename"}
    assert {"manifest.json", "aggregates.npz", "forfeits.json"} <= renamed
    assert {f"games/part-{c:06d}.parquet" for c in range(n)} <= renamed
    assert {f"chunks/chunk-{c:06d}.npz" for c in range(n)} <= renamed
    for i, (kind, name) in enumerate(events):
        if kind != "rename":
            continue
        assert events[i - 1] == ("file", ""), name
        folder = Path(name).parent.as_posix()
        later = events[i + 1 :]
        synced = later.index(("dir", folder))
        if name != "manifest.json":
            assert ("rename", "manifest.json") in later[synced:], name
