"""A strategy whose decisions run past the decision timeout is named once, after the first
chunk where one did, with how many of its games so far it forfeited that way: a run of one
that always hangs would otherwise play on silently for games x timeout."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from leaves.plugin import LeavesGame
from strategies.deadline import Deadline, timed_out_after
from tests.helpers import cli
from tournaments import Tournament
from tournaments.notices import _notes, timeout_line
from tournaments.work import FORFEIT_DETAILS_PER_CHUNK, ChunkOutput

STRATS = """
import time

from strategies import Strategy


class Hang(Strategy, register=False):
    def start_game(self, view, rng):
        time.sleep(60)

    def choose(self, view, legal, rng):
        return legal[0]


class Sometimes(Strategy, register=False):
    def start_game(self, view, rng):
        if rng.random() < 0.5:
            time.sleep(60)

    def choose(self, view, legal, rng):
        return legal[0]


class Liar(Strategy, register=False):
    def choose(self, view, legal, rng):
        raise RuntimeError("DecisionTimeout: choose took longer than 1 s")
"""

LIMIT = 0.05
SAID = "timed out in"


@pytest.fixture(scope="module")
def strats(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("strats") / "hanging.py"
    path.write_text(STRATS)
    return str(path)


def test_the_bound_is_read_back_from_a_forfeits_error_and_from_nothing_else():
    error = f"seat 2 (my(x=1)): {Deadline(1.5).message('choose at turn 3')}"
    assert timed_out_after(error) == "1.5 s"
    assert timed_out_after(f"seat 0 (a): {Deadline(0.25).message('end_game')}") == "0.25 s"
    assert (
        timed_out_after("seat 0 (a): RuntimeError: DecisionTimeout: x took longer than 1 s") is None
    )
    assert timed_out_after("seat 0 (a): ValueError: boom") is None


def _run(strats, entrants, games=12, seed=1):
    """(timeout warnings, result) of an in-process run, chunks of 6 games, bound ``LIMIT``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = Tournament([f"{strats}:{e}" if e[0].isupper() else e for e in entrants],
                            players=3, games=games, seed=seed, chunk_size=6,
                            game=LeavesGame(decision_timeout=LIMIT)).run()  # fmt: skip
    return [str(w.message) for w in caught if SAID in str(w.message)], result


def test_a_strategy_that_always_times_out_is_named_once_after_the_first_chunk(strats):
    said, result = _run(strats, ["Hang", "greedy", "low"])
    assert said == [
        f"Hang timed out in 6 of the 6 games it played so far (a decision took longer than "
        f"{LIMIT:g} s): a timed-out decision forfeits its game (no winner; the error is kept "
        "with the game) and the run goes on"
    ]
    assert result.games()["forfeit"].sum() == 12  # the run went on: 2 chunks


def test_the_counts_are_those_of_the_chunk_that_showed_it(strats):
    said, result = _run(strats, ["Sometimes", "greedy", "low"], games=24, seed=4)
    games = result.games().sort_values("game")
    timed_out = games["error"].fillna("").str.contains("DecisionTimeout")
    first = int(games["game"][timed_out].min()) // 6  # the first chunk with one (chunk order)
    in_chunk = timed_out[(games["game"] // 6) == first].sum()
    assert said == [
        f"Sometimes timed out in {in_chunk} of the {6 * (first + 1)} games it played so far "
        f"(a decision took longer than {LIMIT:g} s): a timed-out decision forfeits its game "
        "(no winner; the error is kept with the game) and the run goes on"
    ]
    assert 0 < in_chunk < 6


def test_a_forfeit_for_another_reason_is_no_timeout(strats):
    said, result = _run(strats, ["Liar", "greedy", "low"], games=6)
    assert said == [] and result.games()["forfeit"].all()


def test_a_chunk_that_kept_only_some_forfeits_says_at_least():
    error = f"seat 0 (A): {Deadline(1).message('start_game')}"
    kept = [{"strategy": "A", "seat": 0, "error": error}] * FORFEIT_DETAILS_PER_CHUNK
    output = ChunkOutput(0, 150, 0, {"games": np.array([150, 150]),
                                     "forfeits": np.array([150, 0])}, kept)  # fmt: skip
    notes = _notes(
        SimpleNamespace(labels=("A", "B"), table=(0, 1), game=SimpleNamespace(unit="game")),
        output,
        (),
    )
    assert (notes.timeouts, notes.bound, notes.cut) == ({"A": 100}, "1 s", True)
    assert timeout_line("A", 100, 150, "1 s", True).startswith(
        "A timed out in at least 100 of the 150 games"
    )


def test_games_are_counted_not_seats_where_a_strategy_takes_two_seats():
    """Three games at a table seating A twice: A sat in 3 games (6 seats), and every one
    timed out (it said 'in 3 of the 6 games')."""
    error = f"seat 0 (A): {Deadline(1).message('start_game')}"
    output = ChunkOutput(0, 3, 0, {"games": np.array([6, 3]), "forfeits": np.array([3, 0])},
                         [{"strategy": "A", "seat": 0, "error": error}] * 3)  # fmt: skip
    notes = _notes(
        SimpleNamespace(labels=("A", "B"), table=(0, 0, 1), game=SimpleNamespace(unit="game")),
        output,
        (),
    )
    assert notes.games == {"A": 3, "B": 3} and notes.timeouts == {"A": 3}


@pytest.mark.slow
def test_the_command_line_says_it_as_one_warning_line(strats, capsys, tmp_path):
    code, _, err = cli(capsys, "tournament", f"{strats}:Hang", "greedy", "low",
                       "--players", "3", "--games", "12", "--chunk-size", "6", "--seed", "1",
                       "--decision-timeout", "0.05", "--jobs", "2", "--no-progress",
                       "--out", str(tmp_path / "run"))  # fmt: skip
    lines = [line for line in err.splitlines() if SAID in line]
    assert lines == [
        "leaves: warning: Hang timed out in 6 of the 6 games it played so far (a decision took "
        "longer than 0.05 s): a timed-out decision forfeits its game (no winner; the error is "
        "kept with the game) and the run goes on"
    ], err
    assert code == 1  # every game forfeited: nothing valid
