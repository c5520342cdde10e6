"""``ismcts``'s progressive widening (``widen``): below the root, the mover's policy move first,
then another each time a node's visits reach ``widen * children**2``."""

from __future__ import annotations

import numpy as np
import pytest

import leaves
import strategies
from leaves.board import public_board
from leaves.players.ismcts import ISMCTS, cengine, evidence, inference, tree
from leaves.players.ismcts.inference import Position, new_memo
from leaves.players.ismcts.strategy import _rollout_policy, uniform_models
from leaves.players.testing import PHASES, random_position


def _choose(strat: ISMCTS, state, seed: int) -> None:
    seat = state.current_player
    strat.choose(state.view(seat), state.legal_actions(), np.random.default_rng(seed))


@pytest.mark.parametrize("phase", PHASES[:2])
def test_a_policy_only_tree_searches_as_the_flat_search(phase):
    # With a widening no node below the root ever reaches, each holds only the policy's move:
    # every iteration follows the playout's own line, so the root sees the flat search's
    # rewards. Any other first child (a random untried one, as without widening) differs.
    _, state = random_position(4, 23, phase)
    flat = ISMCTS(iterations=300, stop_early=False, preset="flat")
    narrow = ISMCTS(iterations=300, stop_early=False, max_depth=0, widen=1e12)
    wide = ISMCTS(iterations=300, stop_early=False, max_depth=0, widen=0.0)
    for strat in (flat, narrow, wide):
        _choose(strat, state, 5)
    assert narrow.last_visits == flat.last_visits
    assert narrow.last_nodes > flat.last_nodes  # a deeper tree, with the same root statistics
    assert wide.last_visits != flat.last_visits


def _searched_tree(widen: float) -> tuple[tree.Tree, int, int]:
    """The full tree of 400 iterations at a mid-game position, its nodes and the seat."""
    states = leaves.replay(strategies.play_game(["weighted"] * 4, seed=3).record)
    state = states[len(states) // 3]
    view = state.view(state.current_player)
    pub, sizes = public_board(view)
    cfg = ISMCTS(max_depth=0, stop_early=False, widen=widen).config._replace(dealt=11.0)
    stats = np.zeros(inference.N_STATS, np.int64)
    stats[inference.S_NODES] = 1
    st = tree.SearchState(tree.new_tree(2000), stats, np.empty_like(pub), new_memo(10))
    models = uniform_models(*_rollout_policy("weighted"))
    kern = cengine.kernels()
    pos = Position(pub, view.player, sizes)
    kern.searcher(pos, cfg, models, evidence(view), kern.rng_new(7), st)(400)
    return st.tree, int(stats[inference.S_NODES]), view.player


def _late_children(t: tree.Tree, nodes: int, seat: int, widen: float) -> list[tuple]:
    """(node, children, visits) of every node below the root where ``seat`` moves and that
    holds more children than a widening of ``widen`` would have added by its visits."""
    out = []
    for j in range(1, nodes):
        kids, ch = [], t.first_child[j]
        while ch >= 0:
            kids.append(ch)
            ch = t.next_sibling[ch]
        late = len(kids) > 1 and t.visits[j] < widen * (len(kids) - 1) ** 2
        if late and t.actor[kids[0]] == seat:
            out.append((j, len(kids), float(t.visits[j])))
    return out


def test_children_come_no_faster_than_the_visits_allow():
    widened, nodes, seat = _searched_tree(4.0)
    assert _late_children(widened, nodes, seat, 4.0) == []
    full, nodes, _ = _searched_tree(0.0)  # every move at once: the same bound fails somewhere
    assert _late_children(full, nodes, seat, 4.0) != []


def test_widen_is_validated():
    with pytest.raises(ValueError, match="widen"):
        ISMCTS(widen=-1.0)
