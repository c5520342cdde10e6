"""One wording from one place: ``--load`` says a strategy file's failure in the loader's words,
as a ``file.py:Class`` spec does; every file option names what a path is in the library's words
(``storage.special_file``); the library refuses a ``record`` that is a pipe as the tournament
is made, so a refused run leaves no folder; ``leaves verify`` advises an unfinished precision
run the command that continues it; docs/tuning.md's taker figures are those its command
prints. No real device is touched: a named pipe made here stands for one."""

from __future__ import annotations

import inspect
import os
import re
import shlex
import stat

import pytest

from tests.helpers import SMALL_PRECISION, cli, doc_says, one_error_line, stopped

NO_PIPES = not hasattr(os, "mkfifo")
THREE = ["greedy", "low", "high"]
PRECISION = SMALL_PRECISION
"""A precision run of 6 games a deal, a chunk a deal: 30 games first, 5 chunks."""


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


# ----------------------------------------------------------------------------- a user's file
@pytest.mark.parametrize(
    "text",
    [
        "raise RuntimeError('bad value:')\n",  # a message of the user's that ends in a colon
        "raise RuntimeError('boom\\n\\nand more')\n",
        "raise RuntimeError()\n",
        "import sys\nsys.exit(3)\n",
    ],
)
def test_load_says_a_file_s_failure_in_a_spec_s_words(capsys, tmp_path, text):
    """Was: ``--load`` cut a colon off the end of the user's message ('RuntimeError: bad
    value'), where the spec of the same file kept it: two wordings of one failure."""
    path = tmp_path / "mine.py"
    path.write_text(text)
    code, _, err = cli(capsys, "tournament", f"{path}:Mine", *THREE[:2], "--players", "3",
                       "--games", "6", "--jobs", "1", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 2
    spec_said = one_error_line(err).removeprefix("leaves: error: ")
    code, out, err = cli(capsys, "strategies", "--load", str(path))
    assert code == 2 and out == ""
    assert one_error_line(err) == f"leaves: error: --load: {spec_said}"
    if "bad value" in text:
        assert spec_said.endswith("RuntimeError: bad value:")


def test_a_spec_s_file_that_exits_is_said_as_the_docs_say(capsys, tmp_path):
    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(3)\n")
    code, _, err = cli(capsys, "tournament", f"{path}:Mine", *THREE[:2], "--players", "3",
                       "--games", "6", "--jobs", "1", "--out", str(tmp_path / "run"))  # fmt: skip
    line = "exited while it was loaded (SystemExit(3)): a strategy file must not exit"
    assert code == 2 and one_error_line(err) == f"leaves: error: {path} {line}"
    doc_says("cli.md", re.escape(f"`--load: FILE {line}`, and the same line without `--load: ` "
                                 "for a `file.py:Class` spec's file)") + r"[^|]*\| 2 \|")  # fmt: skip


# ----------------------------------------------------------------------------- a file option
@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
@pytest.mark.parametrize("device", [False, True])
def test_a_file_option_names_what_a_path_is_in_the_library_s_words(tmp_path, monkeypatch, device):
    """``check_file_writable`` and the library say a pipe or a device from one source
    (``storage.special_file``); it kept a list of its own."""
    from leaves_cli import writable
    from leaves_cli.errors import CLIError
    from tournaments import storage

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    if device:  # this pipe reads as a character device: no device is touched
        monkeypatch.setattr(stat, "S_ISCHR", stat.S_ISFIFO)
        monkeypatch.setattr(stat, "S_ISFIFO", lambda mode: False)
    kind = storage.special_file(pipe)
    assert kind == ("a device" if device else "a named pipe")
    with pytest.raises(CLIError) as caught:
        writable.check_file_writable(pipe, "--record")
    assert str(caught.value) == f"--record {pipe} is not a regular file but {kind}: name a file"
    assert "a named pipe" not in inspect.getsource(writable)  # said in one place
    with pytest.raises(CLIError) as caught:  # a directory: the one kind said here
        writable.check_file_writable(tmp_path, "--save")
    assert (
        str(caught.value) == f"--save {tmp_path} is not a regular file but a directory: name a file"
    )


# ----------------------------------------------------------------------------- the library
@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_a_record_into_a_pipe_is_refused_as_the_tournament_is_made(tmp_path):
    """Was: the Tournament was made, and its run refused the pipe only once it had made the
    run's folder, left behind empty."""
    import tournaments
    from gamekit.errors import ParameterError

    pipe, out = tmp_path / "pipe", tmp_path / "run"
    os.mkfifo(pipe)
    with pytest.raises(ParameterError) as caught:
        tournaments.Tournament(THREE, 3, 6, seed=1, record=pipe).run(out=out)
    assert str(caught.value) == f"record {pipe} is not a regular file but a named pipe: name a file"
    assert caught.value.worded({"record": "--record"}).startswith(f"--record {pipe} is not")
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no folder left behind
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_the_record_rule_refuses_a_pipe_and_takes_a_file_that_is_there(tmp_path):
    from gamekit.errors import ParameterError
    from tournaments import arguments
    from tournaments.games import get_game

    game, pipe, there = get_game("leaves"), tmp_path / "pipe", tmp_path / "r.jsonl"
    os.mkfifo(pipe)
    there.write_text("old\n")
    assert arguments.record_rule(game, there, None, 10, None) == (there, 1)
    assert arguments.record_rule(game, str(there), 5, 10, None) == (there, 2)
    for sample, by in ((None, None), (0, None), (None, "rounds")):  # named before the others
        with pytest.raises(ParameterError, match=r"^record .*/pipe is not a regular file but "
                           "a named pipe: name a file$"):  # fmt: skip
            arguments.record_rule(game, pipe, sample, 10, by)


@pytest.mark.skipif(NO_PIPES, reason="no named pipes here")
def test_a_record_that_became_a_pipe_after_the_tournament_was_made_is_refused(tmp_path):
    """Guards the run's own check (``session.RunLog``): made first, the pipe is still
    refused before any game, never replaced."""
    import tournaments

    pipe, out = tmp_path / "pipe", tmp_path / "run"
    made = tournaments.Tournament(THREE, 3, 6, seed=1, record=pipe)
    os.mkfifo(pipe)
    with pytest.raises(ValueError, match="^record .* is not a regular file but a named pipe"):
        made.run(out=out)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert not any(p.is_file() for p in out.rglob("*"))


# ----------------------------------------------------------------------------- leaves verify
def test_verify_advises_an_unfinished_precision_run_the_command_that_continues_it(tmp_path, capsys):
    """Was: 'run unfinished (--resume finishes it)': followed, the plain --resume played the
    run's first stage as a plain run and stopped, without its --precision."""
    from tournaments.run_state import run_state

    out = tmp_path / "run"
    code, _, err = stopped(*PRECISION, "--out", str(out))
    assert code == 130, err
    code, said, err = cli(capsys, "verify", str(out))
    assert code == 0, err
    found = re.search(r"; run unfinished \('([^']*)' finishes it\)$", said.strip())
    assert found, said
    command = shlex.split(found[1])
    assert found[1] in run_state(out).lines()[0]  # the command every other advice names
    assert command == ["leaves", "tournament", "--resume", "--out", str(out), "--precision",
                       "0.1", "--max-games", "60"]  # fmt: skip
    code, played, err = cli(capsys, *command[1:], "--jobs", "1")  # --jobs changes no result
    assert code == 0, err
    said = " ".join(played.split())  # played on to its cap, as a precision run (plain: 30)
    assert "48 of 60 games in" in said and "precision +-0.1 percentage points NOT reached" in said
    shown = found[0].removeprefix("; ").replace(shlex.quote(str(out)), "RUN")
    doc_says("cli.md", re.escape(f"`--precision` run's with its `--precision` and `--max-games`, "
                                 f"as every other advice names them: `{shown}`)"))  # fmt: skip
    code, helped, _ = cli(capsys, "verify", "--help")
    assert code == 0 and ("--resume finishes it, given a --precision run's --precision and "
                          "--max-games, which the advice names") in " ".join(helped.split())  # fmt: skip


# ----------------------------------------------------------------------------- docs/tuning.md
@pytest.mark.slow
def test_the_tuned_taker_s_difference_is_what_its_command_prints(tmp_path, capsys):
    """docs/tuning.md said '+0.1 points [-0.0, +0.2]': not the unit, a bound below 0 that
    read 0, and fewer decimals than the tool gives the interval ('+0.08 percentage points
    [-0.01, +0.18]'). The page's own command, played again, prints the figures it states."""
    said = doc_says(
        "tuning.md",
        r"for its defaults: \*\*([+-][\d.]+) percentage\s+points\*\* (\[[^\]]+\]), p = ([\d.]+),",
    )
    command = doc_says("tuning.md", r'leaves gauntlet "(taker:[^"]+)" --baseline taker \\\s+'
                       r"--against ([\w,]+) --players 4 --games (\d+) --seed (\d+)")  # fmt: skip
    code, out, err = cli(capsys, "gauntlet", command[1], "--baseline", "taker", "--against",
                         command[2], "--players", "4", "--games", command[3], "--seed",
                         command[4], "--jobs", "1", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    printed = f"{said[1]} percentage points {said[2]} (paired over 12,544 deals, p = {said[3]})"
    assert printed in " ".join(out.split()), out
