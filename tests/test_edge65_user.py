"""A user's strategy file or module that exits, or fails with a message of several lines, is
one line and a non-zero exit from every caller of the loaders (a spec, ``--load``, the
library), and leaves no half-loaded module behind; a run's ``record`` file that is no regular
file is refused by the library before any game, never replaced; ``leaves play --save`` says
such a file in the words of every command's file option. No real device is touched: a named
pipe made here stands for one, read as a device where ``stat`` is told so."""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from leaves_cli.errors import CLIError
from tests.helpers import cli, one_error_line

THREE = ["greedy", "low", "high"]
NO_PIPES = not hasattr(os, "mkfifo")
EXITS = "exited while it was loaded (SystemExit(3)): a strategy file must not exit"


def _user_modules() -> set[str]:
    from strategies.user_code import USER_MODULE

    return {name for name in sys.modules if name.startswith(USER_MODULE)}


# ----------------------------------------------------------------------------- a user's code
def test_a_spec_s_file_that_exits_is_one_line_and_exit_2(capsys, tmp_path):
    """Was: 'leaves tournament exits.py:Mine ...' ended with exit 3 and not a word."""
    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(3)\n")
    out = tmp_path / "run"
    before = _user_modules()
    code, stdout, err = cli(capsys, "tournament", f"{path}:Mine", *THREE[:2], "--players", "3",
                            "--games", "6", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 2 and one_error_line(err) == f"leaves: error: {path} {EXITS}"
    assert stdout == "" and not out.exists()
    assert _user_modules() == before  # the half-loaded module is not left behind


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("import sys\nsys.exit()\n", "exited while it was loaded (SystemExit(None))"),
        ("raise SystemExit('bye\\nnow')\n", "exited while it was loaded (SystemExit('bye\\nnow'))"),
        ("raise RuntimeError('boom\\n\\nand more\\n')\n", "RuntimeError: boom and more"),
        ("raise RuntimeError()\n", "RuntimeError"),
    ],
)
def test_the_file_loader_says_an_exit_or_an_error_in_one_line(tmp_path, text, said):
    """Was: SystemExit passed through the loader (a library caller ended with the file's
    code); an error of several lines was several lines; 'RuntimeError: ' of none."""
    from strategies.user_code import load_file

    path = tmp_path / "mine.py"
    path.write_text(text)
    before = _user_modules()
    with pytest.raises(ValueError) as caught:
        load_file(str(path))
    message = str(caught.value)
    if "exited" in said:
        said += ": a strategy file must not exit"
    assert "\n" not in message and message.endswith(said), message
    assert str(path) in message
    assert _user_modules() == before


def test_a_file_that_exits_is_run_again_when_loaded_again(tmp_path):
    """The module of a file that exited is forgotten: loaded again (mended), it runs anew."""
    from strategies.user_code import load_file

    path = tmp_path / "again.py"
    path.write_text("import sys\nsys.exit(3)\n")
    with pytest.raises(ValueError, match="exited while it was loaded"):
        load_file(str(path))
    path.write_text("ANSWER = 42\n")
    assert load_file(str(path)).ANSWER == 42


def test_ctrl_c_in_a_user_s_file_still_stops_and_leaves_no_module(tmp_path):
    from strategies.user_code import load_file

    path = tmp_path / "stops.py"
    path.write_text("raise KeyboardInterrupt\n")
    before = _user_modules()
    with pytest.raises(KeyboardInterrupt):
        load_file(str(path))
    assert _user_modules() == before


def test_a_module_that_exits_as_it_is_imported_is_one_line(tmp_path, monkeypatch):
    """Was: 'package.module:Class' of a module calling sys.exit(3) ended the caller."""
    from strategies.user_code import load_class

    package = tmp_path / "edgeuserpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "quits.py").write_text("import sys\nsys.exit(3)\n")
    (package / "fails.py").write_text("raise ValueError('one\\ntwo')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError) as caught:
        load_class("edgeuserpkg.quits", "Mine")
    assert str(caught.value) == f"cannot import module 'edgeuserpkg.quits': {EXITS}"
    with pytest.raises(ValueError) as caught:
        load_class("edgeuserpkg.fails", "Mine")
    assert str(caught.value) == "cannot import module 'edgeuserpkg.fails': ValueError: one two"
    assert "edgeuserpkg.quits" not in sys.modules and "edgeuserpkg.fails" not in sys.modules


# ----------------------------------------------------------------------------- a run's record
def _tournament(record: Path):
    import tournaments

    return tournaments.Tournament(THREE, 3, 6, seed=1, record=record)


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_the_library_refuses_a_record_into_a_named_pipe_before_playing(tmp_path):
    """Was: the run played, and its records, written whole, replaced the pipe with a file."""
    pipe, out = tmp_path / "pipe", tmp_path / "run"
    os.mkfifo(pipe)
    with pytest.raises(ValueError) as caught:
        _tournament(pipe).run(out=out)
    assert str(caught.value) == f"record {pipe} is not a regular file but a named pipe: name a file"
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)  # neither replaced nor opened
    assert not any(p.is_file() for p in out.rglob("*"))  # no game played, nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # refused as it was made


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_the_library_refuses_a_record_onto_a_device_before_playing(tmp_path, monkeypatch):
    """Was: record='/dev/null' replaced the device with a regular file when run as root. A
    named pipe read as a device by ``stat`` stands for one here: no device is touched."""
    pipe, out = tmp_path / "null", tmp_path / "run"
    os.mkfifo(pipe)
    is_fifo = stat.S_ISFIFO
    monkeypatch.setattr(stat, "S_ISCHR", is_fifo)  # this pipe reads as a character device
    monkeypatch.setattr(stat, "S_ISFIFO", lambda mode: False)
    with pytest.raises(ValueError) as caught:
        _tournament(pipe).run(out=out)
    assert str(caught.value) == f"record {pipe} is not a regular file but a device: name a file"
    assert is_fifo(os.stat(pipe).st_mode)
    assert not any(p.is_file() for p in out.rglob("*"))


def test_a_record_that_is_a_regular_file_is_written_over(tmp_path):
    record = tmp_path / "games.jsonl"
    record.write_text("old\n")
    _tournament(record).run(out=tmp_path / "run")
    assert len(record.read_text().splitlines()) == 6


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_a_run_s_file_written_whole_never_replaces_a_named_pipe(tmp_path):
    """``storage.atomic_file``, under every file a run writes whole: what is no regular file
    is refused, not renamed over, and no temporary file is left."""
    from tournaments import storage

    pipe = tmp_path / "aggregates.npz"
    os.mkfifo(pipe)
    assert storage.special_file(pipe) == "a named pipe"
    assert storage.special_file(tmp_path) is None  # no rename replaces it: InTheWay.directory
    assert storage.special_file(tmp_path / "new") is None
    with pytest.raises(storage.InTheWay) as caught:
        storage.atomic_write_bytes(pipe, b"data")
    assert str(caught.value) == (
        f"cannot write {pipe}: a named pipe is in its place, not a regular file (name a file)"
    )
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and [p.name for p in tmp_path.iterdir()] == [
        pipe.name
    ]


# ----------------------------------------------------------------------------- play's --save
@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_play_s_save_check_says_a_pipe_as_every_file_option_does(tmp_path):
    """Was: play's own words, '--save PIPE is not a regular file (a device or a pipe keeps no
    game to replay): name a file', where ``--record`` says what the path is."""
    from leaves.commands.play_output import check_record_file
    from leaves_cli.writable import check_file_writable

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    said: list[BaseException | None] = []

    def check(call, *args) -> None:
        try:
            call(*args)
            said.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            said.append(exc)

    for call, args in ((check_record_file, (str(pipe),)),
                       (check_file_writable, (str(pipe), "--save"))):  # fmt: skip
        worker = threading.Thread(target=check, args=(call, *args), daemon=True)
        worker.start()
        worker.join(20)
        if worker.is_alive():  # it opened the pipe: let it go, and fail
            os.close(os.open(pipe, os.O_RDWR | os.O_NONBLOCK))
            pytest.fail(f"{call.__name__} opened {pipe}")
    play, shared = said
    assert isinstance(play, CLIError) and isinstance(shared, CLIError)
    assert play.exit_code == 2 and play.format_message() == shared.format_message() == (
        f"--save {pipe} is not a regular file but a named pipe: name a file"
    )
