"""Simple one-rule heuristics with different characters (none counts cards).

Each built-in here is its kernel followed by its class; a forced pass always takes the value
the player holds most of (``features.take_group``) unless the docstring says otherwise.

The kernels scan the 13 values without data-dependent jumps (they run millions of times a
second): each playable value gets one integer key whose order is the rule's order (ties
included: the lower value first), and the scan keeps the key's maximum or minimum, which
compiles to selects. ``low`` and ``high`` instead stop at the first playable value from
their end (measured faster: it is usually one of the first few they look at). ``tests/test_policy_reference.py`` checks every kernel against the rule
written as a plain first-best loop.
"""

from __future__ import annotations

from gamekit.jit import njit
from leaves.board import HANDS, M_HI, M_LO, META
from leaves.rules import PASS_ID, TAKE_BASE
from strategies.policy.params import Param, declare

from ..policy.features import NONE, group_needs, need_of, play_id, take_group, winning_play
from ._base import CompiledBuiltin


# ----------------------------------------------------------------------------- low
@njit(cache=True)
def policy_low(board, seat, sizes, params, rng, work):
    """Whole group of the lowest playable value; else take the value held most."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    # The lowest playable value is usually among the first few: scan upwards and stop there.
    if lo < 0:
        for v in range(13):
            c = board[HANDS + seat, v]
            if c > 0:
                return play_id(v, c)
        return take_group(board, seat, lo, hi)
    a, b = group_needs(board, lo, hi)
    for v in range(lo + 1):
        c = board[HANDS + seat, v]
        if c >= a:
            return play_id(v, c)
    for v in range(hi if hi > lo else lo + 1, 13):
        c = board[HANDS + seat, v]
        if c >= b:
            return play_id(v, c)
    return take_group(board, seat, lo, hi)


class LowStrategy(CompiledBuiltin):
    """Sheds the lowest value first: plays every card it holds of the lowest value it may play,
    saving high cards for later. It never passes while it can play; forced to pass, it takes
    the value it already holds most of (ties to the lowest value), to grow a group. Fully
    deterministic.
    """

    name = "low"
    description = "plays its whole group of the lowest playable value"
    policy = policy_low


# ----------------------------------------------------------------------------- high
@njit(cache=True)
def policy_high(board, seat, sizes, params, rng, work):
    """Whole group of the highest playable value; else take the value held most."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    # ``low``'s scan mirrored: downwards from the highest value, stopping at the first playable.
    if lo < 0:
        for v in range(12, -1, -1):
            c = board[HANDS + seat, v]
            if c > 0:
                return play_id(v, c)
        return take_group(board, seat, lo, hi)
    a, b = group_needs(board, lo, hi)
    for v in range(12, (hi if hi > lo else lo + 1) - 1, -1):
        c = board[HANDS + seat, v]
        if c >= b:
            return play_id(v, c)
    for v in range(lo, -1, -1):
        c = board[HANDS + seat, v]
        if c >= a:
            return play_id(v, c)
    return take_group(board, seat, lo, hi)


class HighStrategy(CompiledBuiltin):
    """Sheds the highest value first: plays every card it holds of the highest value it may
    play, keeping low cards for later. Never passes while it can play; a forced pass takes the
    value it holds most of (ties to the lowest). Deterministic; the mirror image of ``low``.
    """

    name = "high"
    description = "plays its whole group of the highest playable value"
    policy = policy_high


# ----------------------------------------------------------------------------- minimal
@njit(cache=True)
def policy_minimal(board, seat, sizes, params, rng, work):
    """Fewest cards allowed; ties: no split, then lowest value. Wins when it can."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    a, b = group_needs(board, lo, hi)
    best = 1 << 30  # key (count, cards left, value): its minimum is the rule's choice
    for v in range(13):
        c = board[HANDS + seat, v]
        k = need_of(v, lo, hi, a, b)
        key = (k * 16 + c - k) * 16 + v
        best = min(best, key if (c > 0) & (c >= k) else 1 << 30)
    if best < 1 << 30:
        return play_id(best & 15, best >> 8)
    return take_group(board, seat, lo, hi)


class MinimalStrategy(CompiledBuiltin):
    """Plays as few cards as the table allows (one on an empty table, else the end's size),
    preferring the value where that leaves fewest cards behind, then the lowest value: a
    cautious player that keeps its groups intact and only dumps them when it must. It always
    takes a play that empties its hand; a forced pass takes the value it holds most of.
    """

    name = "minimal"
    description = "plays the fewest cards allowed, keeping groups intact"
    policy = policy_minimal


# ----------------------------------------------------------------------------- greedy
GREEDY_PARAMS = declare(
    Param(
        "keep_pairs", False, doc="play a group of exactly two only when nothing else is playable"
    ),
)
_G = GREEDY_PARAMS.index


@njit(cache=True)
def policy_greedy(board, seat, sizes, params, rng, work):
    """Biggest whole group; ties to the value farther from 7 (then the lower).

    With ``keep_pairs``, a group of exactly two is played only if nothing else can be (or it
    empties the hand), keeping pairs to answer two-card ends later.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    a, b = group_needs(board, lo, hi)
    keep_pairs = params[_G.keep_pairs] > 0.5
    size = sizes[seat]
    # key (count, distance from 7, -value): its maximum is the rule's choice. A play that
    # empties the hand is the only playable value then, so it is that maximum; kept pairs
    # (the lowest first) only when nothing else is playable.
    top = -1
    pair = NONE
    for v in range(13):
        c = board[HANDS + seat, v]
        ok = (c > 0) & (c >= need_of(v, lo, hi, a, b))
        kept = keep_pairs & (c == 2) & (c != size)
        key = (c * 16 + abs(v - 6)) * 16 + 15 - v
        top = max(top, key if ok and not kept else -1)
        pair = min(pair, v if ok and kept else NONE)
    if top >= 0:
        return play_id(15 - (top & 15), top >> 8)
    if pair < NONE:
        return play_id(pair, 2)
    return take_group(board, seat, lo, hi)


class GreedyStrategy(CompiledBuiltin):
    """Dumps its biggest group: plays all of the value it holds most of among the playable ones
    (ties to the value farther from 7, then the lower). Shedding many cards at once sets a big
    end that opponents rarely match, so it often keeps the lead. Never passes while it can
    play; a forced pass takes the value it holds most of. ``keep_pairs=True`` plays a group of
    exactly two only when nothing else is playable (or it empties the hand), keeping pairs to
    answer two-card ends later.
    """

    name = "greedy"
    description = "plays its biggest playable group, all of it"
    policy = policy_greedy
    PARAMS = GREEDY_PARAMS


# ----------------------------------------------------------------------------- patient
PATIENT_PARAMS = declare(
    Param("min_hand", 6, (0, 12), doc="smallest own hand size at which it still passes", low=0),
)
_P = PATIENT_PARAMS.index


@njit(cache=True)
def policy_patient(board, seat, sizes, params, rng, work):
    """Sheds whole groups, biggest first; rather than shed a lone card it passes to grow a pair
    (while its hand has at least ``min_hand`` cards)."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    a, b = group_needs(board, lo, hi)
    top = -1  # key (count, -value): its maximum is the biggest group, the lowest on ties
    for v in range(13):
        c = board[HANDS + seat, v]
        key = c * 16 + 15 - v
        top = max(top, key if (c > 0) & (c >= need_of(v, lo, hi, a, b)) else -1)
    best = -1 if top < 0 else play_id(15 - (top & 15), top >> 4)
    bc = 0 if top < 0 else top >> 4
    if lo < 0 or bc >= 2 or (best >= 0 and sizes[seat] < params[_P.min_hand]):
        return best
    t = take_group(board, seat, lo, hi)
    if best >= 0 and (t == PASS_ID or board[HANDS + seat, t - TAKE_BASE] == 0):
        return best
    return t


class PatientStrategy(CompiledBuiltin):
    """Passes early to grow a group: plays its biggest whole group when that sheds two or more
    cards (or leads), but rather than shed a lone card it passes and takes a card of a value it
    already holds, turning a single into a pair it can lead later. It stops doing so once its
    hand is smaller than ``min_hand``, and plays the lone card when no useful take exists.
    """

    name = "patient"
    description = "sheds groups; passes to make pairs instead of shedding lone cards"
    policy = policy_patient
    PARAMS = PATIENT_PARAMS


# ----------------------------------------------------------------------------- blocker
@njit(cache=True)
def policy_blocker(board, seat, sizes, params, rng, work):
    """Whole group of the most extreme playable value (1s and 13s first); ties to the bigger."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    a, b = group_needs(board, lo, hi)
    top = -1  # key (distance from 7, count, -value): its maximum is the rule's choice
    for v in range(13):
        c = board[HANDS + seat, v]
        key = (abs(v - 6) * 16 + c) * 16 + 15 - v
        top = max(top, key if (c > 0) & (c >= need_of(v, lo, hi, a, b)) else -1)
    if top >= 0:
        return play_id(15 - (top & 15), (top >> 4) & 15)
    return take_group(board, seat, lo, hi)


class BlockerStrategy(CompiledBuiltin):
    """Prefers the extremes: plays its whole group of the playable value farthest from 7 (1s and
    13s first, ties to the bigger group). A 1 on the left or a 13 on the right closes that
    side to new stacks, so opponents can only answer by stacking at least as many cards.
    Never passes while it can play; a forced pass takes the value it holds most of.
    """

    name = "blocker"
    description = "plays the most extreme value (1s and 13s) to close a side"
    policy = policy_blocker
