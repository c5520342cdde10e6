"""The two moves of 13 Leaves over ``State``'s packed fields: a play and a pass (a take).

``State.apply`` checks that the game is running, decodes the action id (``DECODE``) and hands
the old state and a blank new one to ``play`` or ``take``. Each checks its rule
(docs/rules.md), raising ``IllegalActionError`` with the reason, and writes the fields the move
changes (hands, known cards, table and its ends, removed pile, round, who passed, winner, seat
to act); ``apply`` writes the rest. Together they are the reference implementation of every
rule, which the compiled kernels (``leaves.kernels``) follow: written over the packed ints in
locals, because they run on every turn of every Python-path game and search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ACTIONS_BY_ID, IllegalActionError
from .packed import LANE, MASK, ONES, SHIFTS

if TYPE_CHECKING:
    from .state import State

DECODE = tuple(
    (a.is_pass, a.value - 1, a.count or 1, (a.count or 1) * ONES[a.value - 1], SHIFTS[a.value - 1])
    if a.value
    else (True, -1, 0, 0, 4 * len(SHIFTS))
    for a in ACTIONS_BY_ID
)
"""Per action id: (is_pass, value index, cards moved, their packed delta, shift of the value);
a pass moves one card (the card taken; its ``count`` of cards played is 0), the pass taking
nothing (id 117, rule ``take=nothing``) none: value index -1, and a shift past the table's
13 counts, so its stack reads as empty."""

_TAKE_RULE = ("", "only an end stack (take=ends)", "nothing (take=nothing)")


_MUST_TAKE = "cannot pass on an empty table: a pass must take a card (P1)"
_EMPTY_TABLE_PASS = {
    "nothing": "cannot pass on an empty table: a round is led by a play, even where a pass "
    "takes nothing (P1)"
}
"""P1's reason by the rules' ``take``: under ``take=nothing`` a pass needs no card, yet the
table's leader must still play (docs/rules.md, "Rule variants")."""


def _article(value: int) -> str:
    """'an' before a card value said with a vowel sound (8, 11, 18, 80-89), else 'a'."""
    return "an" if str(value).startswith("8") or value in (11, 18) else "a"


def _no_stack(value: int) -> str:
    return f"cannot take {_article(value)} {value}: there is no stack of {value}s on the table"


def _check_take(src: State, vi: int, mode: int) -> None:
    """Raise unless taking value index ``vi`` (-1: nothing) is what a pass takes under the
    rules' ``take`` code ``mode`` (0 any stack, 1 an end stack, 2 nothing)."""
    if mode == 0:
        return
    if (mode == 2) != (vi < 0) or (mode == 1 and vi != src._lo and vi != src._hi):
        raise IllegalActionError(f"under these rules a pass takes {_TAKE_RULE[mode]}")


def take(src: State, dst: State, aid: int) -> None:
    """A pass (action id ``aid``): the seat to act takes one card from a stack (what the
    rules' ``take`` allows) and sits out the round; the last seat left ends the round."""
    _, vi, _, delta, sh = DECODE[aid]
    lo = src._lo
    if lo < 0:
        raise IllegalActionError(_EMPTY_TABLE_PASS.get(src._rules.take, _MUST_TAKE))
    table = src._table
    hi = src._hi
    flags = src._rules.flags
    if flags:
        _check_take(src, vi, flags >> 1)
    tc = (table >> sh) & 15
    if not tc:
        if vi >= 0:
            raise IllegalActionError(_no_stack(vi + 1))
        if flags >> 1 != 2:
            raise IllegalActionError("a pass takes a card under these rules: write 'pass, take V'")
        tc = 2  # the pass taking nothing leaves every stack
    table -= delta
    if tc == 1:
        # The stack is gone: an emptied end moves inward to the next stack.
        if lo == hi:
            lo = hi = -1
        elif vi == lo:
            lo += 1
            while not (table >> SHIFTS[lo]) & 15:
                lo += 1
        elif vi == hi:
            hi -= 1
            while not (table >> SHIFTS[hi]) & 15:
                hi -= 1
    p = src._cur
    n = src._n
    delta <<= LANE * p
    dst._hh = src._hh + delta
    dst._kk = src._kk + delta
    passed = src._passed | (1 << p)
    if passed.bit_count() >= n - 1:
        # Round end: the survivor clears the table and leads the next round.
        q = 0
        while passed >> q & 1:
            q += 1
        dst._removed = src._removed + table
        dst._round = src._round + 1
        table = 0
        lo = hi = -1
        passed = 0
    else:
        dst._removed = src._removed
        dst._round = src._round
        q = p + 1
        if q == n:
            q = 0
        while passed >> q & 1:
            q += 1
            if q == n:
                q = 0
    dst._winner = -1
    dst._table = table
    dst._lo = lo
    dst._hi = hi
    dst._passed = passed
    dst._cur = q


def play(src: State, dst: State, aid: int) -> None:
    """A play (action id ``aid``): the seat to act lays cards of one value on an end of the
    table, or starts it; an emptied hand wins."""
    _, vi, k, delta, sh = DECODE[aid]
    p = src._cur
    base = LANE * p
    hh = src._hh
    h = (hh >> base) & MASK
    c = (h >> sh) & 15
    if c < k:
        raise IllegalActionError(
            f"cannot play {k} card{'s' if k > 1 else ''} of value {vi + 1}: the hand holds {c}"
        )
    table = src._table
    lo = src._lo
    if lo < 0:
        lo = hi = vi
    else:
        hi = src._hi
        if vi <= lo:
            need = (table >> SHIFTS[lo]) & 15
            if k < need and src._rules.min_count:
                raise IllegalActionError(f"needs at least {need} cards on the left end, got {k}")
            lo = vi
        elif vi >= hi:
            need = (table >> SHIFTS[hi]) & 15
            if k < need and src._rules.min_count:
                raise IllegalActionError(f"needs at least {need} cards on the right end, got {k}")
            hi = vi
        else:
            raise IllegalActionError(
                f"value {vi + 1} lies between the ends {lo + 1} and {hi + 1}: never allowed"
            )
    dst._hh = hh - (delta << base)
    kk = src._kk
    if kk:
        # Observers can still be sure of only the known cards the play cannot have used.
        kc = (kk >> (base + sh)) & 15
        if kc:
            kk -= (kc if kc < k else k) << (base + sh)
    dst._kk = kk
    dst._removed = src._removed
    dst._round = src._round
    passed = src._passed
    if h == delta:
        dst._winner = q = p
    else:
        dst._winner = -1
        q = p + 1
        n = src._n
        if q == n:
            q = 0
        while passed >> q & 1:
            q += 1
            if q == n:
                q = 0
    dst._table = table + delta
    dst._lo = lo
    dst._hi = hi
    dst._passed = passed
    dst._cur = q
