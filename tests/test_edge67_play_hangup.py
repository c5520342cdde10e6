"""``leaves play --save`` when its terminal closes (SIGHUP): the game so far is always saved
and the command ends as interrupted (130); writing to the closed terminal never replaces
that."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

pytest.importorskip("termios")

CHILD = (
    "import fcntl, os, sys, termios; os.setsid(); fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "from leaves_cli.main import main; sys.argv[0] = 'leaves'; main(sys.argv[1:])"
)


def _hang_up_at_prompt(path: str, again: float | None) -> int:
    """Play until the first prompt in a terminal, then close it (and, ``again`` seconds
    later, send SIGHUP a second time, as the shell does to its jobs); the exit status."""
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "150"}
    args = ["--seed", "5", "--against", "random", "--save", path]
    proc = subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
        [sys.executable, "-c", CHILD, "play", *args],
        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 120
    while b"Your move" not in seen and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    assert b"Your move" in seen, seen.decode(errors="replace")
    os.close(master)  # the terminal closes: the child gets SIGHUP and the end of its input
    if again is not None:
        time.sleep(again)
        proc.send_signal(1)
    return proc.wait(timeout=120)


@pytest.mark.parametrize("again", [None, 0, 0.05, 0.2, None, 0, 0.05, 0.2])
def test_closed_terminal_saves_and_exits_130(tmp_path, again):
    path = tmp_path / "g.jsonl"
    assert _hang_up_at_prompt(str(path), again) == 130
    (line,) = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert record["stopped"] == "interrupted (SIGHUP)"
    assert record["seed"] is not None
