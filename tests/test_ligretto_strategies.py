"""Ligretto strategies: per-game registry, specs, user files, entry points, built-ins."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import strategies
from ligretto.compiled import ENDED_UNFINISHED, MAX_ROUND_MS
from ligretto.players import LigrettoStrategy, play_batch, play_round
from strategies import registry as reg

BUILTINS = ["cautious", "cycler", "row", "scanner", "stack"]


def test_five_builtins_in_their_own_registry():
    assert strategies.names(game="ligretto") == BUILTINS
    assert not set(BUILTINS) & set(strategies.names())
    for name in BUILTINS:
        s = strategies.get(name, game="ligretto")
        assert s.game == "ligretto" and s.description and s.policy() is not None
        assert s.params["speed"] == 1.0  # speed is a parameter of each
    assert strategies.filtered(game="ligretto", stochastic=True) == ["scanner"]


def test_the_registry_finds_ligretto_through_its_entry_point_alone():
    """Nothing outside ``ligretto/`` names it: a fresh interpreter asking the registry for
    Ligretto's strategies loads its players' package from the entry point (group
    ``leaves.players``), which declares them, and not the heavier plug-in."""
    code = (
        "import sys, strategies\n"
        "print(strategies.names(game='ligretto'), 'ligretto.players' in sys.modules,"
        " 'ligretto.plugin' not in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.split() == [*str(BUILTINS).split(), "True", "True"]


def test_a_name_means_one_thing_per_game():
    with pytest.raises(ValueError, match="'greedy': it is a 13 Leaves strategy"):
        strategies.get("greedy", game="ligretto")
    with pytest.raises(ValueError, match="'stack': it is a Ligretto strategy"):
        strategies.get("stack")
    with pytest.raises(ValueError, match="not a 13 Leaves one"):
        strategies.get(strategies.get("row", game="ligretto"))
    with pytest.raises(ValueError, match="unknown game"):
        strategies.names(game="chess")


def test_spec_strings_and_labels():
    s = strategies.get("cautious:patience=3,speed=1.1", game="ligretto")
    assert s.label == "cautious(speed=1.1,patience=3)"
    assert strategies.get(s.label, game="ligretto") == s
    with pytest.raises(ValueError, match="no parameter 'sped'"):
        strategies.get("stack:sped=2", game="ligretto")
    with pytest.raises(ValueError, match="parameter speed must be > 0, got 0.0"):
        strategies.get("stack:speed=0", game="ligretto")


def test_speed_is_the_reaction_model_speed():
    fast = strategies.get("stack:speed=1.5", game="ligretto")
    assert fast.reaction.speed == 1.5 and fast.policy()[0] == 1.5


def test_faster_player_scores_more_against_its_twin():
    seeds = np.arange(400, dtype=np.uint64)
    out = play_batch(["stack:speed=1.2", "stack"], seeds, seeds + np.uint64(7))
    slow_first = play_batch(["stack", "stack:speed=1.2"], seeds, seeds + np.uint64(7))
    fast = out.batch.scores[:, 0].mean() + slow_first.batch.scores[:, 1].mean()
    slow = out.batch.scores[:, 1].mean() + slow_first.batch.scores[:, 0].mean()
    assert fast > slow


def test_builtins_differ_in_what_they_do():
    seeds = np.arange(50, dtype=np.uint64)
    results = {
        name: play_batch([name, "stack", "stack", "stack"], seeds, seeds).batch.scores[:, 0]
        for name in BUILTINS
    }
    distinct = {tuple(v.tolist()) for v in results.values()}
    assert len(distinct) == len(BUILTINS)


def test_compiled_and_python_batches_agree_for_builtins():
    seeds = np.arange(12, dtype=np.uint64)
    table = ["cautious:patience=2", "cycler", "row", "scanner:speed=0.9"]
    fast = play_batch(table, seeds, seeds + np.uint64(3))
    slow = play_batch(table, seeds, seeds + np.uint64(3), record=True)  # the Python path
    assert np.array_equal(fast.batch.scores, slow.batch.scores)
    assert np.array_equal(fast.batch.ended_by, slow.batch.ended_by)
    assert np.array_equal(fast.batch.time_ms, slow.batch.time_ms)
    assert len(slow.records) == 12


USER = textwrap.dedent(
    '''
    from ligretto import Decision
    from ligretto.players import LigrettoStrategy

    class Lazy(LigrettoStrategy):
        """Plays only its stack top, else turns hand cards."""
        name = "lazy"
        description = "plays only its stack top"

        def __init__(self, speed: float = 1.0, think_ms: int = 300, look_ms: int = 60,
                     flip_ms: int = 250, spread_ms: int = 100):
            pass

        def decide(self, view, rng):
            card = view.stack_top
            pile = view.target(card)
            if pile is not None:
                return Decision("stack", 0, card, pile, 1)
            return Decision("flip" if view.can_flip else "wait", looked=1)

    class Crash(LigrettoStrategy, register=False):
        def __init__(self, speed: float = 1.0):
            pass

        def decide(self, view, rng):
            raise KeyError("oops")

    class Cheat(LigrettoStrategy, register=False):
        def __init__(self, speed: float = 1.0):
            pass

        def decide(self, view, rng):
            return Decision("stack", 0, (view.stack_top + 1) % 40, -1, 0)
    '''
)


def test_user_file_strategy_plays_through_the_python_path(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(USER)
    s = strategies.get(f"{path}:Lazy:speed=2.0", game="ligretto")
    assert s.label == "lazy(speed=2.0)" and s.policy() is None
    seeds = np.arange(3, dtype=np.uint64)
    out = play_batch([f"{path}:Lazy", "stack"], seeds, seeds)
    assert out.errors == [None] * 3
    # Lazy never plays its row or hand: some rounds stall and stop at the time limit
    stalled = out.batch.ended_by == ENDED_UNFINISHED
    assert stalled.any() and (out.batch.time_ms[stalled] <= MAX_ROUND_MS).all()
    rnd = play_round([f"{path}:Lazy", "row"], 1, 2, record=True)
    assert rnd.record.strategies == ["lazy", "row"]
    bad = play_batch([f"{path}:Cheat", "stack"], seeds, seeds)
    assert all("seat 0" in e for e in bad.errors) and (bad.forfeit_seat == 0).all()
    crash = play_batch(["stack", f"{path}:Crash"], seeds, seeds)
    assert (
        all("seat 1 (Crash): KeyError" in e for e in crash.errors)
        and (crash.forfeit_seat == 1).all()
    )
    with pytest.raises(ValueError, match="not a 13 Leaves one"):
        strategies.get(f"{path}:Lazy")
    reg.unregister("lazy", game="ligretto")


def test_entry_points_per_game(monkeypatch):
    class EP:
        def __init__(self, name, value, group):
            self.name, self.value, self.group = name, value, group

        def load(self):
            return Plugged

    class Plugged(LigrettoStrategy, register=False):
        name = "plugged"

        def __init__(self, speed: float = 1.0):
            pass

        def decide(self, view, rng):  # an entry point's class that cannot play is refused
            return None

    def fake(group=None):
        return [EP("plugged", "x:Plugged", group)] if group == "leaves.ligretto_strategies" else []

    monkeypatch.setattr(reg.importlib.metadata, "entry_points", fake)
    assert "plugged" in strategies.names(game="ligretto")
    assert "plugged" not in strategies.names()
    assert strategies.get("plugged", game="ligretto").label == "plugged"
    reg.unregister("plugged", game="ligretto")
