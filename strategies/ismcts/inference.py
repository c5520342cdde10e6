"""Hidden-hand inference: which deals of the unseen cards fit the opponents' past decisions.

A deal is scored by its *contradictions*: past opponent decisions (``evidence``) that the
seat's model policy would not have repeated holding the cards the deal gives it. Deals are
drawn uniformly (``determinize``), by rejection (``draw_deal``) or by a Metropolis chain of
card swaps targeting ``exp(-infer_lambda * contradictions)`` (``swap_step``); candidate
opponent models are compared by the contradictions of a deal fitted to each (``fit_models``).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from leaves import kernels as K
from leaves.board import HANDS, KNOWN, M_N, META, SEAT_SLOTS, UNDEALT
from leaves.rules import DECK_SIZE, N_VALUES

from ..compiled.dispatch import decide
from ..policy.features import WORK_SIZE
from .carry import carry_deal
from .unseen import known_hand, unseen_of

S_NODES = 0  # stats[S_NODES]: nodes in the tree (the root is node 0)
S_ITERS = 1  # iterations done
S_REJECTS = 2  # determinizations redrawn because they contradicted the opponent model
S_BAD = 3  # contradictions of the current deal of the Markov chain (``swap_step``)
S_SEAT_BAD = 4  # stats[S_SEAT_BAD + p]: of them, seat p's (``swap_step``'s ``seat_bad``)
N_STATS = S_SEAT_BAD + SEAT_SLOTS
HARD = 1e6  # ``infer_lambda`` from here on: hard rejection (a contradicted deal is never kept)
_MAX_SLACK = 1 << 20  # more mismatches than any game has decisions


@njit(cache=True)
def determinize(pub, seat, sizes, rng, out):
    """Fill ``out`` with ``pub`` whose hidden cards are dealt uniformly at random.

    ``pub`` holds only what ``seat`` may see (``leaves.board.public_board``): own hand, public
    rows, known cards. Unseen cards go to the opponents' hidden slots (hand size minus known
    cards) and the undealt row, uniformly, as ``PlayerView.sample_state`` does.
    """
    out[:, :] = pub
    n = pub[META, M_N]
    pool = np.empty(DECK_SIZE, np.int64)
    m = 0
    for v in range(N_VALUES):
        for _ in range(unseen_of(pub, seat, v)):
            pool[m] = v
            m += 1
    K.shuffle_head(pool, m, rng)
    pos = 0
    for i in range(n):
        if i == seat:
            continue
        for _ in range(known_hand(out, pub, sizes, i)):
            out[HANDS + i, pool[pos]] += 1
            pos += 1
    for v in range(N_VALUES):
        out[UNDEALT, v] = 0
    while pos < m:
        out[UNDEALT, pool[pos]] += 1
        pos += 1


@njit(cache=True, inline="always")
def _repeats(board, ev, e, kinds, params, rng, work, tmp):
    """Would seat ``ev.seats[e]``, holding its hand on ``board`` then, repeat decision ``e``?

    Its hand then was its hand on ``board`` plus ``ev.offsets[e]`` (what it played minus what
    it took since, the decision included); a hand that goes negative cannot have been held.
    The hand is written into the kept board's (zeroed) row for the question and zeroed again
    after it: a copy of the whole board per question cost a fifth of the answer.
    """
    past = ev.boards[e]
    s = ev.seats[e]
    row = HANDS + s
    ok = True
    for v in range(N_VALUES):
        x = board[row, v] + ev.offsets[e, v]
        if x < 0:
            ok = False
        past[row, v] = x
    same = ok and decide(kinds[s], params[s], past, s, ev.sizes[e], rng, work) == ev.actions[e]
    for v in range(N_VALUES):
        past[row, v] = 0
    return same


@njit(cache=True)
def seat_count(board, ev, s, kinds, params, rng, work, tmp, limit):
    """How many of seat ``s``'s past decisions in ``ev`` would not repeat with its hand on
    ``board`` under its model ``kinds[s]``; counting stops at ``limit``. Only seat ``s``'s
    hand matters, so a swap of cards between two holders changes only their counts."""
    bad = 0
    for e in range(ev.starts[s], ev.starts[s + 1]):
        if not _repeats(board, ev, e, kinds, params, rng, work, tmp):
            bad += 1
            if bad >= limit:
                return bad
    return bad


MEMO_BITS = 14
"""The largest ``Memo``: ``2**MEMO_BITS`` slots (256 KB). A search sizes its memo to its swaps
(``memo_bits``): clearing a larger one than they can fill costs more than it saves."""

Memo = namedtuple("Memo", ["keys", "vals"])
"""Answers of ``seat_count`` by (seat, hand), direct-mapped: ``keys[h]`` the seat and hand
packed into one integer (-1: empty), ``vals[h]`` the count times 2 plus 1 if it is exact (the
counting did not stop at its limit; else it is a lower bound). Valid while the evidence and
the seats' models stay the same: one search, or one candidate of ``refit_models``."""


def new_memo(bits: int = MEMO_BITS) -> Memo:
    """An empty ``Memo`` of ``2**bits`` slots (``bits=0``: no memo, every count is counted)."""
    size = 1 << min(bits, MEMO_BITS) if bits > 0 else 0
    return Memo(np.full(size, -1, np.int64), np.zeros(size, np.int64))


NO_MEMO = new_memo(0)


def memo_bits(questions: int) -> int:
    """Bits of a ``Memo`` with a slot for each of about ``questions`` counts (at least 64)."""
    return min(max(int(questions).bit_length(), 6), MEMO_BITS)


@njit(cache=True)
def clear_memo(memo):
    """Forget every answer (the models or the evidence changed)."""
    memo.keys[:] = -1


@njit(cache=True)
def memo_count(board, ev, s, kinds, params, rng, work, tmp, limit, memo):
    """``seat_count``, answered from ``memo`` when seat ``s`` held this hand before.

    A seat's count depends only on its own hand (its row of ``board``; 13 counts of at most
    8 cards: 4 bits each) while the evidence and its model stay fixed, so the pair packs into
    one integer key. A model that draws random numbers answers with its first draw for a
    hand (the compiled built-ins other than ``random`` draw none).
    """
    size = memo.keys.shape[0]
    if size == 0:
        return seat_count(board, ev, s, kinds, params, rng, work, tmp, limit)
    key = np.int64(s)
    for v in range(N_VALUES):
        key |= np.int64(board[HANDS + s, v]) << np.int64(3 + 4 * v)
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - _log2(size))
    slot = np.int64(h)
    if memo.keys[slot] == key:
        val = memo.vals[slot]
        count = val >> 1
        if (val & 1) == 1 or count >= limit:
            return count
    count = seat_count(board, ev, s, kinds, params, rng, work, tmp, limit)
    memo.keys[slot] = key
    memo.vals[slot] = 2 * count + (1 if count < limit else 0)
    return count


@njit(cache=True, inline="always")
def _log2(size):
    b = 0
    while (1 << b) < size:
        b += 1
    return b


@njit(cache=True)
def mismatches(board, ev, kinds, params, rng, work, tmp, limit):
    """How many of the opponents' past decisions in ``ev`` (``evidence.Evidence``) would not
    repeat with the hands on ``board`` if seat ``p`` played policy ``kinds[p]`` (params
    ``params[p]``); counting stops at ``limit``."""
    bad = 0
    for p in range(ev.starts.shape[0] - 1):
        bad += seat_count(board, ev, p, kinds, params, rng, work, tmp, limit - bad)
        if bad >= limit:
            return bad
    return bad


@njit(cache=True)
def seat_mismatches(board, ev, kinds, params, rng, work, tmp, out):
    """``mismatches`` counted per seat: ``out[p]`` for seat ``p``'s past decisions; returns
    the total."""
    total = 0
    for p in range(out.shape[0]):
        out[p] = seat_count(board, ev, p, kinds, params, rng, work, tmp, 1 << 30)
        total += out[p]
    return total


@njit(cache=True)
def draw_deal(pub, seat, sizes, rng, ev, kinds, params, tries, board, spare, tmp, work, stats):
    """``determinize`` into ``board``; with evidence ``ev`` (``mismatches``), redraw up to
    ``tries`` times until the rollout policy would repeat every past opponent decision,
    keeping the best draw (rejection sampling of deals given the opponent model)."""
    determinize(pub, seat, sizes, rng, board)
    if ev.seats.shape[0] == 0 or tries <= 1:
        return
    least = mismatches(board, ev, kinds, params, rng, work, tmp, 1 << 30)
    t = 1
    while least > 0 and t < tries:
        determinize(pub, seat, sizes, rng, spare)
        bad = mismatches(spare, ev, kinds, params, rng, work, tmp, least)
        stats[S_REJECTS] += 1
        if bad < least:
            least = bad
            board[:, :] = spare
        t += 1


@njit(cache=True)
def swap_step(deal, pub, seat, rng, ev, kinds, params, seat_bad, tmp, work, lam, memo):
    """One Metropolis step on the hidden cards of ``deal``: swap a random hidden card of a
    random opponent with a random hidden card of another opponent or the undealt pile; keep
    a swap that adds ``d > 0`` mismatches (``mismatches``) with probability ``exp(-lam * d)``
    (``lam >= HARD``: never). ``seat_bad[p]`` holds seat ``p``'s mismatches on ``deal``
    (``seat_mismatches``) and is kept up to date; only the two holders' decisions are
    re-checked, from ``memo`` (``memo_count``; ``NO_MEMO``: none) for a hand seen before.
    Returns the new total.

    Proposals are symmetric over card slots, so the chain samples deals with weight
    ``exp(-lam * mismatches)``: the posterior if each opponent decision deviates from the
    model with odds ``exp(-lam)``. A finite ``lam`` keeps a wrong opponent model from pinning
    the chain to the few least contradicting deals; ``lam >= HARD`` walks among consistent
    deals only (uniformly, as rejection sampling would, but far cheaper).
    """
    n = pub[META, M_N]
    bad = 0
    for p in range(n):
        bad += seat_bad[p]
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
    if lam < HARD:
        slack = _MAX_SLACK
        if lam > 0:
            slack = int(min(-math.log(1.0 - K.rng_uniform(rng)) / lam, _MAX_SLACK))
    deal[row_i, vi] -= 1
    deal[row_i, vj] += 1
    deal[row_j, vj] -= 1
    deal[row_j, vi] += 1
    # Only seats i and j hold other cards now: re-check their decisions, stopping as soon as
    # the total passes bad + slack.
    rest = bad - seat_bad[i] - (0 if j < 0 else seat_bad[j])
    room = bad + slack + 1 - rest  # the new counts of i and j must stay below this
    new_i = memo_count(deal, ev, i, kinds, params, rng, work, tmp, room, memo)
    new_j = 0
    if j >= 0 and new_i < room:
        new_j = memo_count(deal, ev, j, kinds, params, rng, work, tmp, room - new_i, memo)
    if new_i + new_j < room:
        seat_bad[i] = new_i
        if j >= 0:
            seat_bad[j] = new_j
        return rest + new_i + new_j
    deal[row_i, vi] += 1
    deal[row_i, vj] -= 1
    deal[row_j, vj] += 1
    deal[row_j, vi] -= 1
    return bad


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
    deals = np.empty((cand_kinds.shape[0], pub.shape[0], pub.shape[1]), pub.dtype)
    since = np.zeros((SEAT_SLOTS, N_VALUES), np.int64)
    refit_models(pub, seat, sizes, rng, ev, cand_kinds, cand_params, tries, steps, fit, deals,
                 since, False)  # fmt: skip


@njit(cache=True)
def refit_models(pub, seat, sizes, rng, ev, cand_kinds, cand_params, tries, steps, fit, deals,
                 since, warm):  # fmt: skip
    """``fit_models`` keeping each candidate's fitted deal in ``deals[m]``.

    With ``warm``, ``deals[m]`` holds candidate ``m``'s fitted deal of an earlier decision of
    the same game (``since``: what each seat played minus took from then to now): it is
    carried to this position (``carry_deal``) and competes with
    ``tries`` fresh draws, so the swaps of earlier decisions are not lost and a decision
    needs fewer draws and swaps for the same fit.
    """
    deal = np.empty_like(pub)
    spare = np.empty_like(pub)
    tmp = np.empty_like(pub)
    work = np.zeros(WORK_SIZE, np.int64)
    stats = np.zeros(N_STATS, np.int64)
    kinds = np.empty(SEAT_SLOTS, np.int64)
    params = np.empty((SEAT_SLOTS, cand_params.shape[1]), np.float64)
    out = np.zeros(SEAT_SLOTS, np.int64)
    bits = min(max(_log2(4 * steps), 6), MEMO_BITS)  # room for every hand the swaps see
    memo = Memo(np.full(1 << bits, -1, np.int64), np.zeros(1 << bits, np.int64))
    for m in range(cand_kinds.shape[0]):
        clear_memo(memo)  # another model: other answers
        for i in range(SEAT_SLOTS):
            kinds[i] = cand_kinds[m]
            params[i, :] = cand_params[m]
        draw_deal(pub, seat, sizes, rng, ev, kinds, params, tries, deal, spare, tmp, work, stats)
        if warm:
            carry_deal(deals[m], since, pub, seat, sizes, rng, spare)
            least = mismatches(deal, ev, kinds, params, rng, work, tmp, 1 << 30)
            if mismatches(spare, ev, kinds, params, rng, work, tmp, least + 1) <= least:
                deal[:, :] = spare  # ties: the carried deal, fitted by more swaps
        bad = seat_mismatches(deal, ev, kinds, params, rng, work, tmp, out)
        for _ in range(steps):
            if bad == 0:
                break
            bad = swap_step(deal, pub, seat, rng, ev, kinds, params, out, tmp, work, 2 * HARD, memo)
        for i in range(SEAT_SLOTS):
            fit[m, i] = out[i]
        deals[m, :, :] = deal
