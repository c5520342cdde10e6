"""Deals carried from one decision to the next of the same game (``ismcts``'s ``reuse``).

What a decision learnt about the hidden hands (a deal fitted to each candidate model, the
deal chain's last state) is a good start for the next decision of the game; ``carry_deal``
moves such a deal on to the new position, keeping what still fits the public events since.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit
from leaves import kernels as K
from leaves.board import HANDS, KNOWN, M_N, META, SEAT_SLOTS, UNDEALT
from leaves.rules import MAX_DECK, N_VALUES

from .unseen import known_hand, unseen_of


@njit(cache=True)
def carry_deal(old, since, pub, seat, sizes, rng, out):
    """Fill ``out`` with a deal of ``pub`` that keeps as much of ``old`` as still fits.

    ``old`` is a deal of an earlier position of the same game (the previous decision's fitted
    deal) and ``since[p]`` what seat ``p`` played minus what it took from then to now. Each
    holder (opponent, undealt pile), in random order, keeps the hidden cards ``old`` gave it,
    moved on by ``since``, while they are unseen and it has room; the cards left over fill
    the room left uniformly (``determinize``'s distribution for them). So what an earlier
    decision learnt about the hands carries over (the true deal of an earlier position
    carries to the true deal now), and every public event since is respected.
    """
    out[:, :] = pub
    n = pub[META, M_N]
    pool = np.zeros(N_VALUES, np.int64)
    for v in range(N_VALUES):
        pool[v] = unseen_of(pub, seat, v)
    left = 0
    for v in range(N_VALUES):
        left += pool[v]
        out[UNDEALT, v] = 0
    room = np.zeros(SEAT_SLOTS + 1, np.int64)  # hidden slots of holder h (n: the undealt)
    for i in range(n):
        if i == seat:
            continue
        hidden = known_hand(out, pub, sizes, i)
        room[i] = hidden
        left -= hidden
    room[n] = left
    order = np.arange(n + 1)
    K.shuffle_head(order, n + 1, rng)
    cards = np.empty(MAX_DECK, np.int64)
    for h in order:  # keep: each holder's old hidden cards, moved on, while unseen and room
        if h == seat:
            continue
        row = UNDEALT if h == n else HANDS + h
        m = 0
        for v in range(N_VALUES):
            had = old[row, v]
            if h < n:
                had -= since[h, v] + pub[KNOWN + h, v]
            for _ in range(max(had, 0)):
                cards[m] = v
                m += 1
        K.shuffle_head(cards, m, rng)
        for k in range(m):
            if room[h] == 0:
                break
            v = cards[k]
            if pool[v] > 0:
                pool[v] -= 1
                room[h] -= 1
                out[row, v] += 1
    m = 0  # the rest: uniformly into the room left
    for v in range(N_VALUES):
        for _ in range(pool[v]):
            cards[m] = v
            m += 1
    K.shuffle_head(cards, m, rng)
    pos = 0
    for h in range(n + 1):
        if h == seat:
            continue
        row = UNDEALT if h == n else HANDS + h
        for _ in range(room[h]):
            out[row, cards[pos]] += 1
            pos += 1
