"""Card counting for ``counter`` and ``weighted``: how many cards of each value an opponent in
the round might hold, kept up to date through a game instead of recounted at each decision.

The count a seat uses is ``AVAIL[u]``: the cards of value ``u`` it cannot place (the deck less
its own hand, the table, the removed cards and every opponent's publicly known cards) plus
the most an opponent still in the round is known to hold. Most of it is the same for every
seat: ``PUB[u] = DECK[u] - TABLE[u] - REMOVED[u] - sum_i KNOWN[i][u]``, the cards nobody has
seen placed, and a seat's own known cards are in its hand, so

    AVAIL[u] = PUB[u] - own[u] + KNOWN[seat][u] + BEST[u].

``PUB`` changes only when a play puts on the table cards that were not known to be in the
player's hand (``kernels``: a take moves a table card into a hand, where it is known; a round
end moves the table to the removed cards); ``KNOWN_N[i]``, the known cards in seat ``i``'s
hand, tells which opponents can add to ``BEST`` at all. ``count_start`` computes both rows
from a board, ``count_action`` brings them up to date for the action about to be applied and
``LIVE`` says that they follow the board: ``loops.play_to_end`` sets it for the game it plays
(at a table with a seat that reads the counts) and clears it when it returns, so every other
caller of a policy (the Python bridge on a public board, the search's tree and inference)
finds it clear and recounts from the board.

``fill_avail`` gives a decision its ``AVAIL`` and, per size ``s``, the bit mask of the values
whose count reaches ``s`` (``MASKS``): the threat against an end is then a masked bit count.

``work`` is the int64[WORK_SIZE] scratch buffer the policies share; its counting rows are
laid out here, in one place.
"""

from __future__ import annotations

from gamekit.jit import njit
from leaves.board import (
    DECK_ROW,
    HANDS,
    KNOWN,
    M_CUR,
    M_N,
    M_PASSED,
    MAX_SEATS,
    META,
    REMOVED,
    TABLE,
)
from leaves.rules import MAX_COPIES, PASS_ID, TAKE_BASE

WORK_SIZE = 160
"""Length of the int64 scratch buffer ``work`` policies share."""

MASKS = 80  # work[MASKS + s], 0 <= s <= MAX_COPIES + 1: bit u set when AVAIL[u] >= s
PUB = 96  # work[PUB : PUB + 13]: cards of each value nobody has seen placed (while LIVE)
KNOWN_N = 112  # work[KNOWN_N + i]: cards publicly known in seat i's hand (while LIVE)
LIVE = 120  # work[LIVE] == 1 while PUB and KNOWN_N follow the board being played
AVAIL = 128  # work[AVAIL : AVAIL + 13]: per-value count an opponent in the round might hold
BEST = 144  # work[BEST : BEST + 13]: most of each value one opponent in the round is known to hold

assert MASKS + MAX_COPIES + 2 <= PUB and KNOWN_N + MAX_SEATS <= LIVE < AVAIL
assert BEST + 13 <= WORK_SIZE


@njit(cache=True, inline="always")
def count_start(board, work):
    """Compute the counting rows from ``board`` and mark them ``LIVE``."""
    n = board[META, M_N]
    for u in range(13):
        work[PUB + u] = board[DECK_ROW, u] - board[TABLE, u] - board[REMOVED, u]
    for i in range(n):
        total = 0
        for u in range(13):
            kn = board[KNOWN + i, u]
            work[PUB + u] -= kn
            total += kn
        work[KNOWN_N + i] = total
    work[LIVE] = 1


@njit(cache=True, inline="always")
def count_action(board, aid, work):
    """Update the counting rows for action ``aid`` of the seat to act, just before it is
    applied to ``board`` (a play reads which of its cards were known)."""
    p = board[META, M_CUR]
    if aid >= TAKE_BASE:
        if aid != PASS_ID:
            work[KNOWN_N + p] += 1  # the card leaves the table and is known in the hand
    else:
        v = aid >> 3
        k = (aid & 7) + 1
        shown = min(board[KNOWN + p, v], k)  # known cards played first (``kernels``)
        work[KNOWN_N + p] -= shown
        work[PUB + v] -= k - shown


@njit(cache=True, inline="always")
def count_stop(work):
    """The counting rows no longer follow a board: policies recount from theirs."""
    work[LIVE] = 0


@njit(cache=True, inline="always")
def fill_avail(board, seat, work):
    """work[AVAIL + u]: cards of value ``u`` an opponent in the round might hold, and the
    ``MASKS`` of those counts (``fill_masks``).

    Unseen cards (the owner cannot place them: ``PlayerView.unseen``) plus the most any
    opponent still in the round is publicly known to hold. From the ``LIVE`` rows when they
    follow the board, else counted from the board, row by row (each loop over the 13 values
    vectorises); the same counts either way.
    """
    n = board[META, M_N]
    mask = board[META, M_PASSED]
    for u in range(13):
        work[BEST + u] = 0
    if work[LIVE] == 1:
        for i in range(n):
            if i != seat and not (mask >> i) & 1 and work[KNOWN_N + i] > 0:
                for u in range(13):
                    work[BEST + u] = max(work[BEST + u], board[KNOWN + i, u])
        for u in range(13):
            own = board[KNOWN + seat, u] - board[HANDS + seat, u]
            work[AVAIL + u] = work[PUB + u] + own + work[BEST + u]
        fill_masks(work)
        return
    for u in range(13):
        work[AVAIL + u] = (
            board[DECK_ROW, u] - board[HANDS + seat, u] - board[TABLE, u] - board[REMOVED, u]
        )
    for i in range(n):
        if i == seat:
            continue
        if (mask >> i) & 1:
            for u in range(13):
                work[AVAIL + u] -= board[KNOWN + i, u]
        else:
            for u in range(13):
                kn = board[KNOWN + i, u]
                work[AVAIL + u] -= kn
                work[BEST + u] = max(work[BEST + u], kn)
    for u in range(13):
        work[AVAIL + u] += work[BEST + u]
    fill_masks(work)


@njit(cache=True, inline="always")
def fill_masks(work):
    """work[MASKS + s]: the values ``u`` with work[AVAIL + u] >= ``s``, one bit each, for
    0 <= s <= MAX_COPIES + 1 (no value reaches that last one): how many values could answer
    an end of size ``s`` on one side is then a mask and a bit count (``features.threat``)."""
    for s in range(MAX_COPIES + 2):
        work[MASKS + s] = 0
    for u in range(13):
        c = min(max(work[AVAIL + u], 0), MAX_COPIES + 1)
        work[MASKS + c] |= 1 << u
    for s in range(MAX_COPIES, -1, -1):
        work[MASKS + s] |= work[MASKS + s + 1]


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of ``x`` (0 <= x < 2**62): the classic SWAR count, a few adds and masks."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF  # the mask: Python's ints do not wrap
