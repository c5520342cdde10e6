"""``leaves play`` and ``leaves replay`` held to their words at the edges: the number a saved
game is given is the one ``leaves replay --game`` finds it by (whatever the file's lines hold),
a ``--save`` that can keep no game to replay is refused before any game, the count of
strategies ``--against`` needs is said in words that fit one opponent, a typed number is read
whatever zeros lead it, the words before numba's first search promise no time, and a match
target with no match is refused rather than shown as a rule of the game."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]


def _quit_at_once(capsys, monkeypatch, save: Path, *args: str) -> tuple[int, str, str]:
    """``leaves play --seed 1 --save SAVE ARGS`` left with 'q' at the first move."""
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    return cli(capsys, "play", "--seed", "1", "--save", str(save), *args)


def _said_number(out: str) -> int:
    """The record number the saved game's replay command names (1 where it names none)."""
    command = re.search(r"'leaves replay \S+( --game (\d+))?'", out)
    assert command, out
    return int(command.group(2) or 1)


def _record(capsys, monkeypatch, tmp_path: Path) -> str:
    """A record line of a game left at once (its text, line end included)."""
    first = tmp_path / "first.jsonl"
    code, _, err = _quit_at_once(capsys, monkeypatch, first, "--players", "3")
    assert code == 0, err
    return first.read_text(encoding="utf-8")


def test_a_record_led_by_a_byte_order_mark_inside_a_file_is_one_to_save_after(
    capsys, monkeypatch, tmp_path
):
    """Files joined with cat, the second begun with a byte order mark: replay reads its
    record (line 2), yet --save refused the file as 'not a file of game records (line 2 is
    not one)'."""
    line = _record(capsys, monkeypatch, tmp_path)
    save = tmp_path / "joined.jsonl"
    save.write_text(line + "\ufeff" + line, encoding="utf-8")
    code, out, _ = cli(capsys, "replay", str(save), "--game", "2", "--all")
    assert code == 0 and "Game 2 of" in out
    code, out, err = _quit_at_once(capsys, monkeypatch, save, "--players", "3")
    assert code == 0, err
    assert _said_number(out) == 3
    code, out, _ = cli(capsys, "replay", str(save), "--game", "3", "--all")
    assert code == 0 and "Result: unfinished: the player quit" in out


def test_a_saved_game_is_given_the_number_replay_finds_it_by(capsys, monkeypatch, tmp_path):
    """A record written with a label holding a line separator (U+2028, JSON written with
    ensure_ascii=False keeps it as it is) is one line of the file: the save counted it as two
    and named '--game 3' for the second record of the file, which replay has not."""
    record = json.loads(_record(capsys, monkeypatch, tmp_path))
    record["strategies"] = ["a\u2028b", "human", "c"]
    save = tmp_path / "games.jsonl"
    save.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    code, out, _ = cli(capsys, "replay", str(save), "--all")
    assert code == 0 and "Game 1 of" in out
    code, out, err = _quit_at_once(capsys, monkeypatch, save, "--players", "3")
    assert code == 0, err
    number = _said_number(out)
    assert number == 2, out
    code, out, err = cli(capsys, "replay", str(save), "--game", str(number), "--all")
    assert code == 0, err
    assert f"Game {number} of" in out and "seat 0 (human)" in out  # the new game


def test_a_save_to_a_device_is_refused_not_said_to_replay(capsys, monkeypatch):
    """Was: 'Saved the unfinished game to /dev/null ('leaves replay /dev/null' replays it
    ...)', a replay that finds no game there."""
    if not os.path.exists(os.devnull) or os.name != "posix":
        pytest.skip("no /dev/null here")
    code, out, err = _quit_at_once(capsys, monkeypatch, Path(os.devnull))
    assert code == 2, out
    said = one_error_line(err)
    assert f"--save {os.devnull} is not a regular file" in said
    assert "Saved" not in out and "Turn 1" not in out  # refused before the game


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_save_to_a_named_pipe_is_refused_at_once_not_left_waiting(tmp_path):
    """Was: the command waited, silent, for a reader of the pipe before the first game."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "play", "--seed", "1", "--save", str(pipe)],
        input="q\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert f"--save {pipe} is not a regular file" in one_error_line(proc.stderr)


@pytest.mark.parametrize(
    "args, said",
    [
        (("--rules", "players=2,hand_size=10", "--against", "random,greedy"),
         "--against needs 1 strategy for 1 opponent, got 2"),
        (("--players", "4", "--against", "random,greedy"),
         "--against needs 1 or 3 strategies for 3 opponents, got 2"),
    ],
)  # fmt: skip
def test_the_strategies_against_needs_are_counted_in_words_that_fit(capsys, args, said):
    """Was: '--against needs 1 or 1 strategies for 1 opponents' at a table of two."""
    code, _, err = cli(capsys, "play", *args)
    assert code == 2
    assert one_error_line(err) == f"leaves: error: {said}"


def test_leading_zeros_name_the_key_count_or_value_they_lead():
    """Was: '0000001' said 'No move has the key 0000001: the keys are 1 to 11' while '000001'
    was key 1, '0000001x5' was 'a number of 7 digits', and a play led by thousands of zeros
    was refused with int()'s own words about its digit limit."""
    from leaves import new_game
    from leaves.commands import render
    from leaves.commands.moves import MoveError, parse_move

    state = new_game(4, seed=5)
    legal = state.legal_actions()
    first = render.move_keys(legal)["1"]
    assert parse_move("0000001", state) is first
    assert parse_move("0" * 5000 + "1", state) is first
    play = next(a for a in legal if not a.is_pass)
    assert parse_move(f"0000000{play.count}x{play.value}", state) is play
    assert parse_move(f"{'0' * 5000}{play.count}x{play.value}", state) is play
    arabic_zeros = "\u0660" * 7
    assert parse_move(f"{arabic_zeros}{play.count}x{play.value}", state) is play
    with pytest.raises(MoveError, match=r"^Not a move: a number of 8 digits is no key"):
        parse_move("10000000x5", state)
    with pytest.raises(MoveError, match=r"^No move has the key 00: the keys are 1 to "):
        parse_move("00", state)


def test_the_words_before_the_first_search_on_numba_promise_no_time():
    """Was: '(up to a minute)', a bound nothing measures: numba's first compilation of the
    search took 164 s on a busy two-core machine (NUMBA_CACHE_DIR empty, LEAVES_ENGINE=numba,
    one ismcts decision). The words are those docs/cli.md quotes."""
    from leaves.commands.hint import PREPARING

    assert PREPARING == "compiling the search, first time only..."
    docs = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    assert f'"{PREPARING}"' in docs  # as a line of the docs folds it


@pytest.mark.parametrize("ruled", ["expert_target=30", "take=ends, expert_target = 20"])
def test_a_match_target_without_a_match_is_refused_not_shown_as_a_rule(capsys, monkeypatch, ruled):
    """Was: 'Rules: expert_target=30' over one game, no match played (expert_target ends a
    match, never a game); with --expert the match is played to it."""
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--seed", "1", "--rules", ruled)
    assert code == 2 and "Round 1" not in out, out
    target = ruled.rpartition("=")[2].strip()
    assert one_error_line(err) == (
        f"leaves: error: --rules expert_target={target} ends a match, never a game: add "
        "--expert to play a match to it, or leave expert_target out"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--seed", "1", "--expert", "--rules", ruled)
    assert code == 0, err
    assert f"Expert match: games until someone reaches {target} points" in out
