"""``leaves verify`` on a finished run whose merged aggregates are missing names the file once
(``--deep`` named it twice: "missing" and "not aggregates as a run writes them") and advises
what the resume does: it writes them again from the chunks, replaying none (the advice said
it "replays it", and ``--deep`` to remove a file that is not there)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament

TOY = ["a", "p1", "p2"]
RESUME_ARGS = [*TOY, "--game", "tests.toygame:ToyGame", "--players", "3", "--games", "120",
               "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks of 30 games)."""
    out = tmp_path_factory.mktemp("merged") / "run"
    Tournament(TOY, players=3, games=120, seed=3, chunk_size=30, game=ToyGame()).run(out=out)
    return out


@pytest.fixture
def run(whole, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(whole, copy)
    return copy


@pytest.mark.parametrize("deep", [["--deep"], []])
@pytest.mark.parametrize("name", ["aggregates.npz", "forfeits.json"])
def test_a_missing_merged_file_is_named_once_and_rewritten_from_the_chunks(run, whole, capsys,
                                                                           deep, name):  # fmt: skip
    (run / name).unlink()
    code, out, err = cli(capsys, "verify", *deep, str(run))
    assert code == 1 and out == f"bad: {run / name}: missing\n", out
    assert one_error_line(err) == (
        f"leaves: error: 1 bad file(s) in {run}: 'leaves tournament --out {run} --resume' "
        f"rewrites {name} from the run's chunks"
    )  # it said "replays it" (and, --deep, "remove RUN/aggregates.npz, then ... replays it")
    code, said, err = cli(capsys, "tournament", *RESUME_ARGS, "--out", str(run), "--resume")
    assert code == 0, err  # the advice works: the file is back, as the run wrote it
    assert (run / name).read_bytes() == (whole / name).read_bytes()
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err


def test_a_missing_merged_file_beside_a_bad_chunk_names_both_mends(run, capsys):
    (run / "aggregates.npz").unlink()
    (run / "chunks" / "chunk-000001.npz").write_bytes(b"not a chunk")
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out.count("\n") == 2, out
    assert one_error_line(err).endswith(
        f"'leaves tournament --out {run} --resume' replays it and rewrites aggregates.npz from "
        "the run's chunks"
    )
