"""Hidden-hand inference: which deals of the unseen cards fit the opponents' past decisions.

A deal is scored by its *contradictions*: past opponent decisions (``evidence``) that the
seat's model policy would not have repeated holding the cards the deal gives it. Deals are
drawn uniformly (``determinize``), by rejection (``draw_deal``) or by a Metropolis chain of
card swaps targeting ``exp(-infer_lambda * contradictions)`` (``swap_step``); candidate
opponent models are compared by the contradictions of a deal fitted to each (``fit_models``).

The arrays that travel together travel as namedtuples (numba unpacks them at no cost):
``Position`` (what the searching seat sees), ``Models`` (a policy per seat or per candidate),
``Check`` (what counting a deal's contradictions reads), ``Memo`` and ``Carry``. These numba
kernels are the reference of the C engine's (``csrc/ismcts.h``) and the search where there
is no C engine.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from gamekit.jit import njit
from leaves import kernels as K
from leaves.board import HANDS, KNOWN, M_N, META, SEAT_SLOTS, UNDEALT
from leaves.rules import MAX_DECK, N_VALUES

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
_NO_LIMIT = np.int64(1 << 30)  # a count with no limit (not a literal: one compile of the counts)

Position = namedtuple("Position", ["pub", "seat", "sizes"])
"""What the searching seat sees: its ``public_board`` ``pub`` (own hand, public rows, known
cards), its ``seat`` and the public hand sizes ``sizes`` (int64[SEAT_SLOTS])."""

Models = namedtuple("Models", ["kinds", "params"])
"""Policy ``i`` is the compiled built-in of kind ``kinds[i]`` (int64) with parameters
``params[i]`` (float64[N_PARAMS]): one per seat (the seats' models), or one per candidate
(``fit_models``)."""

Check = namedtuple("Check", ["ev", "models", "rng", "work"])
"""What counting a deal's contradictions reads: the opponents' past decisions ``ev``
(``evidence.Evidence``), the seats' ``Models``, the kernel RNG (a model may draw from it) and
the policies' scratch buffer ``work`` (int64[WORK_SIZE])."""


@njit(cache=True)
def determinize(pub, seat, sizes, rng, out):
    """Fill ``out`` with ``pub`` whose hidden cards are dealt uniformly at random.

    ``pub`` holds only what ``seat`` may see (``leaves.board.public_board``): own hand, public
    rows, known cards. Unseen cards go to the opponents' hidden slots (hand size minus known
    cards) and the undealt row, uniformly, as ``PlayerView.sample_state`` does.
    """
    out[:, :] = pub
    n = pub[META, M_N]
    pool = np.empty(MAX_DECK, np.int64)
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
def _repeats(board, ev, e, kinds, params, rng, work):
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
def seat_count(board, chk, s, limit):
    """How many of seat ``s``'s past decisions (``chk.ev``) would not repeat with its hand on
    ``board`` under its model (``chk.models``); counting stops at ``limit``. Only seat ``s``'s
    hand matters, so a swap of cards between two holders changes only their counts."""
    # unpacked once: a field read in the loop would add a reference count per decision
    ev, models, rng, work = chk
    kinds, params = models
    bad = 0
    for e in range(ev.starts[s], ev.starts[s + 1]):
        if not _repeats(board, ev, e, kinds, params, rng, work):
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
def memo_count(board, chk, s, limit, memo):
    """``seat_count``, answered from ``memo`` when seat ``s`` held this hand before.

    A seat's count depends only on its own hand (its row of ``board``; 13 counts of at most
    8 cards: 4 bits each) while the evidence and its model stay fixed, so the pair packs into
    one integer key. A model that draws random numbers answers with its first draw for a
    hand (the compiled built-ins other than ``random`` draw none).
    """
    size = memo.keys.shape[0]
    if size == 0:
        return seat_count(board, chk, s, limit)
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
    count = seat_count(board, chk, s, limit)
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
def mismatches(board, chk, limit):
    """How many of the opponents' past decisions in ``chk.ev`` (``evidence.Evidence``) would
    not repeat with the hands on ``board`` if seat ``p`` played its model (``chk.models``:
    policy ``kinds[p]`` with ``params[p]``); counting stops at ``limit``."""
    bad = 0
    for p in range(chk.ev.starts.shape[0] - 1):
        bad += seat_count(board, chk, p, limit - bad)
        if bad >= limit:
            return bad
    return bad


@njit(cache=True)
def seat_mismatches(board, chk, out):
    """``mismatches`` counted per seat: ``out[p]`` for seat ``p``'s past decisions; returns
    the total."""
    total = 0
    for p in range(out.shape[0]):
        out[p] = seat_count(board, chk, p, _NO_LIMIT)
        total += out[p]
    return total


@njit(cache=True)
def draw_deal(pos, chk, tries, board, spare, stats):
    """``determinize`` ``pos`` into ``board``; with evidence (``chk.ev``, ``mismatches``),
    redraw up to ``tries`` times until the models would repeat every past opponent decision,
    keeping the best draw (rejection sampling of deals given the opponent model). ``spare``
    is scratch of ``board``'s shape; ``stats[S_REJECTS]`` counts the redraws."""
    pub, seat, sizes = pos
    determinize(pub, seat, sizes, chk.rng, board)
    if chk.ev.seats.shape[0] == 0 or tries <= 1:
        return
    least = mismatches(board, chk, _NO_LIMIT)
    t = 1
    while least > 0 and t < tries:
        determinize(pub, seat, sizes, chk.rng, spare)
        bad = mismatches(spare, chk, least)
        stats[S_REJECTS] += 1
        if bad < least:
            least = bad
            board[:, :] = spare
        t += 1


@njit(cache=True, inline="always")
def _hidden(deal, pub, holder, v):
    """Hidden cards of value ``v`` that ``holder`` has in ``deal``: an opponent seat's hand less
    its publicly known cards, or (``holder < 0``) the undealt pile."""
    if holder < 0:
        return deal[UNDEALT, v]
    return deal[HANDS + holder, v] - pub[KNOWN + holder, v]


@njit(cache=True, inline="always")
def _pick_value(deal, pub, holder, count, rng):
    """The value of a uniformly drawn one of the ``count`` hidden cards ``holder`` has."""
    r = K.rng_below(rng, count)
    v = 0
    while True:
        r -= _hidden(deal, pub, holder, v)
        if r < 0:
            return v
        v += 1


@njit(cache=True, inline="always")
def _slack(rng, lam):
    """Extra mismatches a step may add: accepting ``d`` extra with probability
    ``exp(-lam * d)`` is accepting ``d <= slack`` for an exponential ``slack`` (0 when
    ``lam >= HARD``); drawing it first lets the counting stop early."""
    if lam >= HARD:
        return 0
    if lam > 0:
        return int(min(-math.log(1.0 - K.rng_uniform(rng)) / lam, _MAX_SLACK))
    return _MAX_SLACK


@njit(cache=True, inline="always")
def _trade(deal, row_i, row_j, vi, vj):
    """Holder ``row_i`` gives a card of ``vi`` to ``row_j`` for one of ``vj`` (undone by
    trading ``vj`` for ``vi``)."""
    deal[row_i, vi] -= 1
    deal[row_i, vj] += 1
    deal[row_j, vj] -= 1
    deal[row_j, vi] += 1


@njit(cache=True)
def swap_step(deal, pos, chk, seat_bad, lam, memo):
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
    pub = pos.pub
    seat = pos.seat
    rng = chk.rng
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
    hi = 0
    hj = 0
    for v in range(N_VALUES):
        hi += _hidden(deal, pub, i, v)
        hj += _hidden(deal, pub, j, v)
    if hi == 0 or hj == 0:
        return bad
    vi = _pick_value(deal, pub, i, hi, rng)
    vj = _pick_value(deal, pub, j, hj, rng)
    if vi == vj:
        return bad
    slack = _slack(rng, lam)
    row_i = HANDS + i
    row_j = UNDEALT if j < 0 else HANDS + j
    _trade(deal, row_i, row_j, vi, vj)
    # Only seats i and j hold other cards now: re-check their decisions, stopping as soon as
    # the total passes bad + slack.
    rest = bad - seat_bad[i] - (0 if j < 0 else seat_bad[j])
    room = bad + slack + 1 - rest  # the new counts of i and j must stay below this
    new_i = memo_count(deal, chk, i, room, memo)
    new_j = 0
    if j >= 0 and new_i < room:
        new_j = memo_count(deal, chk, j, room - new_i, memo)
    if new_i + new_j < room:
        seat_bad[i] = new_i
        if j >= 0:
            seat_bad[j] = new_j
        return rest + new_i + new_j
    _trade(deal, row_i, row_j, vj, vi)
    return bad


Carry = namedtuple("Carry", ["deals", "since", "warm"])
"""Each candidate's fitted deal across decisions of a game (``refit_models``): ``deals[m]``
is candidate ``m``'s (written by each fit; with ``warm`` read first: an earlier decision's,
moved on by ``since[p]``, what seat ``p`` played minus took from then to now)."""


@njit(cache=True)
def fit_models(pos, rng, ev, cands, tries, steps, fit):
    """``fit[m, p]``: how many of seat ``p``'s past decisions candidate policy ``m`` (of the
    ``Models`` ``cands``) fails to repeat on a deal fitted to it (lower fits better).

    For each candidate every opponent is modelled by it; the deal is the least contradicting
    of ``tries`` uniform draws (``draw_deal``), improved by up to ``steps`` swaps that never
    add contradictions (``swap_step`` with hard rejection). Counting the best-fitting deal's
    contradictions per seat approximates each candidate's likelihood for that seat, maximised
    over the cards it cannot see.
    """
    pub = pos.pub
    deals = np.empty((cands.kinds.shape[0], pub.shape[0], pub.shape[1]), pub.dtype)
    since = np.zeros((SEAT_SLOTS, N_VALUES), np.int64)
    refit_models(pos, rng, ev, cands, tries, steps, fit, Carry(deals, since, False))


@njit(cache=True)
def refit_models(pos, rng, ev, cands, tries, steps, fit, carry):
    """``fit_models`` keeping each candidate's fitted deal in ``carry.deals[m]``.

    With ``carry.warm``, ``deals[m]`` holds candidate ``m``'s fitted deal of an earlier
    decision of the same game: it is carried to this position (``carry_deal``) and competes
    with ``tries`` fresh draws, so the swaps of earlier decisions are not lost and a decision
    needs fewer draws and swaps for the same fit.
    """
    pub, seat, sizes = pos
    deal = np.empty_like(pub)
    spare = np.empty_like(pub)
    stats = np.zeros(N_STATS, np.int64)
    models = Models(
        np.empty(SEAT_SLOTS, np.int64), np.empty((SEAT_SLOTS, cands.params.shape[1]), np.float64)
    )
    chk = Check(ev, models, rng, np.zeros(WORK_SIZE, np.int64))
    out = np.zeros(SEAT_SLOTS, np.int64)
    bits = min(max(_log2(4 * steps), 6), MEMO_BITS)  # room for every hand the swaps see
    memo = Memo(np.full(1 << bits, -1, np.int64), np.zeros(1 << bits, np.int64))
    for m in range(cands.kinds.shape[0]):
        clear_memo(memo)  # another model: other answers
        for i in range(SEAT_SLOTS):
            models.kinds[i] = cands.kinds[m]
            models.params[i, :] = cands.params[m]
        draw_deal(pos, chk, tries, deal, spare, stats)
        if carry.warm:
            carry_deal(carry.deals[m], carry.since, pub, seat, sizes, rng, spare)
            least = mismatches(deal, chk, _NO_LIMIT)
            if mismatches(spare, chk, least + 1) <= least:
                deal[:, :] = spare  # ties: the carried deal, fitted by more swaps
        bad = seat_mismatches(deal, chk, out)
        for _ in range(steps):
            if bad == 0:
                break
            bad = swap_step(deal, pos, chk, out, 2 * HARD, memo)
        for i in range(SEAT_SLOTS):
            fit[m, i] = out[i]
        carry.deals[m, :, :] = deal
