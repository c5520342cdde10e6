"""A strategy's per-game hooks in the research adapters: ``StrategyBot`` (OpenSpiel) and
``pettingzoo_policy`` call ``start_game`` once a seat a game, before its first decision, and
``end_game`` once, at the end they see, as tournaments do (a strategy that keeps state from
``start_game`` crashed in both)."""

from __future__ import annotations

import itertools
import os
from typing import ClassVar

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from interop.agents import pettingzoo_policy  # noqa: E402
from interop.openspiel import GAME_NAME, StrategyBot, register  # noqa: E402
from interop.pettingzoo import env  # noqa: E402
from strategies import Strategy  # noqa: E402

register()


class _Hooked(Strategy, register=False):
    """Plays the value it held most of at its ``start_game``; records every call."""

    log: ClassVar[list[tuple]] = []
    made: ClassVar[itertools.count] = itertools.count()  # id() is reused once one is freed

    def __init__(self):
        self.serial = next(self.made)

    def start_game(self, view, rng):
        self.dealt = list(view.hand)  # a choose before start_game fails here
        self.log.append(("start", self.serial, view.player, view.turn))

    def choose(self, view, legal, rng):
        self.log.append(("choose", self.serial, view.player, view.turn))
        plays = [a for a in legal if not a.is_pass]
        return max(plays, key=lambda a: (self.dealt[a.value - 1], a.count)) if plays else legal[0]

    def end_game(self, view, result):
        self.log.append(("end", self.serial, view.player, view.turn, view.is_terminal, result))


@pytest.fixture(autouse=True)
def _clear_log():
    _Hooked.log.clear()


def _games_of(log: list[tuple]) -> list[list[tuple]]:
    """The log cut at each instance's start: one list per (instance, game)."""
    by: dict[int, list[tuple]] = {}
    for event in log:
        by.setdefault(event[1], []).append(event)
    return list(by.values())


def _check_once_per_game(log: list[tuple], games: int, seats: int) -> None:
    """Every instance: one start, its decisions, one end at a terminal view, in that order."""
    played = _games_of(log)
    assert len(played) == games * seats
    for events in played:
        kinds = [e[0] for e in events]
        assert kinds[0] == "start" and kinds[-1] == "end"
        assert set(kinds[1:-1]) == {"choose"}
        assert len({e[2] for e in events}) == 1  # one seat an instance
        assert events[0][3] == events[1][3]  # started at the position of its first decision
        end = events[-1]
        assert end[4] and end[3] == end[5].turns  # its view of the end, the result's turns


def test_strategy_bot_starts_and_ends_each_game_once_in_evaluate_bots():
    game = pyspiel.load_game(f"{GAME_NAME}(players=3)")
    bots = [StrategyBot(_Hooked(), 1), StrategyBot("random", 2), StrategyBot("greedy", 3)]
    rs = np.random.RandomState(0)
    returns = [evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs) for _ in range(3)]
    _check_once_per_game(_Hooked.log, games=3, seats=1)
    for events, ret in zip(_games_of(_Hooked.log), returns, strict=True):
        result = events[-1][5]
        assert ret[result.winner] == 1.0 and result.forfeit_seat is None  # the game's winner
        assert result.labels == ("player_0", "player_1", "player_2")


def test_strategy_bot_at_every_seat_plays_a_fresh_instance_a_seat():
    game = pyspiel.load_game(f"{GAME_NAME}(players=3)")
    bot = StrategyBot(_Hooked(), 1)
    evaluate_bots.evaluate_bots(game.new_initial_state(), [bot] * 3, np.random.RandomState(1))
    _check_once_per_game(_Hooked.log, games=1, seats=3)


def test_strategy_bot_ends_at_the_restart_a_game_it_was_not_told_the_end_of():
    """A loop that never calls ``inform_action``, another seat making the last move: the state
    it last saw, played on in place to its end, ends its game at the next restart."""
    state = pyspiel.load_game(f"{GAME_NAME}(players=3)").new_initial_state()
    bot, others = StrategyBot(_Hooked(), 1), StrategyBot("weighted", 2)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action((bot if state.current_player() == 0 else others).step(state))
    assert state.returns()[0] == -1.0  # another seat's move ended it, out of the bot's sight
    assert "end" not in [e[0] for e in _Hooked.log]
    bot.restart()
    _check_once_per_game(_Hooked.log, games=1, seats=1)
    bot.restart()
    assert [e[0] for e in _Hooked.log].count("end") == 1  # once


def _play(e, act, seed: int) -> None:
    e.reset(seed=seed)
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else act(e, agent))


def test_pettingzoo_policy_starts_and_ends_each_game_once_at_its_end():
    e = env(n_players=3)
    act = pettingzoo_policy(_Hooked(), seed=1)
    for seed in (1, 2):
        _play(e, act, seed)
        _check_once_per_game(_Hooked.log, games=seed, seats=3)  # ended before the next reset
    result = _Hooked.log[-1][5]
    assert (
        result.winner == e.unwrapped.game.winner
        and result.cards_left == e.unwrapped.game.hand_sizes
    )


def test_pettingzoo_policy_is_ended_as_a_forfeit_by_an_illegal_action():
    e = env(n_players=3)
    act = pettingzoo_policy(_Hooked(), seed=1)
    e.reset(seed=4)
    e.step(act(e, e.agent_selection))  # player k plays, the next seat then acts illegally
    cheat = e.unwrapped.game.current_player
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    end = _Hooked.log[-1]
    assert end[0] == "end" and not end[4]  # the position where the game stopped
    assert end[5].forfeit_seat == cheat and end[5].winner is None
    assert [e[0] for e in _Hooked.log] == ["start", "choose", "end"]


def test_a_game_left_before_its_end_gets_no_end_game():
    e = env(n_players=3)
    act = pettingzoo_policy(_Hooked(), seed=1)
    e.reset(seed=4)
    e.step(act(e, e.agent_selection))
    e.reset(seed=5)
    e.step(act(e, e.agent_selection))
    assert [e[0] for e in _Hooked.log] == ["start", "choose", "start", "choose"]
