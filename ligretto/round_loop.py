"""The round loop in numba: whole rounds of Ligretto, the reference the C engine ports.

Same rules, same real-time model and same random streams as the Python path
(``ligretto.engine``) and as the C engine (``csrc/``, ``ligretto.cengine``); differential
tests compare them event by event. ``ligretto.compiled`` runs these kernels only where the C
engine cannot be had (no C compiler, or ``LEAVES_ENGINE=numba``). The kernels are lazy
(``gamekit.jit``): the first call imports numba and compiles them, or loads them from the
cache folder keyed by the sources (``gamekit.kernel_cache``).

A round is one ``Round`` and one ``Schedule`` (``ligretto.round_state``); each step below (the
next seat, a play, a flip, a decision) is a small njit function of them.
"""

from __future__ import annotations

import numpy as np

from gamekit.jit import njit

from .policy import K_FAIL, K_FLIP, K_HAND, K_RECYCLE, K_ROW, K_STACK, Own, Piles, nb_decide
from .rng import POLICY, RECYCLE, TIME, nb_next, nb_shuffle
from .round_state import N_STREAMS, nb_bit, new_round, new_schedule
from .rules import (
    ENDED_BLOCKADE,
    ENDED_UNFINISHED,
    FLIP_COUNT,
    MAX_ACTIONS,
    MAX_ROUND_MS,
    N_VALUES,
    STACK_PENALTY,
    STACK_SIZE,
)
from .timing import nb_duration

__all__ = ["nb_batch", "nb_round"]


@njit(cache=True)
def _event(r, t, s, kind, card, pile):
    """Count one event and write it when recording (while ``r.ev`` has room)."""
    i = r.n_events
    if r.record and i < r.ev.shape[0]:
        r.ev[i, 0] = t
        r.ev[i, 1] = s
        r.ev[i, 2] = kind
        r.ev[i, 3] = card
        r.ev[i, 4] = pile
    r.n_events = i + 1


@njit(cache=True)
def _blockade(r):
    """No seat holds any wanted card: nobody can ever play again."""
    acc, wanted = r.acc, r.wanted
    for q in range(r.n):  # noqa: SIM110 - numba compiles the plain loop
        if acc[q] & wanted:
            return False
    return True


@njit(cache=True)
def _next_seat(p):
    """The seat whose action is due first (equal times: the smaller tie key)."""
    t, key = p.time, p.key
    s = 0
    for q in range(1, t.shape[0]):
        if t[q] < t[s] or (t[q] == t[s] and key[q] < key[s]):
            s = q
    return s


@njit(cache=True)
def _fits(r, card, target):
    """Does pile ``target`` take ``card`` now (a 1 always starts a new pile)?"""
    value = card % N_VALUES + 1
    if value == 1:
        return True
    return r.pile_col[target] == card // N_VALUES and r.pile_top[target] == value - 1


@njit(cache=True)
def _place(r, card, target):
    """Put ``card`` on pile ``target`` (a 1 on a new pile) and update the wanted cards; the
    pile it went to."""
    colour = card // N_VALUES
    value = card % N_VALUES + 1
    if value == 1:
        target = r.n_piles
        r.pile_col[target] = colour
        r.n_piles = target + 1
    else:
        r.want_cnt[colour, value] -= 1
        if r.want_cnt[colour, value] == 0:
            r.wanted &= ~nb_bit(card)
    r.pile_top[target] = value
    if value < N_VALUES:
        r.want_cnt[colour, value + 1] += 1
        r.wanted |= nb_bit(card + 1)
    return target


@njit(cache=True)
def _take(r, s, kind, slot, card):
    """Seat ``s`` has played ``card`` from its stack, row ``slot`` (refilled from the stack)
    or hand pile."""
    r.centre[s] += 1
    r.idle[s] = 0
    r.acc[s] &= ~nb_bit(card)
    spos = r.spos[s]
    if kind == K_STACK:
        spos += 1
    elif kind == K_ROW:
        if spos < STACK_SIZE:
            r.row[s, slot] = r.stack[s, spos]
            spos += 1
        else:
            r.row[s, slot] = -1
    else:
        r.hplen[s] -= 1
    r.spos[s] = spos
    if spos < STACK_SIZE:
        r.acc[s] |= nb_bit(r.stack[s, spos])


@njit(cache=True)
def _play(r, p, s, t):
    """Resolve seat ``s``'s play: it lands or fails (a faster seat took the pile); the seat
    that ended the round, ENDED_BLOCKADE, or ENDED_UNFINISHED."""
    card = p.card[s]
    target = p.pile[s]
    if not _fits(r, card, target):
        r.idle[s] += 1
        r.fails += 1
        _event(r, t, s, K_FAIL, card, target)
        return ENDED_UNFINISHED
    target = _place(r, card, target)
    _take(r, s, p.kind[s], p.slot[s], card)
    r.plays += 1
    _event(r, t, s, p.kind[s], card, target)
    if r.spos[s] == STACK_SIZE:
        return s
    if _blockade(r):
        return ENDED_BLOCKADE
    return ENDED_UNFINISHED


@njit(cache=True)
def _flip(r, s, t):
    """Seat ``s`` turns up to FLIP_COUNT hand cards, first recycling a used-up hand."""
    if r.hpos[s] == r.hlen[s]:
        m = r.hplen[s]
        for i in range(m):
            r.hand[s, i] = r.hp[s, i]
        nb_shuffle(r.hand[s], m, r.states, s * N_STREAMS + RECYCLE)
        r.hpos[s] = 0
        r.hlen[s] = m
        r.hplen[s] = 0
        _event(r, t, s, K_RECYCLE, -1, -1)
    m = min(FLIP_COUNT, r.hlen[s] - r.hpos[s])
    for _ in range(m):
        r.hp[s, r.hplen[s]] = r.hand[s, r.hpos[s]]
        r.hplen[s] += 1
        r.hpos[s] += 1
    r.idle[s] += 1
    r.flips += 1
    _event(r, t, s, K_FLIP, -1, -1)


@njit(cache=True)
def _resolve(r, p, s, t):
    """Resolve seat ``s``'s pending action at time ``t``; how the round stands (``_play``)."""
    kind = p.kind[s]
    if kind <= K_HAND:
        return _play(r, p, s, t)
    if kind == K_FLIP:
        _flip(r, s, t)
    else:
        r.idle[s] += 1
    return ENDED_UNFINISHED


@njit(cache=True)
def _schedule(r, p, s, t):
    """Seat ``s`` decides at time ``t`` (what it sees now) and its action is timed."""
    spos, hplen = r.spos[s], r.hplen[s]
    own = Own(
        stack_top=r.stack[s, spos] if spos < STACK_SIZE else -1,
        row=r.row[s],
        k=r.k,
        hand_top=r.hp[s, hplen - 1] if hplen > 0 else -1,
        can_flip=r.hlen[s] > r.hpos[s] or hplen > 0,
        idle=r.idle[s],
    )
    piles = Piles(want=r.want_cnt, colour=r.pile_col, top=r.pile_top, count=r.n_piles)
    policy = r.params[s]
    states = r.states
    kind, slot, card, pile, looked = nb_decide(policy, piles, own, states, s * N_STREAMS + POLICY)
    ti = s * N_STREAMS + TIME
    d = nb_duration(policy, looked, kind == K_FLIP, states, ti)
    p.time[s] = t + d
    p.key[s] = nb_next(states, ti)
    p.kind[s] = kind
    p.slot[s] = slot
    p.card[s] = card
    p.pile[s] = pile


@njit(cache=True)
def _run(r, p):
    """Resolve actions in time order until the round ends: (ended_by, end time)."""
    if _blockade(r):
        return ENDED_BLOCKADE, np.int64(0)
    for s in range(r.n):
        _schedule(r, p, s, np.int64(0))
    ended = ENDED_UNFINISHED
    t = np.int64(0)
    actions = 0
    while ended == ENDED_UNFINISHED and actions < MAX_ACTIONS:
        actions += 1
        s = _next_seat(p)
        if p.time[s] > MAX_ROUND_MS:  # stopped at the limit: it lasted that long
            t = np.int64(MAX_ROUND_MS)
            break
        t = p.time[s]
        ended = _resolve(r, p, s, t)
        if ended == ENDED_UNFINISHED:
            _schedule(r, p, s, t)
    return ended, t


@njit(cache=True)
def nb_round(params, n, k, deal_seed, play_seed, ev, record, out):
    """Play one round. ``out`` (int64) receives, per seat s: score[s], stack_left[n+s],
    centre[2n+s]; then ended_by, end time, plays, flips, fails, events written (6 values).
    With ``record`` the events go to ``ev`` (rows [time, seat, kind, card, pile]) until full."""
    r = new_round(params, n, k, deal_seed, play_seed, ev, record)
    ended, t = _run(r, new_schedule(n))
    for s in range(n):
        left = STACK_SIZE - r.spos[s]
        out[s] = r.centre[s] - STACK_PENALTY * left
        out[n + s] = left
        out[2 * n + s] = r.centre[s]
    out[3 * n] = ended
    out[3 * n + 1] = t
    out[3 * n + 2] = r.plays
    out[3 * n + 3] = r.flips
    out[3 * n + 4] = r.fails
    out[3 * n + 5] = r.n_events


@njit(cache=True)
def nb_batch(params, n, k, deal_seeds, play_seeds, out):
    """One round per seed pair (``nb_round`` without a record): ``out`` is (G, 3n + 6)."""
    ev = np.empty((0, 5), np.int64)
    for g in range(deal_seeds.shape[0]):
        nb_round(params, n, k, deal_seeds[g], play_seeds[g], ev, False, out[g])
