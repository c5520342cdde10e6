"""A run stopped once every game is played (Ctrl-C or SIGTERM while the summary, the gauntlet's
answer or ``leaves run``'s report is written) exits 130 and says that nothing is left to play
and what prints or writes the rest, as docs/cli.md and docs/tournaments.md say: SIGTERM there
ended the process (143) saying nothing, Ctrl-C printed a blank line and no advice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import leaves.commands.run as run_cmd
import leaves_cli.gauntlet_cmd as gauntlet_cmd
import leaves_cli.tournament_cmd as tournament_cmd
from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = ["tournament", "low", "high", "--players", "3", "--games", "12", "--seed", "2",
              "--jobs", "1", "--no-progress"]  # fmt: skip
GAUNTLET = ["gauntlet", "low", "--against", "taker", "--baseline", "high", "--players", "3",
            "--games", "12", "--seed", "2", "--jobs", "1", "--no-progress"]  # fmt: skip
RUN = ["run", "--games", "1", "--players", "3", "--jobs", "1", "--format", "md"]
CASES = {  # command line, the module and function of the step after the games
    "tournament": (TOURNAMENT, tournament_cmd, "_echo_outcome"),
    "gauntlet": (GAUNTLET, gauntlet_cmd, "_answer"),
    "run": (RUN, run_cmd, "_report"),
}


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def _said(command: str, out: Path) -> str:
    """The line a stop after the last game says (docs/tournaments.md)."""
    if command == "run":
        return (f"interrupted: nothing is left to play in {out}, only its report was cut short "
                f"('leaves run --resume --out {out} --format md' writes it)")  # fmt: skip
    return (f"interrupted: nothing is left to play in {out}, only the summary was cut short "
            f"('leaves {command} --resume --out {out}' prints it)")  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("command", list(CASES))
def test_ctrl_c_after_the_last_game_says_nothing_is_left_to_play(capsys, monkeypatch, tmp_path,
                                                                 command):  # fmt: skip
    args, module, step = CASES[command]
    out = tmp_path / "run"

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(module, step, stop)
        code, _, err = cli(capsys, *args, "--out", str(out))
    assert code == 130
    assert err.splitlines()[-2:] == [_said(command, out), "leaves: error: interrupted"], err
    assert "\n\n" not in err  # no blank line where stderr is no terminal
    code, said, err = cli(capsys, command, "--resume", "--out", str(out), *args[-2:] * (
        command == "run"))  # fmt: skip
    assert code == 0, err  # the rest, printed or written by the command named
    if command == "run":
        assert (out / "report" / "report.md").is_file()
    else:
        assert "low" in said


TERM_IN_STEP = """
import os, signal, sys, time
import importlib
module = importlib.import_module(sys.argv[1])

def slow(*args, **kwargs):  # SIGTERM arrives while the step runs
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)

setattr(module, sys.argv[2], slow)
from leaves_cli.main import main
main(sys.argv[3:])
"""


@pytest.mark.parametrize("command", list(CASES))
def test_sigterm_after_the_last_game_exits_130_saying_so(tmp_path, command):
    args, module, step = CASES[command]
    out = tmp_path / "run"
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-c", TERM_IN_STEP, module.__name__, step, *args,
                           "--out", str(out)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 130, proc.stderr  # it was -15 (143 in a shell): nothing said
    assert proc.stderr.endswith(f"{_said(command, out)}\nleaves: error: interrupted\n"), (
        proc.stderr)  # fmt: skip
    assert "\n\n" not in proc.stderr


@pytest.mark.slow
def test_a_stop_in_the_field_under_todays_rules_names_the_runs_resume(capsys, monkeypatch,
                                                                       tmp_path):  # fmt: skip
    """``leaves run --rules``: a stop while the same field plays under today's rules named
    the resume of OUT/default-rules, a run of its own then, never compared; the resume of
    OUT plays it and writes the comparison."""
    from tournaments import Tournament

    out, played = tmp_path / "run", Tournament.run

    def run(self, *args, **kwargs):
        if Path(kwargs["out"]).name == "default-rules":
            raise KeyboardInterrupt
        return played(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(Tournament, "run", run)
        code, _, err = cli(capsys, *RUN, "--rules", "take=ends", "--out", str(out))
    assert code == 130 and err.splitlines()[-2:] == [
        f"interrupted: 'leaves run --resume --out {out} --format md' continues it",
        "leaves: error: interrupted",
    ], err  # it named --out {out}/default-rules
    code, said, err = cli(capsys, "run", "--resume", "--out", str(out), "--format", "md")
    assert code == 0 and f"rules compared with today's: {out / 'variants'}" in said, err
