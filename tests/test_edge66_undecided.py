"""A strategy class that cannot play (13 Leaves: neither ``choose`` nor a compiled policy;
Ligretto: neither ``decide`` nor a policy) is refused on every way in, in one line through its
class's own check (``cannot_play``): ``strategies.register`` of an unnamed class, the Python API
(``play_batch``, ``play_game``, ``play_seatings``, ``play_match_batch``, Ligretto's
``play_round``) and ``leaves play --against``. It used to be accepted there and forfeit every
game (or round) it played."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import strategies
from leaves.players import play_batch, play_game, play_match_batch, play_seatings
from leaves.players.base import Strategy
from leaves.players.builtin._base import CompiledBuiltin
from ligretto.match import MAX_GAME_POINTS, MAX_ROUND_POINTS, MAX_ROUNDS_PER_GAME, OUT_OF_REACH
from ligretto.players import play_round
from ligretto.players.base import LigrettoStrategy
from ligretto.rules import SET_SIZE
from strategies import registry
from tests.helpers import cli, one_error_line

ROOT = Path(__file__).resolve().parent.parent
SEEDS = np.arange(4, dtype=np.uint64)
CANNOT = "is no 13 Leaves player: it implements no choose(view, legal, rng), nor a compiled policy"
NO_DECIDE = "is no Ligretto player: it implements no decide(view, rng), nor a policy vector"


@pytest.fixture(autouse=True)
def _cli_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "200")  # rich's tables on one line


class _Undecided(Strategy, register=False):
    """No name, no ``choose``, no policy: it may be defined (a base of one's own)."""


class _Chooses(_Undecided, register=False):
    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return legal[0]


class _NoDecide(LigrettoStrategy, register=False):
    """Ligretto's: no name, no ``decide``, no policy vector."""


# ----------------------------------------------------------------------------- the registry
def test_register_refuses_a_13_leaves_class_that_cannot_play():
    """``strategies.register(name=...)`` of an unnamed class registered it: every game it then
    played was forfeited ('must implement choose()'). Refused as its definition with a name
    is, and its name stays free."""
    with pytest.raises(TypeError, match=f"^undecided66 {re.escape(CANNOT)}$"):
        strategies.register(name="undecided66")(_Undecided)
    assert "undecided66" not in strategies.names()
    assert "name" not in vars(_Undecided)


def test_register_refuses_a_ligretto_class_that_cannot_decide():
    with pytest.raises(TypeError, match=f"^nodecide66 {re.escape(NO_DECIDE)}$"):
        strategies.register(name="nodecide66")(_NoDecide)
    assert "nodecide66" not in strategies.names(game="ligretto")


def test_register_still_takes_a_class_that_plays():
    class Chooses66(_Chooses, register=False):
        pass

    try:
        assert strategies.register(name="chooses66")(Chooses66) is Chooses66
        assert registry.get_class("chooses66") is Chooses66
    finally:
        registry.unregister("chooses66")


# ----------------------------------------------------------------------------- the Python API
@pytest.mark.parametrize("given", [_Undecided, _Undecided()], ids=["class", "instance"])
def test_the_python_api_refuses_it_before_a_game(given: Any):
    """``play_batch`` and the rest played it, each game forfeited by its seat."""
    line = f"^_Undecided {re.escape(CANNOT)}$"
    with pytest.raises(ValueError, match=line):
        play_batch([given, "greedy", "low"], SEEDS, SEEDS)
    with pytest.raises(ValueError, match=line):
        play_game([given, "greedy", "low"], seed=1)
    with pytest.raises(ValueError, match=line):
        play_game(given, seed=1, n_players=3)
    with pytest.raises(ValueError, match=line):
        play_seatings([["greedy", "low", "random"], [given, "greedy", "low"]], [0, 1], [1, 2],
                      [3, 4])  # fmt: skip
    with pytest.raises(ValueError, match=line):
        play_match_batch([given, "greedy", "low"], SEEDS[:1], SEEDS[:1])


def test_a_subclass_that_chooses_still_plays_on_the_python_api():
    out = play_batch([_Chooses(), "greedy", "low"], SEEDS, SEEDS[::-1].copy())
    assert (out.forfeit_seat == -1).all(), out.errors
    assert play_game([_Chooses(), "greedy", "low"], seed=1).error is None


def test_ligretto_play_round_refuses_an_instance_that_cannot_decide():
    with pytest.raises(ValueError, match=f"^_NoDecide {re.escape(NO_DECIDE)}$"):
        play_round([_NoDecide(), "stack"], 1, 2)


# ----------------------------------------------------------------------------- leaves play
UNNAMED_FILE = """
from leaves.players.base import Strategy


class NoChoose(Strategy, register=False):
    pass
"""


def test_leaves_play_refuses_a_bot_that_cannot_play(tmp_path, capsys, monkeypatch):
    """``leaves play --against nochoose.py:NoChoose`` dealt, showed the table and then ended
    at the bot's first move ('forfeits: NotImplementedError', exit 1): it is bad input, said
    in one line before the game (exit 2)."""
    (tmp_path / "nochoose.py").write_text(UNNAMED_FILE)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))
    code, out, err = cli(capsys, "play", "--seed", "3", "--players", "3", "--against",
                         f"{tmp_path}/nochoose.py:NoChoose")  # fmt: skip
    line = one_error_line(err)
    assert code == 2, err
    assert line.endswith(f"--against: NoChoose {CANNOT}"), line
    assert out == ""


# ----------------------------------------------------------------------------- Ligretto's name
def test_a_ligretto_class_with_a_bad_name_is_told_of_its_name_first():
    """It was told 'Bad Name is no Ligretto player', as if the name were one; 13 Leaves says
    the name first, and so does Ligretto now."""
    with pytest.raises(ValueError, match=r"\.BadName\.name must be lowercase .*got 'Bad Name'$"):

        class BadName(LigrettoStrategy):
            name = "Bad Name"


# ----------------------------------------------------------------------------- the built-ins
TABLE_SEEDS = np.arange(6, dtype=np.uint64)


@pytest.mark.parametrize("builtin", ["greedy", "counter", "weighted"])
def test_a_builtin_subclass_with_its_own_hook_chooses_as_the_builtin(builtin: str):
    """Its own ``end_game`` gives up the compiled policy (``compiled()`` is None), so it plays
    on the Python path, by the built-in's own ``choose`` (the base's ``choose`` plays only a
    policy: without the built-in's it would forfeit every game, and be refused)."""
    parent = registry.get_class(builtin)

    class Ends(parent, register=False):  # type: ignore[misc, valid-type]
        def end_game(self, view: Any, result: Any) -> None:
            self.ended = True

    assert Ends().compiled() is None and Ends.cannot_play() is None
    played = play_batch(
        [Ends(), "greedy", "low"], TABLE_SEEDS, TABLE_SEEDS[::-1].copy(), record=True
    )
    builtins = play_batch(
        [builtin, "greedy", "low"], TABLE_SEEDS, TABLE_SEEDS[::-1].copy(), record=True
    )
    assert (played.forfeit_seat == -1).all(), played.errors
    assert [r.actions for r in played.records] == [r.actions for r in builtins.records]


@pytest.mark.parametrize("builtin", ["greedy", "counter", "random"])
def test_a_builtins_choose_is_the_move_of_its_compiled_policy(builtin: str, monkeypatch):
    """The built-ins' ``choose`` makes the move ``Strategy.choose`` makes of ``compiled()``
    (the same games at a table with a Python seat, a stochastic one's too): it is kept for
    their subclasses above, not for a move of its own."""
    table = [builtin, _Chooses(), "low"]
    own = play_batch(table, TABLE_SEEDS, TABLE_SEEDS[::-1].copy(), record=True)
    monkeypatch.delattr(CompiledBuiltin, "choose")
    base = play_batch(table, TABLE_SEEDS, TABLE_SEEDS[::-1].copy(), record=True)
    assert (own.forfeit_seat == -1).all(), own.errors
    assert [r.actions for r in own.records] == [r.actions for r in base.records]


# ----------------------------------------------------------------------------- the docs
def _doc(name: str) -> str:
    return " ".join((ROOT / "docs" / name).read_text().split())


def test_the_strategies_doc_quotes_the_refusal():
    """The doc quotes the command line's words, which are the game's own check's."""
    assert f"`NoChoose {CANNOT}` and exits 2" in _doc("strategies.md")
    assert CANNOT.endswith(_Undecided.cannot_play())


def test_the_ligretto_doc_states_the_most_a_target_may_be():
    """2,560 points: a game's most rounds at a round's best (``MAX_GAME_POINTS``); the line
    it quotes is the refusal's."""
    doc = _doc("ligretto.md")
    assert (MAX_ROUNDS_PER_GAME, MAX_ROUND_POINTS, MAX_GAME_POINTS) == (64, 40, 2_560)
    assert (f"a `--target` above {MAX_GAME_POINTS:,} points, which no game reaches: a round "
            f"scores a player at most {MAX_ROUND_POINTS} (all {SET_SIZE} of its cards in the "
            f"centre), {MAX_ROUNDS_PER_GAME} of them {MAX_GAME_POINTS:,}") in doc  # fmt: skip
    assert f"is out of reach: {OUT_OF_REACH}`" in doc
