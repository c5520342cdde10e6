"""``leaves verify --deep`` on runs of every kind: a Ligretto run (a game counted in rounds),
an expert run (its matches part laid out by the schedule, its games part by its chunk
file), a gauntlet (its advice the gauntlet's resume) and a ``--precision`` run (its chunks
laid out stage by stage). The generic layer names no game: each is read by its declaration."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.helpers import cli, exit_code, forfeiting_run, one_error_line
from tests.test_edge67_verify_deep import SCHEDULED, parquet, vouch
from tournaments import aggregates, storage
from tournaments.verify_contents import run_schedule

RUNS = {
    "ligretto": ["tournament", "--game", "ligretto", "cautious", "cycler", "--games", "60",
                 "--chunk-size", "20"],
    "expert": ["tournament", "greedy", "low", "high", "--expert", "--games", "12",
               "--chunk-size", "4"],
    "gauntlet": ["gauntlet", "greedy", "--against", "low,high", "--games", "60"],
    "precision": ["tournament", "greedy", "low", "high", "--games", "60", "--precision", "0.5",
                  "--max-games", "200", "--chunk-size", "30"],
}  # fmt: skip


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("kinds")
    runs = {}
    for name, args in RUNS.items():
        out = root / name
        code = exit_code([*args, "--seed", "5", "--jobs", "1", "--no-progress", "--out", str(out)])
        assert code == 0, name
        runs[name] = out
    return runs


@pytest.fixture
def copy(played, tmp_path):
    def copied(name: str) -> Path:
        run = tmp_path / name
        shutil.copytree(played[name], run)
        return run

    return copied


@pytest.mark.parametrize("name", list(RUNS))
def test_each_kind_of_run_reads_whole(played, capsys, name):
    code, out, err = cli(capsys, "verify", "--deep", str(played[name]))
    assert code == 0 and " chunks verified and read (" in out and "; run complete" in out, err


def test_a_ligretto_part_without_a_pinned_column(copy, capsys):
    run = copy("ligretto")
    rel = "games/part-000001.parquet"
    vouch(run, rel, parquet(pq.read_table(run / rel).drop_columns(["winner_seat"])))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (f"bad: {run / rel}: games table lacks the pinned column(s) of "
                                 "Ligretto: winner_seat\n")  # fmt: skip
    assert one_error_line(err) == (f"leaves: error: 1 bad file(s) in {run}: remove {run / rel}, "
                                   f"then 'leaves tournament --out {run} --resume' replays it")  # fmt: skip


def test_a_ligretto_chunk_counts_rounds(copy, capsys):
    run = copy("ligretto")
    rel = "chunks/chunk-000001.npz"
    agg, extra = aggregates.load(run / rel)
    extra["n_games"] = extra["n_games"] + 1
    buf = io.BytesIO()
    aggregates.save(buf, agg, **extra)
    vouch(run, rel, buf.getvalue())
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    n = int(extra["n_games"])
    assert code == 1 and out == (f"bad: {run / rel}: its aggregates hold {n} rounds, expected "
                                 f"{n - 1} {SCHEDULED}\n")  # fmt: skip


@pytest.mark.parametrize(("rel", "expected"), [
    ("matches/part-000001.parquet", 4),  # one match per seating of its deal: the schedule's
    ("games/part-000001.parquet", None),  # as many games as its chunk file says it played
])  # fmt: skip
def test_an_expert_part_short_of_rows(copy, capsys, rel, expected):
    run = copy("expert")
    table = pq.read_table(run / rel)
    expected = expected or table.num_rows
    vouch(run, rel, parquet(table.slice(0, table.num_rows - 1)))
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (f"bad: {run / rel}: holds {expected - 1:,} rows, expected "
                                 f"{expected:,} {SCHEDULED}\n")  # fmt: skip


def test_a_gauntlet_is_mended_by_its_own_resume(copy, capsys):
    run = copy("gauntlet")
    rel = "games/part-000001.parquet"
    vouch(run, rel, parquet(pq.read_table(run / rel).slice(0, 1)))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out.startswith(f"bad: {run / rel}: holds 1 row, expected ")
    assert one_error_line(err) == (
        f"leaves: error: 1 bad file(s) in {run}: remove {run / rel}, then 'leaves gauntlet --out "
        f"{run} --resume' replays it")  # fmt: skip


def test_a_precision_run_lays_out_its_later_stages(copy, capsys):
    run = copy("precision")
    rel = "games/part-000020.parquet"  # a chunk of its second stage
    table = pq.read_table(run / rel)
    vouch(run, rel, parquet(table.slice(0, 1)))
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (f"bad: {run / rel}: holds 1 row, expected {table.num_rows} "
                                 f"{SCHEDULED}\n")  # fmt: skip


@pytest.mark.parametrize("name", list(RUNS))
def test_each_kind_of_run_has_its_schedule_laid_out_from_its_manifest(played, name):
    """Rows are held against the schedule, never only against the chunk file's own word."""
    run = played[name]
    manifest = json.loads((run / "manifest.json").read_text())
    schedule = run_schedule(manifest)
    assert schedule is not None and schedule.n_chunks == manifest["spec"]["n_chunks"]
    unit = "n_matches" if manifest["spec"]["expert"] else "n_games"
    said = [int(aggregates.load(storage.chunk_path(run, c))[1][unit])
            for c in range(schedule.n_chunks)]  # fmt: skip
    assert said == [c.n_games for c in schedule.chunks()]
    del manifest["spec"]["deal_stages"]  # an older version's manifest: no schedule told
    assert run_schedule(manifest) is None


@pytest.mark.slow
def test_rounds_a_forfeit_ended_keep_no_record_and_are_not_missed(tmp_path, capsys):
    """A run that records every round keeps none of those a forfeit ended: its chunk holds
    fewer records than rounds, which is whole; one record fewer still is not."""
    run = forfeiting_run(tmp_path / "run", "--record", str(tmp_path / "run.jsonl"))
    forfeits = len(json.loads((run / "forfeits.json").read_text()))
    assert forfeits > 0
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 1 of 1 chunks verified and read"), out + err
    rel = "records/chunk-000000.jsonl"
    lines = (run / rel).read_bytes().splitlines(keepends=True)
    vouch(run, rel, b"".join(lines[1:]))
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (
        f"bad: {run / rel}: holds {len(lines) - 1} records, expected {len(lines)} to "
        f"{len(lines) + forfeits} (the games the run records in its chunk, less those a "
        "forfeit ended)\n")  # fmt: skip
