"""``leaves play`` and ``leaves replay`` as a player meets them: a game cut short by its output
closing is saved, a replay into a file or a pager waits for no key, a bot's label is never
obeyed by the terminal, a folder of many runs is named in a line to read, the move prompt edits
its line and echoes a move as typed, and a narrow terminal never breaks a name."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from leaves import new_game
from leaves.commands import render
from leaves.commands.play_loop import OutputGone, QuitGame, Seats, output_closed, play_game
from leaves.commands.play_output import scores_table, show_left
from leaves.record import GameRecord, replay
from leaves_cli.console import make_console

ROOT = Path(__file__).resolve().parents[1]


class FirstMove:
    """Stand-in opponent: the first legal move."""

    label = "first"

    def choose(self, view, legal, rng):
        return legal[0]


def _seats() -> Seats:
    return Seats(["you", "first", "first"], [None, FirstMove(), FirstMove()],
                 [np.random.default_rng(s) for s in range(3)])  # fmt: skip


class _ClosingPipe(io.StringIO):
    """An output whose reader goes away after ``writes`` writes (``head`` quitting)."""

    def __init__(self, writes: int):
        super().__init__()
        self.writes = writes

    def write(self, text: str) -> int:
        self.writes -= 1
        if self.writes < 0:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def _rich_exits(console: Console) -> None:
    """rich's answer to a broken pipe, but for its pointing the process's stdout elsewhere."""
    console.quiet = True
    raise SystemExit(1)


# ----------------------------------------------------------------------------- the output closes
@pytest.mark.parametrize("writes", [0, 3, 12])
def test_a_game_whose_output_closes_is_saved_as_stopped_then_ends_as_a_broken_pipe(
    tmp_path, monkeypatch, writes
):
    monkeypatch.setattr(Console, "on_broken_pipe", _rich_exits)
    console = make_console(file=_ClosingPipe(writes), width=100)
    initial, seats = new_game(3, seed=4), _seats()
    with pytest.raises(OutputGone) as stopped:
        play_game(console, initial, seats, lambda prompt: "1", seed=4)
    left = stopped.value
    assert left.state is not None and not left.state.is_terminal
    left.initial, left.seed = initial, 4
    path = tmp_path / "g.jsonl"
    with pytest.raises(BrokenPipeError):  # what every command's output cut short ends as
        show_left(console, str(path), left, seats.names)
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.stopped == "the output closed" and record.strategies[0] == "human"
    assert replay(record)[-1].history == left.state.history


def test_a_broken_pipe_at_the_prompt_stops_the_game_too():
    def read(prompt: str) -> str:
        raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(OutputGone):
        play_game(make_console(file=io.StringIO()), new_game(3, seed=4), _seats(), read)


def test_only_a_broken_pipe_is_the_output_closing():
    try:
        raise BrokenPipeError(32, "Broken pipe")
    except BrokenPipeError:
        try:
            raise SystemExit(1)
        except SystemExit as exc:
            assert output_closed(exc)  # rich's
    assert output_closed(BrokenPipeError(32, "Broken pipe"))
    assert not output_closed(SystemExit(1)) and not output_closed(OSError(5, "I/O error"))


@pytest.mark.slow
def test_play_piped_into_head_saves_the_game_and_exits_0(tmp_path):
    """'yes 1 | leaves play --save F | head -60': the game was lost, and the command said
    nothing and exited 0."""
    moves = tmp_path / "moves.txt"
    moves.write_text("1\n" * 3000, encoding="utf-8")
    save = tmp_path / "bp.jsonl"
    with moves.open() as stdin:
        proc = subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
            [sys.executable, "-m", "leaves_cli", "play", "--seed", "1", "--save", str(save)],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
        for _ in range(60):
            proc.stdout.readline()
        proc.stdout.close()  # head quits
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0, err
    assert err == b""
    (line,) = save.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["stopped"] == "the output closed"


# ----------------------------------------------------------------------------- replay into a file
def _record(tmp_path) -> GameRecord:
    from leaves.commands.play_output import save_game

    initial = new_game(4, seed=1)
    state = initial.apply(initial.legal_actions()[0])
    state = state.apply(state.legal_actions()[0])
    path = tmp_path / "g.jsonl"
    save_game(str(path), initial, state, ["you", "a", "b", "c"], stopped="the player quit")
    return GameRecord.from_json(path.read_text().strip())


class _Keys(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stdout_tty", [False, True])
def test_a_replay_waits_for_keys_only_where_its_prompt_is_seen(
    tmp_path, monkeypatch, capsys, stdout_tty
):
    """'leaves replay F > out.txt' waited at a prompt no one saw: stdin alone chose."""
    from leaves.commands.replay_view import _show

    asked = []

    def answer(self, prompt="", **kw):
        asked.append(prompt)
        return "a"

    monkeypatch.setattr(sys, "stdin", _Keys())
    monkeypatch.setattr(sys.stdout, "isatty", lambda: stdout_tty)
    monkeypatch.setattr(Console, "input", answer)
    _show(_record(tmp_path), "Game 1", show_all=False, hints=False, where="game 1")
    assert bool(asked) is stdout_tty
    assert "Result: unfinished: the player quit (after 2 turns)." in capsys.readouterr().out


def test_the_all_flag_says_when_it_is_the_default():
    from leaves_cli.replay_cmd import replay as command

    (flag,) = [p for p in command.params if p.name == "show_all"]
    assert "(the default when stdin or stdout is not a terminal)" in flag.help


# ----------------------------------------------------------------------------- a bot's label
EVIL = """
from strategies import Strategy


class Evil(Strategy):
    name = "evil71"
    description = "a label with escapes"
    classifier = {"stochastic": False}

    @property
    def label(self):
        return "evil\\x1b[41mRED\\x1b[0m[bold]x"

    def choose(self, view, legal, rng):
        return legal[0]
"""


def test_a_bots_name_at_the_table_is_its_label_escaped():
    from leaves.commands.play import _bot_name

    class Evil:
        label = "evil\x1b[41mRED\x1b[0m\n"

    assert _bot_name(Evil()) == "evil\\x1b[41mRED\\x1b[0m\\n"
    Evil.label = "human"
    assert _bot_name(Evil()) == "human (a bot)"


@pytest.mark.slow
def test_play_shows_a_bots_label_with_its_control_characters_escaped(tmp_path):
    from click.testing import CliRunner

    from leaves.commands.play import play

    bot = tmp_path / "evil71.py"
    bot.write_text(EVIL, encoding="utf-8")
    save = tmp_path / "g.jsonl"
    args = ["--load", str(bot), "--against", "evil71", "--seed", "4", "--save", str(save)]
    done = CliRunner().invoke(play, args, input="q\n")
    assert done.exit_code == 0, done.output
    assert "\x1b" not in done.output
    shown = "evil\\x1b[41mRED\\x1b[0m[bold]x"
    assert f"Opponents: seat 1 ({shown})" in " ".join(done.output.split())
    assert f"seat 2 ({shown}) plays" in done.output  # the move lines
    assert sum(shown in line for line in done.output.splitlines()) >= 3 + 3  # and the table
    assert json.loads(save.read_text(encoding="utf-8"))["strategies"][1] == shown


# ----------------------------------------------------------------------------- a folder of runs
@pytest.mark.parametrize("n, named", [(6, 6), (8, 5)])
def test_a_folder_of_many_runs_names_the_first_few(tmp_path, n, named):
    from leaves_cli.verify_cmd import no_run_message

    for i in range(n):
        (tmp_path / f"r{i}").mkdir()
        (tmp_path / f"r{i}" / "manifest.json").write_text("{}", encoding="utf-8")
    said = no_run_message(tmp_path)
    runs = ", ".join(str(tmp_path / f"r{i}") for i in range(named))
    more = f", ... and {n - named} more" if named < n else ""
    assert said == (f"{tmp_path} holds no run itself (no manifest.json); the runs in it: "
                    f"{runs}{more}: verify each")  # fmt: skip


# ----------------------------------------------------------------------------- the prompt
def test_the_prompt_edits_its_line_at_a_terminal_only(monkeypatch):
    from leaves.commands.play import _reader

    console = make_console(file=io.StringIO())
    assert _reader(console) == console.input  # a pipe, a file: nothing to edit
    monkeypatch.setattr(sys, "stdin", _Keys())
    monkeypatch.setattr(sys, "stdout", _Keys())
    pytest.importorskip("readline")
    assert _reader(console) is input and "readline" in sys.modules


def test_a_move_not_read_is_echoed_as_typed():
    out = io.StringIO()
    answers = iter(["Foo", "q"])
    with pytest.raises(QuitGame):
        play_game(make_console(file=out, width=200), new_game(3, seed=4, first_player=0),
                  _seats(), lambda prompt: next(answers))  # fmt: skip
    assert "Cannot read a move from 'Foo':" in out.getvalue()


@pytest.mark.slow
def test_the_arrow_keys_move_in_the_line_at_a_terminal():
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("readline")
    child = pexpect.spawn(sys.executable, ["-m", "leaves_cli", "play", "--seed", "4",
                          "--against", "random"], cwd=str(ROOT), encoding="utf-8", timeout=60,
                          env={**os.environ, "NO_COLOR": "1",
                               "TERM": "dumb", "COLUMNS": "120"}, dimensions=(60, 120))  # fmt: skip
    child.expect(r"Your move \(\? for help\): ")
    child.send("Fo\x1b[DX\r")  # 'F', 'o', left, 'X'
    child.expect(r"Cannot read a move from '(.*?)'")
    assert child.match.group(1) == "FXo"
    child.sendline("q")
    child.expect("You left the game.")
    child.close()


# ----------------------------------------------------------------------------- narrow terminals
def _printed(renderable, width: int) -> str:
    out = io.StringIO()
    make_console(file=out, width=width).print(renderable)
    return out.getvalue()


@pytest.mark.parametrize("name", ["weighted", "ismcts(preset=strong)"])
@pytest.mark.parametrize("hands", [False, True], ids=["play", "replay"])
def test_no_width_breaks_a_name_of_the_seats_table(name, hands):
    """'weight' over 'ed' at 45 columns, 'ismcts(pres' over 'et=strong)' at 48-57 (53 with
    every hand: 'weighte' over 'd'): a line a seat now, before a name breaks."""
    state = new_game(4, seed=1)
    names = ["you", name, name, name]
    for width in range(len(name) + 12, 121):
        seats = render.seats_table(state, names, hands=state.hands if hands else None)
        lines = _printed(seats, width).splitlines()
        assert sum(name in line for line in lines) == 3, (width, "\n".join(lines))


def test_the_scores_of_a_match_show_a_line_a_seat_before_a_name_breaks():
    from leaves.expert import ExpertMatch

    match = ExpertMatch(4, target=20).add([3, 0, 5, 2])
    names = ["you"] + ["ismcts(preset=strong)"] * 3
    for width in range(34, 121):
        text = _printed(scores_table(match, names, [3, 0, 5, 2]), width)
        assert sum("ismcts(preset=strong)" in line for line in text.splitlines()) == 3, text
        if "───" not in text:  # too narrow for the table with every name whole
            said = " ".join(text.split())
            assert "you (seat 0): 3 this game, 3 in all" in said, text
            assert "seat 2 (ismcts(preset=strong)): 5 this game, 5 in all" in said, text
