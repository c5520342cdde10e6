"""A gauntlet whose manifest is damaged ('[]', no spec) was told "it holds a tournament
('leaves tournament --resume ...')", advice that fails when followed; a manifest.json that is a
directory was "no run (no manifest.json)". Both are a damaged run: one line, exit 1."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers import cli


@pytest.fixture
def gauntlet(tmp_path, capsys):
    out = tmp_path / "g"
    code, _, err = cli(capsys, "gauntlet", "greedy", "--against", "low", "--players", "3",
                       "--games", "12", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


@pytest.mark.parametrize(
    ("text", "why"),
    [("[]", "the manifest is [], expected a JSON object"),
     ('{"spec": 3}', "spec is 3, expected a table of the run's settings")],
)  # fmt: skip
def test_a_gauntlet_with_a_damaged_manifest_is_not_said_to_hold_a_tournament(gauntlet, capsys,
                                                                              text, why):  # fmt: skip
    (gauntlet / "manifest.json").write_text(text)
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(gauntlet))
    assert code == 1 and err.count("\n") == 1, err
    where = gauntlet / "manifest.json"  # named, as the tournament's resume names it
    assert f"cannot resume {gauntlet}: corrupt manifest {where}: {why}" in err
    assert "holds a tournament" not in err


@pytest.mark.parametrize("command", ["gauntlet", "tournament"])
def test_a_directory_in_place_of_the_manifest_is_a_damaged_run_not_none(gauntlet, capsys,
                                                                        command):  # fmt: skip
    manifest = gauntlet / "manifest.json"
    manifest.unlink()
    manifest.mkdir()
    code, _, err = cli(capsys, command, "--resume", "--out", str(gauntlet))
    assert code == 1 and "is a directory" in err and "no manifest.json)" not in err, err
    shutil.rmtree(manifest)


def test_a_resume_beside_a_stray_row_file_names_it_before_the_report(tmp_path, capsys):
    """The resume said every chunk verified and 'next: leaves report R', which then refused the
    run for a Parquet file not its own under games/: the next step names it to remove first."""
    out = tmp_path / "R"
    args = ("tournament", "greedy", "low", "high", "--players", "3", "--games", "60", "--seed",
            "7", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert cli(capsys, *args)[0] == 0
    (out / "games" / "sub").mkdir()
    shutil.copy(out / "games" / "part-000000.parquet", out / "games" / "sub" / "x.parquet")
    code, said, err = cli(capsys, "tournament", "--resume", "--out", str(out))
    assert code == 0, err
    stray = out / "games" / "sub" / "x.parquet"
    assert f"warning: {stray}: not a part of this run: " in said, said
    assert f"next: 'leaves report {out}' writes its report" in said
    assert cli(capsys, "report", str(out))[0] == 0  # it reads the parts the manifest records
    stray.unlink()
    code, said, _ = cli(capsys, "tournament", "--resume", "--out", str(out))
    assert code == 0 and f"next: 'leaves report {out}' writes its report" in said
