"""The compiled round loop: whole rounds of Ligretto in numba, for tournaments.

Same rules, same real-time model and same random streams as the Python path
(``ligretto.engine``); a differential test plays many rounds through both and compares every
event. A table's players are rows of a policy matrix (``ligretto.policy``). Per-seat bit masks
of accessible cards and one mask of wanted cards make the blockade test O(players).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numba as nb
import numpy as np

from .policy import (
    K_FAIL,
    K_FLIP,
    K_HAND,
    K_RECYCLE,
    K_ROW,
    K_STACK,
    K_WAIT,
    N_PARAMS,
    P_FLIP,
    P_LOOK,
    P_SPEED,
    P_SPREAD,
    P_THINK,
    nb_decide,
)
from .rng import DEAL, POLICY, RECYCLE, TIME, nb_next, nb_shuffle, nb_stream_seed
from .rules import (
    FLIP_COUNT,
    MAX_HAND,
    MAX_PILES,
    N_COLOURS,
    N_VALUES,
    SET_SIZE,
    STACK_PENALTY,
    STACK_SIZE,
    check_players,
    row_size,
)
from .timing import nb_duration

__all__ = [
    "RoundBatch",
    "play_rounds",
    "MAX_ACTIONS",
    "MAX_ROUND_MS",
    "ENDED_BLOCKADE",
    "ENDED_UNFINISHED",
]

MAX_ROUND_MS = 600_000
"""Safety net: a round still running after 10 minutes of game time stops unfinished
(``ended_by`` = ENDED_UNFINISHED), scored as it stands. Built-in rounds last about 20 s; only
strategies that refuse to play what they can (user code) get here."""
MAX_ACTIONS = 2_000_000
"""Second safety net, on resolved actions (reaction times of 1 ms)."""

ENDED_BLOCKADE = -1
ENDED_UNFINISHED = -2
N_STREAMS = 4  # per seat: DEAL, TIME, RECYCLE, POLICY


Seats = namedtuple(
    "Seats", "stack spos row hand hpos hlen hp hplen idle states pt pk pkind pslot pcard ppile"
)
"""Per-seat arrays of a round: the cards (stack and its position, row, hand and its position
and length, hand pile and its length), actions without a play (idle), random streams, and the
pending action (time, tie key, kind, row slot, card, pile)."""
Centre = namedtuple("Centre", "want_cnt pile_col pile_top")
"""The centre piles (colour and top card) and how many piles want each card."""


@nb.njit(cache=True)
def _event(ev, n_ev, record, t, s, kind, card, pile):
    """Write event ``n_ev`` when recording (while ``ev`` has room); the next event's index."""
    if record and n_ev < ev.shape[0]:
        ev[n_ev, 0] = t
        ev[n_ev, 1] = s
        ev[n_ev, 2] = kind
        ev[n_ev, 3] = card
        ev[n_ev, 4] = pile
    return n_ev + 1


@nb.njit(cache=True)
def _bit(card):
    return np.uint64(1) << np.uint64(card)


@nb.njit(cache=True)
def nb_round(params, n, k, deal_seed, play_seed, ev, record, out):
    """Play one round. ``out`` (int64) receives, per seat s: score[s], stack_left[n+s],
    centre[2n+s]; then ended_by, end time, plays, flips, fails, events written (6 values).
    With ``record`` the events go to ``ev`` (rows [time, seat, kind, card, pile]) until full."""
    states = np.empty(n * N_STREAMS, np.uint64)
    for s in range(n):
        states[s * N_STREAMS + DEAL] = nb_stream_seed(deal_seed, s, DEAL)
        states[s * N_STREAMS + TIME] = nb_stream_seed(play_seed, s, TIME)
        states[s * N_STREAMS + RECYCLE] = nb_stream_seed(play_seed, s, RECYCLE)
        states[s * N_STREAMS + POLICY] = nb_stream_seed(play_seed, s, POLICY)
    stack = np.empty((n, STACK_SIZE), np.int64)
    spos = np.zeros(n, np.int64)
    row = np.empty((n, 5), np.int64)
    hand = np.empty((n, MAX_HAND), np.int64)
    hpos = np.zeros(n, np.int64)
    hlen = np.zeros(n, np.int64)
    hp = np.empty((n, MAX_HAND), np.int64)
    hplen = np.zeros(n, np.int64)
    acc = np.zeros(n, np.uint64)
    cards = np.empty(SET_SIZE, np.int64)
    for s in range(n):
        for c in range(SET_SIZE):
            cards[c] = c
        nb_shuffle(cards, SET_SIZE, states, s * N_STREAMS + DEAL)
        for i in range(STACK_SIZE):
            stack[s, i] = cards[i]
        for j in range(k):
            row[s, j] = cards[STACK_SIZE + j]
            acc[s] |= _bit(row[s, j])
        hlen[s] = SET_SIZE - STACK_SIZE - k
        for i in range(hlen[s]):
            hand[s, i] = cards[STACK_SIZE + k + i]
            acc[s] |= _bit(hand[s, i])
        acc[s] |= _bit(stack[s, 0])
    pile_col = np.empty(MAX_PILES, np.int64)
    pile_top = np.empty(MAX_PILES, np.int64)
    n_piles = 0
    want_cnt = np.zeros((N_COLOURS, N_VALUES + 2), np.int64)
    wanted = np.uint64(0)
    for c in range(N_COLOURS):
        wanted |= _bit(c * N_VALUES)  # every 1 starts a pile
    centre = np.zeros(n, np.int64)
    idle = np.zeros(n, np.int64)
    pt = np.zeros(n, np.int64)
    pk = np.zeros(n, np.uint64)
    pkind = np.zeros(n, np.int64)
    pslot = np.zeros(n, np.int64)
    pcard = np.zeros(n, np.int64)
    ppile = np.zeros(n, np.int64)
    seats = Seats(stack, spos, row, hand, hpos, hlen, hp, hplen, idle, states, pt, pk, pkind,
                  pslot, pcard, ppile)  # fmt: skip
    centre_piles = Centre(want_cnt, pile_col, pile_top)
    n_ev = 0
    plays = 0
    flips = 0
    fails = 0
    ended = ENDED_UNFINISHED
    t = np.int64(0)

    blockade = True
    for s in range(n):
        if acc[s] & wanted:
            blockade = False
    if blockade:
        ended = ENDED_BLOCKADE
    else:
        for s in range(n):
            _schedule(params, s, 0, k, seats, centre_piles, n_piles)
    actions = 0
    while ended == ENDED_UNFINISHED and actions < MAX_ACTIONS:
        actions += 1
        s = 0
        for q in range(1, n):
            if pt[q] < pt[s] or (pt[q] == pt[s] and pk[q] < pk[s]):
                s = q
        if pt[s] > MAX_ROUND_MS:
            break
        t = pt[s]
        kind = pkind[s]
        if kind <= K_HAND:
            card = pcard[s]
            colour = card // N_VALUES
            value = card % N_VALUES + 1
            target = ppile[s]
            if value == 1:
                ok = True
                target = n_piles
            else:
                ok = pile_col[target] == colour and pile_top[target] == value - 1
            if ok:
                if value == 1:
                    pile_col[n_piles] = colour
                    n_piles += 1
                else:
                    want_cnt[colour, value] -= 1
                    if want_cnt[colour, value] == 0:
                        wanted &= ~_bit(card)
                pile_top[target] = value
                if value < N_VALUES:
                    want_cnt[colour, value + 1] += 1
                    wanted |= _bit(card + 1)
                centre[s] += 1
                idle[s] = 0
                plays += 1
                acc[s] &= ~_bit(card)
                if kind == K_STACK:
                    spos[s] += 1
                elif kind == K_ROW:
                    if spos[s] < STACK_SIZE:
                        row[s, pslot[s]] = stack[s, spos[s]]
                        spos[s] += 1
                    else:
                        row[s, pslot[s]] = -1
                else:
                    hplen[s] -= 1
                if spos[s] < STACK_SIZE:
                    acc[s] |= _bit(stack[s, spos[s]])
                n_ev = _event(ev, n_ev, record, t, s, kind, card, target)
                if spos[s] == STACK_SIZE:
                    ended = s
                    break
                blockade = True
                for q in range(n):
                    if acc[q] & wanted:
                        blockade = False
                        break
                if blockade:
                    ended = ENDED_BLOCKADE
                    break
            else:
                idle[s] += 1
                fails += 1
                n_ev = _event(ev, n_ev, record, t, s, K_FAIL, card, target)
        elif kind == K_FLIP:
            if hpos[s] == hlen[s]:
                m = hplen[s]
                for i in range(m):
                    hand[s, i] = hp[s, i]
                nb_shuffle(hand[s], m, states, s * N_STREAMS + RECYCLE)
                hpos[s] = 0
                hlen[s] = m
                hplen[s] = 0
                n_ev = _event(ev, n_ev, record, t, s, K_RECYCLE, -1, -1)
            m = min(FLIP_COUNT, hlen[s] - hpos[s])
            for _ in range(m):
                hp[s, hplen[s]] = hand[s, hpos[s]]
                hplen[s] += 1
                hpos[s] += 1
            idle[s] += 1
            flips += 1
            n_ev = _event(ev, n_ev, record, t, s, K_FLIP, -1, -1)
        else:
            idle[s] += 1
        _schedule(params, s, t, k, seats, centre_piles, n_piles)
    for s in range(n):
        left = STACK_SIZE - spos[s]
        out[s] = centre[s] - STACK_PENALTY * left
        out[n + s] = left
        out[2 * n + s] = centre[s]
    out[3 * n] = ended
    out[3 * n + 1] = t
    out[3 * n + 2] = plays
    out[3 * n + 3] = flips
    out[3 * n + 4] = fails
    out[3 * n + 5] = n_ev


@nb.njit(cache=True)
def _schedule(params, s, t, k, seats, centre, n_piles):
    """Seat ``s`` decides at time ``t`` (what it sees now) and its action is timed."""
    q = seats
    stack_top = q.stack[s, q.spos[s]] if q.spos[s] < STACK_SIZE else -1
    hand_top = q.hp[s, q.hplen[s] - 1] if q.hplen[s] > 0 else -1
    can_flip = q.hlen[s] > q.hpos[s] or q.hplen[s] > 0
    p = params[s]
    kind, slot, card, pile, looked = nb_decide(
        p, centre.want_cnt, centre.pile_col, centre.pile_top, n_piles, stack_top, q.row[s], k,
        hand_top, can_flip, q.idle[s], q.states, s * N_STREAMS + POLICY,
    )  # fmt: skip
    ti = s * N_STREAMS + TIME
    d = nb_duration(
        p[P_SPEED],
        p[P_THINK],
        p[P_LOOK],
        p[P_FLIP],
        p[P_SPREAD],
        looked,
        kind == K_FLIP,
        q.states,
        ti,
    )
    q.pt[s] = t + d
    q.pk[s] = nb_next(q.states, ti)
    q.pkind[s] = kind
    q.pslot[s] = slot
    q.pcard[s] = card
    q.ppile[s] = pile
    return kind == K_WAIT


@nb.njit(cache=True)
def _batch(params, n, k, deal_seeds, play_seeds, out):
    ev = np.empty((0, 5), np.int64)
    for g in range(deal_seeds.shape[0]):
        nb_round(params, n, k, deal_seeds[g], play_seeds[g], ev, False, out[g])


@dataclass
class RoundBatch:
    """Outcomes of G rounds at one table (n seats)."""

    scores: np.ndarray  # int16 (G, n)
    stack_left: np.ndarray  # int8 (G, n)
    centre_cards: np.ndarray  # int8 (G, n)
    ended_by: np.ndarray  # int8 (G,): seat whose stack emptied, -1 blockade, -2 unfinished
    time_ms: np.ndarray  # int32 (G,): when the round ended
    plays: np.ndarray  # int16 (G,)
    flips: np.ndarray  # int32 (G,)
    fails: np.ndarray  # int16 (G,)


def play_rounds(params: np.ndarray, deal_seeds: np.ndarray, play_seeds: np.ndarray) -> RoundBatch:
    """Play one round per seed pair; ``params`` (n, N_PARAMS) holds one policy per seat."""
    params = np.ascontiguousarray(params, dtype=np.float64)
    n = params.shape[0]
    check_players(n)
    if params.shape[1] != N_PARAMS:
        raise ValueError(f"a policy has {N_PARAMS} parameters, got {params.shape[1]}")
    deal = np.ascontiguousarray(deal_seeds, dtype=np.uint64)
    play = np.ascontiguousarray(play_seeds, dtype=np.uint64)
    out = np.zeros((deal.shape[0], 3 * n + 6), np.int64)
    _batch(params, n, row_size(n), deal, play, out)
    return RoundBatch(
        scores=out[:, :n].astype(np.int16),
        stack_left=out[:, n : 2 * n].astype(np.int8),
        centre_cards=out[:, 2 * n : 3 * n].astype(np.int8),
        ended_by=out[:, 3 * n].astype(np.int8),
        time_ms=out[:, 3 * n + 1].astype(np.int32),
        plays=out[:, 3 * n + 2].astype(np.int16),
        flips=out[:, 3 * n + 3].astype(np.int32),
        fails=out[:, 3 * n + 4].astype(np.int16),
    )


def round_events(params: np.ndarray, deal_seed: int, play_seed: int, cap: int = 100_000):
    """(events (E, 5) int64, out row) of one compiled round: for tests and checks."""
    params = np.ascontiguousarray(params, dtype=np.float64)
    n = params.shape[0]
    ev = np.zeros((cap, 5), np.int64)
    out = np.zeros(3 * n + 6, np.int64)
    nb_round(params, n, row_size(n), np.uint64(deal_seed), np.uint64(play_seed), ev, True, out)
    return ev[: min(int(out[3 * n + 5]), cap)], out
