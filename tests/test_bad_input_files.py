"""Outputs that cannot be written are refused in one line before anything is played or
computed, never a bare ``[Errno 30]`` after the work: ``leaves report``, ``leaves tune --out``,
``leaves play --save`` (a game played to its end would be lost) and ``--record``."""

from __future__ import annotations

import errno
import os

import pytest

import leaves_cli.writable
from leaves_cli import main

from .helpers import cli, one_error_line

THREE = ["greedy", "low", "high"]


def _run(capsys, *args):
    return cli(capsys, *(str(a) for a in args))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("files") / "run"
    try:
        main(["tournament", *THREE, "--players", "3", "--games", "6", "--seed", "1", "--jobs", "1",
              "--out", str(out)])  # fmt: skip
    except SystemExit as exc:
        assert exc.code in (0, None)
    return out


@pytest.fixture
def read_only(monkeypatch):
    """Every folder refuses new files, as on a read-only filesystem (the suite may run as
    root, for whom a folder without write permission takes files anyway)."""

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(leaves_cli.writable.tempfile, "mkstemp", refuse)


def _commands(run, tmp_path):
    return {
        "report": ["report", run, "--out", tmp_path / "report"],
        "tune": ["tune", "taker", "--against", "low", "--players", "3", "--out", tmp_path / "tune"],
        "tournament": [
            "tournament",
            *THREE,
            "--players",
            "3",
            "--games",
            "6",
            "--jobs",
            "1",
            "--out",
            tmp_path / "t",
        ],  # fmt: skip
        "play": ["play", "--save", tmp_path / "games.jsonl"],
    }


@pytest.mark.parametrize("command", ["report", "tune", "tournament", "play"])
def test_a_read_only_folder_is_one_line_before_the_work(run, tmp_path, capsys, read_only, command):
    args = _commands(run, tmp_path)[command]
    target = args[-1]
    code, out, err = _run(capsys, *args)
    line = one_error_line(err)
    assert code == 1
    where = {"report": "", "tune": "", "tournament": "", "play": " (--save)"}[command]
    assert line == f"leaves: error: cannot write to {target}: Read-only file system{where}" or (
        line.startswith(f"leaves: error: cannot write to {target}: Read-only file system (in ")
    ), line
    assert not target.exists() and out == ""  # nothing written, nothing played or printed


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
@pytest.mark.parametrize("command", ["report", "tune", "tournament", "play"])
def test_a_folder_without_write_permission_isone_error_line(run, tmp_path, capsys, command):
    ro = tmp_path / "ro"
    ro.mkdir()
    args = _commands(run, ro)[command]
    ro.chmod(0o500)
    try:
        code, _, err = _run(capsys, *args)
    finally:
        ro.chmod(0o700)
    assert code == 1 and "Permission denied" in one_error_line(err)


def test_play_checks_save_before_the_game_starts(tmp_path, capsys, monkeypatch):
    import leaves.commands.play as play_cmd

    class Played(BaseException):  # not caught by main (it maps every Exception to a line)
        pass

    def play_game(*args, **kwargs):
        raise Played

    monkeypatch.setattr(play_cmd, "play_game", play_game)
    (tmp_path / "afile").write_text("x")
    for save, words in (
        (tmp_path / "nodir" / "g.jsonl", f"the folder {tmp_path / 'nodir'} does not exist"),
        (tmp_path / "afile" / "g.jsonl", f"the folder {tmp_path / 'afile'} is a file"),
    ):
        code, out, err = _run(capsys, "play", "--seed", "1", "--save", save)
        assert code == 2 and one_error_line(err) == f"leaves: error: --save {save}: {words}"
        assert out == "" and not save.parent.is_dir()
    with pytest.raises(Played):  # a good path: the game starts (the check above came first)
        main(["play", "--seed", "1", "--save", str(tmp_path / "g.jsonl")])
    assert not (tmp_path / "g.jsonl").exists()  # the check wrote nothing


def test_an_existing_save_file_is_appended_to_not_changed_by_the_check(tmp_path, capsys):
    from leaves_cli.writable import check_file_writable

    saved = tmp_path / "g.jsonl"
    saved.write_text('{"a": 1}\n')
    check_file_writable(saved, "--save")
    assert saved.read_text() == '{"a": 1}\n'


def test_record_into_a_missing_folder_creates_nothing(tmp_path, capsys):
    record = tmp_path / "missing" / "deeper" / "x.jsonl"
    code, _, err = _run(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                        "--jobs", "1", "--out", tmp_path / "t", "--record", record)  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: --record {record}: the folder {record.parent} does not exist"
    )
    assert not (tmp_path / "missing").exists() and not (tmp_path / "t").exists()


def test_record_inside_the_new_out_folder_is_the_runs_own_folder(tmp_path, capsys):
    out = tmp_path / "t"
    code, _, err = _run(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                        "--jobs", "1", "--out", out, "--record", out / "records.jsonl")  # fmt: skip
    assert code == 0, err
    assert len((out / "records.jsonl").read_text().splitlines()) == 6
