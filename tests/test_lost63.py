"""Run folders that lost their manifest, and damaged manifest entries, at every place a run is
opened: one line that says what is there and what to do, the same from the command line and
the library; a resume says what of the manifest it dropped; every manifest the runner writes
records how its game loads again (``game_spec``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import tournaments
from tests.helpers import cli, cli_output, copied_run, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament, TournamentResult, storage
from tournaments.checked_files import DamagedFile
from tournaments.verify import verify_run

TOY = dict(players=3, games=120, seed=3, chunk_size=30)
STRATEGIES = ["a", "p1", "p2"]
TOY_ARGS = [*STRATEGIES, "--game", "tests.toygame:ToyGame", "--players", "3", "--games", "120",
            "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip


def _toy() -> Tournament:
    return Tournament(STRATEGIES, game=ToyGame(), **TOY)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks)."""
    out = tmp_path_factory.mktemp("lost63") / "run"
    _toy().run(out=out)
    return out


def _lost_line(out: Path, flag: str) -> str:
    return (f"{out} holds a run's files but not its manifest.json (missing): nothing vouches "
            "for them; the run cannot be resumed or grown without it: restore it, or play the "
            f"run again into a new {flag} (the same options and seed give the same results)")  # fmt: skip


def _lost(tmp_path: Path) -> Path:
    """A run's folder that lost its manifest: its chunk and row files, nothing else."""
    lost = tmp_path / "lost"
    (lost / "chunks").mkdir(parents=True)
    (lost / "games").mkdir()
    (lost / "chunks" / "chunk-000000.npz").write_bytes(b"aggregates")
    (lost / "games" / "part-000000.parquet").write_bytes(b"rows")
    return lost


# ------------------------------------------------------------------ a folder that lost it


@pytest.mark.parametrize("resume", [True, False])
def test_leaves_run_names_a_folder_that_lost_its_manifest(tmp_path, capsys, resume):
    """It said 'it holds no run (no manifest.json)' (and, without --resume, 'is not empty and
    holds no run'): the folder holds a run's files, its manifest is what is missing."""
    lost = _lost(tmp_path)
    code, _, err = cli(capsys, "run", "--out", str(lost), *(["--resume"] if resume else []))
    assert code == 2
    assert one_error_line(err) == "leaves: error: " + _lost_line(lost, "--out")


GAUNTLET_ARGS = ["a", "--against", "p1", "--baseline", "p2", "--game", "tests.toygame:ToyGame",
                 "--players", "3", "--games", "12", "--seed", "0", "--no-progress"]  # fmt: skip


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
def test_leaves_tournament_and_gauntlet_name_it_too(tmp_path, capsys, command, resume):
    """Without --resume they said 'is not empty and holds no run'."""
    lost = _lost(tmp_path)
    args = TOY_ARGS if command == "tournament" else GAUNTLET_ARGS
    again = ["--resume"] if resume else []
    code, _, err = cli(capsys, command, *args, "--out", str(lost), *again)
    assert code == 2
    assert one_error_line(err) == "leaves: error: " + _lost_line(lost, "--out")


@pytest.mark.parametrize("resume", [True, False])
def test_the_library_names_a_folder_that_lost_its_manifest(tmp_path, resume):
    """``run(out=LOST, resume=True)`` said 'holds no tournament', without resume 'holds no
    run'; the library names its parameter ``out``."""
    lost = _lost(tmp_path)
    with pytest.raises(ValueError) as exc:
        _toy().run(out=lost, resume=resume)
    assert str(exc.value) == _lost_line(lost, "out")
    assert sorted(p.name for p in lost.rglob("*")) == [
        "chunk-000000.npz", "chunks", "games", "part-000000.parquet"]  # nothing written  # fmt: skip


def test_a_result_of_a_folder_that_lost_its_manifest_says_so(tmp_path):
    lost = _lost(tmp_path)
    with pytest.raises(ValueError) as exc:
        TournamentResult(lost)
    assert str(exc.value) == _lost_line(lost, "out")


def test_a_folder_of_no_run_is_still_said_to_hold_none(tmp_path):
    """Another program's files (no chunks/, no aggregates.npz): no run's, so no lost one."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("x")
    with pytest.raises(ValueError) as exc:
        TournamentResult(other)
    assert str(exc.value) == f"{other} holds no tournament (no manifest.json)"
    with pytest.raises(ValueError) as exc:
        _toy().run(out=other)
    assert str(exc.value) == f"{other} is not empty and holds no run: pick a new out"


# ------------------------------------------------------------------ damaged chunk keys


def _with_key(key: str, copy_of: str | None):
    def edit(m: dict) -> None:
        chunks = m["integrity"]["chunks"]
        chunks[key] = dict(chunks[copy_of]) if copy_of else {}

    return edit


def test_a_chunk_key_with_a_leading_zero_is_not_a_second_chunk(run, tmp_path):
    """'03' beside '3' was read as chunk 3 again: its files counted twice (12, not 10)."""
    bad = copied_run(run, tmp_path, _with_key("03", "3"))
    result = verify_run(bad)
    assert result.files_checked == verify_run(run).files_checked == 10
    assert [p.reason for p in result.problems] == [
        "its checksums (integrity) are malformed: chunk '03' is not a chunk number"]  # fmt: skip


@pytest.mark.parametrize("key", ["abc", "03"])
def test_a_resume_says_the_chunk_keys_it_dropped(run, tmp_path, key):
    """They were dropped silently (and '03' kept), while verify said a resume replays them."""
    bad = copied_run(run, tmp_path, _with_key(key, "3" if key == "03" else None))
    said: list[str] = []
    _toy().run(out=bad, resume=True, log=said.append)
    assert said == ["resume: 4 of 4 chunks verified, 0 replayed; malformed checksums "
                    f"(integrity) dropped from the manifest: chunk {key!r} is not a chunk "
                    "number"]  # fmt: skip
    manifest = storage.read_manifest(bad)
    assert sorted(manifest["integrity"]["chunks"]) == ["0", "1", "2", "3"]
    assert manifest["sessions"][-1]["resume"] == said[0]
    assert verify_run(bad).ok


# ------------------------------------------------------------------ game_spec, every path


def test_every_manifest_the_runner_writes_records_game_spec(run, tmp_path):
    assert storage.read_manifest(run)["game_spec"] == "tests.toygame:ToyGame"
    older = copied_run(run, tmp_path, lambda m: m.pop("game_spec"))
    _toy().run(out=older, resume=True)
    assert storage.read_manifest(older)["game_spec"] == "tests.toygame:ToyGame"
    g = tmp_path / "gauntlet"
    tournaments.gauntlet("a", ["p1"], "p2", players=3, games=12, seed=0, out=g, game=ToyGame())
    assert storage.read_manifest(g)["game_spec"] == "tests.toygame:ToyGame"


def test_a_new_manifest_records_game_spec_before_any_chunk(tmp_path, monkeypatch):
    """The first manifest written (before a chunk is played) already names the game."""
    seen: list[dict] = []
    write = storage.write_manifest

    def spy(out, manifest):
        seen.append(json.loads(json.dumps(manifest)))
        write(out, manifest)

    monkeypatch.setattr(storage, "write_manifest", spy)
    _toy().run(out=tmp_path / "new")
    assert seen and all(m.get("game_spec") == "tests.toygame:ToyGame" for m in seen)


# ------------------------------------------------------------------ a run's folder gone


def test_rows_of_a_run_whose_games_folder_is_gone_are_said_missing(run, tmp_path):
    """It said 'has no games rows yet' of a complete run whose manifest records its parts."""
    gone = copied_run(run, tmp_path)
    shutil.rmtree(gone / "games")
    with pytest.raises(DamagedFile) as exc:
        TournamentResult(gone).games()
    assert str(exc.value).startswith(f"{gone / 'games' / 'part-000000.parquet'} is bad: missing;")
    assert len(TournamentResult(run).games()) == 120  # the whole run reads its rows


@pytest.mark.parametrize("text, why", [
    ("[]", "the manifest is [], expected a JSON object"),
    ('"x"', "the manifest is 'x', expected a JSON object"),
    ('{"format": "leaves-tournament/1"}', "spec is missing, expected a table of the run's "
                                          "settings"),
    ('{"format": "leaves-tournament/1", "spec": []}', "spec is [], expected a table of the "
                                                      "run's settings"),
])  # fmt: skip
def test_the_library_refuses_to_resume_a_corrupt_manifest_in_one_line(run, tmp_path, text, why):
    """It raised AttributeError ('list' object has no attribute 'get') or KeyError('spec'),
    where the command line names the corrupt manifest."""
    bad = copied_run(run, tmp_path)
    (bad / "manifest.json").write_text(text)
    with pytest.raises(ValueError) as exc:
        _toy().run(out=bad, resume=True)
    advice = storage.NO_MANIFEST.replace("{out}", "out")  # what to do, as the CLI says it
    assert str(exc.value) == (
        f"cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: {why}; {advice}"
    )


# ------------------------------------------------------------------ leaves run --rules


RULES_RUN = ["--rules", "take=ends", "--games", "24", "--players", "3", "--jobs", "1"]


@pytest.fixture(scope="module")
def rules_run(tmp_path_factory) -> Path:
    """A finished 'leaves run --rules' (its field under today's rules in default-rules/)."""
    out = tmp_path_factory.mktemp("lost63rules") / "run"
    code, _, err = cli_output("run", *RULES_RUN, "--out", str(out))
    assert code == 0, err
    return out


@pytest.mark.slow
def test_a_run_whose_baseline_manifest_is_corrupt_says_so(rules_run, tmp_path, capsys):
    """It stopped on AttributeError ('list' object has no attribute 'get')."""
    copy = copied_run(rules_run, tmp_path)
    (copy / "default-rules" / "manifest.json").write_text("[]")
    code, _, err = cli(capsys, "run", *RULES_RUN, "--out", str(copy))
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: corrupt manifest {copy / 'default-rules' / 'manifest.json'}: the "
        "manifest is [], expected a JSON object; the run cannot be resumed or grown without "
        "it: restore it, or play the run again into a new --out (the same options and seed "
        "give the same results)"
    )


def test_a_run_whose_baseline_lost_its_manifest_says_so(rules_run, tmp_path, capsys):
    """It said the field under today's rules was not played yet, and to pass --resume."""
    copy = copied_run(rules_run, tmp_path)
    (copy / "default-rules" / "manifest.json").unlink()
    code, _, err = cli(capsys, "run", *RULES_RUN, "--out", str(copy))
    assert code == 2
    assert one_error_line(err) == "leaves: error: " + _lost_line(copy / "default-rules", "--out")
