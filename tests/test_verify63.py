"""Run verification split into modules of one job each (every name still importable from
``tournaments.verify``), a run opened without a check that costs a call per table, and the
words of ``leaves verify`` at its edges: a run's folder that lost its manifest, and a
manifest that records a chunk the run does not have."""

from __future__ import annotations

import ast
import itertools
import sys
from pathlib import Path

import pytest

from tests.helpers import cli, copied_run, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament, storage
from tournaments.games import game_names
from tournaments.manifest_fields import check_manifest

ROOT = Path(__file__).resolve().parents[1]
TOY_ARGS = ["a", "p1", "p2", "--game", "tests.toygame:ToyGame", "--players", "3", "--games",
            "120", "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks)."""
    out = tmp_path_factory.mktemp("verify63") / "run"
    Tournament(["a", "p1", "p2"], players=3, games=120, seed=3, chunk_size=30,
               game=ToyGame()).run(out=out)  # fmt: skip
    return out


# ------------------------------------------------------------------ the split


def _names_imported_from_verify() -> set[str]:
    """Every name the project imports from ``tournaments.verify`` (``from ... import X``) or
    reads from it as ``verify.X`` in the tournaments package."""
    names: set[str] = set()
    for folder in ("tournaments", "reports", "tuning", "leaves_cli", "benchmarks", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "verify" not in text:  # no such import or name: no tree to walk
                continue
            tree = ast.parse(text)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (
                    node.module == "tournaments.verify"
                    or (node.module == "verify" and node.level == 1 and folder == "tournaments")
                ):
                    names.update(alias.name for alias in node.names)
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "verify" and folder == "tournaments"):  # fmt: skip
                    names.add(node.attr)
    return names


def test_every_name_imported_from_verify_is_still_there():
    import tournaments.verify as verify

    names = _names_imported_from_verify()
    assert {"verify_run", "DamagedFile", "record_location", "integrity"} <= names
    missing = sorted(n for n in names if not hasattr(verify, n))
    assert not missing, missing
    assert set(verify.__all__) <= set(dir(verify))


def test_each_name_has_one_source():
    """The names ``tournaments.verify`` gives are its modules' own objects, not copies."""
    import tournaments.verify as verify
    from tournaments import checked_files, checksums, problems, record_check

    for module in (checked_files, checksums, problems, record_check):
        for name in module.__all__:
            if hasattr(verify, name):
                assert getattr(verify, name) is getattr(module, name), name


# ------------------------------------------------------------------ opening a run


def _manifest(n_strategies: int, seats: int) -> dict:
    """The fields of a runner's manifest that grow with the number of tables: every table of
    ``seats`` of ``n_strategies``, one deal stream (and one chunk) per table."""
    labels = [f"s{i}" for i in range(n_strategies)]
    tables = [list(t) for t in itertools.combinations(range(n_strategies), seats)]
    spec = {"strategies": labels, "players": [seats], "deal_streams": list(range(len(tables))),
            "n_chunks": len(tables), "seed": 1, "deal_stages": [1]}  # fmt: skip
    return {"format": storage.FORMAT, "spec": spec, "seed": 1, "labels": labels,
            "tables": tables}  # fmt: skip


def _python_calls(manifest: dict) -> int:
    """How many Python functions (lambdas and generators included) checking ``manifest``
    calls."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        check_manifest(manifest)
    finally:
        sys.setprofile(None)
    return calls


def test_the_manifest_check_makes_no_call_per_table():
    """Opening a run checks its manifest: at 24 strategies and 6 seats (134,596 tables) a
    call per table and per seat cost more than reading the manifest. The check's calls do
    not grow with the tables."""
    small, large = _manifest(16, 2), _manifest(16, 5)  # 120 and 4,368 tables
    assert len(large["tables"]) > 25 * len(small["tables"])
    assert _python_calls(large) == _python_calls(small)


class _Count(int):
    """An int of another type: a whole number all the same."""


GOOD = [[], [[]], [[0, 1, 2]], [[0, 1], [2]], [[_Count(1), 0]]]
BAD_TABLES = [[[0, True]], [[0, -1]], [[0, 1.0]], [[0, "1"]], [[0], 5], "x", [[0, None]],
              [(0, 1)], {"0": [0]}]  # fmt: skip


@pytest.mark.parametrize("tables", GOOD)
def test_tables_of_entrant_numbers_pass(tables):
    check_manifest({"spec": {"strategies": ["a", "b", "c"]}, "tables": tables})


@pytest.mark.parametrize("tables", BAD_TABLES)
def test_a_table_of_anything_but_entrant_numbers_is_named(tables):
    with pytest.raises(ValueError) as exc:
        check_manifest({"spec": {"strategies": ["a", "b", "c"]}, "tables": tables})
    assert str(exc.value) == (f"tables is {tables!r}, expected a list of tables (lists of "
                              "entrant numbers)")  # fmt: skip


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("deal_streams", [0, False], "a list of deal streams (whole numbers)"),
    ("deal_streams", [0, -1], "a list of deal streams (whole numbers)"),
    ("deal_stages", [2, 2.5], "a list of deal counts (whole numbers)"),
    ("players", [], "a list of player counts (whole numbers)"),
    ("players", [3, 0], "a list of player counts (whole numbers)"),
    ("players", 3, "a list of player counts (whole numbers)"),
])  # fmt: skip
def test_a_list_of_anything_but_whole_numbers_is_named(key, value, expected):
    with pytest.raises(ValueError) as exc:
        check_manifest({"spec": {key: value}})
    assert str(exc.value) == f"spec.{key} is {value!r}, expected {expected}"


def test_lists_of_whole_numbers_pass():
    check_manifest({"spec": {"deal_streams": [], "deal_stages": [0, _Count(4)],
                             "players": [3, 4]}})  # fmt: skip


def test_an_entrant_beyond_the_strategies_is_named_at_its_first_table():
    manifest = {"spec": {"strategies": ["a", "b", "c"]}, "tables": [[0, 1], [0, 5], [2, 7]]}
    with pytest.raises(ValueError) as exc:
        check_manifest(manifest)
    assert str(exc.value) == ("tables holds [0, 5], expected entrant numbers below 3 (the "
                              "run's strategies)")  # fmt: skip


# ------------------------------------------------------------------ leaves verify


def test_a_run_folder_that_lost_its_manifest_is_named_so(run, tmp_path, capsys):
    """It said 'holds no run': the folder holds the run's files, the manifest is what is
    missing, and without it nothing resumes the run."""
    lost = copied_run(run, tmp_path)
    (lost / "manifest.json").unlink()
    code, _, err = cli(capsys, "verify", str(lost))
    line = one_error_line(err)
    assert code == 2
    assert line == (f"leaves: error: {lost} holds a run's files but not its manifest.json "
                    "(missing): nothing vouches for them; the run cannot be resumed or grown "
                    "without it: restore it, or play the run again into a new --out (the same "
                    "options and seed give the same results)")  # fmt: skip
    begun = tmp_path / "begun"  # what a run killed as it began leaves: a new run may go there
    (begun / "chunks").mkdir(parents=True)
    (begun / "chunks" / ".chunk-000000.npz.x1.tmp").write_bytes(b"")
    for folder in (tmp_path / "empty", begun):
        folder.mkdir(exist_ok=True)
        code, _, err = cli(capsys, "verify", str(folder))
        assert code == 2
        assert one_error_line(err) == f"leaves: error: {folder} holds no run (no manifest.json)"


def test_a_recorded_chunk_the_run_does_not_have_is_the_manifests(run, tmp_path, capsys):
    """It printed 'bad: RUN/chunk 9: the run has no such chunk', a path that is no file: the
    manifest's entry is what is wrong; the resume it advises mends it."""

    def phantom(manifest):
        manifest["integrity"]["chunks"]["9"] = manifest["integrity"]["chunks"]["1"]

    bad = copied_run(run, tmp_path, phantom)
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1
    assert out == (f"bad: {bad / 'manifest.json'}: records chunk 9, which the run does not "
                   "have (its chunks are 0 to 3)\n")  # fmt: skip
    assert one_error_line(err).startswith(f"leaves: error: 1 bad file(s) in {bad}: ")
    code, _, err = cli(capsys, "tournament", *TOY_ARGS, "--out", str(bad), "--resume")
    assert code == 0, err
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 0 and out.startswith("ok: 4 of 4 chunks verified"), err


def _of_a_game_not_installed(manifest):
    """A run played where a game is installed as 'chess': it records that id to load it by."""
    manifest["spec"]["game"] = manifest["game_spec"] = "chess"


def test_a_run_of_a_game_not_installed_here_is_resumed_once_it_is(run, tmp_path, capsys):
    """The advice was a resume, which this installation refuses (it cannot load the run's
    game): the words say what the resume waits for, as the resume itself does."""
    bad = copied_run(run, tmp_path, _of_a_game_not_installed)
    (bad / "games" / "part-000001.parquet").unlink()
    code, _, err = cli(capsys, "verify", str(bad))
    why = "unknown game 'chess' (installed: "
    assert code == 1
    assert (f"'leaves tournament --out {bad} --resume' replays it once this installation can "
            f"load the run's game: {why}") in one_error_line(err)  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1 and why in one_error_line(err)


def test_an_unfinished_run_of_a_game_not_installed_here_says_so(run, tmp_path, capsys):
    def unfinished(manifest):
        _of_a_game_not_installed(manifest)
        manifest["status"] = "interrupted"
        del manifest["integrity"]["chunks"]["3"], manifest["integrity"]["files"]

    cut = copied_run(run, tmp_path, unfinished)
    code, out, err = cli(capsys, "verify", str(cut))
    assert code == 0, err
    assert out == ("ok: 3 of 4 chunks verified (6 files; contents not read: --deep reads them); "
                   "run unfinished (--resume finishes it "
                   "once this installation can load the run's game: unknown game 'chess' "
                   f"(installed: {', '.join(game_names())}))\n")  # fmt: skip

    def loadable(manifest):
        manifest.update(status="interrupted")
        manifest["spec"]["game"] = "tests.toygame:ToyGame"

    ours = copied_run(run, tmp_path, loadable, name="ours")
    code, out, err = cli(capsys, "verify", str(ours))
    assert code == 0 and out.endswith("; run unfinished (--resume finishes it)\n"), err


def test_a_run_without_checksums_is_not_called_a_bad_file(run, tmp_path, capsys):
    """An older version's manifest records no checksums: it said '1 bad file(s)', listing
    the manifest, which is whole; nothing can be told of the files. The resume it advises
    replays every chunk and records them, then every file checks out."""

    def older(manifest):
        del manifest["integrity"]

    old = copied_run(run, tmp_path, older)
    code, out, err = cli(capsys, "verify", str(old))
    assert code == 1 and out == ""
    assert one_error_line(err).startswith(
        f"leaves: error: {old} cannot be verified: its manifest records no checksums (an older "
        f"version wrote it; a resume records them); 'leaves tournament --out {old} --resume' "
        "replays every chunk")  # fmt: skip
    code, _, err = cli(capsys, "tournament", *TOY_ARGS, "--out", str(old), "--resume")
    assert code == 0, err
    code, out, err = cli(capsys, "verify", str(old))
    assert code == 0 and out.startswith(
        "ok: 4 of 4 chunks verified (10 files; contents not read: --deep reads them); run complete"
    )


def test_a_file_bad_in_several_ways_counts_once(run, tmp_path, capsys):
    """A manifest recording two chunks the run does not have and a malformed one is one bad
    file, listed once per fault; it was counted as three."""

    def three_faults(manifest):
        chunks = manifest["integrity"]["chunks"]
        chunks["7"], chunks["8"], chunks["2"] = chunks["0"], chunks["1"], "junk"

    bad = copied_run(run, tmp_path, three_faults)
    code, out, err = cli(capsys, "verify", str(bad))
    assert code == 1
    assert out == (
        f"bad: {bad / 'manifest.json'}: the checksums of chunk 2 are malformed: 'junk', not a "
        f"table\nbad: {bad / 'manifest.json'}: records chunk 7, which the run does not have "
        f"(its chunks are 0 to 3)\nbad: {bad / 'manifest.json'}: records chunk 8, which the "
        "run does not have (its chunks are 0 to 3)\n")  # fmt: skip
    assert one_error_line(err).startswith(f"leaves: error: 1 bad file(s) in {bad}: ")


def test_damaged_records_of_a_module_class_game_are_written_again_by_the_resume_verify_names(
    tmp_path, capsys
):
    """The toy game is no installed game ('toy' names none), but its run records how to load
    it (``game_spec``, module:Class): the resume verify advises writes the records again (it
    said the resume waited for "unknown game 'toy'", which a resume of the run no longer
    does)."""
    out = tmp_path / "run"
    Tournament(["a", "p1", "p2"], players=3, games=30, seed=3, chunk_size=30, game=ToyGame(),
               record=tmp_path / "rec.jsonl").run(out=out)  # fmt: skip
    (tmp_path / "rec.jsonl").write_text("{}\n")
    code, _, err = cli(capsys, "verify", str(out))
    assert code == 1
    assert one_error_line(err).endswith(
        f"'leaves tournament --out {out} --resume' writes it again from the run's chunks "
        f"({tmp_path / 'rec.jsonl'})"
    )
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume")
    assert code == 0, err
    assert cli(capsys, "verify", str(out))[0] == 0


def test_verify_runs_no_code_the_manifest_names(run, tmp_path, capsys, monkeypatch):
    """Whether the run's game loads is asked of the installed plug-ins only: a game given as
    ``module:Class`` is code, which checking a run's files never runs."""
    (tmp_path / "verify63_marker_game.py").write_text(
        "from pathlib import Path\nPath(__file__).with_suffix('.ran').write_text('ran')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    def elsewhere(manifest):
        manifest["spec"]["game"] = "verify63_marker_game:Game"
        manifest["status"] = "interrupted"

    cut = copied_run(run, tmp_path, elsewhere)
    (cut / "games" / "part-000001.parquet").unlink()
    code, _, err = cli(capsys, "verify", str(cut))
    assert code == 1 and one_error_line(err).endswith(f"--out {cut} --resume' replays it")
    assert not (tmp_path / "verify63_marker_game.ran").exists()
