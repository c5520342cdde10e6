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
    assert f"cannot resume {gauntlet}: corrupt manifest: {why}" in err
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
