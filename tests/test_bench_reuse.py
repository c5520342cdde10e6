"""benchmarks/bench_reuse.py: the node a history reaches in a tree, and what a game keeps."""

from __future__ import annotations

from leaves.players.ismcts.tree import new_tree

from .helpers import load_benchmark


def _tree():
    """Root -> 5 (10 visits) -> 7 (4 visits); root -> 6 (3 visits)."""
    t = new_tree(8)
    for j, (parent, aid, visits) in enumerate([(0, 5, 10.0), (0, 6, 3.0), (1, 7, 4.0)], 1):
        t.first_child[j], t.action[j], t.visits[j] = -1, aid, visits
        t.next_sibling[j] = t.first_child[parent]
        t.first_child[parent] = j
    return t


def test_the_visits_a_history_reaches():
    bench = load_benchmark("bench_reuse")
    t = _tree()
    assert bench.subtree_visits(t, [5]) == 10.0
    assert bench.subtree_visits(t, [5, 7]) == 4.0
    assert bench.subtree_visits(t, [6]) == 3.0
    assert bench.subtree_visits(t, [5, 8]) == 0.0  # never tried there: nothing kept
    assert bench.subtree_visits(t, [7]) == 0.0


def test_a_game_keeps_at_most_what_its_searches_ran():
    bench = load_benchmark("bench_reuse")
    kept = bench.game_kept("ismcts:iterations=200", "weighted", game=1, seed=3)
    assert kept and all(0 <= k.visits <= k.iterations <= 200 for k in kept)
    assert any(k.visits > 0 for k in kept)
    again = bench.game_kept("ismcts:iterations=200", "weighted", game=1, seed=3)
    assert again == kept  # from the seed alone
    from leaves.players.ismcts import strategy

    assert strategy.new_tree is new_tree  # the recording hook is taken out again
