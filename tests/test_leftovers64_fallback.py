"""The Python path's decisions say the numba fallback line too: a built-in bot's move in
``leaves play`` (``leaves.players.compiled.bridge``) and a Ligretto seat's decision
(``ligretto.policy``), once a process, in ``gamekit.cbuild``'s words, nothing when numba's
cache holds the kernels or the C engine decides.

No compiler is simulated as the install without one leaves it: the engine's sources with no
library beside them and ``CC`` naming no program; numba's kernels are stubbed (no compile)."""

from __future__ import annotations

import numpy as np
import pytest

import ligretto.cengine as lig_cengine
from gamekit import cbuild
from leaves import new_game
from leaves.players.compiled import bridge, engine
from ligretto import PlayerView, card_id, policy
from ligretto.rng import SplitMix
from strategies import get
from tests.helpers import NO_CC_LINE as LINE
from tests.helpers import NO_CC_MAY as MAY
from tests.helpers import no_compiler


def _bot_moves(monkeypatch: pytest.MonkeyPatch, cold: bool | None) -> list:
    """Three moves of the built-in ``weighted`` at a fresh 3-seat table, as ``leaves play``'s
    bots move, numba's decision stubbed to the first legal action and its cache read as
    ``cold``; the questions asked come back."""
    state = new_game(3, seed=5)
    legal = state.legal_actions()
    asked = []
    monkeypatch.setattr(bridge, "decide_cold", lambda: asked.append(1) or cold)
    monkeypatch.setattr(bridge, "decide", lambda *args: legal[0].id)
    bot = get("weighted")
    for seed in range(3):
        move = bot.choose(state.view(state.current_player), legal, np.random.default_rng(seed))
        assert move == legal[0]
    return asked


@pytest.mark.parametrize(("cold", "said"), [(True, LINE), (None, MAY), (False, "")])
def test_a_bots_move_without_a_compiler_says_the_line_once_unless_cached(
    tmp_path, monkeypatch, capsys, cold, said
):
    no_compiler(tmp_path, monkeypatch, engine)
    asked = _bot_moves(monkeypatch, cold)
    assert capsys.readouterr().err == (said + "\n" if said else "")
    assert len(asked) == 1  # asked once, not at every move


@pytest.mark.skipif(not engine.available(), reason="no C engine (no C compiler)")
def test_a_bots_move_on_the_c_engine_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
    state = new_game(3, seed=5)
    monkeypatch.setattr(bridge, "decide_cold", lambda: True)
    get("weighted").choose(
        state.view(state.current_player), state.legal_actions(), np.random.default_rng(0)
    )
    assert capsys.readouterr().err == ""


def _ligretto_decisions(monkeypatch: pytest.MonkeyPatch, cold: bool | None) -> list:
    """Three decisions of a Ligretto seat on the Python path, numba's decision stubbed to
    "wait" and its cache read as ``cold``; the questions asked come back."""
    asked = []
    monkeypatch.setattr(policy, "decide_cold", lambda: asked.append(1) or cold)
    monkeypatch.setattr(policy, "_decide_seen", lambda *seen: (6, 0, -1, -1, 0, seen[-1]))
    view = PlayerView(seat=0, n_players=2, pile_tops=(), stack_tops=(card_id(0, 4), -1),
                      stack_sizes=(10, 10), rows=((-1,) * 5, (-1,) * 5), hand_tops=(-1, -1),
                      hand_pile=(), hand_left=0, idle=0)  # fmt: skip
    params = np.zeros(policy.N_PARAMS)
    for seed in range(3):
        assert policy.decide_view(params, view, SplitMix(seed)).kind == "wait"
    return asked


@pytest.mark.parametrize(("cold", "said"), [(True, LINE), (None, MAY), (False, "")])
def test_a_ligretto_decision_without_a_compiler_says_the_line_once_unless_cached(
    tmp_path, monkeypatch, capsys, cold, said
):
    no_compiler(tmp_path, monkeypatch, lig_cengine)
    asked = _ligretto_decisions(monkeypatch, cold)
    assert capsys.readouterr().err == (said + "\n" if said else "")
    assert len(asked) == 1


def test_the_questions_ask_numbas_cache_of_the_kernels_that_decide(monkeypatch):
    """Each path's question reads numba's cache of the very kernels its decision calls."""
    seen = []
    monkeypatch.setattr(bridge, "needs_compile", lambda k: seen.append(k) or False)
    monkeypatch.setattr(policy, "needs_compile", lambda k: seen.append(k) or True)
    assert bridge.decide_cold() is False and policy.decide_cold() is True
    assert seen == [bridge.decide, bridge.K.rng_new, policy._decide_seen]
