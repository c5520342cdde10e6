"""What keeping the search tree from one decision to the next would give: how many of the
previous decision's iterations lie in the subtree the game actually took.

Each decision of ``ismcts`` builds its tree afresh. The part of the previous tree under the
moves made since (the seat's own move, then each opponent's) holds iterations that the next
search could start from: those are the only ones a reused tree keeps. One seat of ``--spec``
against three ``--field`` (4 players, game ``g`` on deal ``g`` with the seat at place
``g % 4``); at each of the seat's searched decisions after another, the visits of the node the
history since reaches in the previous tree (0 where a move made was never tried there),
against the iterations that search ran. Prints their mean share and how often nothing is kept.

    python benchmarks/bench_reuse.py --games 40 --seed 56      # about 10 s
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import numpy as np

import strategies
from leaves.players.ismcts import strategy as search_module
from leaves.players.play import deal_state

N_PLAYERS = 4


class Kept(NamedTuple):
    """A decision after a searched one: the visits kept and the previous search's iterations."""

    visits: float
    iterations: int


def subtree_visits(tree, moves: list[int]) -> float:
    """Visits of the node that ``moves`` (action ids, from the root) reach in ``tree``; 0 when
    one of them was never tried there."""
    node = 0
    for aid in moves:
        child = int(tree.first_child[node])
        while child >= 0 and int(tree.action[child]) != aid:
            child = int(tree.next_sibling[child])
        if child < 0:
            return 0.0
        node = child
    return float(tree.visits[node])


def game_kept(spec: str, field: str, game: int, seed: int) -> list[Kept]:
    """The kept visits at each searched decision (after the first) of game ``game``."""
    trees = []
    made = search_module.new_tree

    def recording(capacity: int):
        trees.append(made(capacity))
        return trees[-1]

    seat = game % N_PLAYERS
    state = deal_state(N_PLAYERS, seed * 100_003 + game)
    me = strategies.get(spec)
    others = [strategies.get(field) for _ in range(N_PLAYERS)]
    rng = np.random.default_rng([seed, game])
    me.start_game(state.view(seat), rng)
    out, previous = [], None  # previous: (tree, history length then, iterations)
    search_module.new_tree = recording
    try:
        while not state.is_terminal:
            p = state.current_player
            if p != seat:
                state = state.apply(others[p].choose(state.view(p), state.legal_actions(), rng))
                continue
            view, legal = state.view(p), state.legal_actions()
            history = [action.id for _, action in view.history]
            searched = len(trees)
            if previous is not None and len(legal) > 1:
                tree, then, iterations = previous
                out.append(Kept(subtree_visits(tree, history[then:]), iterations))
            action = me.choose(view, legal, rng)
            found = len(trees) > searched
            previous = (trees[-1], len(history), me.last_iterations) if found else None
            state = state.apply(action)
    finally:
        search_module.new_tree = made
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--spec", default="ismcts", help="the search at the seat")
    ap.add_argument("--field", default="weighted", help="the three opponents")
    ap.add_argument("--seed", type=int, default=56)
    args = ap.parse_args()
    for spec in (args.spec, args.field):
        try:
            strategies.get(spec)
        except ValueError as exc:
            ap.error(str(exc))
    start = time.perf_counter()
    kept = [k for g in range(args.games) for k in game_kept(args.spec, args.field, g, args.seed)]
    if not kept:
        ap.error("no searched decision followed another: play more games")
    visits = np.array([k.visits for k in kept])
    iterations = np.array([k.iterations for k in kept], np.float64)
    print(f"{len(kept):,} decisions after a searched one ({args.games} games of {args.spec} "
          f"against three {args.field}, seed {args.seed})")  # fmt: skip
    print(f"kept: {visits.mean():.0f} visits of the previous search's {iterations.mean():.0f} "
          f"iterations on average ({visits.sum() / iterations.sum():.1%}); nothing kept at "
          f"{np.mean(visits == 0):.1%} of decisions")  # fmt: skip
    print(f"run {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
