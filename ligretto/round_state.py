"""The compiled round's state: one ``Round`` and one ``Schedule``, numba structrefs.

A structref is one reference-counted pointer to named, mutable fields. The numba round loop
(``ligretto.round_loop``, the C engine's twin) splits into small njit steps that all take the
same round; a NamedTuple of two dozen arrays would cost an atomic reference count per array at
every call of every step, a structref costs one. Its scalar fields (piles started, wanted cards, the
counters) are mutable, which a tuple's are not. Compiled, both are built and used inside numba
only; with numba's JIT disabled (the loop run as Python: tests, mutation runs) a round is a
namespace with the same fields.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import types
from numba.core import config
from numba.experimental import structref

from gamekit.jit import njit

from .rng import DEAL, POLICY, RECYCLE, TIME, nb_shuffle, nb_stream_seed
from .rules import MAX_HAND, MAX_PILES, N_COLOURS, N_VALUES, SET_SIZE, STACK_SIZE

__all__ = ["ROUND", "SCHEDULE", "N_STREAMS", "nb_bit", "new_round", "new_schedule"]

N_STREAMS = 4  # per seat: DEAL, TIME, RECYCLE, POLICY


@structref.register
class RoundType(types.StructRef):
    """The numba type of a round (its fields: ``ROUND_FIELDS``)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


@structref.register
class ScheduleType(types.StructRef):
    """The numba type of a round's schedule (its fields: ``SCHEDULE_FIELDS``)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


_I1, _I2, _U1 = types.int64[::1], types.int64[:, ::1], types.uint64[::1]

ROUND_FIELDS = (
    ("params", types.float64[:, ::1]),  # (n, N_PARAMS): one policy per seat
    ("n", types.int64),  # seats
    ("k", types.int64),  # row size
    # per seat (row or entry s: seat s)
    ("stack", _I2),  # (n, STACK_SIZE) the dealt Ligretto stack, top first
    ("spos", _I1),  # cards played off the stack: its top is stack[s, spos[s]]
    ("row", _I2),  # (n, 5) row cards by slot, -1 an empty slot
    ("hand", _I2),  # (n, MAX_HAND) face-down hand: hand[s, hpos[s]:hlen[s]] is left
    ("hpos", _I1),
    ("hlen", _I1),
    ("hp", _I2),  # (n, MAX_HAND) face-up hand pile, bottom first, hplen[s] cards
    ("hplen", _I1),
    ("acc", _U1),  # bit mask of the cards the seat could ever play (blockade test)
    ("centre", _I1),  # own cards put in the centre
    ("idle", _I1),  # actions resolved since the last own play
    ("states", _U1),  # (n * N_STREAMS) random streams, seat-major, rng purpose order
    # the centre
    ("want_cnt", _I2),  # (N_COLOURS, N_VALUES + 2): piles waiting for [colour, number]
    ("pile_col", _I1),  # (MAX_PILES,) colour of each pile started
    ("pile_top", _I1),  # its top number
    ("n_piles", types.int64),  # piles started
    ("wanted", types.uint64),  # bit mask: every 1, and each card some pile waits for
    # the record
    ("ev", _I2),  # (cap, 5) events [time, seat, kind, card, pile] while recording
    ("record", types.boolean),
    ("n_events", types.int64),  # events so far (written or not)
    ("plays", types.int64),
    ("flips", types.int64),
    ("fails", types.int64),
)
SCHEDULE_FIELDS = (  # each seat's pending action
    ("time", _I1),  # when it resolves
    ("key", _U1),  # seeded tie key: equal times resolve the smaller key first
    ("kind", _I1),  # policy.K_*
    ("slot", _I1),  # row slot
    ("card", _I1),
    ("pile", _I1),  # target pile (-1: a 1 starting a pile)
)
ROUND = RoundType(list(ROUND_FIELDS))
SCHEDULE = ScheduleType(list(SCHEDULE_FIELDS))


@njit(cache=True)
def nb_bit(card):
    """The card's bit in a card mask."""
    return np.uint64(1) << np.uint64(card)


@njit(cache=True)
def _streams(n, deal_seed, play_seed):
    """Every seat's four random streams."""
    states = np.empty(n * N_STREAMS, np.uint64)
    for s in range(n):
        states[s * N_STREAMS + DEAL] = nb_stream_seed(deal_seed, s, DEAL)
        states[s * N_STREAMS + TIME] = nb_stream_seed(play_seed, s, TIME)
        states[s * N_STREAMS + RECYCLE] = nb_stream_seed(play_seed, s, RECYCLE)
        states[s * N_STREAMS + POLICY] = nb_stream_seed(play_seed, s, POLICY)
    return states


@njit(cache=True)
def _seat_arrays(r, n):
    """Empty per-seat arrays."""
    r.stack = np.empty((n, STACK_SIZE), np.int64)
    r.spos = np.zeros(n, np.int64)
    r.row = np.empty((n, 5), np.int64)
    r.hand = np.empty((n, MAX_HAND), np.int64)
    r.hpos = np.zeros(n, np.int64)
    r.hlen = np.zeros(n, np.int64)
    r.hp = np.empty((n, MAX_HAND), np.int64)
    r.hplen = np.zeros(n, np.int64)
    r.acc = np.zeros(n, np.uint64)
    r.centre = np.zeros(n, np.int64)
    r.idle = np.zeros(n, np.int64)


@njit(cache=True)
def _deal(r):
    """Each seat's set shuffled by its DEAL stream: stack, a row of ``k``, the rest the hand."""
    k = r.k
    cards = np.empty(SET_SIZE, np.int64)
    for s in range(r.n):
        for c in range(SET_SIZE):
            cards[c] = c
        nb_shuffle(cards, SET_SIZE, r.states, s * N_STREAMS + DEAL)
        for i in range(STACK_SIZE):
            r.stack[s, i] = cards[i]
        acc = nb_bit(cards[0])
        for j in range(k):
            r.row[s, j] = cards[STACK_SIZE + j]
            acc |= nb_bit(cards[STACK_SIZE + j])
        r.hlen[s] = SET_SIZE - STACK_SIZE - k
        for i in range(r.hlen[s]):
            r.hand[s, i] = cards[STACK_SIZE + k + i]
            acc |= nb_bit(cards[STACK_SIZE + k + i])
        r.acc[s] = acc


if config.DISABLE_JIT:  # ``structref.new`` is an intrinsic, with no Python form

    def _new(_type):
        return SimpleNamespace()

else:
    _new = structref.new


@njit(cache=True)
def new_round(params, n, k, deal_seed, play_seed, ev, record):
    """A dealt round with an empty centre; events go to ``ev`` when ``record``."""
    r = _new(ROUND)
    r.params = params
    r.n = n
    r.k = k
    _seat_arrays(r, n)
    r.states = _streams(n, deal_seed, play_seed)
    _deal(r)
    r.want_cnt = np.zeros((N_COLOURS, N_VALUES + 2), np.int64)
    r.pile_col = np.empty(MAX_PILES, np.int64)
    r.pile_top = np.empty(MAX_PILES, np.int64)
    r.n_piles = 0
    wanted = np.uint64(0)
    for c in range(N_COLOURS):
        wanted |= nb_bit(c * N_VALUES)  # every 1 starts a pile
    r.wanted = wanted
    r.ev = ev
    r.record = record
    r.n_events = 0
    r.plays = 0
    r.flips = 0
    r.fails = 0
    return r


@njit(cache=True)
def new_schedule(n):
    """No action pending yet."""
    p = _new(SCHEDULE)
    p.time = np.zeros(n, np.int64)
    p.key = np.zeros(n, np.uint64)
    p.kind = np.zeros(n, np.int64)
    p.slot = np.zeros(n, np.int64)
    p.card = np.zeros(n, np.int64)
    p.pile = np.zeros(n, np.int64)
    return p
