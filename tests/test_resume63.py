"""Resuming a run whose manifest or game is unusual: a manifest entry of a chunk the run does
not have (dropped, not "replayed"), a run's folder that lost its manifest (named as ``leaves
verify`` names it), a run of a game given as ``module:Class`` (resumed from its folder alone,
with or without ``--game``; another game refused naming both), a directory in a chunk file's
place (refused before anything is said replayed), game settings the game refuses (the
manifest's fault), and the resume line's words for merged files and stray chunk files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from tests.helpers import cli, cli_output, copied_run, one_error_line, same_run
from tournaments import TournamentResult

TOY = "tests.toygame:ToyGame"
TOY_RUN = ["a", "p1", "p2", "--game", TOY, "--players", "3", "--games", "120",
           "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip
TOY_GAUNTLET = ["p2", "--against", "a,p3", "--baseline", "p1", "--game", TOY, "--players", "3",
                "--games", "60", "--seed", "2", "--jobs", "1"]  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks), played by the command line."""
    out = tmp_path_factory.mktemp("resume63") / "run"
    code, _, err = cli_output("tournament", *TOY_RUN, "--out", str(out))
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("resume63g") / "gauntlet"
    code, _, err = cli_output("gauntlet", *TOY_GAUNTLET, "--out", str(out))
    assert code == 0, err
    return out


def _resume_line(err: str) -> str:
    (line,) = [x for x in err.splitlines() if x.startswith("resume: ")]
    return line


# ------------------------------------------------------------------ a chunk it does not have


def test_a_recorded_chunk_the_run_lacks_is_dropped_not_replayed(run, tmp_path, capsys):
    """It said '1 replayed (... records chunk 25 ...)': nothing of chunk 25 is played, its
    entry is dropped; chunk 2, left unrecorded, is the one still to play, and the resumed run
    is the untouched one."""

    def edit(m: dict) -> None:
        chunks = m["integrity"]["chunks"]
        chunks["25"] = chunks.pop("2")
        m["status"] = "interrupted"

    copy = copied_run(run, tmp_path, edit)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1")
    assert code == 0, err
    line = _resume_line(err)
    assert line == (
        "resume: 3 of 4 chunks verified, 0 replayed, 1 entry of a chunk this run does not have "
        "dropped from the manifest (nothing to replay: manifest.json (chunk 25): records chunk "
        "25, which the run does not have (its chunks are 0 to 3)), 1 still to play"
    )
    same_run(TournamentResult(copy), TournamentResult(run))
    assert "25" not in json.loads((copy / "manifest.json").read_text())["integrity"]["chunks"]
    code, out, err = cli(capsys, "verify", str(copy))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified"), err


def test_a_bad_chunk_and_a_foreign_entry_are_told_apart(run, tmp_path, capsys):
    """A truncated chunk is replayed, an entry of no chunk dropped: each said as it is."""

    def edit(m: dict) -> None:
        m["integrity"]["chunks"]["7"] = m["integrity"]["chunks"]["1"]

    copy = copied_run(run, tmp_path, edit)
    chunk = copy / "chunks" / "chunk-000001.npz"
    chunk.write_bytes(chunk.read_bytes()[:40])
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1")
    assert code == 0, err
    line = _resume_line(err)
    assert line.startswith("resume: 3 of 4 chunks verified, 1 replayed (missing, truncated, "
                           "corrupt or another run's files: chunks/chunk-000001.npz")  # fmt: skip
    assert (
        ", 1 entry of a chunk this run does not have dropped from the manifest (nothing "
        "to replay: manifest.json (chunk 7)"
    ) in line
    same_run(TournamentResult(copy), TournamentResult(run))


# ------------------------------------------------------------------ a lost manifest

LOST = ("{d} holds a run's files but not its manifest.json (missing): nothing vouches for "
        "them; the run cannot be resumed or grown without it: restore it, or play the run "
        "again into a new --out (the same options and seed give the same results)")  # fmt: skip


@pytest.mark.parametrize("args", [[], ["a", "p1", "p2", "--game", TOY, "--players", "3"]])
def test_a_tournament_that_lost_its_manifest_is_named_so(run, tmp_path, capsys, args):
    """It said 'it holds no run (no manifest.json)': the run's files are there."""
    lost = copied_run(run, tmp_path)
    (lost / "manifest.json").unlink()
    code, stdout, err = cli(capsys, "tournament", *args, "--out", str(lost), "--resume")
    assert code == 2 and not stdout
    assert one_error_line(err) == "leaves: error: " + LOST.format(d=lost)
    assert not (lost / "manifest.json").exists()  # nothing started there


@pytest.mark.parametrize("args", [[], TOY_GAUNTLET])
def test_a_gauntlet_that_lost_its_manifest_is_named_so(gauntlet, tmp_path, capsys, args):
    lost = copied_run(gauntlet, tmp_path)
    (lost / "manifest.json").unlink()
    code, stdout, err = cli(capsys, "gauntlet", *args, "--resume", "--out", str(lost))
    assert code == 2 and not stdout
    assert one_error_line(err) == "leaves: error: " + LOST.format(d=lost)


# ------------------------------------------------------------------ a game given as module:Class


def test_a_run_records_how_to_load_its_game(run):
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["spec"]["game"] == "toy"  # its id, as reports name it
    assert manifest["game_spec"] == TOY


def test_an_installed_game_is_recorded_by_its_id():
    from tests.toygame import ToyGame
    from tournaments.games import get_game, load_spec, names_game

    assert load_spec(get_game("ligretto")) == "ligretto"
    assert load_spec(ToyGame()) == TOY
    cls = type(get_game("ligretto"))
    assert names_game(cls, "ligretto") and not names_game(cls, TOY)
    assert names_game(ToyGame, TOY) and names_game(ToyGame, "toy")
    assert not names_game(ToyGame, "os:system") and not names_game(ToyGame, None)


@pytest.mark.parametrize("game", [[], ["--game", TOY]])
def test_a_module_class_game_resumes_from_its_folder(run, tmp_path, capsys, game):
    """A plain --resume could not load 'toy'; with --game the entrants were 'not
    registered'. Both finish the run, as the untouched one."""
    copy = copied_run(run, tmp_path, lambda m: m["integrity"]["chunks"].pop("3"))
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1", *game)
    assert code == 0, err
    assert _resume_line(err).endswith(", 1 still to play")
    same_run(TournamentResult(copy), TournamentResult(run))


def test_a_spec_naming_the_module_class_resumes(run, tmp_path, capsys):
    """With spec.game edited to 'tests.toygame:ToyGame' it refused '--game
    tests.toygame:ToyGame but the run has game tests.toygame:ToyGame'."""

    def edit(m: dict) -> None:
        m["spec"]["game"] = TOY
        del m["game_spec"]  # as an older version wrote it, naming the game so
        m["integrity"]["chunks"].pop("0")

    for game in (["--game", TOY], []):
        copy = copied_run(run, tmp_path, edit, name=f"copy{len(game)}")
        code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1",
                           *game)  # fmt: skip
        assert code == 0, err
        same_run(TournamentResult(copy), TournamentResult(run))
        # the run now records how its game loads: a later resume needs no --game
        assert json.loads((copy / "manifest.json").read_text())["game_spec"] == TOY


def test_another_game_is_refused_naming_both(run, tmp_path, capsys):
    copy = copied_run(run, tmp_path)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--game", "ligretto")
    assert code == 2
    assert one_error_line(err) == (f"leaves: error: cannot resume {copy}: --game ligretto differs "
                                   f"from this run's game {TOY}: resume with --game {TOY}, or "
                                   "drop --game")  # fmt: skip


def test_an_older_manifest_without_the_game_spec_resumes_with_game(run, tmp_path, capsys):
    copy = copied_run(run, tmp_path, lambda m: m.pop("game_spec"))
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")
    assert code == 1
    line = one_error_line(err)
    assert "names a game this installation cannot load: unknown game 'toy'" in line
    # what works is said: the older manifest kept the game's name only
    assert line.endswith("; a run of a game given as --game module:Class resumes with it given "
                         "again (an older version recorded its name only)")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--game", TOY)
    assert code == 0, err
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")  # recorded now
    assert code == 0, err


@pytest.mark.parametrize("game", [[], ["--game", TOY]])
def test_a_module_class_gauntlet_resumes(gauntlet, tmp_path, capsys, game):
    copy = tmp_path / "g"
    shutil.copytree(gauntlet, copy)
    code, stdout, err = cli(capsys, "gauntlet", "--resume", "--out", str(copy), "--jobs", "1",
                            *game)  # fmt: skip
    assert code == 0, err
    assert "p2 wins" in stdout


def test_a_chunk_size_refused_in_words(run, tmp_path, capsys):
    """It said 'but the run has chunk_games 30', the manifest's key."""
    copy = copied_run(run, tmp_path)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--chunk-size", "7")
    assert code == 2
    assert one_error_line(err) == (f"leaves: error: cannot resume {copy}: --chunk-size 7 differs "
                                   "from this run's chunk size 30: resume with --chunk-size 30, "
                                   "or drop --chunk-size")  # fmt: skip


def test_a_recorded_game_spec_that_no_longer_loads_yields_to_game(run, tmp_path, capsys):
    """A game's module moved: the run's game_spec cannot load it; --game naming the same game
    (its id the run's) resumes it, and a plain resume says what cannot load."""

    def edit(m: dict) -> None:
        m["game_spec"] = "tests.moved_away:ToyGame"
        m["integrity"]["chunks"].pop("1")

    copy = copied_run(run, tmp_path, edit)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")
    assert code == 1
    assert "names a game this installation cannot load: cannot load 'tests.moved_away:ToyGame'" \
        in one_error_line(err)  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--game", TOY)
    assert code == 0, err
    same_run(TournamentResult(copy), TournamentResult(run))


def test_a_directory_in_a_chunks_place_is_refused_before_replaying(run, tmp_path, capsys):
    """It said '1 replayed (... a directory where the run's file belongs (no resume writes
    over it))', then failed writing it: refused first, in one line, nothing said replayed;
    once the directory is gone the resume replays the chunk, as the untouched run."""
    copy = copied_run(run, tmp_path, lambda m: m.update(status="interrupted"))
    part = copy / "games" / "part-000002.parquet"
    part.unlink()
    part.mkdir()
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1")
    assert code == 1
    assert "replayed" not in err
    assert err.splitlines()[-1] == (f"leaves: error: cannot write {part}: a directory is in "
                                    "its place (remove it, then try again)")  # fmt: skip
    part.rmdir()
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1")
    assert code == 0, err
    assert ", 1 replayed (" in _resume_line(err)
    same_run(TournamentResult(copy), TournamentResult(run))


def test_merged_files_are_said_as_they_are(run, tmp_path, capsys):
    """It said 'aggregates.npz ... rewritten from the chunks at the end (damaged)' of a file
    that is missing: each file's own problem is said."""
    copy = copied_run(run, tmp_path)
    (copy / "aggregates.npz").unlink()
    line = _resume_after(capsys, copy)
    assert line.endswith(", aggregates.npz rewritten from the chunks at the end (missing)")
    (copy / "aggregates.npz").unlink()
    (copy / "forfeits.json").write_text("x")
    line = _resume_after(capsys, copy)
    assert (
        ", aggregates.npz and forfeits.json rewritten from the chunks at the end "
        "(aggregates.npz: missing; forfeits.json: truncated or replaced (1 of "
    ) in line
    same_run(TournamentResult(copy), TournamentResult(run))


def _resume_after(capsys, copy: Path) -> str:
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1")
    assert code == 0, err
    return _resume_line(err)


def test_the_command_an_interrupted_module_class_run_prints_continues_it(run, tmp_path):
    """Ctrl-C prints the command that continues the run: for a game given as module:Class it
    could not load the game ('unknown game toy'); as printed, it finishes the run."""
    import shlex

    from tests.helpers import stopped

    out = tmp_path / "cut"
    code, _, err = stopped("tournament", *TOY_RUN, "--out", str(out))
    assert code == 130
    (said,) = [x for x in err.splitlines() if x.startswith("interrupted: ")]
    command = shlex.split(said.split("'")[1])
    assert command[:2] == ["leaves", "tournament"] and "--game" not in command
    code, _, err = cli_output(*command[1:], "--jobs", "1")
    assert code == 0, err
    same_run(TournamentResult(out), TournamentResult(run))


@pytest.fixture(scope="module")
def leaves_runs(tmp_path_factory) -> dict[str, Path]:
    """A small tournament and a small gauntlet of 13 Leaves (whose settings are checked)."""
    folder = tmp_path_factory.mktemp("resume63l")
    common = ["--players", "3", "--games", "60", "--seed", "5", "--jobs", "1"]
    runs = {"tournament": folder / "t", "gauntlet": folder / "g"}
    for args in (["tournament", "greedy", "low", "random", "--no-progress", *common,
                  "--out", str(runs["tournament"])],
                 ["gauntlet", "low", "--against", "random", "--baseline", "greedy", *common,
                  "--out", str(runs["gauntlet"])]):  # fmt: skip
        code, _, err = cli_output(*args)
        assert code == 0, err
    return runs


@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
@pytest.mark.parametrize("value, why", [
    (-5, "game_config cannot make the run's game: turn_limit must be 1..1000000, got -5"),
    ("abc", "game_config.turn_limit is 'abc', expected a whole number"),
])  # fmt: skip
def test_game_settings_the_game_refuses_are_the_manifests_fault(
    leaves_runs, tmp_path, capsys, command, value, why
):
    """A manifest whose game settings the game cannot be built from was refused as bad usage
    (exit 2) in the game's words alone ('the turn limit must be at least 1, got -5'), naming
    neither the run nor its manifest: it is the manifest that is corrupt (exit 1)."""

    def edit(m: dict) -> None:
        m["spec"]["game_config"]["turn_limit"] = value

    copy = copied_run(leaves_runs[command], tmp_path, edit)
    code, _, err = cli(capsys, command, "--resume", "--out", str(copy))
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {copy}: corrupt manifest {copy / 'manifest.json'}: {why}; "
        f"{NO_MANIFEST}"
    )


def test_files_of_chunks_the_run_lacks_are_counted_in_words(run, tmp_path, capsys):
    """It said '1 file(s) of chunks this run does not have removed'."""
    copy = copied_run(run, tmp_path)
    shutil.copy(copy / "chunks" / "chunk-000001.npz", copy / "chunks" / "chunk-000009.npz")
    line = _resume_after(capsys, copy)
    assert line.endswith(", 0 replayed, 1 file of a chunk this run does not have removed")
    for cid in (7, 8):
        shutil.copy(copy / "chunks" / "chunk-000001.npz", copy / "chunks" / f"chunk-00000{cid}.npz")
    line = _resume_after(capsys, copy)
    assert line.endswith(", 0 replayed, 2 files of chunks this run does not have removed")
    same_run(TournamentResult(copy), TournamentResult(run))


def test_verify_of_a_module_class_run_does_not_say_its_resume_waits_for_the_game(tmp_path):
    """Was: verify said a resume waits for "unknown game 'toy'" (the id in ``spec.game``),
    though the resume loads the game again from ``game_spec``."""
    from leaves_cli.verify_cmd import game_missing

    run = tmp_path / "T"
    run.mkdir()
    manifest = {"spec": {"game": "toy"}, "game_spec": "tests.toygame:ToyGame"}
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert game_missing(run) == ""
    (run / "manifest.json").write_text(json.dumps({"spec": {"game": "chess"}}))
    assert "unknown game 'chess'" in game_missing(run)
