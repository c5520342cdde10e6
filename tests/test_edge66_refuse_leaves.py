"""A 13 Leaves strategy class that cannot play (no ``choose``, no compiled policy) is refused
when it registers or is used in a run, as Ligretto's are; a class with a compiled policy and
no ``choose`` plays at a table with a plain-Python seat."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import strategies
from leaves.players import play_batch
from leaves.players.base import Strategy
from leaves.plugin import LeavesGame
from tests.helpers import cli, one_error_line

SEEDS = np.arange(6, dtype=np.uint64)
CANNOT = "is no 13 Leaves player: it implements no choose(view, legal, rng), nor a compiled policy"


@pytest.fixture(autouse=True)
def _cli_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "200")  # rich's tables on one line


def test_a_named_class_without_choose_is_refused_when_it_registers():
    """It used to register and then forfeit every game it played ('must implement
    choose()'); its definition is refused in one line, and its name stays free."""
    with pytest.raises(TypeError, match=f"^nochoose66 {re.escape(CANNOT)}, so it would") as exc:

        class NoChoose(Strategy):
            name = "nochoose66"

    assert "\n" not in str(exc.value)
    assert "nochoose66" not in strategies.names()


class _Base(Strategy, register=False):
    """A base of one's own strategies: no name, no ``choose``, never registered."""


class _Chooses(_Base, register=False):
    """A subclass of that base that chooses: a player."""

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return legal[0]


def test_an_unregistered_base_may_be_defined_and_its_players_play():
    """The refusal is of a class that cannot play, not of a base one subclasses."""
    assert _Base.cannot_play() == CANNOT.split(": ", 1)[1]
    assert _Chooses.cannot_play() is None and _Chooses().cannot_play() is None
    out = play_batch([_Chooses(), "greedy", "low"], SEEDS, SEEDS[::-1].copy())
    assert (out.forfeit_seat == -1).all(), out.errors


def test_a_run_refuses_a_strategy_that_cannot_play():
    with pytest.raises(ValueError, match=f"^_Base {re.escape(CANNOT)}$"):
        LeavesGame().lookup(_Base)
    assert LeavesGame().lookup(_Chooses).label == "_Chooses"


def test_every_shipped_strategy_plays():
    """The built-ins, the interop wrappers and the example all choose or have a policy."""
    import examples.my_strategy  # noqa: F401  (the example registers its strategy)
    import interop.agents  # noqa: F401
    import interop.openspiel  # noqa: F401

    names = strategies.names()
    assert {"greedy", "random", "ismcts", "observation", "openspiel", "hoarder"} <= set(names)
    assert [n for n in names if strategies.registry.get_class(n, "leaves").cannot_play()] == []


NAMED_FILE = """
from leaves.players.base import Strategy


class NoChoose(Strategy):
    name = "nochoose"
"""

UNNAMED_FILE = """
from leaves.players.base import Strategy


class NoChoose(Strategy, register=False):
    pass
"""


@pytest.mark.parametrize("text", [NAMED_FILE, UNNAMED_FILE])
@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
def test_a_run_refuses_a_file_whose_class_cannot_play(tmp_path, capsys, text, command):
    """``leaves tournament nochoose.py:NoChoose random`` used to play the whole run, every
    game of NoChoose forfeited, and exit 1; it is bad input: one line, exit 2, nothing
    written."""
    (tmp_path / "nochoose.py").write_text(text)
    out = tmp_path / "run"
    field = ["random"] if command == "tournament" else ["--against", "random"]
    code, _, err = cli(capsys, command, f"{tmp_path}/nochoose.py:NoChoose", *field,
                       "--games", "8", "--no-progress", "--out", str(out))  # fmt: skip
    line = one_error_line(err)
    assert code == 2, err
    assert CANNOT in line, line
    assert not out.exists()


class _PolicyOnly(Strategy, register=False):
    """A player of one's own by a compiled policy only: ``greedy``'s."""

    def compiled(self) -> Any:
        return strategies.get("greedy").compiled()


def test_a_policy_without_choose_plays_at_a_table_with_a_python_seat():
    """Such a table plays every seat by ``choose``: it used to forfeit every game there
    ('must implement choose()'); it plays its policy's moves, the built-in's games."""
    assert _PolicyOnly.cannot_play() is None
    own = play_batch([_PolicyOnly(), _Chooses(), "low"], SEEDS, SEEDS[::-1].copy(), record=True)
    assert (own.forfeit_seat == -1).all(), own.errors
    same = play_batch(["greedy", _Chooses(), "low"], SEEDS, SEEDS[::-1].copy(), record=True)
    assert [r.actions for r in own.records] == [r.actions for r in same.records]


class _Logs(_PolicyOnly, register=False):
    """A hook of its own below the policy it inherits: it gives the policy up (the compiled
    loop would not call the hook), and has no ``choose`` to play by."""

    def start_game(self, view: Any, rng: Any) -> None:
        pass


def test_a_class_whose_hook_gives_up_its_policy_is_refused():
    gave_up = f"{CANNOT} (its own start_game or end_game gives up the one it inherits)"
    with pytest.raises(ValueError, match=f"^_Logs {re.escape(gave_up)}$"):
        LeavesGame().lookup(_Logs)
    with pytest.raises(TypeError, match=f"^logs66 {re.escape(gave_up)}, so it would"):

        class Logs(_PolicyOnly):
            name = "logs66"

            def end_game(self, view: Any, result: Any) -> None:
                pass

    assert "logs66" not in strategies.names()


def test_a_class_whose_choose_is_no_method_is_refused_when_it_registers():
    """``choose = None`` used to pass (it is not the base's ``choose``) and then forfeit
    every game the class played; it is refused as a class without ``choose`` is."""
    with pytest.raises(TypeError, match="^nonechoose72 is no 13 Leaves player: its choose is no "):

        class NoneChoose(Strategy):
            name = "nonechoose72"
            choose = None  # type: ignore[assignment]

    assert "nonechoose72" not in strategies.names()
