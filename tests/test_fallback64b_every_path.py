"""Every path that plays numba's kernels for want of a C engine says so before they compile:
the search of ``ismcts``, the Python path's deal, Ligretto's round loop (the games loop of 13
Leaves: ``test_fallback64_no_compiler.py``). One line a process, whichever engine fell back
first, in ``gamekit.cbuild``'s words; nothing when the C engine plays or numba's cache holds
the path's kernels, and a path whose kernels are cached does not silence the next one.

No compiler is simulated as the install without one leaves it: the engine's sources with no
library beside them and ``CC`` naming no program."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

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

NO_CC = "no-such-compiler-here"
LINE = (
    f"leaves: no C compiler found ({NO_CC}): playing on numba, which compiles for about a "
    "minute on first use; install a C compiler (gcc) for a fast first run"
)
MAY = LINE.replace("which compiles", "which may compile")


def _no_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> None:
    """``module``'s C engine (13 Leaves' ``engine`` or Ligretto's ``cengine``) made afresh from
    copied sources with nothing built beside them and no compiler, and this process's line not
    said yet."""
    monkeypatch.setenv("CC", NO_CC)
    monkeypatch.delenv("LEAVES_ENGINE", raising=False)
    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / module.__name__
    shutil.copytree(module.CSRC, src)
    fresh = cbuild.Engine(src, module.NAME, module._declare)
    monkeypatch.setattr(module, "ENGINE", fresh)
    for name in ("library", "available", "why_not"):
        monkeypatch.setattr(module, name, getattr(fresh, name))
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone


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
    _no_compiler(tmp_path, monkeypatch, engine)
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
    _no_compiler(tmp_path, monkeypatch, engine)
    monkeypatch.setattr(play, "deal_cold", lambda: False)
    monkeypatch.setattr(search_cengine, "numba_cold", lambda: True)
    play.deal_state(3, 7)
    assert capsys.readouterr().err == ""
    search_cengine.kernels()
    search_cengine.kernels()
    assert capsys.readouterr().err == LINE + "\n"


def test_the_python_paths_deal_without_a_compiler_says_the_line_once(tmp_path, monkeypatch, capsys):
    _no_compiler(tmp_path, monkeypatch, engine)
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
    _no_compiler(tmp_path, monkeypatch, lig_cengine)
    _three_batches(monkeypatch, cold)
    assert capsys.readouterr().err == (said + "\n" if said else "")
    assert "no C compiler" in lig_cengine.why_not()


def test_the_line_is_said_once_whichever_engine_fell_back_first(tmp_path, monkeypatch, capsys):
    _no_compiler(tmp_path / "l", monkeypatch, lig_cengine)
    _no_compiler(tmp_path / "t", monkeypatch, engine)
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


_RUN = """
import sys
from pathlib import Path
from leaves.players.compiled import engine
engine.ENGINE.csrc = Path(sys.argv[1])
from leaves_cli import main
sys.argv = ["leaves", *sys.argv[2:]]
main()
"""


@pytest.mark.slow
def test_a_gauntlet_of_searches_without_a_compiler_says_so_once_then_not_when_cached(tmp_path):
    """The whole command, stderr a pipe, every seat a search (no games loop plays): the first
    run compiles numba's deal and search and says so in one line; the next finds them in
    numba's cache and says nothing."""
    src = tmp_path / "csrc"
    shutil.copytree(engine.CSRC, src)
    env = {**os.environ, "CC": NO_CC, "LEAVES_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("NUMBA_CACHE_DIR", "LEAVES_KEYED_NUMBA_CACHE", "LEAVES_ENGINE"):
        env.pop(name, None)
    env.pop("NUMBA_DISABLE_JIT", None)  # the quick suite's setting: this test needs numba's JIT
    errs = []
    for out in ("a", "b"):
        args = [sys.executable, "-c", _RUN, str(src), "gauntlet", "ismcts:iterations=8",
                "--against", "ismcts:iterations=4", "--baseline", "ismcts:iterations=6",
                "--games", "6", "--players", "3", "--jobs", "1", "--out", str(tmp_path / out)]  # fmt: skip
        done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=540)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        errs.append(done.stderr)
    assert errs[0].splitlines().count(LINE) == 1 and "leaves: " not in errs[0].replace(LINE, "")
    assert "playing on numba" not in errs[1], errs[1][-300:]
