"""Damaged runs, second pass: a manifest damaged past telling whose it is, a progress field
of the wrong kind, a gauntlet's part of the manifest read through the Python API, an older
run's damaged row parts, a replay that needs only the rows, and the records a resume writes
elsewhere. Each is named in one line, by every reader alike."""

from __future__ import annotations

import json
import shutil

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from tournaments import load

from .helpers import cli, cli_output, copied_run, forfeiting_run, one_error_line


@pytest.fixture(scope="module")
def ligretto(tmp_path_factory):
    """A finished 2-player Ligretto run of 40 rounds in 4 chunks, its records beside it."""
    where = tmp_path_factory.mktemp("damage62b")
    return forfeiting_run(where / "run", "--chunk-size", "10", "--record",
                          str(where / "run.jsonl"))  # fmt: skip


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory):
    out = tmp_path_factory.mktemp("gauntlet62b") / "g"
    code, _, err = cli_output("gauntlet", "greedy", "--against", "low", "--baseline", "high",
                              "--players", "3", "--games", "12", "--seed", "1", "--jobs", "1",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _copy(run, tmp_path, edit=None):
    return copied_run(run, tmp_path, edit, "run")


def test_a_runs_manifest_damaged_to_a_stray_table_is_named_by_report_and_compare(
    ligretto, tmp_path, capsys
):
    """A Ligretto run whose manifest became '{"a": 1}': 'leaves report' said "games table
    lacks the pinned column(s) of 13 Leaves: turns, rounds" (a game nobody played), taking
    it for another tool's run. Its folder holds what only the runner writes (chunks/), so
    the manifest is the runner's, damaged: named as 'leaves verify' names it."""
    bad = _copy(ligretto, tmp_path)
    (bad / "manifest.json").write_text('{"a": 1}')
    why = "spec is missing, expected a table of the run's settings"
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {bad / 'manifest.json'}: {why}" in out
    for args in (["report", str(bad), "--out", str(tmp_path / "rep")],
                 ["compare", str(bad), str(ligretto)]):  # fmt: skip
        code, _, err = cli(capsys, *args)
        line = one_error_line(err)
        assert code == 1 and "13 Leaves" not in line, line
        assert line.startswith(f"leaves: error: corrupt manifest {bad / 'manifest.json'}: {why}")


def _units_done_abc(manifest):
    manifest["units_done"] = "abc"
    manifest["status"] = "interrupted"


@pytest.mark.parametrize("command", ["verify", "report"])
def test_progress_of_the_wrong_kind_is_named(ligretto, tmp_path, capsys, command):
    """``"units_done": "abc"``: 'leaves report' said "invalid literal for int() with base 10:
    'abc'" and 'leaves verify' said ok. Every field the runner writes is checked for its
    kind when the manifest is read (``manifest_fields``): both name the field."""
    bad = _copy(ligretto, tmp_path, _units_done_abc)
    args = ["verify", str(bad)] if command == "verify" else ["report", str(bad), "--out",
                                                              str(tmp_path / "rep")]  # fmt: skip
    code, _, err = cli(capsys, *args)
    line = one_error_line(err)
    assert code == 1 and "invalid literal" not in line, line
    assert "units_done is 'abc', expected a whole number of at least 0" in line, line
    assert str(bad) in line


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [("units_done", "abc", "a whole number of at least 0"),
     ("n_chunks_done", -1, "a whole number of at least 0"),
     ("wall_time_s", "long", "a number of seconds of at least 0"),
     ("sessions", {"a": 1}, "a list of tables (one per session), each one's versions a table where it has them"),
     ("game_declaration", [1], "a table"),
     ("format", 3, "a format's name")],
)  # fmt: skip
def test_each_top_field_of_the_wrong_kind_is_named_by_the_python_api(
    ligretto, tmp_path, field, value, expected
):
    bad = _copy(ligretto, tmp_path, lambda m: m.update({field: value}))
    with pytest.raises(ValueError) as exc:
        load(bad)
    assert str(exc.value) == (f"corrupt manifest {bad / 'manifest.json'}: {field} is "
                              f"{value!r}, expected {expected}")  # fmt: skip


def test_a_synthetic_runs_manifest_still_reads(tmp_path):
    """Another tool's manifest (``reports.synthetic``: no spec, ``chunks_done`` a count) is
    checked only for what it holds, as before."""
    import reports
    from reports.synthetic import synthetic_games, write_run

    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=5, seed=1)
    out = write_run(tmp_path / "syn", games)
    assert len(reports.load_run(out).games) == len(games)


def _gauntlet_copy(gauntlet, tmp_path, edit):
    bad = tmp_path / "g"
    shutil.copytree(gauntlet, bad)
    manifest = json.loads((bad / "manifest.json").read_text())
    edit(manifest["spec"]["gauntlet"])
    (bad / "manifest.json").write_text(json.dumps(manifest))
    return bad


@pytest.mark.parametrize(
    ("edit", "why"),
    [(lambda g: g.pop("strategy"),
      "spec.gauntlet.strategy is missing, expected one of the run's strategies"),
     (lambda g: g.update(field=["nobody"]),
      "spec.gauntlet.field is ['nobody'], expected a list of the run's strategies")],
)  # fmt: skip
def test_a_gauntlets_damaged_part_is_named_by_the_python_api(gauntlet, tmp_path, edit, why):
    """``load(g).strategy`` raised "KeyError: 'strategy'": only the command line checked the
    gauntlet's part of the manifest. Now ``load`` names it, as every command does."""
    bad = _gauntlet_copy(gauntlet, tmp_path, edit)
    with pytest.raises(ValueError) as exc:
        load(bad).strategy  # noqa: B018 - the read that failed
    assert str(exc.value) == f"corrupt manifest {bad / 'manifest.json'}: {why}"


def test_a_gauntlets_test_settings_are_needed_only_to_resume(gauntlet, tmp_path, capsys):
    bad = _gauntlet_copy(gauntlet, tmp_path, lambda g: g.update(sequential={"margin": 2.0}))
    assert load(bad).summary() is not None
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(bad))
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: "
        "spec.gauntlet.sequential is {'margin': 2.0}, expected a table of margin, alpha, beta "
        f"and max_games; {NO_MANIFEST}"
    )


@pytest.mark.parametrize("command", ["gauntlet", "tournament"])
def test_a_resume_of_a_manifest_of_the_wrong_shape_names_the_file(
    gauntlet, tmp_path, capsys, command
):
    """The gauntlet's resume said "cannot resume G: corrupt manifest: the manifest is [],
    ..." naming no file, where the tournament's named it: now both do, in one wording."""
    bad = tmp_path / "g"
    shutil.copytree(gauntlet, bad)
    (bad / "manifest.json").write_text("[]")
    code, _, err = cli(capsys, command, "--resume", "--out", str(bad))
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: the "
        f"manifest is [], expected a JSON object; {NO_MANIFEST}"
    )


@pytest.fixture(scope="module")
def older(tmp_path_factory):
    """A finished 13 Leaves run of 24 games in 4 chunks, as a version that kept no checksums
    wrote its manifest."""
    out = tmp_path_factory.mktemp("older62b") / "run"
    code, _, err = cli_output("tournament", "greedy", "low", "high", "--players", "3", "--games",
                              "24", "--chunk-size", "6", "--seed", "1", "--jobs", "1", "--out",
                              str(out))  # fmt: skip
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.pop("integrity")
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


def _part_a_directory(path):
    path.unlink()
    path.mkdir()


OLDER_PARTS = {
    "a directory": (_part_a_directory,
                    "a directory where the run's file belongs (no resume writes over it); "
                    "remove it, then "),
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[:100]),
                  "not a Parquet part as a run writes them; "),
    "emptied": (lambda p: p.write_bytes(b""), "not a Parquet part as a run writes them; "),
}  # fmt: skip


@pytest.mark.parametrize("how", OLDER_PARTS)
def test_an_older_runs_damaged_row_part_is_named_in_one_line(older, tmp_path, how):
    """No checksums to check a part against: a directory named like a part was skipped, and
    ``games()`` returned 18 of the run's 24 rows, silently; a truncated part raised Arrow's
    "ArrowInvalid: Could not open Parquet input source ...". Now ``DamagedFile`` names it."""
    bad = _copy(older, tmp_path)
    part = bad / "games" / "part-000002.parquet"
    damage, why = OLDER_PARTS[how]
    damage(part)
    with pytest.raises(OSError) as exc:
        load(bad).games()
    assert str(exc.value) == (f"{part} is bad: {why}'leaves tournament --resume --out {bad}' "
                              "plays its chunk again")  # fmt: skip
    assert len(load(older).games()) == 24


def test_a_replay_needs_only_the_rows(ligretto, tmp_path, capsys):
    """Only aggregates.npz damaged: 'leaves replay RUN --game 3' refused, though a replay
    reads the rows alone; now it replays, and the report, which reads the aggregates, still
    refuses."""
    from leaves_cli.errors import CLIError
    from leaves_cli.report_cmd import check_parts

    bad = _copy(ligretto, tmp_path)
    merged = bad / "aggregates.npz"
    merged.write_bytes(merged.read_bytes()[:100])
    check_parts(bad, rows_only=True)  # the replay's check: nothing said against the rows
    with pytest.raises(CLIError, match="aggregates.npz is bad: truncated or replaced"):
        check_parts(bad)
    said = [cli(capsys, "replay", str(bad), "--game", str(g)) for g in range(8)]
    assert not any("aggregates" in err for _, _, err in said)
    assert any(code == 0 and out.startswith("Round ") for code, out, _ in said)  # unforfeited
    part = bad / "games" / "part-000001.parquet"
    part.write_bytes(part.read_bytes()[:100])
    with pytest.raises(CLIError, match="part-000001.parquet is bad: truncated or replaced"):
        check_parts(bad, rows_only=True)


def test_records_asked_elsewhere_are_not_said_to_be_rewritten_where_they_were(
    ligretto, tmp_path, capsys
):
    """``--record NEW`` on a resume of a run whose records are damaged, their folder still
    there: the resume said 'the records OLD rewritten from the chunks at the end', and wrote
    NEW, leaving OLD as it was."""
    bad = _copy(ligretto, tmp_path)
    old = ligretto.parent / "run.jsonl"
    shutil.copy(old, tmp_path / "old.jsonl")
    manifest = json.loads((bad / "manifest.json").read_text())
    manifest["record_file"] = str(tmp_path / "old.jsonl")
    manifest["integrity"]["record_file"]["path"] = manifest["record_file"]
    manifest["integrity"]["record_file"]["beside"] = "../old.jsonl"
    (bad / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "old.jsonl").write_bytes(b"")
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {tmp_path / 'old.jsonl'}: truncated or replaced" in out
    new = tmp_path / "new.jsonl"
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(bad), "--jobs", "1",
                       "--record", str(new))  # fmt: skip
    assert code == 0, err
    assert "resume: 4 of 4 chunks verified, 0 replayed\n" in err, err
    assert new.read_bytes() == old.read_bytes()
    assert (tmp_path / "old.jsonl").read_bytes() == b""
    assert cli(capsys, "verify", str(bad))[0] == 0


def test_a_directory_named_as_the_records_is_refused_before_anything_is_played(tmp_path):
    """``Tournament(record=DIR)`` played every chunk, then refused at the end: now the
    tournament itself refuses, and no run folder is made."""
    from tournaments import Tournament

    records = tmp_path / "records.jsonl"
    records.mkdir()
    with pytest.raises(ValueError) as exc:
        Tournament(["greedy", "low", "high"], players=3, games=24, seed=1, record=records)
    assert str(exc.value) == (f"record {records} is not a regular file but a directory: name "
                              "a file")  # fmt: skip  # as --record says it, never "remove it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.jsonl"]
