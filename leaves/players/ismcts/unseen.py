"""What a seat cannot see: each value's unseen cards and each opponent's hidden room.

The one definition both deals of the hidden cards start from: the uniform deal
(``inference.determinize``) and the deal carried from the previous decision
(``carry.carry_deal``).
"""

from __future__ import annotations

from gamekit.jit import njit
from leaves.board import DECK_ROW, HANDS, KNOWN, M_N, META, REMOVED, TABLE
from leaves.rules import N_VALUES


@njit(cache=True, inline="always")
def unseen_of(pub, seat, v):
    """Cards of value ``v`` that ``seat`` has not seen on ``pub``: the deck's copies less its
    own hand, the table, the removed cards and the cards known in the opponents' hands."""
    x = pub[DECK_ROW, v] - pub[HANDS + seat, v] - pub[TABLE, v] - pub[REMOVED, v]
    for i in range(pub[META, M_N]):
        if i != seat:
            x -= pub[KNOWN + i, v]
    return x


@njit(cache=True, inline="always")
def known_hand(out, pub, sizes, i):
    """Give opponent ``i`` on ``out`` just its publicly known cards; returns its hidden room
    (its hand size less those cards), which a deal then fills with unseen cards."""
    hidden = sizes[i]
    for v in range(N_VALUES):
        out[HANDS + i, v] = pub[KNOWN + i, v]
        hidden -= pub[KNOWN + i, v]
    return hidden
