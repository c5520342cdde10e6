"""Legal actions by table lookup: the play and take actions a packed hand has on a packed table.

``State.legal_actions`` is the hot call of every Python-path game and search; scanning 13
values each time costs more than the rest of a turn. These bounded caches map a hand masked to
what one end accepts, and a table to what its ends imply, to ready-made tuples of actions in
increasing id order. Kept apart from ``leaves.state`` because it is its own job (a memo of the
rules' consequences), not the rules themselves.
"""

from __future__ import annotations

from .actions import ACTIONS_BY_ID, ALL_ACTIONS, Action
from .packed import MASK, SHIFTS
from .rules import MAX_COPIES, N_VALUES, PASS_ID, TAKE_BASE

# _RUNS[v][need][c]: the play actions for value index v with k = need..c, as a tuple.
_RUNS: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(ALL_ACTIONS[v * MAX_COPIES + k - 1] for k in range(max(need, 1), c + 1))
            for c in range(16)
        )
        for need in range(16)
    )
    for v in range(N_VALUES)
)
_TAKES: tuple[Action, ...] = ALL_ACTIONS[TAKE_BASE:]

_NEED_SHIFT = 4 * N_VALUES  # where a PLAYS key keeps the need (above the 13 counts)
NEED1 = 1 << _NEED_SHIFT  # need 1: any count plays (empty table)
_NIBBLE_LOW = sum(1 << s for s in SHIFTS)  # bit 0 of every nibble

# Legal actions are looked up in bounded caches instead of scanning 13 values each time; random
# play hits them about 9 times in 10 within a few thousand games. PLAYS maps (a hand masked to
# the values playable on one end) | need << 52 to the plays there; ENDS maps a packed table
# to what it implies (masks and needs of both ends, takes). Each fills itself on a miss
# (``PLAYS[key]``: a hit costs one dict lookup), and a full cache is simply cleared, so memory
# stays bounded (tens of MB at most) over millions of games.
_CACHE_MAX = 1 << 17
_ENDS_MAX = 1 << 16


class _Plays(dict):
    """``PLAYS``: the plays of a masked hand and need, scanned and kept on a miss."""

    def __missing__(self, key: int) -> tuple[Action, ...]:
        return plays_miss(key)


class _Ends(dict):
    """``ENDS``: what a packed table implies, worked out and kept on a miss."""

    def __missing__(self, t: int) -> tuple[int, int, int, int, tuple[Action, ...]]:
        return ends_miss(t)


PLAYS: dict[int, tuple[Action, ...]] = _Plays()
ENDS: dict[int, tuple[int, int, int, int, tuple[Action, ...]]] = _Ends()
_TAKES_OF: dict[int, tuple[Action, ...]] = {}  # by the nonzero nibbles of a table (<= 8192)
_NEED_BITS = ~MASK
LOW_VALUES = (1 << (4 * 7)) - 1  # values 1..7
HIGH_VALUES = MASK ^ LOW_VALUES  # values 8..13
_LEFT_MASKS = tuple((1 << (4 * (v + 1))) - 1 for v in range(N_VALUES))
_RIGHT_MASKS = tuple(MASK ^ ((1 << (4 * v)) - 1) for v in range(N_VALUES)) + (0,)


def _scan(key: int) -> tuple[Action, ...]:
    """The plays of every value with at least ``need`` cards in a masked hand."""
    need = key >> _NEED_SHIFT
    out: list[Action] = []
    for v in range(N_VALUES):
        c = (key >> SHIFTS[v]) & 15
        if c >= need:
            out += _RUNS[v][need][c]
    return tuple(out)


def plays_miss(key: int) -> tuple[Action, ...]:
    """``PLAYS[key]`` on a miss. A key spanning values of both halves (1..7, 8..13) is joined
    from the plays of each half, which are cached too and hit far more often."""
    if len(PLAYS) >= _CACHE_MAX:
        PLAYS.clear()
    need = key & _NEED_BITS
    low = (key & LOW_VALUES) | need
    high = (key & HIGH_VALUES) | need
    if low == need or high == need:
        plays = _scan(key)
    else:
        plays = PLAYS.get(low)
        if plays is None:
            plays = PLAYS[low] = _scan(low)
        more = PLAYS.get(high)
        if more is None:
            more = PLAYS[high] = _scan(high)
        plays += more
    PLAYS[key] = plays
    return plays


def ends_miss(t: int) -> tuple[int, int, int, int, tuple[Action, ...]]:
    """``ENDS[t]`` on a miss, for a nonempty packed table."""
    if len(ENDS) >= _ENDS_MAX:
        ENDS.clear()
    present = (t | t >> 1 | t >> 2 | t >> 3) & _NIBBLE_LOW
    lo = ((present & -present).bit_length() - 1) >> 2
    hi = (present.bit_length() - 1) >> 2
    takes = _TAKES_OF.get(present)
    if takes is None:
        takes = _TAKES_OF[present] = tuple(
            _TAKES[v] for v in range(lo, hi + 1) if present >> SHIFTS[v] & 1
        )
    info = (
        _LEFT_MASKS[lo],
        ((t >> SHIFTS[lo]) & 15) << _NEED_SHIFT,
        _RIGHT_MASKS[hi if hi > lo else lo + 1],
        ((t >> SHIFTS[hi]) & 15) << _NEED_SHIFT,
        takes,
    )
    ENDS[t] = info
    return info


_PASS_ONLY: tuple[Action, ...] = (ACTIONS_BY_ID[PASS_ID],)


def variant_legal(h: int, t: int, flags: int) -> tuple[Action, ...]:
    """The legal actions of packed hand ``h`` on the nonempty packed table ``t`` under rules
    whose ``flags`` (``Rules.flags``) are not today's: the same lookups, with every end's need
    1 when ``min_count`` is off and the takes ``take`` allows (end stacks only, or the one
    pass taking nothing)."""
    lmask, lneed, rmask, rneed, takes = ENDS[t]
    if flags & 1:
        lneed = rneed = NEED1
    left, right = PLAYS[(h & lmask) | lneed], PLAYS[(h & rmask) | rneed]
    mode = flags >> 1
    if mode == 1:  # the first and the last take are the end stacks
        takes = takes[:1] if len(takes) == 1 else (takes[0], takes[-1])
    elif mode == 2:
        takes = _PASS_ONLY
    return left + right + takes
