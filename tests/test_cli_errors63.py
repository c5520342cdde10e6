"""Option errors say, in one line, the option the user typed and what it takes: a whole number's
bounds in words (not click's ``x>=0``), a table size the rules do not allow when --players was
never typed, a folder of runs named run by run; and a round record's labels never reach the
terminal as control characters."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from leaves_cli.main import cli as leaves
from tests.helpers import cli, one_error_line, usage_error


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A records file of one game (its contents never read: the option is refused first)."""
    path = tmp_path_factory.mktemp("records") / "g.jsonl"
    path.write_text("{}\n")
    return str(path)


# ------------------------------------------------------------------ whole numbers in bounds
GAME = "--game takes a whole number: from 1 for a record file, from 0 for a run directory"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "x"], f"{GAME}, got 'x'"),
        (["--game", "-1"], f"{GAME}, got -1"),
        (["--game", "1.5"], f"{GAME}, got '1.5'"),
        (["--game", "\x1b[2J"], f"{GAME}, got '\\x1b[2J'"),
    ],
)
def test_replay_game_says_what_it_takes(capsys, record, args, said):
    line = usage_error(capsys, ["replay", record, *args])
    assert line == f"leaves: error: {said} (see 'leaves replay --help')"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "--seed", "-1"], "--seed takes a whole number 0 or more, got -1"),
        (["play", "--target", "0"], "--target takes a whole number from 1 to 1000, got 0"),
        (["play", "--target", "ten"], "--target takes a whole number from 1 to 1000, got 'ten'"),
    ],
)
def test_every_command_says_its_bounds_alike(capsys, args, said):
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["run", "--games", "0"], "--games must be at least 1, got 0"),
        (["variants", "--trace-games", "-2"], "--trace-games must be at least 0, got -2"),
        (["tournament", "greedy", "low", "--games", "0", "--out", "o"],
         "--games must be at least 1, got 0"),
    ],
)  # fmt: skip
def test_a_count_below_its_least_is_said_as_every_command_says_it(capsys, args, said):
    assert usage_error(capsys, args) == f"leaves: error: {said}"


def _range_options() -> list[tuple[str, str]]:
    """(command, flag) of every option of every command that takes numbers within bounds."""
    import importlib

    import click

    from leaves_cli.main import all_commands
    from leaves_cli.options import flag_of

    found = []
    for name, (module, attr, _) in sorted(all_commands().items()):
        command = getattr(importlib.import_module(module), attr)
        for param in command.params:
            if isinstance(param.type, click.types._NumberRangeBase):
                found.append((name, flag_of(param)))
    return found


OUTSIDE: set[tuple[str, str]] = set()
"""Options still declared with click's own range, whose errors still read "x>=0": a strict
xfail each, which fails once the option is a ``WholeNumber`` (then drop it from here)."""


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(w, marks=pytest.mark.xfail(w in OUTSIDE, reason="click.IntRange", strict=True))
        for w in _range_options()
    ],
    ids=" ".join,
)
def test_every_bounded_option_says_its_bounds_in_words(where):
    import importlib

    from leaves_cli.main import all_commands
    from leaves_cli.options import Number, WholeNumber, flag_of

    module, attr, _ = all_commands()[where[0]]
    command = getattr(importlib.import_module(module), attr)
    (param,) = [p for p in command.params if flag_of(p) == where[1]]
    assert isinstance(param.type, (WholeNumber, Number))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "-n", "x"], "--players takes a whole number, got 'x'"),
        (["play", "--seat", "first"], "--seat takes a whole number, got 'first'"),
        (["run", "-j", "2.5"], "--jobs takes a whole number, got '2.5'"),
        (["tournament", "--jobs", "all"], "--jobs takes a whole number, got 'all'"),
        (
            ["tournament", "--record-sample", "1e3"],
            "--record-sample takes a whole number, got '1e3'",
        ),
        (["tune", "--candidate-games", "x"], "--candidate-games takes a whole number, got 'x'"),
        (["tournament", "--precision", "half"], "--precision takes a number, got 'half'"),
        (["gauntlet", "--margin", "1,5"], "--margin takes a number, got '1,5'"),
    ],
)
def test_a_whole_number_is_named_by_its_flag_once(capsys, args, said):
    """Not "Invalid value for '-n' / '--players': 'x' is not a valid integer."."""
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


def test_the_help_gives_the_bounds_in_the_same_words():
    out = CliRunner().invoke(leaves, ["replay", "--help"], terminal_width=200).output
    said = "[from 1 for a record file, from 0 for a run directory]"
    assert said in out and "x>=0" not in out and "INTEGER RANGE" not in out
    out = CliRunner().invoke(leaves, ["play", "--help"], terminal_width=200).output
    assert "--target INTEGER" in out and "from 1 to 1000" in out and "<=x<=" not in out


def test_the_bounds_in_words():
    from leaves_cli.options import WholeNumber

    assert WholeNumber(0).bounds == "0 or more"
    assert WholeNumber(2, 20).bounds == "from 2 to 20"
    assert WholeNumber(None, 9).bounds == "9 or less"
    assert WholeNumber().bounds == ""
    assert WholeNumber(3, 3).bounds == "3"


# ------------------------------------------------------------------ a folder of runs
def test_replay_of_a_folder_of_runs_names_them(capsys, tmp_path):
    for name in ("today", "variant"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text("{}")
    line = usage_error(capsys, ["replay", str(tmp_path)])
    runs = f"{tmp_path / 'today'}, {tmp_path / 'variant'}"
    assert line == (
        f"leaves: error: {tmp_path} holds no run itself (no manifest.json); the runs in it: "
        f"{runs}: replay a game of one (leaves replay RUN --game N)"
    )


def test_replay_of_a_folder_of_no_run_says_so(capsys, tmp_path):
    line = usage_error(capsys, ["replay", str(tmp_path)])
    assert line == (f"leaves: error: {tmp_path} is a directory but not a tournament run "
                    "(no manifest.json)")  # fmt: skip


# ------------------------------------------------------------------ players the rules allow
def _play(*args: str, keys: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(leaves, ["play", *args], input=keys)
    return result.exit_code, result.output


def test_rules_without_todays_table_size_ask_for_players_not_typed(capsys):
    line = usage_error(capsys, ["play", "--rules", "players=3/5"])
    assert line == ("leaves: error: 13 Leaves under players=3/5 is played by 3 or 5 players, "
                    "not 4 (the default): choose one with --players")  # fmt: skip


def test_rules_of_one_table_size_play_it():
    code, out = _play("--rules", "players=5", "--seed", "1", "--against", "random", keys="q\n")
    assert code == 0, out
    assert out.startswith("13 Leaves, 5 players, seed 1")


def test_rules_that_allow_four_play_four():
    code, out = _play("--rules", "players=3-5", "--seed", "1", "--against", "random", keys="q\n")
    assert code == 0, out
    assert out.startswith("13 Leaves, 4 players, seed 1")


def test_typed_players_the_rules_refuse_name_the_option(capsys):
    line = usage_error(capsys, ["play", "--players", "4", "--rules", "players=3/5"])
    said = "--players 4: 13 Leaves under players=3/5 is played by 3 or 5 players, got 4"
    assert line == f"leaves: error: {said}"
    line = usage_error(capsys, ["play", "--players", "7"])
    assert line == "leaves: error: --players 7: 13 Leaves is played by 3 to 6 players, got 7"


# ------------------------------------------------------------------ a round's labels
@pytest.fixture(scope="module")
def round_file(tmp_path_factory):
    """A Ligretto round record whose first label holds a terminal's escape sequence."""
    import ligretto
    import strategies

    players = [strategies.get("stack", game="ligretto") for _ in range(2)]
    out = ligretto.play_round(players, 0, 1, record=True)
    data = json.loads(out.record.to_json())
    data["strategies"] = ["clear\x1b[2J\u0007", "ok"]
    path = tmp_path_factory.mktemp("rounds") / "rounds.jsonl"
    path.write_text(json.dumps(data) + "\n")
    return path


def test_a_round_timeline_escapes_control_characters(round_file):
    import ligretto

    lines = ligretto.timeline(ligretto.RoundRecord.from_json(round_file.read_text()))
    assert "  seat 0: clear\\x1b[2J\\x07" in lines
    assert not any(c in line for line in lines for c in "\x1b\x07")


def test_replay_of_a_round_prints_no_control_characters(capsys, round_file):
    code, out, err = cli(capsys, "replay", str(round_file))
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "clear\\x1b[2J\\x07" in out


def test_the_shared_escaping_keeps_printable_text():
    from gamekit.text import printable

    assert printable("weighted:x=1 ü") == "weighted:x=1 ü"
    assert printable("a\nb\x1b") == "a\\nb\\x1b"


# ------------------------------------------------------------------ a file that fails as it is read
UNREADABLE = "/proc/self/mem"  # opens, then fails at the first read (nothing mapped at 0)


@pytest.mark.skipif(not os.path.exists(UNREADABLE), reason="needs Linux's /proc")
def test_a_record_file_that_fails_as_it_is_read_is_named(capsys):
    code, _, err = cli(capsys, "replay", UNREADABLE)
    assert code == 1
    assert one_error_line(err) == f"leaves: error: cannot read {UNREADABLE}: Input/output error"


def test_an_os_error_is_said_in_words_not_as_python_writes_it():
    from leaves_cli.flags import message

    assert message(OSError(5, "Input/output error")) == "Input/output error"
    assert message(OSError(28, "No space left on device", "runs/a/x")) == (
        "runs/a/x: No space left on device"
    )
    assert message(OSError("plain")) == "plain"
