"""The parametric policy every built-in Ligretto player runs, as one numba function.

A policy is a float vector (``P_*`` indices): the reaction-time model plus *attention*: the
order in which the player looks at its own face-up cards (Ligretto stack top, row, hand-pile
top) and whether it holds back a 1 that would mostly help others. The player looks at cards
one by one in its order and plays the first that fits (every card looked at costs time);
``ORDER_SCAN`` looks at all of them and picks at random among those that fit. Nothing fits:
it turns hand cards (or waits when it has none). The Python path calls the same function, so
both paths decide alike; strategies (``ligretto.players``) are named parameter sets. The C
engine restates it (``csrc/policy.h``) and is called instead where it is there; the numba
kernels here are lazy (``gamekit.jit``), so importing this module loads no numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gamekit.jit import needs_compile, njit

from . import cengine
from .engine import Decision
from .rng import nb_below
from .rules import N_COLOURS, N_VALUES
from .timing import T_FLIP, T_LOOK, T_SPEED, T_SPREAD, T_THINK, ReactionModel

# parameter vector layout: the timing model first (``nb_duration`` reads a policy vector)
P_SPEED, P_THINK, P_LOOK, P_FLIP, P_SPREAD = T_SPEED, T_THINK, T_LOOK, T_FLIP, T_SPREAD
P_ORDER, P_CAUTIOUS, P_PATIENCE = 5, 6, 7
N_PARAMS = 8

ORDER_STACK, ORDER_ROW, ORDER_HAND, ORDER_SCAN = 0, 1, 2, 3
"""Attention orders: stack-row-hand, row-stack-hand, hand-stack-row, look at all (random)."""
ORDERS = {"stack": ORDER_STACK, "row": ORDER_ROW, "hand": ORDER_HAND, "scan": ORDER_SCAN}

# decision / event kinds (records spell them out: KIND_NAMES)
K_STACK, K_ROW, K_HAND, K_FLIP, K_RECYCLE, K_FAIL, K_WAIT = range(7)
KIND_NAMES = ("stack", "row", "hand", "flip", "recycle", "fail", "wait")

NO_TARGET = -2


class Piles(NamedTuple):
    """The centre as a player sees it: ``want[c, v]`` counts the piles of colour ``c``
    waiting for number ``v``; each pile's colour and top number; how many piles there are."""

    want: np.ndarray
    colour: np.ndarray
    top: np.ndarray
    count: int


class Own(NamedTuple):
    """A seat's own face-up cards (-1: none) and state: what its policy decides from."""

    stack_top: int
    row: np.ndarray  # the first ``k`` entries are the row
    k: int
    hand_top: int
    can_flip: bool
    idle: int  # actions since its last play (a cautious player's patience counts them)


@njit(cache=True)
def nb_target(card, piles):
    """-1 for a 1 (new pile), the first pile taking ``card``, or NO_TARGET."""
    colour = card // N_VALUES
    value = card % N_VALUES + 1
    if value == 1:
        return -1
    for i in range(piles.count):
        if piles.colour[i] == colour and piles.top[i] == value - 1:
            return i
    return NO_TARGET


@njit(cache=True)
def _holds(card, own):
    if own.stack_top == card or own.hand_top == card:
        return True
    for j in range(own.k):  # noqa: SIM110 - numba compiles the plain loop
        if own.row[j] == card:
            return True
    return False


@njit(cache=True)
def _ok(card, params, want, own):
    """Does ``card`` fit (``want[colour, value]``: piles waiting for it) and is it not held
    back?"""
    if card < 0:
        return False
    value = card % N_VALUES + 1
    if value > 1:
        return want[card // N_VALUES, value] > 0
    # a cautious player holds back a lone 1 (a pile the others fill) until its patience ends
    return not (
        params[P_CAUTIOUS] > 0 and own.idle < params[P_PATIENCE] and not _holds(card + 1, own)
    )


@njit(cache=True, inline="always")
def _card(src, j, own):
    if src == 0:
        return own.stack_top
    if src == 1:
        return own.row[j]
    return own.hand_top


@njit(cache=True, inline="always")
def _source(order, step):
    """The source (0 stack top, 1 row, 2 hand-pile top) a player looks at ``step``-th."""
    if order == ORDER_ROW:
        return 1 if step == 0 else (0 if step == 1 else 2)
    if order == ORDER_HAND:
        return 2 if step == 0 else (0 if step == 1 else 1)
    return step  # stack, row, hand (and a scan's order)


@njit(cache=True)
def _walk(order, target, params, want, own):
    """Look at the own face-up cards in ``order`` until fitting card number ``target`` (0:
    the first; -1: look at all): (source, slot, card or -1, cards looked at, cards that fit)."""
    looked = 0
    n_fit = 0
    for step in range(3):
        src = _source(order, step)
        for j in range(1 if src != 1 else own.k):
            card = _card(src, j, own)
            if card < 0:
                continue
            looked += 1
            if _ok(card, params, want, own):
                if n_fit == target:
                    return src, j, card, looked, n_fit
                n_fit += 1
    return -1, -1, -1, looked, n_fit


@njit(cache=True)
def nb_decide(params, piles, own, states, ri):
    """(kind, slot, card, pile, looked) for a player seeing ``piles`` and its ``own`` cards.

    ``states[ri]`` is the seat's policy stream (only ``ORDER_SCAN`` draws from it).
    """
    order = np.int64(params[P_ORDER])
    if order == ORDER_SCAN:  # looks at every card, then picks one that fits at random
        _, _, _, looked, n_ok = _walk(order, -1, params, piles.want, own)
        if n_ok > 0:
            pick = nb_below(states, ri, n_ok)
            src, j, card, _, _ = _walk(order, pick, params, piles.want, own)
            return src, j, card, nb_target(card, piles), looked
    else:  # the first card that fits, in the order of attention
        src, j, card, looked, _ = _walk(order, 0, params, piles.want, own)
        if card >= 0:
            return src, j, card, nb_target(card, piles), looked
    if own.can_flip:
        return K_FLIP, -1, -1, -1, looked
    return K_WAIT, -1, -1, -1, looked


def reaction_of(params: np.ndarray):
    """The ``ReactionModel`` a policy vector holds."""
    return ReactionModel(
        speed=float(params[P_SPEED]),
        think_ms=int(params[P_THINK]),
        look_ms=int(params[P_LOOK]),
        flip_ms=int(params[P_FLIP]),
        spread_ms=int(params[P_SPREAD]),
    )


@njit(cache=True)
def _decide_seen(params, tops, row, stack_top, hand_top, can_flip, idle, state):
    """``nb_decide`` from a view's plain values (pile top cards, row, own tops, the policy
    stream's state): (kind, slot, card, pile, looked, the stream's next state)."""
    pile_col = tops // N_VALUES
    pile_top = tops % N_VALUES + 1
    want = np.zeros((N_COLOURS, N_VALUES + 2), np.int64)
    for i in range(tops.shape[0]):
        if pile_top[i] < N_VALUES:
            want[pile_col[i], pile_top[i] + 1] += 1
    piles = Piles(want=want, colour=pile_col, top=pile_top, count=tops.shape[0])
    own = Own(
        stack_top=stack_top, row=row, k=row.shape[0], hand_top=hand_top, can_flip=can_flip,
        idle=idle,
    )  # fmt: skip
    states = np.full(1, state, np.uint64)
    kind, slot, card, pile, looked = nb_decide(params, piles, own, states, 0)
    return kind, slot, card, pile, looked, states[0]


def decide_cold() -> bool | None:
    """Whether numba's decision from a view (``_decide_seen``) compiles at its first call in
    this process (None: cannot tell): False once its cache holds it."""
    return needs_compile(_decide_seen)


def decide_view(params: np.ndarray, view, rng):
    """The policy's ``Decision`` for a ``PlayerView`` (the Python path's call into the
    compiled policy, in C when the engine is there, else numba's, said once on stderr when it
    plays for want of the engine and compiles first: ``gamekit.cbuild.Engine.note_fallback``;
    ``rng`` is the seat's policy ``SplitMix`` stream, advanced in place)."""
    seen = (
        np.asarray(params, dtype=np.float64),
        np.asarray(view.pile_tops, dtype=np.int64).reshape(len(view.pile_tops)),
        np.asarray(view.row, dtype=np.int64),
        int(view.stack_top),
        int(view.hand_top),
        bool(view.can_flip),
        int(view.idle),
    )
    got = cengine.decide_seen(*seen, rng.state) if cengine.available() else None
    if got is None:  # numba (compiled at first use), or a view C leaves to it
        cengine.ENGINE.note_fallback(decide_cold)
        got = _decide_seen(*seen, np.uint64(rng.state))
    kind, slot, card, pile, looked, state = got
    rng.state = int(state)
    return Decision(KIND_NAMES[kind], int(slot), int(card), int(pile), int(looked))


class PolicyPlayer:
    """A ``Player`` running a policy vector (built-ins: ``ligretto.players``)."""

    def __init__(self, params: np.ndarray):
        self.params = np.asarray(params, dtype=np.float64)
        self.reaction = reaction_of(self.params)

    def decide(self, view, rng):
        return decide_view(self.params, view, rng)
