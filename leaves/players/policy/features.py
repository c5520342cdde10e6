"""What the compiled policies read from a board, written once: minimum counts, the ends a
play leaves, threats (over ``counting``'s card counts), the smallest opponent hand, the
default and the scored take.

Every helper reads only what the seat to act may know (own hand row, public rows, META and
the public ``sizes``), so a policy built from them is fair on a ``public_board`` and on a full
board alike. ``work`` is the int64[WORK_SIZE] scratch buffer policies share.
"""

from __future__ import annotations

from collections import namedtuple

from gamekit.jit import njit
from leaves.board import HANDS, M_N, M_PASSED, M_RULES, META, NO_MIN, TABLE, TAKE_ENDS, TAKE_NOTHING
from leaves.rules import MAX_COPIES, PASS_ID, TAKE_BASE

# the card counting and the scratch buffer's layout live in ``counting``; re-exported here
from .counting import AVAIL, BEST, MASKS, WORK_SIZE, fill_avail, popcount  # noqa: F401

NONE = 99  # "cannot play this value" sentinel for the minimum count


@njit(cache=True, inline="always")
def kmin(board, v, lo, hi):
    """Fewest cards of value index ``v`` a play needs now, or ``NONE`` (between the ends)."""
    if lo < 0:
        return 1
    free = board[META, M_RULES] & NO_MIN
    if v <= lo:
        return 1 if free else board[TABLE, lo]
    if v >= hi:
        return 1 if free else board[TABLE, hi]
    return NONE


@njit(cache=True, inline="always")
def group_needs(board, lo, hi):
    """(a, b): fewest cards a play needs at the left end (values <= lo) and at the right end
    (values >= hi); (1, 1) on an empty table or without the minimum count (rule
    ``min_count=off``). With ``need_of`` this is ``kmin`` for a whole scan, read once per
    decision."""
    if lo < 0 or board[META, M_RULES] & NO_MIN:
        return 1, 1
    return board[TABLE, lo], board[TABLE, hi]


@njit(cache=True, inline="always")
def need_of(v, lo, hi, a, b):
    """``kmin(board, v, lo, hi)`` from ``group_needs``' (a, b): a select, not a branch, so the
    policies' scans over the 13 values run without mispredicted jumps."""
    return a if v <= lo else (b if v >= hi else NONE)


@njit(cache=True, inline="always")
def play_id(v, k):
    return v * MAX_COPIES + k - 1


@njit(cache=True, inline="always")
def new_ends(board, lo, hi, v, k):
    """(left value, left size, right value, right size) of the ends after playing ``k`` cards
    of ``v`` (assumed legal)."""
    if lo < 0:
        return v, k, v, k
    if v <= lo:
        a = k + (board[TABLE, v] if v == lo else 0)
        if lo == hi and v == lo:
            return v, a, v, a
        return v, a, hi, board[TABLE, hi]
    b = k + (board[TABLE, v] if v == hi else 0)
    if lo == hi and v == hi:
        return v, b, v, b
    return lo, board[TABLE, lo], v, b


@njit(cache=True, inline="always")
def ease_after_take(board, lo, hi, t):
    """The smaller end size after taking one card of ``t``; 0 when the table becomes empty."""
    c = board[TABLE, t]
    if c > 1 or (t != lo and t != hi):
        a = board[TABLE, lo] - (1 if t == lo else 0)
        b = board[TABLE, hi] - (1 if t == hi else 0)
        return min(a, b)
    if lo == hi:
        return 0
    if t == lo:
        nl = lo + 1
        while board[TABLE, nl] == 0:
            nl += 1
        return min(board[TABLE, nl], board[TABLE, hi])
    nh = hi - 1
    while board[TABLE, nh] == 0:
        nh -= 1
    return min(board[TABLE, lo], board[TABLE, nh])


@njit(cache=True, inline="always")
def min_opp_size(board, seat, sizes):
    """Smallest hand among opponents still in the round (99 if none)."""
    n = board[META, M_N]
    mask = board[META, M_PASSED]
    m = 99
    for i in range(n):
        if i != seat and not (mask >> i) & 1 and sizes[i] < m:
            m = sizes[i]
    return m


_ALL = (1 << 13) - 1  # a bit per value


@njit(cache=True, inline="always")
def threat(work, lo_v, a, hi_v, b):
    """How many values could answer ends (lo_v, size a) and (hi_v, size b), by ``avail``:
    on one stack, the values with avail >= min(a, b); else those at or left of ``lo_v`` with
    avail >= a plus those at or right of ``hi_v`` with avail >= b (``counting.fill_masks``;
    1 <= a, b <= MAX_COPIES + 1)."""
    if lo_v == hi_v:
        return popcount(work[MASKS + min(a, b)])
    left = work[MASKS + a] & ((2 << lo_v) - 1)
    right = work[MASKS + b] & (_ALL ^ ((1 << hi_v) - 1))
    return popcount(left) + popcount(right)


@njit(cache=True, inline="always")
def winning_play(board, seat, sizes, lo, hi):
    """A play that empties the hand (always best: it wins at once), or -1."""
    h = sizes[seat]
    if h > MAX_COPIES:
        return -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c == h:
            if c >= kmin(board, v, lo, hi):
                return play_id(v, c)
            return -1
        if c > 0:
            return -1
    return -1


@njit(cache=True, inline="always")
def take_group(board, seat, lo, hi):
    """The default take: the value held most (builds groups), ties to the lowest value; of
    the end stacks only under ``take=ends``, the pass taking nothing under ``take=nothing``."""
    # One key per stack, (held, 15 - t): its maximum is the first best stack in value order.
    mode = board[META, M_RULES] >> 1
    if mode == TAKE_NOTHING and lo >= 0:
        return PASS_ID
    best = -1
    for t in range(lo, hi + 1):
        key = board[HANDS + seat, t] * 16 + 15 - t
        ok = (board[TABLE, t] > 0) & ((mode != TAKE_ENDS) | (t == lo) | (t == hi))
        best = max(best, key if ok else -1)
    if best < 0:
        return TAKE_BASE - 1
    return TAKE_BASE + 15 - (best & 15)


TakeWeights = namedtuple("TakeWeights", ["bias", "group", "harm", "extreme"])
"""``take_scored``'s weights, in the order its score adds them: of every take (a bias: the
willingness to pass), per card of the taken value held, per unit of harm, per step of the
value away from 7."""


@njit(cache=True, inline="always")
def take_scored(board, seat, lo, hi, weights, best, bs):
    """The best of ``best`` (an action id scoring ``bs``, or -1: none) and every take, each scored
    ``bias + wg * held + wh * harm + we * |t - 7|`` (``weights``: a ``TakeWeights``; ties keep
    the earlier: lower id): the takes the rules' ``take`` allows, or under ``take=nothing``
    the pass taking nothing, scored ``bias``.

    ``held``: cards of the value already in hand (the card's worth to its own groups);
    ``harm``: change of the smaller end size for the opponents in the round (a bigger end is
    harder to answer; emptying the table hands the next player a free lead and counts as the
    end size dropping to 0). The table must not be empty.
    """
    bias, wg, wh, we = weights
    mode = board[META, M_RULES] >> 1
    if mode == TAKE_NOTHING:  # the one pass, scored by its bias alone
        return PASS_ID if best < 0 or bias > bs else best
    ease = min(board[TABLE, lo], board[TABLE, hi])
    for t in range(lo, hi + 1):
        if board[TABLE, t] == 0 or (mode == TAKE_ENDS and t != lo and t != hi):
            continue
        harm = ease_after_take(board, lo, hi, t) - ease
        s = bias + wg * board[HANDS + seat, t] + wh * harm
        s += we * abs(t - 6)
        if best < 0 or s > bs:  # the first action is kept whatever its score
            bs = s
            best = TAKE_BASE + t
    return best


NEAR_WIN_DOC = (
    "a new end needs no more cards to answer it than the shortest opponent hand in the round holds"
)
"""What ``near_win`` (``weighted``) and ``near_win_penalty`` (``counter``) weigh, as their
parameters' docs say it: ``min(ta, tb) <= mopp`` in ``best_scored_play``. A count of cards only,
not whether that hand holds the values: while it holds 8 cards or more (no stack holds more)
every play has it; the name is what the term was meant to catch, a short hand going out."""

COUNTER_RULE = 0
"""``best_scored_play``'s rule: shed - threat - keep, + safe when unanswerable, - near win."""
WEIGHTED_RULE = 1
"""``best_scored_play``'s rule: a weighted sum of the play's six features."""

PlayRule = namedtuple("PlayRule", ["rule", "at", "count"])
"""How ``best_scored_play`` scores a play: by formula ``rule`` (``COUNTER_RULE`` or
``WEIGHTED_RULE``) whose i-th weight is ``params[at[i]]``, counting the threat against the
new ends when ``count`` (else it is 0)."""


@njit(cache=True, inline="always")
def best_scored_play(board, seat, sizes, lo, hi, params, work, how):
    """(play, score): the legal play with the highest score under the ``PlayRule`` ``how``
    (ties: the lowest id) and its score; (-1, -1e18) if none.

    Every play (v, k) the seat may make is scored from its features: k, the cards of v kept,
    the new ends, the threat against them (counted only when ``how.count``; else 0) and
    whether a new end needs no more cards than the shortest opponent hand in the round holds
    (``NEAR_WIN_DOC``). ``params[at[i]]`` is the rule's i-th weight, in the order its formula
    below reads them; each rule keeps its own formula so a score is computed exactly as the
    policy always has.
    """
    rule, at, count = how
    mopp = min_opp_size(board, seat, sizes)
    best = -1
    bs = -1e18
    counted = not count  # the counts are filled at the first legal play: a forced pass needs none
    na, nb = group_needs(board, lo, hi)
    free = board[META, M_RULES] & NO_MIN  # rule min_count=off: one card answers any end
    for v in range(13):
        # the fewest cards of v a play needs, by selects (``need_of``): a value the seat
        # cannot play costs one compare and a jump, no branchy ``kmin``
        c = board[HANDS + seat, v]
        km = need_of(v, lo, hi, na, nb)
        if c < km:
            continue
        if not counted:
            fill_avail(board, seat, work)
            counted = True
        for k in range(km, c + 1):
            nlo, a, nhi, b = new_ends(board, lo, hi, v, k)
            ta = 1 if free else a  # the cards that answer each new end
            tb = 1 if free else b
            # near win (NEAR_WIN_DOC): the shortest opponent hand in the round has cards
            # enough to answer a new end, min(ta, tb) <= mopp
            th = threat(work, nlo, ta, nhi, tb) if count else 0
            if rule == COUNTER_RULE:
                s = params[at[0]] * k - params[at[1]] * th - params[at[2]] * (c - k)
                if th == 0:
                    s += params[at[3]]
                if min(ta, tb) <= mopp:
                    s -= params[at[4]]
            else:
                end = a if v == nlo else b
                near = 1.0 if min(ta, tb) <= mopp else 0.0
                s = (
                    params[at[0]] * k
                    + params[at[1]] * (c - k)
                    + params[at[2]] * end
                    + params[at[3]] * abs(v - 6)
                    + params[at[4]] * th
                    + params[at[5]] * near
                )
            if best < 0 or s > bs:  # the first play is kept whatever its score
                bs = s
                best = play_id(v, k)
    return best, bs
