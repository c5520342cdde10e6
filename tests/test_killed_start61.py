"""A run killed as it began leaves only temporary files (``.manifest.json.XXXX.tmp``) and its
empty folders: that folder was refused both ways ("is not empty and holds no run" without
--resume, "holds no tournament" with it), so the run could neither start again nor resume.
Such a folder is as good as empty: a run starts there, and --resume says to leave it out."""

from __future__ import annotations

from tests.helpers import cli

RUN = ("greedy", "low", "high", "--players", "3", "--games", "12", "--seed", "3", "--jobs", "1")


def _killed_at_start(out):
    (out / "chunks").mkdir(parents=True)
    (out / ".manifest.json.k2j4.tmp").write_text("{")
    (out / "chunks" / ".chunk-000000.npz.x1.tmp").write_bytes(b"PK")
    (out / ".run.lock").write_text("")


def test_a_folder_a_run_left_as_it_began_takes_the_run_again(tmp_path, capsys):
    out = tmp_path / "r"
    _killed_at_start(out)
    code, _, err = cli(capsys, "tournament", *RUN, "--out", str(out), "--resume")
    assert code == 2 and "leave out --resume to start one there" in err, err
    code, _, err = cli(capsys, "tournament", *RUN, "--out", str(out))
    assert code == 0, err
    assert not list(out.glob(".*.tmp")) and not list((out / "chunks").glob(".*.tmp"))
    assert cli(capsys, "verify", str(out))[0] == 0


def test_a_folder_with_a_file_of_its_own_is_still_refused(tmp_path, capsys):
    out = tmp_path / "r"
    _killed_at_start(out)
    (out / "chunks" / "notes.txt").write_text("mine")
    code, _, err = cli(capsys, "tournament", *RUN, "--out", str(out))
    assert code == 2 and "is not empty" in err, err
