"""One hook says whether a strategy can play: its class's ``cannot_play`` (``strategies.Player``:
None; each game's base class says why in its own protocol's words). The registry, each game's
ways into a game or a run, the definition of a named class and Ligretto's engine all ask it,
and refuse in the one line ``strategies.registry.refusal`` words."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import ligretto
import strategies
from leaves.players import play_batch, play_game
from leaves.players.base import Strategy
from leaves.plugin import LeavesGame
from ligretto.players import LigrettoStrategy, play_round, resolve
from ligretto.players.builtin import StackFirst
from ligretto.plugin import LigrettoGame
from strategies import Player, registry

SEEDS = np.arange(2, dtype=np.uint64)
WHY = "it needs a package that is not installed"
NO_DECIDE = "it implements no decide(view, rng), nor a policy vector"


class _Needs(Strategy, register=False):
    """A 13 Leaves player whose class says it cannot play here (its own check, by the hook)."""

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return legal[0]

    @classmethod
    def cannot_play(cls) -> str | None:
        return WHY


class _LigrettoNeeds(LigrettoStrategy, register=False):
    """Ligretto's: it decides, but its class says it cannot play."""

    def decide(self, view: Any, rng: Any) -> Any:
        return StackFirst().decide(view, rng)

    @classmethod
    def cannot_play(cls) -> str | None:
        return WHY


def test_a_strategy_of_no_game_plays_as_far_as_the_registry_knows():
    """The shared base knows no protocol: it has no reason to refuse."""

    class Bare(Player, register=False):
        pass

    assert Player.cannot_play() is None and Bare.cannot_play() is None
    assert registry.refusal(Bare, "bare") is None


def test_every_13_leaves_way_in_asks_the_hook():
    """``register``, the Python API, a run's lookup and a named definition refuse the class by
    its own hook, in the same line (a run's lookup says what ``playing`` says)."""
    line = f"_Needs is no 13 Leaves player: {WHY}"
    with pytest.raises(TypeError, match=f"^needs66 is no 13 Leaves player: {WHY}$"):
        strategies.register(name="needs66")(_Needs)
    assert "needs66" not in strategies.names()
    for play in (
        lambda: play_batch([_Needs(), "greedy", "low"], SEEDS, SEEDS),
        lambda: play_game([_Needs, "greedy", "low"], seed=1),
        lambda: LeavesGame().lookup(_Needs),
    ):
        with pytest.raises(ValueError, match=f"^{re.escape(line)}$"):
            play()
    with pytest.raises(TypeError, match=f"^named66 is no 13 Leaves player: {WHY}, so it would"):

        class Named(_Needs):
            name = "named66"

    assert "named66" not in strategies.names()


def test_every_ligretto_way_in_asks_the_hook():
    line = f"_LigrettoNeeds is no Ligretto player: {WHY}"
    with pytest.raises(TypeError, match=f"^needs66 is no Ligretto player: {WHY}$"):
        strategies.register(name="needs66")(_LigrettoNeeds)
    assert "needs66" not in strategies.names(game="ligretto")
    for play in (
        lambda: resolve(_LigrettoNeeds),
        lambda: play_round([_LigrettoNeeds(), "stack"], 1, 2),
        lambda: LigrettoGame().lookup(_LigrettoNeeds),
    ):
        with pytest.raises(ValueError, match=f"^{re.escape(line)}$"):
            play()
    with pytest.raises(TypeError, match=f"^named66 is no Ligretto player: {WHY}, so it would"):

        class Named(_LigrettoNeeds):
            name = "named66"

    assert "named66" not in strategies.names(game="ligretto")


def test_a_class_whose_decide_is_no_method_is_refused_when_it_registers():
    """``decide = None`` used to register (it is not the base's ``decide``) and was refused
    only at use; its definition is refused as a class without ``decide`` is."""
    with pytest.raises(TypeError, match="^nonedecide72 is no Ligretto player: its decide is no"):

        class NoneDecide(LigrettoStrategy):
            name = "nonedecide72"
            decide = None  # type: ignore[assignment]

    assert "nonedecide72" not in strategies.names(game="ligretto")


class _NoDecide(LigrettoStrategy, register=False):
    """No name, no ``decide``, no policy vector: a base of one's own."""


def test_the_engines_play_round_refuses_a_strategy_that_cannot_decide():
    """``ligretto.play_round`` (the engine, which knows no strategy class) played it: the seat
    forfeited the round at its first action ('must implement decide()'). It asks the class's
    hook and refuses it in one line, as it refuses any object that is no player."""
    with pytest.raises(TypeError) as exc:
        ligretto.play_round([StackFirst(), _NoDecide()], 1, 2)
    assert str(exc.value) == f"players: seat 1's _NoDecide is no Player ({NO_DECIDE})"


def test_the_engine_still_plays_an_object_without_the_hook():
    """Duck-typed: a player that is no strategy class (no ``cannot_play``) plays as before."""

    class Plain:
        reaction = StackFirst().reaction

        def decide(self, view: Any, rng: Any) -> Any:
            return StackFirst().decide(view, rng)

    assert not hasattr(Plain, "cannot_play")
    out = ligretto.play_round([Plain(), StackFirst()], 1, 2)
    assert out.scores is not None
