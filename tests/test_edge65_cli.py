"""The command line's shared checks held to their words: a file a command appends to
(``--record``, ``--save``) that is no regular file is refused in one line, never opened (a
pipe would wait for a reader; a run's record written over /dev/null replaced the device); a
``--load`` file that exits, or fails with a message of several lines, is said in one line;
the one-line help of ``leaves replay`` names what it replays."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from leaves_cli.errors import CLIError
from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]
THREE = ["greedy", "low", "high"]
NO_PIPES = not hasattr(os, "mkfifo")
DOCS = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())


class Played(Exception):
    """The tournament went past its checks (nothing may be played or written here)."""


def _checked(path: Path, flag: str) -> CLIError | None:
    """What ``check_file_writable`` raised for ``path``, within 20 s: a check that waits
    (opening a pipe waits for a reader) fails the test, and the pipe is then opened for
    reading so that the waiting thread ends."""
    from leaves_cli.writable import check_file_writable

    said: list[BaseException | None] = []

    def check() -> None:
        try:
            check_file_writable(path, flag)
            said.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            said.append(exc)

    worker = threading.Thread(target=check, daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # lets the waiting open return
        worker.join(20)
        os.close(reader)
        pytest.fail(f"the check of {path} waited for a reader")
    (exc,) = said
    assert exc is None or isinstance(exc, CLIError), exc
    return exc


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_a_named_pipe_is_refused_without_being_opened(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    exc = _checked(pipe, "--record")
    assert exc is not None and exc.exit_code == 2
    assert exc.format_message() == (
        f"--record {pipe} is not a regular file but a named pipe: name a file"
    )


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
def test_a_device_is_refused_not_accepted_as_a_file():
    exc = _checked(Path("/dev/null"), "--save")
    assert exc is not None and exc.exit_code == 2
    # the words play's own test asks of a --save to a device
    assert exc.format_message().startswith("--save /dev/null is not a regular file")
    assert exc.format_message().endswith("but a device: name a file")


def test_a_directory_is_refused_in_words_and_a_link_to_a_file_is_a_file(tmp_path):
    exc = _checked(tmp_path, "c.toml: record")
    assert exc is not None and exc.exit_code == 2
    assert exc.format_message() == (
        f"c.toml: record {tmp_path} is not a regular file but a directory: name a file"
    )
    target = tmp_path / "records.jsonl"
    target.write_text('{"a": 1}\n')
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert _checked(link, "--record") is None and _checked(target, "--record") is None
    assert target.read_text() == '{"a": 1}\n'  # checked, not changed
    assert _checked(tmp_path / "new.jsonl", "--record") is None
    assert not (tmp_path / "new.jsonl").exists()


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_a_tournament_recording_into_a_pipe_is_refused_at_once(tmp_path):
    """Was: ``leaves tournament --record PIPE`` waited, silent, for a reader of the pipe."""
    pipe, out = tmp_path / "pipe", tmp_path / "run"
    os.mkfifo(pipe)
    cmd = [sys.executable, "-m", "leaves_cli", "tournament", *THREE, "--players", "3",
           "--games", "6", "--jobs", "1", "--out", str(out), "--record", str(pipe)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=90)
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc.stderr) == (
        f"leaves: error: --record {pipe} is not a regular file but a named pipe: name a file"
    )
    assert proc.stdout == "" and not out.exists()


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
@pytest.mark.parametrize("given", ["flag", "config"])
def test_a_tournament_recording_into_a_device_is_refused_before_playing(
    capsys, monkeypatch, tmp_path, given
):
    """Was: 'game records in /dev/null', and the records, written whole at the end, replaced
    the device with a regular file. The line is the one docs/cli.md quotes."""
    monkeypatch.setenv("COLUMNS", "200")

    def play(*args, **kwargs):
        raise Played

    monkeypatch.setattr("leaves_cli.tournament_cmd._run", play)
    out = tmp_path / "run"
    if given == "flag":
        args = [*THREE, "--players", "3", "--games", "6", "--jobs", "1", "--out", str(out),
                "--record", "/dev/null"]  # fmt: skip
        named = "--record"
    else:
        config = tmp_path / "t.toml"
        config.write_text(f'strategies = {THREE!r}\nplayers = 3\ngames = 6\njobs = 1\n'
                          f'record = "/dev/null"\nout = "{out}"\n'.replace("'", '"'))  # fmt: skip
        args, named = ["--config", str(config)], f"{config}: record"
    code, stdout, err = cli(capsys, "tournament", *args)
    said = f"{named} /dev/null is not a regular file but a device: name a file"
    assert code == 2 and one_error_line(err) == f"leaves: error: {said}"
    assert stdout == "" and not out.exists()
    assert os.path.exists("/dev/null") and not Path("/dev/null").is_file()
    if given == "flag":
        assert f"(`{said}`, exit 2)" in DOCS


# ----------------------------------------------------------------------------- --load FILE
LOADS = {
    "sys.exit(3)": ("import sys\nsys.exit(3)\n", "exited while it was loaded (SystemExit(3))"),
    "sys.exit()": ("import sys\nsys.exit()\n", "exited while it was loaded (SystemExit(None))"),
    "SystemExit('bye')": (
        "raise SystemExit('bye')\n",
        "exited while it was loaded (SystemExit('bye'))",
    ),
    "a syntax error": ("def f(:\n", "SyntaxError: "),
    "an exception": ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
    "two lines": ("raise RuntimeError('boom\\nand more')\n", "RuntimeError: boom and more"),
    "no message": ("raise RuntimeError()\n", "RuntimeError"),
    "a missing module": (
        "import no_such_module_here\n",
        "ModuleNotFoundError: No module named 'no_such_module_here'",
    ),
}


@pytest.mark.parametrize("how", list(LOADS))
def test_a_load_file_that_fails_or_exits_is_said_in_one_line(capsys, tmp_path, how):
    """Was, for a file that called sys.exit(3): exit 3 and no word; sys.exit(): exit 0, the
    command not done; an error of two lines: two lines."""
    text, words = LOADS[how]
    path = tmp_path / "mine.py"
    path.write_text(text)
    code, out, err = cli(capsys, "strategies", "--load", str(path))
    line = one_error_line(err)
    assert code == 2 and out == "", err
    assert line.startswith("leaves: error: --load: ")
    assert str(path) in line and words in line, line
    if "exited" in words:
        assert line.endswith("): a strategy file must not exit")
    else:
        assert line.endswith(words) or how == "a syntax error", line


def test_a_load_file_that_exits_is_said_by_every_command_that_loads(capsys, tmp_path):
    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(3)\n")
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--load", str(path), *THREE, "--players", "3",
                       "--games", "6", "--jobs", "1", "--out", str(out))  # fmt: skip
    said = (
        f"--load: {path} exited while it was loaded (SystemExit(3)): a strategy file must not exit"
    )
    assert code == 2 and one_error_line(err) == f"leaves: error: {said}"
    assert not out.exists()
    assert (
        "`--load: FILE exited while it was loaded (SystemExit(3)): a strategy file must not exit`"
        in DOCS
    )


# ----------------------------------------------------------------------------- replay's help
def test_the_replay_help_names_a_records_file_and_a_run(capsys, monkeypatch, tmp_path):
    """Was: 'Step through a recorded game (GameRecord JSON lines)', which leaves out a run
    directory (a game replayed from its seeds) and a round printed as a timeline."""
    from leaves_cli.main import COMMANDS

    help_line = COMMANDS["replay"][2]
    assert help_line == (
        "Show a recorded game: a line of a records file, or a run's game from its seeds."
    )
    monkeypatch.setenv("COLUMNS", "300")
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and help_line in " ".join(out.split())
    run, records = tmp_path / "run", tmp_path / "records.jsonl"
    code, _, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                       "--jobs", "1", "--out", str(run), "--record", str(records))  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "replay", str(records), "--all")  # a line of a records file
    assert code == 0 and f"Game 1 of {records}" in out, err
    code, out, err = cli(capsys, "replay", str(run), "--game", "0", "--all")  # from its seeds
    assert code == 0 and f"Game 0 of run {run}, replayed from its seeds" in out, err
