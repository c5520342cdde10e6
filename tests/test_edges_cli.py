"""Edges of the command line: ``leaves play --save`` (the replay hint, a file that is not a
record file, a game cut short by the end of input or Ctrl-C), ``leaves tune``'s words and
budget, a sequential gauntlet too small for its test, and lists with empty items, filter
values, strategy files and unmeasured benchmarks."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from leaves import new_game
from leaves.record import GameRecord, replay
from leaves_cli.console import make_console
from leaves_cli.errors import CLIError
from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]


def _leaves(*args: str, stdin: str = "", timeout: int = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "leaves_cli", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=timeout)  # fmt: skip


# ----------------------------------------------------------------------------- play --save
class FirstMove:
    """Stand-in opponent: always the first legal move."""

    label = "first"

    def choose(self, view, legal, rng):
        return legal[0]


def _seats(human: int = 0):
    from leaves.commands.play import Seats

    bots = [FirstMove() for _ in range(3)]
    bots.insert(human, None)
    names = ["you" if b is None else b.label for b in bots]
    return Seats(names, bots, [np.random.default_rng(i) for i in range(4)])


def _cut_short(stop: BaseException, moves: int = 2):
    """Play seed 3 answering '1' ``moves`` times, then raising ``stop``: (initial, what the
    loop raised)."""
    from leaves.commands.play import play_game
    from leaves.commands.play_loop import QuitGame

    answers = iter(["1"] * moves)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise stop from None

    initial = new_game(4, seed=3)
    try:
        with pytest.raises(QuitGame) as left:
            play_game(make_console(file=io.StringIO()), initial, _seats(), read)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C left the game loop without the game played so far")
    left.value.initial = initial
    return initial, left.value


def test_the_replay_hint_names_the_record_when_the_file_held_games(tmp_path):
    from leaves.commands.play_loop import QuitGame
    from leaves.commands.play_output import show_left

    save = tmp_path / "sv.jsonl"
    said = []
    for seed in (1, 2):
        initial = new_game(4, seed=seed)
        out = io.StringIO()
        show_left(make_console(file=out, width=300), str(save), QuitGame(initial, initial),
                  ["you", "a", "b", "c"])  # fmt: skip
        said.append(out.getvalue())
    assert f"'leaves replay {save}' replays it" in said[0]
    assert f"'leaves replay {save} --game 2' replays it" in said[1]
    assert len(save.read_text().splitlines()) == 2


def test_a_record_is_appended_on_a_line_of_its_own(tmp_path):
    from leaves.commands.play_output import save_game

    state = new_game(3, seed=1)
    save = tmp_path / "sv.jsonl"
    assert save_game(str(save), state, state, ["you", "a", "b"], stopped="the player quit") == 1
    save.write_text(save.read_text().rstrip("\n"))  # a file whose last line is not ended
    assert save_game(str(save), state, state, ["you", "a", "b"], stopped="the player quit") == 2
    assert [GameRecord.from_json(line).hands for line in save.read_text().splitlines()] == [
        tuple(tuple(h) for h in state.hands)
    ] * 2


def test_a_save_file_that_holds_something_else_is_refused_before_playing(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("hi\n")
    code, out, err = cli(capsys, "play", "--seed", "1", "--save", str(notes))
    assert code == 2 and out == ""
    assert one_error_line(err) == (
        f"leaves: error: --save {notes} is not a file of game records (line 1 is not one): "
        "name a new file, or one that holds game records"
    )
    assert notes.read_text() == "hi\n"  # untouched


def test_a_file_of_records_is_accepted_as_it_is(tmp_path):
    from leaves.commands.play_output import check_record_file, save_game

    save = tmp_path / "sv.jsonl"
    check_record_file(str(save))  # not there yet: a new file
    state = new_game(3, seed=1)
    save_game(str(save), state, state, ["you", "a", "b"], stopped="the player quit")
    with save.open("a") as fh:
        fh.write('\n{"game": "ligretto", "other": 1}\n')  # another game's record, a blank line
    check_record_file(str(save))
    save.write_bytes(b"\xff\xfe\n")
    with pytest.raises(CLIError, match="is not a file of game records \\(it is not text\\)"):
        check_record_file(str(save))


@pytest.mark.parametrize(
    "stop, code, words, why",
    [
        (EOFError(), 1, "input ended before the game did", "the input ended"),
        (KeyboardInterrupt(), 130, "interrupted", "interrupted (Ctrl-C)"),
    ],
)
def test_a_game_cut_short_is_saved_before_the_error(tmp_path, stop, code, words, why):
    from leaves.commands.play_output import show_left

    initial, left = _cut_short(stop)
    assert left.state is not None and len(left.state.history) > 2  # the bots' moves and ours
    save = tmp_path / "cut.jsonl"
    with pytest.raises(CLIError) as error:
        show_left(make_console(file=io.StringIO()), str(save), left, _seats().names)
    assert error.value.exit_code == code
    assert error.value.format_message() == (
        f"{words}; saved the unfinished game to {save} ('leaves replay {save}' replays it up "
        f"to where {'it' if code == 1 else 'you'} stopped)"
    )
    record = GameRecord.from_json(save.read_text())
    assert record.stopped == why and record.unfinished and record.winner is None
    assert replay(record)[-1].history == left.state.history


def test_a_game_cut_short_without_save_says_only_why(tmp_path):
    from leaves.commands.play_output import show_left

    _, left = _cut_short(EOFError())
    with pytest.raises(CLIError, match="^input ended before the game did$"):
        show_left(make_console(file=io.StringIO()), None, left, _seats().names)


@pytest.mark.slow
def test_play_saves_the_game_when_the_input_ends(tmp_path):
    save = tmp_path / "eof.jsonl"
    proc = _leaves("play", "--seed", "2", "--against", "greedy", "--save", str(save),
                   stdin="1\n1\n")  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr == (
        f"leaves: error: input ended before the game did; saved the unfinished game to {save} "
        f"('leaves replay {save}' replays it up to where it stopped)\n"
    )
    record = GameRecord.from_json(save.read_text())
    assert record.stopped == "the input ended"
    assert sum(1 for seat, _ in replay(record)[-1].history if seat == 0) == 2
    again = _leaves("play", "--seed", "3", "--against", "greedy", "--save", str(save),
                    stdin="q\n")  # fmt: skip
    assert again.returncode == 0
    assert f"('leaves replay {save} --game 2' replays it" in " ".join(again.stdout.split())


# ----------------------------------------------------------------------------- tune
def _tune_result(diff, low, high, p, units=4, arm=(np.nan, np.nan)):
    from tuning.tune import TuneResult
    from tuning.verify import Arm, Verification

    tuned = Arm("weighted:w_pass=-18", "weighted:w_pass=-18", 96, 30, 0.3125, *arm)
    start = Arm("weighted", "weighted", 96, 32, 1 / 3, *arm)
    v = Verification(7, tuned, start, diff, low, high, p, units, games_differing=5)
    settings = {"generations_run": 2, "popsize": 10, "candidate_games": 96, "finalists": 1,
                "finalist_games": 96, "games_used": 2592, "budget": 2600,
                "wall_s": 1.0}  # fmt: skip
    return TuneResult(Path("tu"), "weighted", tuned.spec, {"w_pass": -18}, {"w_pass": -18.73},
                      pd.DataFrame(), pd.DataFrame(), v, settings)  # fmt: skip


def test_tune_says_points_and_no_nan_where_there_is_no_interval():
    lines = _tune_result(-0.0208, math.nan, math.nan, math.nan).lines()
    text = "\n".join(lines)
    assert "nan" not in text.lower()
    assert "  tuned  31.25% (too few deals for an interval)" in lines
    assert ("  paired difference -2.08 percentage points (too few deals for an interval) over "
            "4 deals: too few deals to tell") in lines  # fmt: skip
    assert ("search: 2 generations x 10 candidates (+ start) x 96 games, then 1 finalist x 96 "
            "games: 2,592 games of the budget's 2,600") in lines  # fmt: skip


def test_tune_gives_the_paired_difference_in_points():
    r = _tune_result(-0.0164, -0.0423, 0.0095, 0.21, units=120, arm=(0.28, 0.35))
    lines = r.lines()
    assert ("  paired difference -1.64 percentage points [-4.23, +0.95], p = 0.21 over 120 "
            "deals: no significant difference") in lines  # fmt: skip
    assert "  tuned  31.25% [28.00%, 35.00%]" in lines
    assert not any("%" in line for line in lines if "paired difference" in line)


FIELD = (("taker", "counter", "high", "low"), (4,))


@pytest.mark.parametrize("popsize", [2, 4, 10])
@pytest.mark.parametrize("budget", [1200, 2400, 2592, 5000, 12_345, 40_000])
def test_the_search_never_plays_more_than_its_budget(budget, popsize):
    from gamekit.errors import ParameterError
    from tuning.evaluate import Field
    from tuning.plan import FINALISTS, split_budget

    field = Field(*FIELD)
    try:
        games, generations, select = split_budget(field, "weighted", budget, popsize, None)
    except ParameterError as exc:
        need = int(str(exc).rsplit("need ", 1)[1].split()[0].replace(",", ""))
        assert need > budget
        games, generations, select = split_budget(field, "weighted", need, popsize, None)
        assert generations == 2  # the smallest budget that plays two generations ...
        with pytest.raises(ParameterError):  # ... and one game fewer is too small
            split_budget(field, "weighted", need - 1, popsize, None)
        budget = need
    assert generations >= 2 and select >= games
    assert generations * (popsize + 1) * games + FINALISTS * select <= budget


@pytest.mark.slow
def test_tune_small_verification_in_words(tmp_path):
    proc = _leaves("tune", "weighted", "--against", "taker,counter,high,low", "--budget",
                   "2600", "--verify-games", "40", "--seed", "2", "--jobs", "1", "--out",
                   str(tmp_path / "tu"), "--no-progress")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "nan" not in proc.stdout.lower()
    assert "games: 2,592 games of the budget's 2,600" in proc.stdout
    said = "percentage points (too few deals for an interval) over 4 deals: too few deals"
    assert said in proc.stdout
    small = _leaves("tune", "weighted", "--against", "taker,counter,high,low", "--budget",
                    "2400", "--out", str(tmp_path / "t2"))  # fmt: skip
    assert small.returncode == 2 and "need 2,592 games" in small.stderr


# ----------------------------------------------------------------------------- sequential
def _stub_gauntlet():
    schedule = SimpleNamespace(seats_per_set=8, stages=(1,))
    grown = lambda st: SimpleNamespace(games_per_side=4 * st[-1])  # noqa: E731
    names = {"strategy": "counter", "baseline": "weighted"}
    return SimpleNamespace(schedule=schedule, with_stages=grown, gauntlet=names)


def test_a_sequential_test_without_an_interval_decides_nothing(monkeypatch, tmp_path):
    from leaves_cli import sequential
    from tournaments.sequential import Sequential

    no_interval = {"diff": -0.25, "se": 0.0, "ci_low": math.nan, "ci_high": math.nan}
    monkeypatch.setattr(sequential, "_paired", lambda result: dict(no_interval))
    written = {}
    monkeypatch.setattr(sequential, "_write_manifest_entry",
                        lambda out, key, value: written.update({key: value}))  # fmt: skip
    logged: list[str] = []
    run = lambda t, out, grow: None  # noqa: E731
    _, rec, _ = sequential.run_sequential(_stub_gauntlet(), tmp_path, run, Sequential(0.01), 4,
                                          logged.append)  # fmt: skip
    assert rec["decision"] == "undecided" and rec["finished"] and rec["llr"] is None
    assert written["sequential"] == rec
    assert rec["batches"] == len(logged) == 1  # one deal: the cap, and no test
    assert logged == ["batch 1: 4 games per side, difference -25.00 percentage points (too few "
                      "deals for an interval), so no test yet"]  # fmt: skip


def test_a_sequential_estimate_with_an_interval_is_weighed():
    from leaves_cli.sequential import batch_line, weighable
    from tournaments.sequential import Sequential

    r = {"diff": -0.1, "se": 0.01, "ci_low": -0.12, "ci_high": -0.08}
    assert weighable(r) == r
    test = Sequential(0.01)
    assert test.update(r["diff"], r["se"]) == "not better by the margin"
    assert batch_line(test, 4000, r) == (
        f"batch 1: 4,000 games per side, difference -10.00 percentage points [-12.00, -8.00], LLR "
        f"{test.llr:.2f} (stop at -2.94 or 2.94)"
    )


@pytest.mark.slow
def test_a_sequential_gauntlet_of_one_deal_stays_undecided(tmp_path):
    out = tmp_path / "g1"
    proc = _leaves("gauntlet", "counter", "--against", "taker", "--sequential", "--games", "1",
                   "--max-games", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "nan" not in proc.stderr and "Undecided whether counter" in proc.stdout
    assert ("No test was made: at 4 games per side (as far as --max-games goes) there were too "
            "few deals for an interval; raise --max-games for a test.") in proc.stdout  # fmt: skip
    assert json.loads((out / "manifest.json").read_text())["sequential"]["decision"] == (
        "undecided"
    )


# ----------------------------------------------------------------------------- minor
@pytest.mark.parametrize(
    "args, message",
    [
        (["gauntlet", "counter", "--against", "taker,,greedy"],
         "--against 'taker,,greedy' has an empty item (two commas in a row, or one at an end): "
         "name a strategy between every two commas"),
        (["tune", "taker", "--against", "low,"], "--against 'low,' has an empty item"),
        (["play", "--against", "greedy,,random", "--players", "3"], "--against 'greedy,,random'"),
        (["rules", "--check", ","],
         "--check ',' has an empty item (two commas in a row, or one at an end): write "
         "KEY=VALUE between every two commas"),
        (["rules", "--check", "deck=9/3/4/5/6/7/8/7/6/5/4/3/2"],
         "--check: deck: copies of one value must be 0..8, got 9"),
        (["variants", "--sweep", "hand_size=abc"],
         "--sweep hand_size=abc: hand_size must be a whole number 1..52, got 'abc'"),
        (["strategies", "--filter", "stochastic=maybe", "--names"],
         "--filter stochastic=maybe: 'maybe' is not a value of stochastic, which is true or "
         "false"),
        (["strategies", "--filter", "stochastic=maybe"], "--filter stochastic=maybe: 'maybe' is"),
    ],
)  # fmt: skip
def test_bad_lists_and_values_are_one_line(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    out_dir = ["--out", "o"] if args[0] in ("gauntlet", "tune", "variants") else []
    code, out, err = cli(capsys, *args, *out_dir)
    assert code == 2 and out == ""
    assert one_error_line(err).startswith(f"leaves: error: {message}")
    assert not (tmp_path / "o").exists()


def test_a_strategy_file_without_a_strategy_is_refused(capsys, tmp_path):
    empty = tmp_path / "nostrat.py"
    empty.write_text("x = 1\n")
    code, out, err = cli(capsys, "strategies", "--load", str(empty))
    assert code == 2 and out == ""
    assert one_error_line(err) == (
        f"leaves: error: --load: {empty} defines no strategy (no subclass of a game's Strategy "
        "class): nothing to list from it"
    )


def test_an_unmeasured_path_has_no_rate():
    from leaves.bench import bench_api

    assert bench_api(4, 0, 0) == dict.fromkeys(
        ("api_games_per_second", "api_turns_per_second", "api_mean_turns")
    )


@pytest.mark.slow
def test_bench_without_api_games_says_not_measured():
    proc = _leaves("bench", "--api-games", "0", "--games", "200", "--repeats", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["api_games_per_second"] is None
    proc = _leaves("bench", "--api-games", "0", "--games", "200", "--repeats", "1")
    assert proc.returncode == 0, proc.stderr
    (row,) = [line for line in proc.stdout.splitlines() if "State API" in line]
    assert row.count("not measured") == 2, row
