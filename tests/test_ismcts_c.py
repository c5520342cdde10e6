"""The ``ismcts`` search in C (``csrc/ismcts.h``, ``leaves.players.ismcts.cengine``) against numba.

The C kernels must search exactly as numba's do: the same RNG draws, deals, trees, counters
and moves. ``_Both`` runs every kernel call of a decision on both paths (numba on copies of
the arguments) and records each argument the two leave different, byte for byte: the kernel
RNG's state, the tree's node arrays, the counters, the deal chain's deal and memo, the
fitted deals. Positions come from random play (3-6 players, every phase, the rule variants),
whole games from play against the heuristics, and tournaments run once per path.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from typing import Any

import numpy as np
import pytest

import leaves
import strategies
from leaves import kernels as K
from leaves.board import public_board
from leaves.players.ismcts import (
    ISMCTS,
    Position,
    cengine,
    evidence,
    inference,
    settings,
    tree,
    uniform_models,
)
from leaves.players.ismcts.cengine import C_KERNELS, NUMBA_KERNELS, Kernels
from leaves.players.ismcts.inference import new_memo
from leaves.players.ismcts.strategy import _rollout_policy
from leaves.players.testing import PHASES, random_position
from leaves.rules import N_ACTION_IDS

pytestmark = pytest.mark.skipif(
    cengine.library() is None, reason="no C engine (no compiler, or LEAVES_ENGINE=numba)"
)

RULES = {
    "today": leaves.Rules(),
    "no-min": leaves.Rules(min_count=False),
    "take-ends": leaves.Rules(take="ends"),
    "take-nothing": leaves.Rules(take="nothing"),
}


def _copy(x: Any) -> Any:
    """``x`` with every array copied (namedtuples of arrays too)."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*map(_copy, x))
    return x


def _diff(a: Any, b: Any, where: str) -> list[str]:
    """Where the arrays of ``a`` and ``b`` differ, byte for byte (unwritten tree slots hold
    the same garbage in both, NaNs included)."""
    if isinstance(a, np.ndarray):
        return [] if a.shape == b.shape and a.tobytes() == b.tobytes() else [where]
    if isinstance(a, tuple) and hasattr(a, "_fields"):
        return [d for f, x, y in zip(a._fields, a, b, strict=True) for d in _diff(x, y, f"{where}.{f}")]  # fmt: skip
    return []


class _Both:
    """Kernels that run numba on copies of the arguments, then C on the arguments, and note
    every argument the two paths left different (``diffs``); C's results go on."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.diffs: list[str] = []

    def kernels(self) -> Kernels:
        return Kernels(*(self._both(name) for name in Kernels._fields))

    def _both(self, name: str) -> Any:
        c_fn, numba_fn = getattr(C_KERNELS, name), getattr(NUMBA_KERNELS, name)

        def call(*args: Any) -> Any:
            copies = [_copy(a) for a in args]
            want = numba_fn(*copies)
            got = c_fn(*args)
            self._compare(name, copies, args)
            if name == "rng_new" and not np.array_equal(want, got):
                self.diffs.append("rng_new")
            return got

        def searcher(*args: Any) -> Any:  # each run(n) from the same state on both paths
            c_run = c_fn(*args)

            def run(n_iter: int) -> None:
                copies = [_copy(a) for a in args]
                numba_fn(*copies)(n_iter)
                c_run(n_iter)
                self._compare("search", copies, args)

            return run

        return searcher if name == "searcher" else call

    def _compare(self, name: str, want: list[Any], got: tuple[Any, ...]) -> None:
        self.calls[name] += 1
        for i, (x, y) in enumerate(zip(want, got, strict=True)):
            self.diffs += _diff(x, y, f"{name} argument {i}")


@pytest.fixture
def both(monkeypatch: pytest.MonkeyPatch) -> _Both:
    """Every decision of this test searches on both paths (``_Both``)."""
    b = _Both()
    kern = b.kernels()
    monkeypatch.setattr(cengine, "kernels", lambda kinds=(): kern)
    return b


def _decide(strat: ISMCTS, state: Any, seed: int) -> leaves.Action:
    seat = state.current_player
    return strat.choose(state.view(seat), state.legal_actions(), np.random.default_rng(seed))


def _positions(rules: leaves.Rules, seed: int, phases: tuple[str, ...] = PHASES):
    """Positions of random play, 3-6 players, with at least two legal actions."""
    for n in (3, 4, 5, 6):
        for k, phase in enumerate(phases):
            _, state = random_position(n, seed + 10 * n + k, phase, rules=rules)
            if not state.is_terminal and len(state.legal_actions()) > 1:
                yield state


def test_constants_and_structs_agree_with_python():
    ints, floats = cengine.constants()
    want = [inference.S_NODES, inference.S_ITERS, inference.S_REJECTS, inference.S_BAD,
            inference.S_SEAT_BAD, inference.N_STATS, inference.MEMO_BITS, settings.MAX_DEPTH,
            tree._CHECK_EVERY, inference._MAX_SLACK, int(inference._NO_LIMIT),
            ctypes.sizeof(cengine._Search), ctypes.sizeof(cengine._Refit)]  # fmt: skip
    assert ints[: len(want)] == want
    assert floats[:2] == [inference.HARD, settings.EVAL_BETA]


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_legal_actions_agree_with_the_kernels(rules):
    got, want = np.empty(N_ACTION_IDS + 8, np.int64), np.empty(N_ACTION_IDS + 8, np.int64)
    for phase in PHASES:
        for n in (3, 6):
            _, state = random_position(n, 31 * n, phase, rules=rules)
            board = K.board_from_state(state)
            k = cengine.legal_actions(board, got)
            assert k == K.legal_actions(board, want)
            assert got[:k].tolist() == want[:k].tolist()
            for aid in range(-1, N_ACTION_IDS + 1):
                assert cengine.library().engine_ismcts_is_legal(board.ctypes.data, aid) == int(
                    K.is_legal(board, aid)
                )


SETTINGS = {
    "defaults": {},
    "fast": {"preset": "fast"},
    "tree": {"iterations": 150, "max_depth": 0, "widen": 0.0},
    "plain-so-ismcts": {"iterations": 150, "max_depth": 0, "model_opponents": False, "c": 1.3},
    "widened": {"iterations": 150, "max_depth": 0, "widen": 2.0},
    "widened-so": {"iterations": 150, "max_depth": 0, "model_opponents": False, "widen": 0.5},
    "stop-margin": {"iterations": 400, "stop_margin": 0.3},
    "stochastic": {"iterations": 100, "rollout": "random", "playouts": 2, "shaping": 0.3},
    "cut-playouts": {"iterations": 100, "rollout_depth": 6, "models": "weighted,counter,low"},
    "hard": {"iterations": 100, "infer_lambda": 1e6, "models": "weighted,taker"},
    "rejection": {"iterations": 100, "infer_steps": 0, "infer_tries": 10, "models": ""},
    "prior": {"iterations": 120, "prior": 0.3, "stop_early": False, "rollout": "counter"},
}


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
@pytest.mark.parametrize("name", SETTINGS)
def test_decisions_search_alike_on_both_paths(both, name, rules):
    # a fresh instance per position (whole games carry deals: below)
    phases = PHASES if name in ("defaults", "fast") else PHASES[:2]
    seen = 0
    for k, state in enumerate(_positions(rules, 100 + 7 * len(name), phases)):
        strat = ISMCTS(**SETTINGS[name])
        _decide(strat, state, k)
        seen += 1
    assert seen >= 4 and both.calls["search"] == seen
    assert both.diffs == []


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["ismcts:iterations=300", "ismcts:preset=fast"])
def test_each_path_alone_decides_the_same(monkeypatch, spec):
    # the same decisions, visits and models from separate instances, one per path
    results = {}
    for path, kern in (("c", C_KERNELS), ("numba", NUMBA_KERNELS)):
        monkeypatch.setattr(cengine, "kernels", lambda kinds=(), kern=kern: kern)
        out = []
        for k, state in enumerate(_positions(RULES["today"], 5, ("follow", "any"))):
            strat = strategies.get(spec)
            action = _decide(strat, state, k)
            out.append((action, strat.last_visits, strat.last_nodes, strat.last_rejects,
                        strat.last_iterations, strat.last_models))  # fmt: skip
        results[path] = out
    assert len(results["c"]) >= 6
    assert results["c"] == results["numba"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_whole_games_search_alike_on_both_paths(both, rules):
    field = ["weighted", "taker", "counter", "low", "random"]
    for n in (3, 4, 5, 6):
        res = strategies.play_game(["ismcts:preset=fast"] + field[: n - 1], seed=n, rules=rules)
        assert res.error is None and res.forfeit_seat is None
    assert both.calls["search"] >= 20 and both.calls["carry_deal"] > 0
    assert both.diffs == []


@pytest.mark.slow
def test_a_search_in_chunks_goes_on_alike(both):
    # a time budget searches in chunks: each call goes on from the last one's tree and chain
    _, state = random_position(4, 77, "follow")
    strat = ISMCTS(iterations=0, time_ms=300.0)
    _decide(strat, state, 3)
    assert both.calls["search"] > 1 and both.diffs == []


@pytest.mark.parametrize("max_depth", [1, 0])
@pytest.mark.parametrize("memo_bits", [0, 8])
def test_a_full_tree_and_no_memo_search_alike(both, max_depth, memo_bits):
    # the kernel itself: a tree that fills up (playouts from its leaves), the chain with and
    # without its memo, several calls going on from one another
    states = leaves.replay(strategies.play_game(["taker"] * 4, seed=8).record)
    state = states[len(states) // 2]
    view = state.view(state.current_player)
    pub, sizes = public_board(view)
    ev = evidence(view)
    assert len(ev.seats) > 0
    cfg = ISMCTS(max_depth=max_depth, stop_early=False).config._replace(dealt=11.0)
    stats = np.zeros(inference.N_STATS, np.int64)
    stats[inference.S_NODES] = 1
    st = tree.SearchState(tree.new_tree(12), stats, np.empty_like(pub), new_memo(memo_bits))
    models = uniform_models(*_rollout_policy("taker"))
    kern = cengine.kernels()
    run = kern.searcher(Position(pub, view.player, sizes), cfg, models, ev, kern.rng_new(4), st)
    for n in (1, 30, 60):
        run(n)
    full = stats[inference.S_NODES] == 12  # flat: a node per legal move (fewer than 11)
    assert full == (max_depth == 0) and stats[inference.S_ITERS] == 91
    assert both.calls["search"] == 3 and both.diffs == []


@pytest.mark.slow
def test_tournaments_play_the_same_games_on_both_paths(monkeypatch):
    from tournaments import Tournament

    entrants = ["ismcts:preset=fast,iterations=80", "weighted", "taker", "counter"]

    def games() -> list[Any]:  # 12 games of three players, 24 of four
        return [Tournament(entrants[:n], players=n, games=12, seed=11).run(n_jobs=1).games()
                for n in (3, 4)]  # fmt: skip

    on_c = games()
    monkeypatch.setattr(cengine, "kernels", lambda kinds=(): NUMBA_KERNELS)
    on_numba = games()
    for c, nb in zip(on_c, on_numba, strict=True):
        assert len(c) >= 12 and not c["forfeit"].any()
        assert c.equals(nb)


def test_with_the_engine_no_numba_kernel_is_called(monkeypatch):
    def refuse(*args: Any) -> None:
        raise AssertionError("a numba kernel was called")

    monkeypatch.setattr(cengine, "NUMBA_KERNELS", Kernels(*[refuse] * len(Kernels._fields)))
    res = strategies.play_game(["ismcts:preset=fast", "weighted", "taker", "counter"], seed=2)
    assert res.error is None
    monkeypatch.setattr(cengine.engine, "library", lambda: None)
    assert cengine.kernels() is cengine.NUMBA_KERNELS


def test_bad_arrays_are_refused_before_c_reads_them():
    pub = np.zeros((17, 13), np.int64)  # int64, not the board's int32
    sizes = np.zeros(8, np.int64)
    with pytest.raises(ValueError, match="must be a C-contiguous int32 array"):
        cengine.carry_deal(pub, np.zeros((8, 13), np.int64), pub, 0, sizes,
                           np.zeros(4, np.uint64), pub)  # fmt: skip
