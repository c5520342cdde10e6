"""Every path that plays numba's kernels for want of a C engine says so before they compile:
the search of ``ismcts``, the Python path's deal, Ligretto's round loop (the games loop of 13
Leaves: ``test_fallback64_no_compiler.py``). One line a process, whichever engine fell back
first, in ``gamekit.cbuild``'s words; nothing when the C engine plays or numba's cache holds
the path's kernels, and a path whose kernels are cached does not silence the next one.

No compiler is simulated as the install without one leaves it: the engine's sources with no
library beside them and ``CC`` naming no program."""

from __future__ import annotations

import numpy as np
import pytest

import ligretto.cengine as lig_cengine
import ligretto.compiled as lig_compiled
import ligretto.round_loop as lig_round_loop
from gamekit import cbuild
from leaves import new_game
from leaves.players import play
from leaves.players.compiled import engine
from leaves.players.ismcts import cengine as search_cengine
from strategies import get
from tests.helpers import NO_CC_LINE as LINE
from tests.helpers import NO_CC_MAY as MAY
from tests.helpers import no_compiler, said_once_then_not_when_cached


def _decide_twice(strategy_spec: str) -> None:
    """Two decisions of ``strategy_spec`` at a fresh 3-seat table."""
    state = new_game(3, seed=5)
    for seed in (1, 2):
        bot = get(strategy_spec)
        bot.choose(
            state.view(state.current_player), state.legal_actions(), np.random.default_rng(seed)
        )


@pytest.mark.parametrize(("cold", "said"), [(True, LINE), (None, MAY), (False, "")])
def test_an_ismcts_decision_without_a_compiler_says_the_line_once_unless_cached(
    tmp_path, monkeypatch, capsys, cold, said
):
    no_compiler(tmp_path, monkeypatch, engine)
    asked = []
    monkeypatch.setattr(search_cengine, "numba_cold", lambda: asked.append(1) or cold)
    _decide_twice("ismcts:iterations=4")
    assert capsys.readouterr().err == (said + "\n" if said else "")
    assert len(asked) == 1  # asked once, not at every decision
    assert search_cengine.kernels((1,)) is search_cengine.NUMBA_KERNELS


@pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")
def test_an_ismcts_decision_on_the_c_engine_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
    monkeypatch.setattr(search_cengine, "numba_cold", lambda: True)
    _decide_twice("ismcts:iterations=4")
    assert search_cengine.kernels((1,)) is search_cengine.C_KERNELS
    assert capsys.readouterr().err == ""


def test_a_cached_path_does_not_silence_a_cold_one(tmp_path, monkeypatch, capsys):
    """The deal's kernels in numba's cache, the search's not: the search says the line."""
    no_compiler(tmp_path, monkeypatch, engine)
    monkeypatch.setattr(play, "deal_cold", lambda: False)
    monkeypatch.setattr(search_cengine, "numba_cold", lambda: True)
    play.deal_state(3, 7)
    assert capsys.readouterr().err == ""
    search_cengine.kernels()
    search_cengine.kernels()
    assert capsys.readouterr().err == LINE + "\n"


def test_the_python_paths_deal_without_a_compiler_says_the_line_once(tmp_path, monkeypatch, capsys):
    no_compiler(tmp_path, monkeypatch, engine)
    monkeypatch.setattr(play, "deal_cold", lambda: True)
    first = play.deal_state(3, 7)
    play.deal_state(4, 8)
    assert capsys.readouterr().err == LINE + "\n"
    monkeypatch.undo()  # the C engine deals the very same game, and says nothing
    if engine.available():
        monkeypatch.setattr(cbuild, "_said", False)
        monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
        assert play.deal_state(3, 7) == first
        assert capsys.readouterr().err == ""


def _three_batches(monkeypatch: pytest.MonkeyPatch, cold: bool | None) -> None:
    """Three batches of Ligretto's rounds and one recorded round, numba's kernels stubbed (no
    compile) and their cache reading as ``cold``."""
    asked = {}

    def question(name: str):
        return asked.setdefault(name, lambda: cold)

    monkeypatch.setattr(lig_compiled, "numba_cold", question)
    monkeypatch.setattr(lig_round_loop, "nb_batch", lambda *args: None)
    monkeypatch.setattr(lig_round_loop, "nb_round", lambda *args: None)
    params = np.zeros((3, lig_cengine.N_PARAMS))
    seeds = np.arange(2, dtype=np.uint64)
    for _ in range(3):
        lig_compiled.play_rounds(params, seeds, seeds)
    lig_compiled.round_events(params, 1, 2, cap=10)


@pytest.mark.parametrize(("cold", "said"), [(True, LINE), (None, MAY), (False, "")])
def test_ligrettos_round_loop_without_a_compiler_says_the_line_once_unless_cached(
    tmp_path, monkeypatch, capsys, cold, said
):
    no_compiler(tmp_path, monkeypatch, lig_cengine)
    _three_batches(monkeypatch, cold)
    assert capsys.readouterr().err == (said + "\n" if said else "")
    assert "no C compiler" in lig_cengine.why_not()


def test_the_line_is_said_once_whichever_engine_fell_back_first(tmp_path, monkeypatch, capsys):
    no_compiler(tmp_path / "l", monkeypatch, lig_cengine)
    no_compiler(tmp_path / "t", monkeypatch, engine)
    _three_batches(monkeypatch, True)
    monkeypatch.setattr(search_cengine, "numba_cold", lambda: True)
    search_cengine.kernels()
    assert capsys.readouterr().err == LINE + "\n"


@pytest.mark.skipif(not lig_cengine.available(), reason="no C engine (no C compiler)")
def test_ligrettos_round_loop_on_the_c_engine_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
    played = lig_compiled.play_rounds(np.ones((3, lig_cengine.N_PARAMS)), [1, 2], [3, 4])
    assert played.plays.sum() > 0
    assert capsys.readouterr().err == ""


def test_a_paths_kernels_compile_when_any_of_them_does():
    assert cbuild.any_cold([False, True, None]) is True
    assert cbuild.any_cold([False, None]) is None
    assert cbuild.any_cold([False, False]) is False
    assert cbuild.any_cold([]) is False


@pytest.mark.slow
def test_a_gauntlet_of_searches_without_a_compiler_says_so_once_then_not_when_cached(tmp_path):
    """The whole command, stderr a pipe, every seat a search (no games loop plays): the first
    run compiles numba's deal and search and says so in one line; the next finds them in
    numba's cache and says nothing."""
    args = ["gauntlet", "ismcts:iterations=8", "--against", "ismcts:iterations=4",
            "--baseline", "ismcts:iterations=6", "--games", "6", "--players", "3", "--jobs", "1"]  # fmt: skip
    said_once_then_not_when_cached(tmp_path, args, 540)
