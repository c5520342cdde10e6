"""The tree search kernel: select, expand, play out and back up, in one numba loop.

Nodes live in flat arrays (``Tree``) keyed by the public action history from the root: node
``j`` is reached by ``action[j]``, taken by seat ``actor[j]``; children form a linked list
(``first_child``, ``next_sibling``; -1 ends it); ``visits``/``total`` are the actor's visit
count and reward sum, ``avail`` how often the node's action was legal when its parent was
reached (availability counts: legal moves vary by deal).

An iteration (``search``) moves the deal on (``swap_step``s, or a fresh ``draw_deal``),
walks down the tree selecting and expanding (``_descend``: ``_model_step`` for a modelled
opponent, ``_ucb_step`` otherwise), plays out (``playout_rewards``) and backs up
(``_backup``). ``search`` unpacks once the namedtuples the loop reads: every field read of a namedtuple and every array passed to a reference-counting
function costs an atomic increment and decrement, and in the counting of contradictions
(``inference``) that was about half of a decision's time.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from gamekit.jit import njit
from leaves import kernels as K
from leaves.board import M_CUR, M_N, M_WINNER, META, SEAT_SLOTS
from leaves.rules import N_ACTION_IDS

from ..compiled.dispatch import decide
from ..compiled.loops import Seats, play_to_end, track_size
from ..policy.features import WORK_SIZE
from .inference import (
    S_BAD,
    S_ITERS,
    S_NODES,
    S_SEAT_BAD,
    Check,
    draw_deal,
    seat_mismatches,
    swap_step,
)
from .settings import EVAL_BETA, MAX_DEPTH

Tree = namedtuple(
    "Tree", ["first_child", "next_sibling", "action", "actor", "visits", "avail", "total"]
)
"""The node arrays of one search (see the module docstring)."""

SearchState = namedtuple("SearchState", ["tree", "stats", "deal", "memo"])
"""What one decision's search carries from one ``search`` call to the next: its ``Tree``, the
counters ``stats`` (int64[N_STATS], ``inference.S_*``), the deal chain's current deal ``deal``
and the chain's answers by hand ``memo`` (``inference.Memo``)."""

Walk = namedtuple("Walk", ["board", "sizes", "path", "legal", "untried", "is_legal"])
"""One iteration's scratch: the board walked down the tree and played out, the public hand
sizes on it, the nodes passed (``path[d]`` at depth ``d``), and the legal, untried and marked
actions of a node (``_ucb_step``)."""


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
def search(pos, n_iter, cfg, models, ev, rng, state):
    """Run ``n_iter`` ISMCTS iterations, growing ``state.tree`` (a ``Tree`` of node arrays).

    ``pos`` is the searching seat's ``inference.Position``; ``cfg`` the ``settings.Config``;
    seat ``p`` is modelled by policy ``models.kinds[p]`` with ``models.params[p]`` in
    playouts, in the tree's opponent moves and in inference (the searcher's own seat plays
    the rollout policy there); ``ev`` the opponents' past decisions (``mismatches``);
    ``state`` a ``SearchState``. ``state.deal`` holds the current deal (the Markov chain's
    state; with ``cfg.warm_deal`` the caller has put its start there, else rejection sampling
    draws it). ``stats[S_NODES]`` is the node count (the capacity is the arrays' length: a
    full tree stops expanding and plays out from its leaves), ``stats[S_ITERS]`` counts
    iterations, ``stats[S_REJECTS]`` redrawn deals. With ``cfg.stop_early`` the loop ends once
    the most visited root child cannot be overtaken in the iterations left (``_decided``): the
    move is the same, found sooner (``cfg.stop_margin`` < 1: once its lead exceeds that share of
    the iterations left, a guess that clear decisions need no more). ``stats[S_BAD]`` and
    ``stats[S_SEAT_BAD:]`` carry the deal chain's contradictions (in all, per seat) from one
    call to the next, and ``state.memo`` the chain's answers by hand (valid while ``models``
    and ``ev`` stay the same).
    """
    # Fields the loop reads are unpacked here: a field read per iteration would count a reference.
    pub = pos.pub
    tree, stats, deal, memo = state
    kinds, params = models
    work = np.zeros(WORK_SIZE, np.int64)
    chk = Check(ev, models, rng, work)
    board = np.empty_like(pub)
    sizes = np.zeros(SEAT_SLOTS, np.int64)
    path = np.empty(MAX_DEPTH, np.int64)
    legal = np.empty(N_ACTION_IDS + 8, np.int64)
    walk = Walk(
        board,
        sizes,
        path,
        legal,
        np.empty(N_ACTION_IDS, np.int64),
        np.zeros(N_ACTION_IDS, np.bool_),
    )
    spare = np.empty_like(pub)
    reward = np.zeros(SEAT_SLOTS, np.float64)
    seat_bad = stats[S_SEAT_BAD : S_SEAT_BAD + SEAT_SLOTS]  # the chain's state, per seat
    chain = cfg.infer_steps > 0 and ev.seats.shape[0] > 0  # a Markov chain over deals
    if chain and stats[S_ITERS] == 0 and n_iter > 0:
        if not cfg.warm_deal:  # started by rejection sampling, else from the caller's deal
            draw_deal(pos, chk, cfg.infer_tries, deal, spare, stats)
        stats[S_BAD] = seat_mismatches(deal, chk, seat_bad)
    for it in range(n_iter):
        if (
            cfg.stop_early
            and it % _CHECK_EVERY == 0
            and it > 0
            and _decided(tree, cfg.stop_margin * (n_iter - it), cfg.prior_action, cfg.prior_visits)
        ):
            break
        if chain:
            for _s in range(cfg.infer_steps):
                stats[S_BAD] = swap_step(deal, pos, chk, seat_bad, cfg.infer_lambda, memo)
        else:
            draw_deal(pos, chk, cfg.infer_tries, deal, spare, stats)
        board[:, :] = deal
        depth = _descend(pos, cfg, chk, state, walk)
        playout_rewards(board, kinds, params, rng, work, sizes, cfg, reward)
        _backup(tree, path, depth, reward)
        stats[S_ITERS] += 1


@njit(cache=True)
def _descend(pos, cfg, chk, state, walk):
    """Walk down the tree on ``walk.board`` (a copy of the deal), at most ``cfg.max_depth``
    plies, until a node is expanded, the game ends or the tree is full; returns the depth
    reached, ``walk.path[1:depth + 1]`` the nodes passed. Opponents move by their model
    (``cfg.model_opponents``: ``_model_step``), the searcher (else everyone) by UCB1."""
    board = walk.board
    sizes = walk.sizes
    node = np.int64(0)  # not a literal 0: one compile of the steps, not two
    depth = 0
    walk.path[0] = 0
    n = board[META, M_N]
    for i in range(n):
        sizes[i] = pos.sizes[i]
    while not K.is_terminal(board) and depth < cfg.max_depth:
        p = board[META, M_CUR]
        grown = False
        if cfg.model_opponents and p != pos.seat:
            node = _model_step(board, sizes, p, node, chk, state)
        else:
            node, grown = _ucb_step(walk, p, node, cfg, chk, state)
        if node < 0:
            break  # tree full (and, from a UCB node, no legal child): play out from here
        depth += 1
        walk.path[depth] = node
        if grown:
            break
    return depth


@njit(cache=True, inline="always")  # into ``_descend``: no call per ply
def _model_step(board, sizes, p, node, chk, state):
    """Opponent ``p`` plays its model's move on ``board``; returns the child of ``node`` it
    leads to (added if new), or -1 when it is new and the tree is full.

    Opponents play the rollout policy here too; the tree still branches on what they play,
    so own nodes stay keyed by the whole public history.
    """
    models = chk.models
    aid = decide(models.kinds[p], models.params[p], board, p, sizes, chk.rng, chk.work)
    track_size(sizes, p, aid)
    K.apply(board, aid)
    tree = state.tree
    ch = tree.first_child[node]
    while ch >= 0 and tree.action[ch] != aid:
        ch = tree.next_sibling[ch]
    if ch >= 0:
        tree.avail[ch] += 1
        return ch
    if state.stats[S_NODES] >= tree.first_child.shape[0]:
        return -1  # tree full: play out from here
    return _new_node(tree, state.stats, node, aid, p)


@njit(cache=True, inline="always")  # into ``_ucb_step``
def _widened(walk, p, node, nch, cfg, chk, tree, nu):
    """(first, nu): with ``cfg.widen``, a node below the root holding ``nch`` children takes a
    new one only from ``widen * nch**2`` visits on (else ``nu`` becomes 0), and its first
    child is the mover's policy move (``first``; else -1). Progressive widening: the next
    turn's value starts from the policy's play, not from an average over every move."""
    if cfg.widen <= 0.0 or node == 0 or nu == 0:
        return -1, nu
    if nch == 0:
        models = chk.models
        aid = decide(
            models.kinds[p], models.params[p], walk.board, p, walk.sizes, chk.rng, chk.work
        )
        return aid, nu
    if tree.visits[node] < cfg.widen * float(nch * nch):
        return -1, 0
    return -1, nu


@njit(cache=True, inline="always")  # into ``_descend``: no call per ply
def _ucb_step(walk, p, node, cfg, chk, state):
    """Seat ``p`` moves from ``node`` on ``walk.board``: to a random untried legal action's new
    child while the tree has room (with ``cfg.widen``, see ``_widened``), else to the child of
    the best UCB1 score (exploration ``cfg.c``). Returns (child, whether it is new); (-1,
    False) when there is none to move to.

    Availability: every existing child legal in this determinization was available.
    """
    c = cfg.c
    rng = chk.rng
    tree = state.tree
    stats = state.stats
    board = walk.board
    legal = walk.legal
    is_legal = walk.is_legal
    nl = K.legal_actions(board, legal)
    for i in range(nl):
        is_legal[legal[i]] = True
    best = -1
    best_score = -1e300
    nch = 0  # children, legal here or not
    ch = tree.first_child[node]
    while ch >= 0:
        a = tree.action[ch]
        nch += 1
        if is_legal[a]:
            is_legal[a] = False  # tried: what stays marked is untried
            tree.avail[ch] += 1
            v = tree.visits[ch]
            score = tree.total[ch] / v + c * math.sqrt(math.log(tree.avail[ch]) / v)
            if score > best_score:
                best_score = score
                best = ch
        ch = tree.next_sibling[ch]
    nu = 0
    for i in range(nl):
        a = legal[i]
        if is_legal[a]:
            walk.untried[nu] = a
            nu += 1
            is_legal[a] = False
    first, nu = _widened(walk, p, node, nch, cfg, chk, tree, nu)
    if nu > 0 and stats[S_NODES] < tree.first_child.shape[0]:
        a = first if first >= 0 else walk.untried[K.rng_below(rng, nu)]
        j = _new_node(tree, stats, node, a, p)
        track_size(walk.sizes, p, a)
        K.apply(board, a)
        return j, True
    if best < 0:
        return -1, False
    track_size(walk.sizes, p, tree.action[best])
    K.apply(board, tree.action[best])
    return best, False


@njit(cache=True)
def _backup(tree, path, depth, reward):
    """Back up a playout: each node passed (``path[1:depth + 1]``) gains a visit and its
    actor's reward."""
    for d in range(1, depth + 1):
        j = path[d]
        tree.visits[j] += 1.0
        tree.total[j] += reward[tree.actor[j]]
