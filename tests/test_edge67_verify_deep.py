"""``leaves verify --deep`` reads what the checksums vouch for: a chunk whose checksum the
manifest was edited to match, or that a faulty plug-in wrote (no aggregates, columns
missing, rows the schedule does not lay out, values naming no seat or table of its chunk),
is named with what mends it; plain ``leaves verify`` says it read no contents."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament, aggregates, storage

TOY = ["a", "p1", "p2"]
RESUME_ARGS = [*TOY, "--game", "tests.toygame:ToyGame", "--players", "3", "--games", "120",
               "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip
PART = "games/part-000002.parquet"
CHUNK = "chunks/chunk-000002.npz"
SCHEDULED = "(the manifest's schedule lays out that many in its chunk)"


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks of 30 games), its records inside."""
    out = tmp_path_factory.mktemp("deep") / "run"
    Tournament(TOY, players=3, games=120, seed=3, chunk_size=30, game=ToyGame(),
               record=out / "games.jsonl").run(out=out)  # fmt: skip
    return out


@pytest.fixture
def run(whole, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(whole, copy)
    return copy


def vouch(run: Path, rel: str, data: bytes) -> None:
    """Write ``data`` to the run's file ``rel`` and edit the manifest to vouch for it."""
    (run / rel).write_bytes(data)
    manifest = json.loads((run / "manifest.json").read_text())
    part = manifest["integrity"]
    entry = storage.file_entry(data)
    for files in [*part["chunks"].values(), part.get("files", {})]:
        if rel in files:
            files[rel] = entry
    if part.get("record_file", {}).get("path") == rel:
        part["record_file"]["entry"] = entry
    (run / "manifest.json").write_text(json.dumps(manifest))


def parquet(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def deep_refusal(capsys, run: Path, bad: str, reason: str) -> str:
    """``--deep``'s one bad line and its error line; plain ``verify`` still passes the run."""
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified"), err
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == f"bad: {run / bad}: {reason}\n", out
    return one_error_line(err)


def test_plain_verify_says_it_read_no_contents_and_deep_reads_them(run, capsys):
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 0 and out == (
        "ok: 4 of 4 chunks verified (15 files; contents not read: --deep reads them); run "
        f"complete; records in {run / 'games.jsonl'} verified\n"), err  # fmt: skip
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out == ("ok: 4 of 4 chunks verified and read (15 files); run complete; "
                                 f"records in {run / 'games.jsonl'} verified\n"), err  # fmt: skip


def test_a_vouched_chunk_file_that_holds_no_aggregates_is_named_and_mended(run, whole, capsys):
    vouch(run, CHUNK, b"not a chunk at all")
    line = deep_refusal(capsys, run, CHUNK, "not aggregates as a run writes them")
    assert line == (f"leaves: error: 1 bad file(s) in {run}: remove {run / CHUNK}, then "
                    f"'leaves tournament --out {run} --resume' replays it")  # fmt: skip
    (run / CHUNK).unlink()  # as the advice says
    code, _, err = cli(capsys, "tournament", *RESUME_ARGS, "--out", str(run), "--resume")
    assert code == 0, err
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err
    assert (run / CHUNK).read_bytes() == (whole / CHUNK).read_bytes()


def _without_winner(t: pa.Table) -> pa.Table:
    return t.drop_columns(["winner_seat"])


def _short(t: pa.Table) -> pa.Table:
    return t.slice(0, t.num_rows - 3)


def _winner_beyond(t: pa.Table) -> pa.Table:
    i = t.column_names.index("winner_seat")
    return t.set_column(i, "winner_seat", pa.array([7] * t.num_rows, pa.int8()))


def _other_table(t: pa.Table) -> pa.Table:
    i = t.column_names.index("table")
    return t.set_column(i, "table", pa.array([5] * t.num_rows, t.schema.field(i).type))


def _stranger(t: pa.Table) -> pa.Table:
    i = t.column_names.index("seat_0")
    return t.set_column(i, "seat_0", pa.array(["zz"] * t.num_rows).dictionary_encode())


def _bigger_tables(t: pa.Table) -> pa.Table:
    i = t.column_names.index("n_players")
    return t.set_column(i, "n_players", pa.array([4] * t.num_rows, pa.int8()))


def _empty(t: pa.Table) -> pa.Table:
    return t.slice(0, 0)


@pytest.mark.parametrize(("damage", "reason"), [
    (_without_winner, "games table lacks the pinned column(s) of Toy: winner_seat"),
    (_short, f"holds 27 rows, expected 30 {SCHEDULED}"),
    (_winner_beyond, "30 of its rows name a winner seat its table does not have"),
    (_other_table, "its rows name tables 5, expected 0 (its chunk's)"),
    (_stranger, "its seats name zz, not a strategy of its chunk's table"),
    (_bigger_tables, "its rows name tables of 4 players, expected 3"),
    (_empty, f"holds 0 rows, expected 30 {SCHEDULED}"),
])  # fmt: skip
def test_a_vouched_rows_part_the_reports_would_misread_is_named(run, capsys, damage, reason):
    vouch(run, PART, parquet(damage(pq.read_table(run / PART))))
    line = deep_refusal(capsys, run, PART, reason)
    assert line.endswith(f"remove {run / PART}, then 'leaves tournament --out {run} --resume' "
                         "replays it")  # fmt: skip


def test_a_vouched_part_that_is_no_parquet_is_named_in_the_reports_words(run, capsys):
    vouch(run, PART, b"PAR1 not a part")
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out.startswith(f"bad: {run / PART}: cannot read games part: "), out
    assert out.count("\n") == 1 and one_error_line(err).endswith("replays it")


def _doubled(agg: dict) -> None:
    agg["size_games"] = agg["size_games"] * 2


def _negative(agg: dict) -> None:
    agg["wins"] = agg["wins"] - 1000


def _reshaped(agg: dict) -> None:
    agg["ahead"] = agg["ahead"][:1]


def _without_ahead(agg: dict) -> None:
    del agg["ahead"]  # a count some chunks lack: merging leaves it out, as of older runs


@pytest.mark.parametrize(("edit", "reason"), [
    (_doubled, f"its aggregates hold 60 games, expected 30 {SCHEDULED}"),
    (_negative, "its aggregates count below zero (wins)"),
    (_reshaped, "its aggregates are not shaped as the run's other chunks' (ahead)"),
])  # fmt: skip
def test_chunk_aggregates_that_are_not_its_chunks(run, capsys, edit, reason):
    agg, extra = aggregates.load(run / CHUNK)
    edit(agg)
    buf = io.BytesIO()
    aggregates.save(buf, agg, **extra)
    vouch(run, CHUNK, buf.getvalue())
    deep_refusal(capsys, run, CHUNK, reason)


def test_a_count_some_chunks_lack_is_left_out_as_merging_leaves_it(run, capsys):
    """Counts added after a run's first chunks were written are missing from those chunks
    (and from the merged file): no damage."""
    for name in ("chunks/chunk-000000.npz", "aggregates.npz"):
        agg, extra = aggregates.load(run / name)
        _without_ahead(agg)
        buf = io.BytesIO()
        aggregates.save(buf, agg, **extra)
        vouch(run, name, buf.getvalue())
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err


def test_merged_aggregates_that_are_not_the_chunks_sum_are_named_and_mended(run, whole, capsys):
    agg, _ = aggregates.load(run / "aggregates.npz")
    agg["wins"] = agg["wins"] + 1
    buf = io.BytesIO()
    aggregates.save(buf, agg)
    vouch(run, "aggregates.npz", buf.getvalue())
    line = deep_refusal(capsys, run, "aggregates.npz", "not the sum of the run's chunks")
    assert line.endswith(f"remove {run / 'aggregates.npz'}, then 'leaves tournament --out {run} "
                         "--resume' rewrites aggregates.npz from the run's chunks")  # fmt: skip
    (run / "aggregates.npz").unlink()
    code, _, err = cli(capsys, "tournament", *RESUME_ARGS, "--out", str(run), "--resume")
    assert code == 0, err
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err
    assert (run / "aggregates.npz").read_bytes() == (whole / "aggregates.npz").read_bytes()


def test_a_vouched_record_file_that_is_not_its_chunks_records(run, capsys):
    lines = (run / "games.jsonl").read_text().splitlines(keepends=True)
    vouch(run, "games.jsonl", "".join(lines[:-1]).encode())
    records = len(lines)
    line = deep_refusal(capsys, run, "games.jsonl",
                        f"holds {records - 1:,} records, its chunks {records:,}")  # fmt: skip
    assert line.endswith(f"remove {run / 'games.jsonl'}, then 'leaves tournament --out {run} "
                         "--resume' writes it again from the run's chunks "
                         f"({run / 'games.jsonl'})")  # fmt: skip
    vouch(run, "games.jsonl", "".join(["{not json\n", *lines[1:]]).encode())
    deep_refusal(capsys, run, "games.jsonl", "line 1 is not a JSON game record")


def test_a_chunks_records_that_are_no_json_are_named(run, capsys):
    vouch(run, "records/chunk-000002.jsonl", b"[1, 2]\n")
    deep_refusal(capsys, run, "records/chunk-000002.jsonl",
                 "line 1 is not a JSON game record (not an object)")  # fmt: skip


def test_several_bad_files_are_each_named_and_removed_together(run, capsys):
    vouch(run, CHUNK, b"junk")
    vouch(run, "games/part-000001.parquet", parquet(_short(pq.read_table(run / PART))))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (
        f"bad: {run / 'games/part-000001.parquet'}: holds 27 rows, expected 30 {SCHEDULED}\n"
        f"bad: {run / CHUNK}: not aggregates as a run writes them\n")  # fmt: skip
    assert one_error_line(err) == (
        f"leaves: error: 2 bad file(s) in {run}: remove {run / CHUNK}, "
        f"{run / 'games/part-000001.parquet'}, then 'leaves tournament --out {run} --resume' "
        "replays them")  # fmt: skip


def test_an_unfinished_run_has_its_done_chunks_read(run, capsys):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    del manifest["integrity"]["chunks"]["3"], manifest["integrity"]["files"]
    manifest["integrity"].pop("record_file")
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out == ("ok: 3 of 4 chunks verified and read (9 files); run "
                                 "unfinished (--resume finishes it)\n"), err  # fmt: skip
    vouch(run, PART, parquet(_short(pq.read_table(run / PART))))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == f"bad: {run / PART}: holds 27 rows, expected 30 {SCHEDULED}\n"


def test_a_resume_takes_a_vouched_part_for_whole_until_it_is_removed(run, whole, capsys):
    """Why the advice removes the file first: a resume trusts what the checksums vouch for."""
    vouch(run, PART, parquet(_short(pq.read_table(run / PART))))
    resume = ["tournament", *RESUME_ARGS, "--out", str(run), "--resume"]
    code, _, err = cli(capsys, *resume)
    assert code == 0, err
    code, out, _ = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == f"bad: {run / PART}: holds 27 rows, expected 30 {SCHEDULED}\n"
    (run / PART).unlink()
    code, _, err = cli(capsys, *resume)
    assert code == 0, err
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err
    assert (run / PART).read_bytes() == (whole / PART).read_bytes()


@pytest.mark.parametrize(("rel", "data", "reason"), [
    ("aggregates.npz", b"junk", "not aggregates as a run writes them"),
    ("games.jsonl", b'{"a": "\xff"}\n', "not UTF-8 text"),
    ("records/chunk-000001.jsonl", b"\n\n", "holds 0 records, expected 30 (the games the run "
     "records in its chunk, less those a forfeit ended)"),
])  # fmt: skip
def test_merged_and_record_files_that_do_not_read(run, capsys, rel, data, reason):
    vouch(run, rel, data)
    deep_refusal(capsys, run, rel, reason)
