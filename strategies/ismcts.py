"""``ismcts``: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree, rooted at the searching
player's information set, whose nodes are keyed by the public action history from the root
(own and opponents' actions alike). Each iteration

1. *determinizes*: deals the cards the searcher cannot place (``PlayerView.unseen``) into the
   opponents' hidden slots and the undealt pile, keeping every hand size and every publicly
   known card. Plain deals are uniform (the distribution of ``PlayerView.sample_state``, done in
   numba). With inference on (``infer_tries``/``infer_steps``, the default) deals are drawn
   from the posterior under the *opponent model* "opponents play like the rollout policy":
   every past opponent decision is replayed on its public board with the sampled hand (what
   the seat holds now plus what it played minus what it took since) and a deal under which
   the policy would have decided otherwise counts as a *contradiction*. The first deal of a
   decision comes from rejection sampling (``infer_tries`` draws, keeping the least
   contradicting one); the following ones from a Markov chain that swaps hidden cards between
   holders (``infer_steps`` swaps per iteration) and targets deals weighted by
   ``exp(-infer_lambda * contradictions)``: a swap that adds ``d`` contradictions is kept with
   probability ``exp(-infer_lambda * d)``. This *soft* rejection lets a wrong opponent model
   degrade gracefully: with hard rejection (``infer_lambda >= 1e6``) the chain clings to the
   few deals that best fit the wrong model, which measured worse than no inference at all;
2. *selects* down the tree with UCB1 over the children whose action is legal in this deal, with
   **availability counts** (a child's exploration term uses how often it was available, not the
   parent's visits), since legal moves vary by deal. With ``model_opponents`` (the default)
   opponents' moves inside the tree are played by the rollout policy, not chosen by UCB, and
   the tree records them as branches, so own nodes stay keyed by the whole public history;
3. *expands* one untried legal action, then *plays out* the deal to its end with a fast
   compiled policy (param ``rollout``: any strategy spec whose ``compiled()`` is not None);
4. *backs up* a reward vector: each node adds the reward of the seat that acted into it, so
   every seat maximizes its own outcome (max-n style) in a multi-player game.

Reward of a playout for seat ``i``: ``(1 - shaping) * [i won] + shaping * shed_i`` where
``shed_i = 1 - min(cards left, hand size dealt) / hand size dealt`` (the fraction of a starting
hand shed). The default ``shaping=0`` scores wins only: measured against ``taker``, even
``shaping=0.1`` played worse (holding cards back is often right in 13 Leaves).

*Opponent model selection* (``models``, default ``"weighted,taker"``): before searching, each
candidate policy models every opponent in turn; a deal is fitted to it (the least contradicting
of a few uniform deals, then ``model_steps`` swaps that never add contradictions) and its
contradictions are counted per seat (``fit_models``). Each opponent seat is then modelled by
the candidate with the lowest count, the other opponents' counts added with weight
``model_pool`` (a table-wide prior that settles ties while a seat has little history; ties
overall keep the rollout policy). That model plays the seat in inference, in the tree and in
playouts; the searcher itself plays the rollout policy in playouts. Selection uses its own
RNG stream, derived from the same seed.

Defaults (1000 iterations, ``rollout="weighted"``, ``infer_lambda=2``, ``models="weighted,
taker"``) were measured in 4-player games (``benchmarks/bench_ismcts.py``): well above parity
against three ``weighted`` (the strongest heuristic) and against three ``taker`` alike, at
about 20 ms a decision on an idle core.

The whole search loop (deal, select, expand, play out, back up) runs in one numba kernel over
flat node arrays; Python only builds the public board and the opponents' decision record, and
slices the work into chunks to honour ``time_ms``. All randomness comes from the ``rng``
passed to ``choose`` (one draw seeds the kernel RNG), so with an iteration budget
(``time_ms=0``) a decision depends only on the view and the seed.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
from numba import njit

from leaves import Action, PlayerView
from leaves import kernels as K
from leaves.board import (
    BOARD_ROWS,
    HANDS,
    KNOWN,
    M_CUR,
    M_FIRST,
    M_HI,
    M_LIMIT,
    M_LO,
    M_N,
    M_NPASSED,
    M_PASSED,
    M_ROUND,
    M_TURN,
    M_WINNER,
    META,
    REMOVED,
    TABLE,
    UNDEALT,
)
from leaves.rules import DECK, DECK_SIZE, MAX_COPIES, N_ACTIONS, N_VALUES, TAKE_BASE, hand_size_for

from . import compiled as C
from .base import Strategy

_DECK = np.array(DECK, dtype=np.int64)
_MAX_DEPTH = 1100  # a path never exceeds the turn limit's worth of plies (+ root)
_CHUNK = 16  # iterations per kernel call when a time budget is set
_NODE_CAP = 200_000  # node capacity with a time budget only (about 8 MB of arrays)

# Indices into the int64 ``stats`` array shared by the Python driver and the kernel.
_S_NODES = 0  # nodes in the tree (the root is node 0)
_S_ITERS = 1  # iterations done
_S_REJECTS = 2  # determinizations redrawn because they contradicted the opponent model
_S_BAD = 3  # mismatches of the current deal of the Markov chain (``swap_step``)
_HARD = 1e6  # ``infer_lambda`` from here on: hard rejection (a contradicted deal is never kept)
_MAX_SLACK = 1 << 20  # more mismatches than any game has decisions


# ----------------------------------------------------------------------------- kernels
@njit(cache=True)
def determinize(pub, seat, sizes, rng, out):
    """Fill ``out`` with ``pub`` whose hidden cards are dealt uniformly at random.

    ``pub`` holds only what ``seat`` may see (``compiled.board_from_view``): own hand, public
    rows, known cards. Unseen cards go to the opponents' hidden slots (hand size minus known
    cards) and the undealt row, uniformly, as ``PlayerView.sample_state`` does.
    """
    out[:, :] = pub
    n = pub[META, M_N]
    pool = np.empty(DECK_SIZE, np.int64)
    m = 0
    for v in range(N_VALUES):
        x = _DECK[v] - pub[HANDS + seat, v] - pub[TABLE, v] - pub[REMOVED, v]
        for i in range(n):
            if i != seat:
                x -= pub[KNOWN + i, v]
        for _ in range(x):
            pool[m] = v
            m += 1
    for i in range(m - 1, 0, -1):
        j = K.rng_below(rng, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    pos = 0
    for i in range(n):
        if i == seat:
            continue
        hidden = sizes[i]
        for v in range(N_VALUES):
            out[HANDS + i, v] = pub[KNOWN + i, v]
            hidden -= pub[KNOWN + i, v]
        for _ in range(hidden):
            out[HANDS + i, pool[pos]] += 1
            pos += 1
    for v in range(N_VALUES):
        out[UNDEALT, v] = 0
    while pos < m:
        out[UNDEALT, pool[pos]] += 1
        pos += 1


@njit(cache=True)
def playout_rewards(board, kinds, params, rng, work, sizes, playouts, shaping, dealt, reward):
    """Play ``board`` to the end ``playouts`` times, seat ``p`` by policy ``kinds[p]`` (with
    ``params[p]``); mean reward per seat.

    ``board`` is left unchanged (each playout runs on a copy). ``reward[i]`` gets the mean of
    ``(1 - shaping) * [i won] + shaping * (1 - min(left_i, dealt) / dealt)``.
    """
    n = board[META, M_N]
    for i in range(n):
        reward[i] = 0.0
    tmp = np.empty_like(board)
    for _ in range(playouts):
        tmp[:, :] = board
        for i in range(n):
            sizes[i] = K.hand_size(tmp, i)
        while not K.is_terminal(tmp):
            p = tmp[META, M_CUR]
            aid = C.decide(kinds[p], params[p], tmp, p, sizes, rng, work)
            K.apply(tmp, aid)
            if aid >= TAKE_BASE:
                sizes[p] += 1
            else:
                sizes[p] -= aid % MAX_COPIES + 1
        w = tmp[META, M_WINNER]
        for i in range(n):
            left = min(sizes[i], dealt)
            r = shaping * (1.0 - left / dealt)
            if i == w:
                r += 1.0 - shaping
            reward[i] += r / playouts


@njit(cache=True)
def mismatches(board, ev, kinds, params, rng, work, tmp, limit):
    """How many of the opponents' past decisions in ``ev`` would not repeat with the hands on
    ``board`` if seat ``p`` played policy ``kinds[p]`` (params ``params[p]``); counting stops at
    ``limit``.

    ``ev`` = (boards, sizes, seats, actions, offsets): decision ``e`` was ``actions[e]`` by
    ``seats[e]`` on the public board ``boards[e]`` with public hand sizes ``sizes[e]``; that
    seat's hand then was its hand on ``board`` plus ``offsets[e]`` (what it played minus what
    it took since, the decision included). A hand that goes negative is a mismatch too.
    """
    boards, sizes, seats, actions, offsets = ev
    bad = 0
    for e in range(seats.shape[0]):
        tmp[:, :] = boards[e]
        row = HANDS + seats[e]
        ok = True
        for v in range(N_VALUES):
            x = board[row, v] + offsets[e, v]
            if x < 0:
                ok = False
            tmp[row, v] = x
        s = seats[e]
        if not ok or C.decide(kinds[s], params[s], tmp, s, sizes[e], rng, work) != actions[e]:
            bad += 1
            if bad >= limit:
                return bad
    return bad


@njit(cache=True)
def draw_deal(pub, seat, sizes, rng, ev, kinds, params, tries, board, spare, tmp, work, stats):
    """``determinize`` into ``board``; with evidence ``ev`` (``mismatches``), redraw up to
    ``tries`` times until the rollout policy would repeat every past opponent decision,
    keeping the best draw (rejection sampling of deals given the opponent model)."""
    determinize(pub, seat, sizes, rng, board)
    if ev[2].shape[0] == 0 or tries <= 1:
        return
    least = mismatches(board, ev, kinds, params, rng, work, tmp, 1 << 30)
    t = 1
    while least > 0 and t < tries:
        determinize(pub, seat, sizes, rng, spare)
        bad = mismatches(spare, ev, kinds, params, rng, work, tmp, least)
        stats[_S_REJECTS] += 1
        if bad < least:
            least = bad
            board[:, :] = spare
        t += 1


@njit(cache=True)
def swap_step(deal, pub, seat, rng, ev, kinds, params, bad, tmp, work, lam):
    """One Metropolis step on the hidden cards of ``deal``: swap a random hidden card of a
    random opponent with a random hidden card of another opponent or the undealt pile; keep
    a swap that adds ``d > 0`` mismatches (``mismatches``) with probability ``exp(-lam * d)``
    (``lam >= _HARD``: never). Returns the new mismatch count.

    Proposals are symmetric over card slots, so the chain samples deals with weight
    ``exp(-lam * mismatches)``: the posterior if each opponent decision deviates from the
    model with odds ``exp(-lam)``. A finite ``lam`` keeps a wrong opponent model from pinning
    the chain to the few least contradicting deals; ``lam >= _HARD`` walks among consistent
    deals only (uniformly, as rejection sampling would, but far cheaper).
    """
    n = pub[META, M_N]
    i = K.rng_below(rng, n - 1)
    if i >= seat:
        i += 1
    j = K.rng_below(rng, n - 1)  # another opponent, or n - 1 for the undealt pile
    if j >= seat:
        j += 1
    if j == i:
        j = -1  # the undealt pile
    row_i = HANDS + i
    row_j = UNDEALT if j < 0 else HANDS + j
    hi = 0
    hj = 0
    for v in range(N_VALUES):
        hi += deal[row_i, v] - pub[KNOWN + i, v]
        hj += deal[row_j, v] - (0 if j < 0 else pub[KNOWN + j, v])
    if hi == 0 or hj == 0:
        return bad
    r = K.rng_below(rng, hi)
    vi = 0
    while True:
        r -= deal[row_i, vi] - pub[KNOWN + i, vi]
        if r < 0:
            break
        vi += 1
    r = K.rng_below(rng, hj)
    vj = 0
    while True:
        r -= deal[row_j, vj] - (0 if j < 0 else pub[KNOWN + j, vj])
        if r < 0:
            break
        vj += 1
    if vi == vj:
        return bad
    # Accepting d extra mismatches with probability exp(-lam * d) = accepting d <= slack for
    # an exponential slack; drawing it first lets ``mismatches`` stop counting early.
    slack = 0
    if lam < _HARD:
        slack = _MAX_SLACK
        if lam > 0:
            slack = int(min(-math.log(1.0 - K.rng_uniform(rng)) / lam, _MAX_SLACK))
    deal[row_i, vi] -= 1
    deal[row_i, vj] += 1
    deal[row_j, vj] -= 1
    deal[row_j, vi] += 1
    new = mismatches(deal, ev, kinds, params, rng, work, tmp, bad + slack + 1)
    if new <= bad + slack:
        return new
    deal[row_i, vi] += 1
    deal[row_i, vj] -= 1
    deal[row_j, vj] += 1
    deal[row_j, vi] -= 1
    return bad


@njit(cache=True)
def seat_mismatches(board, ev, kinds, params, rng, work, tmp, out):
    """``mismatches`` counted per seat: ``out[p]`` for seat ``p``'s past decisions."""
    boards, sizes, seats, actions, offsets = ev
    out[:] = 0
    for e in range(seats.shape[0]):
        tmp[:, :] = boards[e]
        s = seats[e]
        row = HANDS + s
        ok = True
        for v in range(N_VALUES):
            x = board[row, v] + offsets[e, v]
            if x < 0:
                ok = False
            tmp[row, v] = x
        if not ok or C.decide(kinds[s], params[s], tmp, s, sizes[e], rng, work) != actions[e]:
            out[s] += 1


@njit(cache=True)
def fit_models(pub, seat, sizes, rng, ev, cand_kinds, cand_params, tries, steps, fit):
    """``fit[m, p]``: how many of seat ``p``'s past decisions candidate policy ``m`` fails to
    repeat on a deal fitted to it (lower fits better).

    For each candidate every opponent is modelled by it; the deal is the least contradicting
    of ``tries`` uniform draws (``draw_deal``), improved by up to ``steps`` swaps that never
    add contradictions (``swap_step`` with hard rejection). Counting the best-fitting deal's
    contradictions per seat approximates each candidate's likelihood for that seat, maximised
    over the cards it cannot see.
    """
    deal = np.empty_like(pub)
    spare = np.empty_like(pub)
    tmp = np.empty_like(pub)
    work = np.zeros(C.WORK_SIZE, np.int64)
    stats = np.zeros(4, np.int64)
    kinds = np.empty(8, np.int64)
    params = np.empty((8, cand_params.shape[1]), np.float64)
    out = np.zeros(8, np.int64)
    for m in range(cand_kinds.shape[0]):
        for i in range(8):
            kinds[i] = cand_kinds[m]
            params[i, :] = cand_params[m]
        draw_deal(pub, seat, sizes, rng, ev, kinds, params, tries, deal, spare, tmp, work, stats)
        bad = mismatches(deal, ev, kinds, params, rng, work, tmp, 1 << 30)
        for _ in range(steps):
            if bad == 0:
                break
            bad = swap_step(deal, pub, seat, rng, ev, kinds, params, bad, tmp, work, 2 * _HARD)
        seat_mismatches(deal, ev, kinds, params, rng, work, tmp, out)
        for i in range(8):
            fit[m, i] = out[i]


@njit(cache=True, inline="always")
def _track(sizes, p, aid):
    """Update the public hand sizes for seat ``p`` taking action ``aid``."""
    if aid >= TAKE_BASE:
        sizes[p] += 1
    else:
        sizes[p] -= aid % MAX_COPIES + 1


@njit(cache=True)
def _new_node(parent, aid, seat, first_child, next_sibling, action, actor, visits, avail,
              total, stats):  # fmt: skip
    """Append a child of ``parent`` reached by ``aid`` taken by ``seat``; return its index."""
    j = stats[_S_NODES]
    stats[_S_NODES] = j + 1
    first_child[j] = -1
    next_sibling[j] = first_child[parent]
    first_child[parent] = j
    action[j] = aid
    actor[j] = seat
    visits[j] = 0.0
    avail[j] = 1.0
    total[j] = 0.0
    return j


@njit(cache=True)
def search(
    pub, seat, pub_sizes, n_iter, fcfg, icfg, kinds, params, ev, rng, deal,
    first_child, next_sibling, action, actor, visits, avail, total, stats,
):  # fmt: skip
    """Run ``n_iter`` ISMCTS iterations, growing the tree held in the node arrays.

    ``fcfg`` = (c, shaping, dealt, infer_lambda); ``icfg`` = (rollout kind, playouts, max_depth,
    model_opponents, infer_tries, infer_steps); seat ``p`` is modelled by policy ``kinds[p]``
    with ``params[p]`` in playouts, in the tree's opponent moves and in inference (the
    searcher's own seat plays the rollout policy there); ``ev`` the opponents' past decisions
    (``mismatches``); ``deal`` holds the current deal (the Markov chain's state).
    Node ``j``: ``action[j]`` leads to it from its parent, ``actor[j]`` is the seat that took
    that action, children are a linked list (``first_child``, ``next_sibling``; -1 ends it).
    ``visits``/``total`` are that actor's visit count and reward sum, ``avail`` how often the
    node's action was legal when its parent was reached. ``stats[_S_NODES]`` is the node count
    (the capacity is the arrays' length: a full tree stops expanding and plays out from its
    leaves), ``stats[_S_ITERS]`` counts iterations, ``stats[_S_REJECTS]`` redrawn deals.
    """
    c = fcfg[0]
    shaping = fcfg[1]
    dealt = fcfg[2]
    lam = fcfg[3]
    playouts = icfg[1]
    max_depth = icfg[2]
    model_opponents = icfg[3] != 0
    tries = icfg[4]
    spare = np.empty_like(pub)
    tmp = np.empty_like(pub)
    cap = first_child.shape[0]
    board = np.empty_like(pub)
    sizes = np.zeros(8, np.int64)
    work = np.zeros(C.WORK_SIZE, np.int64)
    legal = np.empty(N_ACTIONS + 8, np.int64)
    untried = np.empty(N_ACTIONS, np.int64)
    is_legal = np.zeros(N_ACTIONS, np.bool_)
    path = np.empty(_MAX_DEPTH, np.int64)
    reward = np.zeros(8, np.float64)
    steps = icfg[5]
    for _ in range(n_iter):
        if steps > 0 and ev[2].shape[0] > 0:
            # A Markov chain over deals, started once by rejection sampling.
            if stats[_S_ITERS] == 0:
                draw_deal(
                    pub, seat, pub_sizes, rng, ev, kinds, params, tries, deal, spare, tmp,
                    work, stats,
                )  # fmt: skip
                stats[_S_BAD] = mismatches(deal, ev, kinds, params, rng, work, tmp, 1 << 30)
            for _s in range(steps):
                stats[_S_BAD] = swap_step(
                    deal, pub, seat, rng, ev, kinds, params, stats[_S_BAD], tmp, work, lam
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
            if model_opponents and p != seat:
                # Opponents play the rollout policy here too; the tree still branches on what
                # they play, so own nodes stay keyed by the whole public history.
                aid = C.decide(kinds[p], params[p], board, p, sizes, rng, work)
                _track(sizes, p, aid)
                K.apply(board, aid)
                ch = first_child[node]
                while ch >= 0 and action[ch] != aid:
                    ch = next_sibling[ch]
                if ch < 0:
                    if stats[_S_NODES] >= cap:
                        break  # tree full: play out from here
                    ch = _new_node(node, aid, p, first_child, next_sibling, action, actor,
                                   visits, avail, total, stats)  # fmt: skip
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
            if nu > 0 and stats[_S_NODES] < cap:
                a = untried[K.rng_below(rng, nu)]
                j = _new_node(node, a, p, first_child, next_sibling, action, actor,
                              visits, avail, total, stats)  # fmt: skip
                _track(sizes, p, a)
                K.apply(board, a)
                depth += 1
                path[depth] = j
                break
            if best < 0:
                break  # tree full and no legal child: play out from here
            _track(sizes, p, action[best])
            K.apply(board, action[best])
            node = best
            depth += 1
            path[depth] = node
        playout_rewards(board, kinds, params, rng, work, sizes, playouts, shaping, dealt, reward)
        for d in range(1, depth + 1):
            j = path[d]
            visits[j] += 1.0
            total[j] += reward[actor[j]]
        stats[_S_ITERS] += 1


# ----------------------------------------------------------------------------- strategy
class ISMCTS(Strategy):
    """Information-set MCTS with compiled playouts (see the module docstring).

    Parameters: ``iterations`` (search iterations per decision; 0 = no cap, then ``time_ms``
    must be set), ``time_ms`` (wall-clock budget per decision in milliseconds; 0 = none; with
    both set, whichever runs out first stops the search), ``c`` (UCB1 exploration constant,
    rewards lie in [0, 1]), ``rollout`` (spec of the playout policy and opponent model; it must
    be a compiled strategy), ``playouts`` (playouts per iteration from the same leaf,
    averaged; only useful with a stochastic rollout), ``shaping`` (weight of the cards-shed
    reward, 0..1), ``max_depth`` (tree plies below the root, 0 = unlimited; 1 = flat Monte
    Carlo at the root), ``model_opponents`` (opponents' moves in the tree by the rollout
    policy; False: chosen by UCB from their own rewards, plain SO-ISMCTS), ``infer_tries``
    (rejection draws of the first deal against the opponents' past decisions; 0 or 1 with
    ``infer_steps=0``: uniform deals), ``infer_steps`` (card swaps of the deal chain per
    iteration), ``infer_lambda`` (how hard a contradiction of the opponent model weighs on a
    deal: a swap adding ``d`` contradictions is kept with probability ``exp(-lambda * d)``;
    0 = ignore the model, ``>= 1e6`` = hard rejection), ``models`` (candidate opponent
    models: specs separated by ``+``, or by commas when none has parameters; each opponent seat
    is modelled, in inference, tree moves and playouts, by the candidate that contradicts its
    past decisions least; ``""``: the rollout policy for every seat), ``model_min`` (opponent
    decisions needed before selecting; fewer: the rollout policy), ``model_steps`` (card swaps
    spent fitting a deal to each candidate), ``model_pool`` (weight of the other opponents'
    contradictions in a seat's choice: 0 = each seat on its own evidence). The move played is
    the root child with the most visits (ties: the first in ``legal``). A decision with one
    legal action skips the search.
    """

    name = "ismcts"
    description = "information-set Monte Carlo tree search with compiled heuristic playouts"
    classifier = {
        "stochastic": True,
        "uses_card_counting": True,
        "search": True,
        "compiled": False,
    }

    def __init__(
        self,
        iterations: int = 1000,
        time_ms: float = 0.0,
        c: float = 0.7,
        rollout: str = "weighted",
        playouts: int = 1,
        shaping: float = 0.0,
        max_depth: int = 0,
        model_opponents: bool = True,
        infer_tries: int = 50,
        infer_steps: int = 4,
        infer_lambda: float = 2.0,
        models: Any = "weighted,taker",
        model_min: int = 3,
        model_steps: int = 1000,
        model_pool: float = 0.5,
    ) -> None:
        label = self.name
        if isinstance(iterations, bool) or not isinstance(iterations, int | np.integer):
            raise ValueError(f"{label}: iterations must be an integer, got {iterations!r}")
        if iterations < 0:
            raise ValueError(f"{label}: iterations must be >= 0, got {iterations}")
        time_ms = _number(label, "time_ms", time_ms)
        if time_ms < 0:
            raise ValueError(f"{label}: time_ms must be >= 0, got {time_ms}")
        if iterations == 0 and time_ms == 0:
            raise ValueError(f"{label}: set iterations or time_ms (both are 0: no budget)")
        self.c = _number(label, "c", c)
        if self.c < 0:
            raise ValueError(f"{label}: c must be >= 0, got {c}")
        if isinstance(playouts, bool) or not isinstance(playouts, int | np.integer):
            raise ValueError(f"{label}: playouts must be an integer, got {playouts!r}")
        if playouts < 1:
            raise ValueError(f"{label}: playouts must be >= 1, got {playouts}")
        self.shaping = _number(label, "shaping", shaping)
        if not 0.0 <= self.shaping <= 1.0:
            raise ValueError(f"{label}: shaping must be between 0 and 1, got {shaping}")
        self.iterations = int(iterations)
        self.time_ms = time_ms
        self.playouts = int(playouts)
        if not isinstance(model_opponents, bool | np.bool_):
            raise ValueError(
                f"{label}: model_opponents must be true or false, got {model_opponents!r}"
            )
        self.model_opponents = bool(model_opponents)
        if isinstance(max_depth, bool) or not isinstance(max_depth, int | np.integer):
            raise ValueError(f"{label}: max_depth must be an integer, got {max_depth!r}")
        if max_depth < 0:
            raise ValueError(f"{label}: max_depth must be >= 0, got {max_depth}")
        self.max_depth = int(max_depth) if max_depth else _MAX_DEPTH - 1
        self.max_depth = min(self.max_depth, _MAX_DEPTH - 1)
        if isinstance(infer_tries, bool) or not isinstance(infer_tries, int | np.integer):
            raise ValueError(f"{label}: infer_tries must be an integer, got {infer_tries!r}")
        if infer_tries < 0:
            raise ValueError(f"{label}: infer_tries must be >= 0, got {infer_tries}")
        self.infer_tries = int(infer_tries)
        if isinstance(infer_steps, bool) or not isinstance(infer_steps, int | np.integer):
            raise ValueError(f"{label}: infer_steps must be an integer, got {infer_steps!r}")
        if infer_steps < 0:
            raise ValueError(f"{label}: infer_steps must be >= 0, got {infer_steps}")
        self.infer_steps = int(infer_steps)
        self.infer_lambda = _number(label, "infer_lambda", infer_lambda)
        if self.infer_lambda < 0:
            raise ValueError(f"{label}: infer_lambda must be >= 0, got {infer_lambda}")
        self.kind, self.policy_params = _rollout_policy(rollout)
        self._candidates = _candidates(rollout, models, self.kind, self.policy_params)
        for name, value in (("model_min", model_min), ("model_steps", model_steps)):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"{label}: {name} must be an integer, got {value!r}")
            if value < 0:
                raise ValueError(f"{label}: {name} must be >= 0, got {value}")
        self.model_min = max(int(model_min), 1)
        self.model_steps = int(model_steps)
        self.model_pool = _number(label, "model_pool", model_pool)
        if self.model_pool < 0:
            raise ValueError(f"{label}: model_pool must be >= 0, got {model_pool}")
        self.last_models: dict[int, str] = {}
        """Policy that modelled each opponent seat in the last ``choose`` (seat -> label)."""
        self.last_iterations = 0
        """Iterations the last ``choose`` ran (0 when it had a single legal action)."""
        self.last_nodes = 0
        """Tree nodes the last ``choose`` built, the root included."""
        self.last_visits: dict[Action, int] = {}
        """Visits of each root action searched by the last ``choose`` (for analysis)."""
        self.last_rejects = 0
        """Deals the last ``choose`` redrew because they contradicted a pass."""

    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_nodes = 0
            self.last_visits = {}
            self.last_models = {}
            return legal[0]
        start = time.perf_counter()
        pub, sizes = C.board_from_view(view)
        seat = view.player
        kseed = int(rng.integers(2**63))
        krng = K.rng_new(np.uint64(kseed))
        cap = 4 * self.iterations + 1 if self.iterations else _NODE_CAP
        first_child = np.empty(cap, np.int64)
        next_sibling = np.empty(cap, np.int64)
        action = np.empty(cap, np.int64)
        actor = np.empty(cap, np.int64)
        visits = np.empty(cap, np.float64)
        avail = np.empty(cap, np.float64)
        total = np.empty(cap, np.float64)
        first_child[0] = -1
        next_sibling[0] = -1
        action[0] = -1
        actor[0] = -1
        stats = np.array([1, 0, 0, 0], np.int64)
        dealt = float(hand_size_for(view.n_players)) if 3 <= view.n_players <= 6 else 1.0
        fcfg = np.array([self.c, self.shaping, max(dealt, 1.0), self.infer_lambda], np.float64)
        icfg = np.array(
            [
                self.kind,
                self.playouts,
                self.max_depth,
                int(self.model_opponents),
                self.infer_tries,
                self.infer_steps,
            ],  # fmt: skip
            np.int64,
        )
        infer = (self.infer_tries > 1 or self.infer_steps > 0) and self.infer_lambda > 0
        select = len(self._candidates) > 1
        ev = evidence(view) if infer or select else _NO_EVIDENCE
        if select:
            kinds, params = self._seat_models(view, pub, sizes, ev, kseed)
        else:
            kinds, params = uniform_models(self.kind, self.policy_params)
            rollout = self._candidates[0][2]
            self.last_models = {p: rollout for p in range(view.n_players) if p != seat}
        if not infer:
            ev = _NO_EVIDENCE
        head = (pub, seat, sizes)
        tail = (
            fcfg, icfg, kinds, params, ev, krng, np.empty_like(pub),
            first_child, next_sibling, action, actor, visits, avail, total, stats,
        )  # fmt: skip
        if self.time_ms <= 0:
            search(*head, self.iterations, *tail)
        else:
            deadline = start + self.time_ms / 1000.0
            left = self.iterations if self.iterations else -1
            while left != 0 and time.perf_counter() < deadline:
                step = _CHUNK if left < 0 else min(_CHUNK, left)
                search(*head, step, *tail)
                if left > 0:
                    left -= step
                if stats[_S_NODES] >= cap and self.iterations == 0:
                    break  # a full tree cannot grow: stop rather than spin on leaf playouts
        self.last_rejects = int(stats[_S_REJECTS])
        self.last_iterations = int(stats[_S_ITERS])
        self.last_nodes = int(stats[_S_NODES])
        counts: dict[int, int] = {}
        ch = int(first_child[0])
        while ch >= 0:
            counts[int(action[ch])] = int(visits[ch])
            ch = int(next_sibling[ch])
        self.last_visits = {a: counts[a.id] for a in legal if a.id in counts}
        return _most_visited(legal, counts)

    def _seat_models(
        self, view: PlayerView, pub: np.ndarray, sizes: np.ndarray, ev: tuple, kseed: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per-seat (kinds, params): each opponent with at least ``model_min`` past decisions
        gets the candidate that best explains them (``fit_models``; ties: the rollout policy).

        Uses its own kernel RNG stream derived from ``kseed``, so the search's stream is the
        same as without model selection.
        """
        kinds, params = uniform_models(self.kind, self.policy_params)
        seat = view.player
        self.last_models = {p: self._candidates[0][2] for p in range(view.n_players) if p != seat}
        seats = ev[2]
        if len(seats) == 0:
            return kinds, params
        if len(seats) < self.model_min:
            return kinds, params
        cand_kinds = np.array([k for k, _, _ in self._candidates], np.int64)
        cand_params = np.array([p for _, p, _ in self._candidates], np.float64)
        fit = np.zeros((len(cand_kinds), 8), np.int64)
        mrng = K.rng_new(np.uint64(kseed) ^ _MODEL_SALT)
        fit_models(
            pub, seat, sizes, mrng, ev, cand_kinds, cand_params, _MODEL_TRIES,
            self.model_steps, fit,
        )  # fmt: skip
        others = fit.sum(axis=1)[:, None] - fit  # the other opponents' contradictions
        score = fit + self.model_pool * others
        for p in range(view.n_players):
            if p == seat:
                continue
            m = int(np.argmin(score[:, p]))  # first minimum: the rollout policy on ties
            kinds[p] = cand_kinds[m]
            params[p] = cand_params[m]
            self.last_models[p] = self._candidates[m][2]
        return kinds, params


def uniform_models(kind: int, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat model arrays (``kinds`` int64[8], ``params`` float64[8, N_PARAMS]) with one
    policy for every seat, as the kernels take them."""
    return (
        np.full(8, kind, np.int64),
        np.tile(np.asarray(params, np.float64), (8, 1)),
    )


def _candidates(rollout: Any, models: Any, kind: int, params: np.ndarray) -> list[tuple]:
    """(kind, params, label) of the candidate opponent models, the rollout policy first.

    ``models``: specs separated by ``+`` (or by commas when none has parameters), or a
    sequence of specs; empty: the rollout policy only (no selection). Duplicates are dropped.
    """
    from .registry import get

    if isinstance(models, str):
        text = models.strip()
        specs = [] if not text else text.split("+") if "+" in text else text.split(",")
    elif isinstance(models, list | tuple):
        specs = list(models)
    else:
        raise ValueError(f"ismcts: models must be a text like 'weighted,taker', got {models!r}")
    label = rollout if isinstance(rollout, str) else get(rollout).label
    out = [(kind, params, label)]
    for spec in specs:
        if isinstance(spec, str) and not spec.strip():
            raise ValueError(f"ismcts: empty policy name in models {models!r}")
        k, p = _rollout_policy(spec, what="opponent model")
        if all(k != k2 or not np.array_equal(p, p2) for k2, p2, _ in out):
            out.append((k, p, spec.strip() if isinstance(spec, str) else get(spec).label))
    return out


_MODEL_SALT = np.uint64(0x3C6EF372FE94F82B)  # separates the model-selection RNG stream
_MODEL_TRIES = 20  # uniform deals drawn per candidate model before the swaps of ``fit_models``

_NO_EVIDENCE = (
    np.zeros((0, BOARD_ROWS, N_VALUES), np.int32),
    np.zeros((0, 8), np.int64),
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
    np.zeros((0, N_VALUES), np.int64),
)


def evidence(view: PlayerView) -> tuple[np.ndarray, ...]:
    """The opponents' past decisions, for ``mismatches``: replays the public history.

    Needs the history from the deal (``view.turn == len(history)``, standard hand sizes);
    otherwise returns no evidence. Each opponent decision keeps the public board it faced
    (table, ends, removed and known cards, who passed, turn, round) and the public hand
    sizes, so the rollout policy can be asked what it would have done with a sampled hand.
    """
    history = view.history
    n = view.n_players
    if not history or view.turn != len(history) or not 3 <= n <= 6:
        return _NO_EVIDENCE
    pub = np.zeros((BOARD_ROWS, N_VALUES), np.int32)
    meta = pub[META]
    meta[M_N] = n
    meta[M_WINNER] = -1
    meta[M_ROUND] = 1
    meta[M_LIMIT] = view.turn_limit
    meta[M_FIRST] = -1
    meta[M_LO] = meta[M_HI] = -1
    sizes = np.zeros(8, np.int64)
    sizes[:n] = hand_size_for(n)
    net = np.zeros((n, N_VALUES), np.int64)  # cumulative played minus taken, per seat
    boards, size_rows, seats, actions, marks = [], [], [], [], []
    for turn, (who, act) in enumerate(history):
        meta[M_CUR] = who
        meta[M_TURN] = turn
        if who != view.player:
            boards.append(pub.copy())
            size_rows.append(sizes.copy())
            seats.append(who)
            actions.append(act.id)
            marks.append(net[who].copy())
        v = act.value - 1
        table = pub[TABLE]
        if act.is_pass:
            net[who, v] -= 1
            sizes[who] += 1
            table[v] -= 1
            pub[KNOWN + who, v] += 1
            meta[M_PASSED] |= 1 << who
            meta[M_NPASSED] += 1
            if meta[M_NPASSED] >= n - 1:
                pub[REMOVED] += table
                table[:] = 0
                meta[M_PASSED] = meta[M_NPASSED] = 0
                meta[M_ROUND] += 1
        else:
            net[who, v] += act.count
            sizes[who] -= act.count
            table[v] += act.count
            pub[KNOWN + who, v] -= min(pub[KNOWN + who, v], act.count)
        nz = np.flatnonzero(table)
        meta[M_LO] = nz[0] if len(nz) else -1
        meta[M_HI] = nz[-1] if len(nz) else -1
    if tuple(sizes[:n]) != tuple(view.hand_sizes) or not seats:
        return _NO_EVIDENCE  # not a standard deal: no safe replay
    seat_arr = np.array(seats, np.int64)
    offsets = net[seat_arr] - np.array(marks, np.int64)
    return (
        np.array(boards, np.int32),
        np.array(size_rows, np.int64),
        seat_arr,
        np.array(actions, np.int64),
        offsets,
    )


def _most_visited(legal: tuple[Action, ...], counts: dict[int, int]) -> Action:
    """The legal action with the most root visits (ties and unvisited: the lowest id)."""
    best = legal[0]
    best_n = counts.get(best.id, 0)
    for a in legal[1:]:
        n = counts.get(a.id, 0)
        if n > best_n:
            best, best_n = a, n
    return best


def _number(label: str, name: str, value: Any) -> float:
    try:
        if isinstance(value, bool):
            raise TypeError
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{label}: {name} must be a number, got {value!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{label}: {name} must be finite, got {value!r}")
    return x


def _rollout_policy(spec: Any, what: str = "rollout policy") -> tuple[int, np.ndarray]:
    """(kind, params) of the compiled playout policy named by ``spec``."""
    from .registry import get

    try:
        strat = get(spec)
    except ValueError as exc:
        raise ValueError(f"ismcts: bad {what}: {exc}") from None
    compiled = strat.compiled()
    if compiled is None:
        raise ValueError(
            f"ismcts: {what} {strat.label!r} has no compiled form; "
            "use a built-in such as 'taker' or 'random'"
        )
    kind, params = compiled
    vec = np.zeros(C.N_PARAMS, np.float64)
    p = np.asarray(params, np.float64).ravel()
    vec[: len(p)] = p[: C.N_PARAMS]
    return int(kind), vec
