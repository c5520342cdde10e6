"""``leaves verify --deep`` holds each row's seeds against those the manifest's seed derives
for its game: a manifest whose seed was edited (3 to 99) passed, and a resume that grew the
run then dealt new games from 99 beside games dealt from 3. Now the manifest is named, with
advice that is no resume; once mixed, the parts of the other seed are named, and the advice
(remove them, resume) gives a run of one seed that passes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament

TOY = ["a", "p1", "p2"]
RESUME_ARGS = ["--game", "tests.toygame:ToyGame", "--jobs", "1", "--no-progress"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks of 30 games), seed 3."""
    out = tmp_path_factory.mktemp("seeds") / "run"
    Tournament(TOY, players=3, games=120, seed=3, chunk_size=30, game=ToyGame()).run(out=out)
    return out


@pytest.fixture
def run(whole, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(whole, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["seed"] = manifest["spec"]["seed"] = 99  # both, as a hand edit that passes makes it
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def test_the_run_itself_passes(whole, capsys):
    code, out, err = cli(capsys, "verify", "--deep", str(whole))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified and read"), out + err


def test_an_edited_seed_is_named_and_no_resume_is_advised(run, capsys):
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 1 and out == (
        f"bad: {run / 'manifest.json'}: its seed 99 dealt none of the run's games: the rows of "
        "each of its 4 chunks hold the seeds of another (the seed was changed since they were "
        "played)\n"
    ), out  # it said "ok: 4 of 4 chunks verified and read"
    line = one_error_line(err)
    assert line == (
        f"leaves: error: 1 bad file(s) in {run}: put back the seed the run was played with "
        f"('seed' and 'spec.seed' in {run / 'manifest.json'}), or play a new run: a resume would "
        "deal new games from seed 99 beside games dealt from another"
    )
    assert "--resume'" not in line


def test_a_run_grown_from_an_edited_seed_names_the_other_seeds_parts(run, capsys):
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--games", "180",
                       *RESUME_ARGS)  # fmt: skip
    assert code == 0, err  # 2 chunks dealt from 99 beside 4 dealt from 3
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    parts = [f"games/part-00000{i}.parquet" for i in range(4)]
    assert code == 1 and out.splitlines() == [
        f"bad: {run / p}: its rows hold other seeds than the run's seed (99) derives for its games "
        "(another run's games)" for p in parts
    ], out  # fmt: skip
    assert one_error_line(err).endswith(f"'leaves tournament --out {run} --resume' replays them")
    for p in parts:  # the advice: remove them, then resume (every game then dealt from 99)
        (run / p).unlink()
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", *RESUME_ARGS)
    assert code == 0, err
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    assert code == 0 and out.startswith("ok: 6 of 6 chunks verified and read"), out + err
