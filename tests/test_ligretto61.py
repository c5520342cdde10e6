"""Ligretto as a demanding user meets it: a strategy of one's own whose reaction-time model
is broken, from the Python API and from ``leaves tournament``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ligretto
import strategies
from ligretto import ReactionModel
from ligretto.players import LigrettoStrategy, play_batch
from ligretto.players.builtin import StackFirst
from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parents[1]
SEEDS = np.arange(4, dtype=np.uint64)


class _Flipper(LigrettoStrategy, register=False):
    """Turns hand cards whenever it can."""

    def __init__(self, speed: float = 1.0):
        pass

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        return ligretto.Decision("flip" if view.can_flip else "wait", looked=1)


class RaisingReaction(_Flipper, register=False):
    """Its reaction-time model raises when asked for."""

    @property
    def reaction(self) -> Any:
        raise RuntimeError("no model")


def test_a_reaction_model_that_raises_forfeits_the_round_as_a_raising_decide_does():
    """docs/ligretto.md: a strategy that raises forfeits the round (no scores, no winner).
    Its ``reaction`` raising is its own code raising: its seat forfeits every round, the
    error says what raised, and the batch (a run) goes on."""
    out = play_batch([RaisingReaction(), "stack"], SEEDS, SEEDS[::-1].copy())
    assert out.forfeit_seat.tolist() == [0, 0, 0, 0]
    assert all(e is not None and "RuntimeError: no model" in e for e in out.errors), out.errors
    assert (out.batch.scores == 0).all()


NO_MODEL = """
from ligretto import Decision
from ligretto.players import LigrettoStrategy


class NoModel(LigrettoStrategy):
    name = "nomodel"

    def __init__(self, speed=1.0):
        pass

    @property
    def reaction(self):
        return 250  # no model: nothing to draw a reaction time from

    def decide(self, view, rng):
        return Decision("flip" if view.can_flip else "wait", looked=1)
"""


def test_a_strategy_with_no_reaction_model_is_refused_before_anything_is_written(tmp_path, capsys):
    """A strategy that is no Ligretto player at all (its ``reaction`` has no ``duration``) is
    bad input: refused in one line naming it, exit 2, before the run writes a file (it used
    to write the manifest, then stop with exit 1: the same command, the file mended, was then
    refused as a run that is not empty, and its --resume as a run whose entrant changed)."""
    (tmp_path / "mine.py").write_text(NO_MODEL)
    out = tmp_path / "run"
    try:
        code, _, err = cli(capsys, "tournament", "--game", "ligretto",
                           f"{tmp_path}/mine.py:NoModel", "stack", "--players", "2", "--games",
                           "4", "--seed", "1", "--out", str(out))  # fmt: skip
    finally:  # the file's class registered itself: gone again for the tests after this one
        strategies.registry.unregister("nomodel", game="ligretto")
    line = one_error_line(err)
    assert code == 2, err
    assert "nomodel" in line and "reaction" in line, line
    assert not out.exists() or not any(out.iterdir())


class OwnClock(StackFirst, register=False):
    """``stack``'s attention with a reaction-time model of its own: twice as fast."""

    @property
    def reaction(self) -> Any:
        return ReactionModel(speed=2.0)


def test_a_subclass_of_a_built_in_with_its_own_clock_plays_the_parents_decisions():
    """docs/ligretto.md: a subclass of a built-in that defines its own ``reaction`` plays its
    own code, never the parent's compiled policy: its own clock, and the decisions it
    inherits (it used to forfeit every round, 'must implement decide()'). Its rounds are
    those of ``stack`` at the speed its clock has, which the compiled loop plays."""
    assert OwnClock().policy() is None
    seeds = np.arange(6, dtype=np.uint64)
    own = play_batch([OwnClock(), "row"], seeds, seeds[::-1].copy())
    assert (own.forfeit_seat == -1).all(), own.errors
    same = play_batch(["stack:speed=2", "row"], seeds, seeds[::-1].copy())  # compiled
    np.testing.assert_array_equal(own.batch.scores, same.batch.scores)
    np.testing.assert_array_equal(own.batch.time_ms, same.batch.time_ms)


class TwiceAsFast(StackFirst, register=False):
    """``stack`` with a new default speed, declared as every strategy declares its own."""

    def __init__(self, speed: float = 2.0):
        pass


def test_a_subclass_of_a_built_in_keeps_the_defaults_its_init_declares():
    """A subclass of a built-in that declares a new default (``speed=2.0``) plays at it: the
    built-in's constructor used to replace the subclass's own ``__init__``, so it silently
    played at 1.0. Checked as the built-in checks its parameters; the compiled loop plays it."""
    assert TwiceAsFast().params["speed"] == 2.0 and TwiceAsFast().policy()[0] == 2.0
    assert TwiceAsFast(speed=1.5).params["speed"] == 1.5
    seeds = np.arange(6, dtype=np.uint64)
    mine = play_batch([TwiceAsFast(), "row"], seeds, seeds[::-1].copy())
    same = play_batch(["stack:speed=2", "row"], seeds, seeds[::-1].copy())
    np.testing.assert_array_equal(mine.batch.scores, same.batch.scores)
    with pytest.raises(ValueError, match="speed must be > 0"):
        TwiceAsFast(speed=0)


@pytest.mark.slow
def test_the_seating_paragraph_says_what_a_balanced_design_costs():
    """docs/ligretto.md said balanced designs 'do not exist at a usable size for 7 to 12
    seats'; they do (42 seatings of a deal with 7 different strategies, 72 with 9, 24 for
    four strategies three times each at 12 seats): what the default spares is those replays,
    and past 500,000 orders (10 different strategies) no design is searched for at all."""
    from tournaments.seating import design

    text = " ".join((ROOT / "docs" / "ligretto.md").read_text().split())
    assert "do not exist at a usable size" not in text
    said = "42 to 72 seatings of each deal with 7 to 9 different strategies"
    assert said in text
    assert [len(design(tuple(range(k)), "balanced")) for k in (7, 9)] == [42, 72]
    assert "balanced and all are refused with 10 to 12 different strategies" in text
    with pytest.raises(ValueError, match="3,628,800 distinct orders"):
        design(tuple(range(10)), "balanced")
