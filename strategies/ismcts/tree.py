"""The tree search kernel: select, expand, play out and back up, all in one numba loop.

Nodes live in flat arrays (``Tree``) keyed by the public action history from the root: node
``j`` is reached by ``action[j]``, taken by seat ``actor[j]``; children form a linked list
(``first_child``, ``next_sibling``; -1 ends it); ``visits``/``total`` are the actor's visit
count and reward sum, ``avail`` how often the node's action was legal when its parent was
reached (availability counts: legal moves vary by deal).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from leaves import kernels as K
from leaves.board import M_CUR, M_N, M_WINNER, META, SEAT_SLOTS
from leaves.rules import N_ACTIONS

from ..compiled.dispatch import decide
from ..compiled.loops import Seats, play_to_end, track_size
from ..policy.features import WORK_SIZE
from .inference import S_BAD, S_ITERS, S_NODES, S_SEAT_BAD, draw_deal, seat_mismatches, swap_step
from .settings import EVAL_BETA, MAX_DEPTH

Tree = namedtuple(
    "Tree", ["first_child", "next_sibling", "action", "actor", "visits", "avail", "total"]
)
"""The node arrays of one search (see the module docstring)."""


def new_tree(capacity: int) -> Tree:
    """Empty node arrays for ``capacity`` nodes, holding the root (node 0)."""
    tree = Tree(
        np.empty(capacity, np.int64),
        np.empty(capacity, np.int64),
        np.empty(capacity, np.int64),
        np.empty(capacity, np.int64),
        np.empty(capacity, np.float64),
        np.empty(capacity, np.float64),
        np.empty(capacity, np.float64),
    )
    tree.first_child[0] = -1
    tree.next_sibling[0] = -1
    tree.action[0] = -1
    tree.actor[0] = -1
    return tree


def root_visits(tree: Tree) -> dict[int, int]:
    """{action id: visits} of the root's children."""
    counts: dict[int, int] = {}
    ch = int(tree.first_child[0])
    while ch >= 0:
        counts[int(tree.action[ch])] = int(tree.visits[ch])
        ch = int(tree.next_sibling[ch])
    return counts


@njit(cache=True)
def playout_rewards(board, kinds, params, rng, work, sizes, cfg, reward):
    """Play ``board`` out ``cfg.playouts`` times, seat ``p`` by policy ``kinds[p]`` (with
    ``params[p]``); mean reward per seat into ``reward``.

    ``board`` is left unchanged (each playout runs on a copy). A finished game gives seat
    ``i`` ``(1 - shaping) * [i won] + shaping * (1 - min(left_i, dealt) / dealt)``; a playout
    cut after ``cfg.rollout_depth`` turns gives ``exp(-EVAL_BETA * left_i)`` over the sum for
    every seat (cheaper playouts, a cruder outcome).
    """
    n = board[META, M_N]
    playouts = cfg.playouts
    shaping = cfg.shaping
    dealt = cfg.dealt
    for i in range(n):
        reward[i] = 0.0
    tmp = np.empty_like(board)
    rec = np.zeros(1, np.int8)  # play_to_end's record row: unused, nothing is recorded
    for _ in range(playouts):
        tmp[:, :] = board
        play_to_end(tmp, Seats(kinds, params), sizes, rng, work, rec, False, cfg.rollout_depth)
        w = tmp[META, M_WINNER]
        if w < 0 and not K.is_terminal(tmp):
            total = 0.0
            for i in range(n):
                total += math.exp(-EVAL_BETA * sizes[i])
            for i in range(n):
                reward[i] += math.exp(-EVAL_BETA * sizes[i]) / total / playouts
            continue
        for i in range(n):
            left = min(sizes[i], dealt)
            r = shaping * (1.0 - left / dealt)
            if i == w:
                r += 1.0 - shaping
            reward[i] += r / playouts


@njit(cache=True)
def _new_node(tree, stats, parent, aid, seat):
    """Append a child of ``parent`` reached by ``aid`` taken by ``seat``; return its index."""
    j = stats[S_NODES]
    stats[S_NODES] = j + 1
    tree.first_child[j] = -1
    tree.next_sibling[j] = tree.first_child[parent]
    tree.first_child[parent] = j
    tree.action[j] = aid
    tree.actor[j] = seat
    tree.visits[j] = 0.0
    tree.avail[j] = 1.0
    tree.total[j] = 0.0
    return j


_CHECK_EVERY = 16  # iterations between checks whether the root's choice is already settled


@njit(cache=True)
def _decided(tree, left, prior_action, prior_visits):
    """Whether the most visited root child leads every other by more than ``left`` visits:
    then no ``left`` further iterations can change the move played (the most visited).
    Action ``prior_action`` (-1: none) counts ``prior_visits`` more, as in the final choice."""
    best = 0.0
    second = 0.0
    seen = prior_action < 0
    ch = tree.first_child[0]
    while ch >= 0:
        v = tree.visits[ch]
        if tree.action[ch] == prior_action:
            v += prior_visits
            seen = True
        if v > best:
            second = best
            best = v
        elif v > second:
            second = v
        ch = tree.next_sibling[ch]
    if not seen:  # the prior's move has no node yet: its head start still counts
        if prior_visits > best:
            second = best
            best = prior_visits
        elif prior_visits > second:
            second = prior_visits
    return best - second > left


@njit(cache=True)
def search(pub, seat, pub_sizes, n_iter, cfg, kinds, params, ev, rng, deal, tree, stats, memo):
    """Run ``n_iter`` ISMCTS iterations, growing ``tree`` (a ``Tree`` of node arrays).

    ``cfg`` is the ``settings.Config``; seat ``p`` is modelled by policy ``kinds[p]``
    with ``params[p]`` in playouts, in the tree's opponent moves and in inference (the
    searcher's own seat plays the rollout policy there); ``ev`` the opponents' past decisions
    (``mismatches``); ``deal`` holds the current deal (the Markov chain's state; with
    ``cfg.warm_deal`` the caller has put its start there, else rejection sampling draws it).
    ``stats[S_NODES]`` is the node count
    (the capacity is the arrays' length: a full tree stops expanding and plays out from its
    leaves), ``stats[S_ITERS]`` counts iterations, ``stats[S_REJECTS]`` redrawn deals;
    With ``cfg.stop_early`` the loop ends once the most visited root child cannot be
    overtaken in the iterations left (``_decided``): the move is the same, found sooner.
    ``stats[S_BAD]`` and ``stats[S_SEAT_BAD:]`` carry the deal chain's contradictions (in all,
    per seat) from one call to the next, and ``memo`` (``inference.Memo``) the chain's answers
    by hand (valid while ``kinds``, ``params`` and ``ev`` stay the same).
    """
    first_child, next_sibling, action, actor, visits, avail, total = tree
    c = cfg.c
    lam = cfg.infer_lambda
    max_depth = cfg.max_depth
    tries = cfg.infer_tries
    steps = cfg.infer_steps
    spare = np.empty_like(pub)
    tmp = np.empty_like(pub)
    cap = first_child.shape[0]
    board = np.empty_like(pub)
    sizes = np.zeros(SEAT_SLOTS, np.int64)
    work = np.zeros(WORK_SIZE, np.int64)
    legal = np.empty(N_ACTIONS + 8, np.int64)
    untried = np.empty(N_ACTIONS, np.int64)
    is_legal = np.zeros(N_ACTIONS, np.bool_)
    path = np.empty(MAX_DEPTH, np.int64)
    reward = np.zeros(SEAT_SLOTS, np.float64)
    seat_bad = stats[S_SEAT_BAD : S_SEAT_BAD + SEAT_SLOTS]  # the chain's state, per seat
    for it in range(n_iter):
        if (
            cfg.stop_early
            and it % _CHECK_EVERY == 0
            and it > 0
            and _decided(tree, n_iter - it, cfg.prior_action, cfg.prior_visits)
        ):
            break
        if steps > 0 and ev.seats.shape[0] > 0:
            # A Markov chain over deals, started once by rejection sampling.
            if stats[S_ITERS] == 0:
                if not cfg.warm_deal:  # else ``deal`` holds the start (carried by the caller)
                    draw_deal(
                        pub, seat, pub_sizes, rng, ev, kinds, params, tries, deal, spare, tmp,
                        work, stats,
                    )  # fmt: skip
                stats[S_BAD] = seat_mismatches(deal, ev, kinds, params, rng, work, tmp, seat_bad)
            for _s in range(steps):
                stats[S_BAD] = swap_step(
                    deal, pub, seat, rng, ev, kinds, params, seat_bad, tmp, work, lam, memo
                )
        else:
            draw_deal(
                pub, seat, pub_sizes, rng, ev, kinds, params, tries, deal, spare, tmp, work, stats
            )
        board[:, :] = deal
        node = 0
        depth = 0
        path[0] = 0
        n = board[META, M_N]
        for i in range(n):
            sizes[i] = pub_sizes[i]
        while not K.is_terminal(board) and depth < max_depth:
            p = board[META, M_CUR]
            if cfg.model_opponents and p != seat:
                # Opponents play the rollout policy here too; the tree still branches on what
                # they play, so own nodes stay keyed by the whole public history.
                aid = decide(kinds[p], params[p], board, p, sizes, rng, work)
                track_size(sizes, p, aid)
                K.apply(board, aid)
                ch = first_child[node]
                while ch >= 0 and action[ch] != aid:
                    ch = next_sibling[ch]
                if ch < 0:
                    if stats[S_NODES] >= cap:
                        break  # tree full: play out from here
                    ch = _new_node(tree, stats, node, aid, p)
                else:
                    avail[ch] += 1
                node = ch
                depth += 1
                path[depth] = node
                continue
            nl = K.legal_actions(board, legal)
            for i in range(nl):
                is_legal[legal[i]] = True
            # Availability: every existing child legal in this determinization was available.
            best = -1
            best_score = -1e300
            ch = first_child[node]
            while ch >= 0:
                a = action[ch]
                if is_legal[a]:
                    is_legal[a] = False  # tried: what stays marked is untried
                    avail[ch] += 1
                    score = total[ch] / visits[ch] + c * math.sqrt(math.log(avail[ch]) / visits[ch])
                    if score > best_score:
                        best_score = score
                        best = ch
                ch = next_sibling[ch]
            nu = 0
            for i in range(nl):
                a = legal[i]
                if is_legal[a]:
                    untried[nu] = a
                    nu += 1
                    is_legal[a] = False
            if nu > 0 and stats[S_NODES] < cap:
                a = untried[K.rng_below(rng, nu)]
                j = _new_node(tree, stats, node, a, p)
                track_size(sizes, p, a)
                K.apply(board, a)
                depth += 1
                path[depth] = j
                break
            if best < 0:
                break  # tree full and no legal child: play out from here
            track_size(sizes, p, action[best])
            K.apply(board, action[best])
            node = best
            depth += 1
            path[depth] = node
        playout_rewards(board, kinds, params, rng, work, sizes, cfg, reward)
        for d in range(1, depth + 1):
            j = path[d]
            visits[j] += 1.0
            total[j] += reward[actor[j]]
        stats[S_ITERS] += 1
