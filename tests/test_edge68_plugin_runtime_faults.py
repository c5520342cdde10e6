"""A game plug-in's faults named where the runner meets them, whatever the game: a strategy
class its game's base says cannot play is refused when it is defined or used; a ``play`` that
raises or gives something other than the batch its declaration promises is one
``PluginError`` naming the game and the fault; a forfeit's error names its seat's strategy.

The game here is a tiny Nim (take 1 to 3, who takes the last wins), defined in this module:
its players' base overrides ``cannot_play`` as a third party's game would.
"""

from __future__ import annotations

import json
import pickle
from typing import Any, ClassVar

import numpy as np
import pytest

import strategies
from strategies import Player
from strategies.registry import unregister
from tournaments.game import GameBase, SeatedBatch
from tournaments.plugin_results import PluginError, seat_error
from tournaments.runner import Tournament

strategies.declare_game("pin68", "Pin", "pin68.strategies")


class PinPlayer(Player, register=False):
    """A Pin strategy: ``take(pile, rng)`` returns 1, 2 or 3."""

    game: ClassVar[str] = "pin68"

    def take(self, pile: int, rng: np.random.Generator) -> int:
        raise NotImplementedError

    @classmethod
    def cannot_play(cls) -> str | None:
        return None if cls.take is not PinPlayer.take else f"{cls.__name__} takes nothing"


class One(PinPlayer, register=False):
    def take(self, pile: int, rng: np.random.Generator) -> int:
        return 1


class Two(PinPlayer, register=False):
    def take(self, pile: int, rng: np.random.Generator) -> int:
        return min(2, pile)


class Crashy(PinPlayer, register=False):
    def take(self, pile: int, rng: np.random.Generator) -> int:
        raise RuntimeError("small pile")


class Idle(PinPlayer, register=False):
    """Implements no take: it would forfeit every game."""


class PinGame(GameBase):
    name, title, rules_core = "pin68", "Pin", None
    min_players, max_players = 2, 3
    seat_columns, game_columns = ("taken", "score"), ("turns",)
    rank_value, higher_is_better, ahead_means = "score", True, "took the last stone"
    length_value, max_length = "turns", 30
    has_first_player, shared_wins, turn_order = True, False, True
    default_seating, match_score, match_target = "rotations", "score", 3

    def lookup(self, spec: Any) -> Any:
        return strategies.get(spec, game=self.name)

    def play(self, seats, deal_seeds, play_seeds, record=False) -> SeatedBatch:
        players = [self.strategy(p) for p in seats]
        g, n = len(deal_seeds), len(players)
        taken, score = np.zeros((g, n), np.int16), np.zeros((g, n), np.int16)
        winner, forfeit = np.full(g, -1, np.int8), np.full(g, -1, np.int8)
        turns, errors = np.zeros(g, np.int16), []
        for i in range(g):
            pile, seat, error = 10 + int(deal_seeds[i] % 5), 0, None
            rng = np.random.default_rng(int(play_seeds[i]))
            while pile:
                try:
                    t = players[seat].take(pile, rng)
                except Exception as exc:  # noqa: BLE001 - the strategy forfeits
                    forfeit[i], error = seat, f"seat {seat}: {type(exc).__name__}: {exc}"
                    break
                pile, turns[i] = pile - t, turns[i] + 1
                taken[i, seat] += t
                if pile == 0:
                    winner[i], score[i, seat] = seat, 1
                seat = (seat + 1) % n
            errors.append(error)
        records = [json.dumps({"game": "pin68"})] * g if record else None
        return SeatedBatch(np.zeros(g, np.int8), winner, forfeit, {"taken": taken, "score": score},
                           {"turns": turns}, errors, records)  # fmt: skip


class ReturnsDict(PinGame):
    def play(self, *args: Any, **kw: Any) -> Any:
        return {"winner": 0}


class ReturnsNone(PinGame):
    def play(self, *args: Any, **kw: Any) -> Any:
        return None


class Raises(PinGame):
    def play(self, *args: Any, **kw: Any) -> Any:
        raise KeyError("bug in plugin")


def _edited(edit):
    """A PinGame whose batches ``edit`` spoils."""

    class Spoilt(PinGame):
        def play(self, *args: Any, **kw: Any) -> SeatedBatch:
            b = super().play(*args, **kw)
            edit(b)
            return b

    return Spoilt


def _drop_score(b):
    del b.seat_values["score"]


def _out_of_range(b):
    b.winner_seat = np.where(b.winner_seat >= 0, b.winner_seat + 5, -1).astype(np.int8)


def _short(b):
    b.winner_seat = b.winner_seat[:-1]


def _lists(b):
    b.winner_seat = b.winner_seat.tolist()


def _floats(b):
    b.winner_seat = b.winner_seat + 0.5


def _few_errors(b):
    b.errors[0] = "seat 0: made up"


G = "tests.test_edge68_plugin_runtime_faults"  # how a class of this module is named


def _run(game: Any, tmp_path, entrants=None, **kw: Any) -> Any:
    entrants = entrants or [One(), Two()]
    t = Tournament(entrants, players=2, games=20, seed=1, game=game, **kw)
    return t.run(n_jobs=1, out=tmp_path / "run")


@pytest.mark.parametrize(
    ("game", "why"),
    [
        (ReturnsDict, "play() of 10 games gave dict, not a SeatedBatch"),
        (ReturnsNone, "play() of 10 games gave None, not a SeatedBatch"),
        (Raises, "play() raised KeyError: 'bug in plugin'"),
        (_edited(_drop_score), "seat_values has ['taken'], declared ['taken', 'score']"),
        (_edited(_short), "winner_seat has shape (9,), not (10,)"),
        (_edited(_lists), "winner_seat is list, not a numpy array"),
        (_edited(_floats), "winner_seat is an array of float64, not of integers"),
        (_edited(_few_errors), "1 errors for 0 forfeited games"),
    ],
)
def test_a_fault_of_the_plugins_own_code_is_one_line_naming_it(tmp_path, game, why):
    with pytest.raises(PluginError) as caught:
        _run(game(), tmp_path)
    name = f"{G}:{game.__qualname__}"
    assert str(caught.value) == f"game {name}: {why}"
    assert caught.value.usage_error is False  # the command was right: exit 1
    again = pickle.loads(pickle.dumps(caught.value))  # as it comes back from a worker
    assert str(again) == str(caught.value)


def test_a_winner_out_of_range_names_the_seats_a_table_has(tmp_path):
    with pytest.raises(PluginError, match=r": winner_seat \[[-\d ]*[5-7][-\d ]*\] not in -1\.\.1$"):
        _run(_edited(_out_of_range)(), tmp_path)


def test_a_good_plugin_plays_and_a_forfeit_names_its_strategy(tmp_path):
    res = _run(PinGame(), tmp_path, entrants=[Crashy(), One()])
    rows = res.games(["forfeit_seat", "seat_0", "seat_1", "error"])
    assert len(rows) == 20 and (rows["forfeit_seat"] >= 0).all()
    for _, row in rows.iterrows():
        seat = int(row["forfeit_seat"])
        assert row["error"] == f"seat {seat} (Crashy): RuntimeError: small pile"
        assert row[f"seat_{seat}"] == "Crashy"


def test_a_forfeit_said_with_its_strategy_already_is_kept_as_it_is():
    class Said(str):
        traceback = "Traceback ..."

    said = Said("seat 2 (raiser): RuntimeError: x")
    assert seat_error(said, 2, "raiser") is said  # its traceback kept with it
    assert seat_error("seat 2 (r): x", 2, "r [r.py]") == "seat 2 (r): x"  # as its game says
    assert seat_error("seat 1: x", 1, "b") == "seat 1 (b): x"
    assert seat_error("illegal take 0", 0, "zero") == "seat 0 (zero): illegal take 0"


def test_a_class_that_cannot_play_is_refused_when_it_is_defined_with_a_name():
    try:
        with pytest.raises(TypeError) as caught:

            class Nothing(PinPlayer):
                name = "nothing68"

    finally:
        unregister("nothing68", game="pin68")
    assert str(caught.value) == (
        "nothing68 is no Pin player: Nothing takes nothing, so it would forfeit every game "
        "it played"
    )


def test_a_class_that_cannot_play_is_refused_when_it_is_used(tmp_path):
    with pytest.raises(ValueError, match=r"^Idle is no Pin player: Idle takes nothing$"):
        _run(PinGame(), tmp_path, entrants=[Idle(), One()])
    assert not (tmp_path / "run" / "manifest.json").exists()  # before any game


def test_a_replay_of_a_faulty_plugin_names_the_fault_as_a_run_does():
    with pytest.raises(PluginError) as caught:
        ReturnsDict().replay([One(), Two()], 1, 2)
    assert (
        str(caught.value) == f"game {G}:ReturnsDict: play() of 1 game gave dict, not a SeatedBatch"
    )
    played = PinGame().replay([One(), Two()], 1, 2)  # a good one replays
    assert played.outcome[2] == -1 and played.record == '{"game": "pin68"}'
