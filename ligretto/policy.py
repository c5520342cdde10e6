"""The parametric policy every built-in Ligretto player runs, as one numba function.

A policy is a float vector (``P_*`` indices): the reaction-time model plus *attention*: the
order in which the player looks at its own face-up cards (Ligretto stack top, row, hand-pile
top) and whether it holds back a 1 that would mostly help others. The player looks at cards
one by one in its order and plays the first that fits (every card looked at costs time);
``ORDER_SCAN`` looks at all of them and picks at random among those that fit. Nothing fits:
it turns hand cards (or waits when it has none). The Python path calls the same function, so
both paths decide alike; strategies (``strategies.ligretto``) are named parameter sets.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .rng import nb_below
from .rules import N_VALUES

# parameter vector layout
P_SPEED, P_THINK, P_LOOK, P_FLIP, P_SPREAD, P_ORDER, P_CAUTIOUS, P_PATIENCE = range(8)
N_PARAMS = 8

ORDER_STACK, ORDER_ROW, ORDER_HAND, ORDER_SCAN = 0, 1, 2, 3
"""Attention orders: stack-row-hand, row-stack-hand, hand-stack-row, look at all (random)."""
ORDERS = {"stack": ORDER_STACK, "row": ORDER_ROW, "hand": ORDER_HAND, "scan": ORDER_SCAN}

# decision / event kinds (records spell them out: KIND_NAMES)
K_STACK, K_ROW, K_HAND, K_FLIP, K_RECYCLE, K_FAIL, K_WAIT = range(7)
KIND_NAMES = ("stack", "row", "hand", "flip", "recycle", "fail", "wait")

NO_TARGET = -2


@nb.njit(cache=True)
def nb_target(card, pile_col, pile_top, n_piles):
    """-1 for a 1 (new pile), the first pile taking ``card``, or NO_TARGET."""
    colour = card // N_VALUES
    value = card % N_VALUES + 1
    if value == 1:
        return -1
    for i in range(n_piles):
        if pile_col[i] == colour and pile_top[i] == value - 1:
            return i
    return NO_TARGET


@nb.njit(cache=True)
def _holds(card, stack_top, row, k, hand_top):
    if stack_top == card or hand_top == card:
        return True
    for j in range(k):  # noqa: SIM110 - numba compiles the plain loop
        if row[j] == card:
            return True
    return False


@nb.njit(cache=True)
def _ok(card, params, want, stack_top, row, k, hand_top, idle):
    """Does ``card`` fit (``want[colour, value]``: piles waiting for it) and is it not held
    back?"""
    if card < 0:
        return False
    value = card % N_VALUES + 1
    if value > 1:
        return want[card // N_VALUES, value] > 0
    # a cautious player holds back a lone 1 (a pile the others fill) until its patience ends
    return not (
        params[P_CAUTIOUS] > 0
        and idle < params[P_PATIENCE]
        and not _holds(card + 1, stack_top, row, k, hand_top)
    )


@nb.njit(cache=True, inline="always")
def _card(src, j, stack_top, row, hand_top):
    if src == 0:
        return stack_top
    if src == 1:
        return row[j]
    return hand_top


@nb.njit(cache=True, inline="always")
def _source(order, step):
    """The source (0 stack top, 1 row, 2 hand-pile top) a player looks at ``step``-th."""
    if order == ORDER_ROW:
        return 1 if step == 0 else (0 if step == 1 else 2)
    if order == ORDER_HAND:
        return 2 if step == 0 else (0 if step == 1 else 1)
    return step  # stack, row, hand (and a scan's order)


@nb.njit(cache=True)
def _walk(order, target, params, want, stack_top, row, k, hand_top, idle):
    """Look at the own face-up cards in ``order`` until fitting card number ``target`` (0:
    the first; -1: look at all): (source, slot, card or -1, cards looked at, cards that fit)."""
    looked = 0
    n_fit = 0
    for step in range(3):
        src = _source(order, step)
        for j in range(1 if src != 1 else k):
            card = _card(src, j, stack_top, row, hand_top)
            if card < 0:
                continue
            looked += 1
            if _ok(card, params, want, stack_top, row, k, hand_top, idle):
                if n_fit == target:
                    return src, j, card, looked, n_fit
                n_fit += 1
    return -1, -1, -1, looked, n_fit


@nb.njit(cache=True)
def nb_decide(
    params, want, pile_col, pile_top, n_piles, stack_top, row, k, hand_top, can_flip, idle,
    states, ri,
):  # fmt: skip
    """(kind, slot, card, pile, looked) for a player seeing these cards.

    ``want[c, v]`` counts the centre piles of colour ``c`` waiting for number ``v``;
    ``states[ri]`` is the seat's policy stream (only ``ORDER_SCAN`` draws from it).
    """
    order = np.int64(params[P_ORDER])
    if order == ORDER_SCAN:  # looks at every card, then picks one that fits at random
        _, _, _, looked, n_ok = _walk(order, -1, params, want, stack_top, row, k, hand_top, idle)
        if n_ok > 0:
            pick = nb_below(states, ri, n_ok)
            src, j, card, _, _ = _walk(order, pick, params, want, stack_top, row, k, hand_top,
                                       idle)  # fmt: skip
            return src, j, card, nb_target(card, pile_col, pile_top, n_piles), looked
    else:  # the first card that fits, in the order of attention
        src, j, card, looked, _ = _walk(order, 0, params, want, stack_top, row, k, hand_top,
                                        idle)  # fmt: skip
        if card >= 0:
            return src, j, card, nb_target(card, pile_col, pile_top, n_piles), looked
    if can_flip:
        return K_FLIP, -1, -1, -1, looked
    return K_WAIT, -1, -1, -1, looked


def reaction_of(params: np.ndarray):
    """The ``ReactionModel`` a policy vector holds."""
    from .timing import ReactionModel

    return ReactionModel(
        speed=float(params[P_SPEED]),
        think_ms=int(params[P_THINK]),
        look_ms=int(params[P_LOOK]),
        flip_ms=int(params[P_FLIP]),
        spread_ms=int(params[P_SPREAD]),
    )


def decide_view(params: np.ndarray, view, rng):
    """The policy's ``Decision`` for a ``PlayerView`` (the Python path's call into the
    compiled policy; ``rng`` is the seat's policy ``SplitMix`` stream, advanced in place)."""
    from .engine import Decision

    n_piles = len(view.pile_tops)
    tops = np.asarray(view.pile_tops, dtype=np.int64).reshape(n_piles)
    pile_col = tops // N_VALUES
    pile_top = tops % N_VALUES + 1
    want = np.zeros((4, N_VALUES + 2), np.int64)
    for c, v in zip(pile_col.tolist(), pile_top.tolist(), strict=True):
        if v < N_VALUES:
            want[c, v + 1] += 1
    row = np.asarray(view.row, dtype=np.int64)
    states = np.array([rng.state], dtype=np.uint64)
    kind, slot, card, pile, looked = nb_decide(
        np.asarray(params, dtype=np.float64),
        want,
        pile_col,
        pile_top,
        n_piles,
        view.stack_top,
        row,
        len(row),
        view.hand_top,
        view.can_flip,
        view.idle,
        states,
        0,
    )
    rng.state = int(states[0])
    return Decision(KIND_NAMES[kind], int(slot), int(card), int(pile), int(looked))


class PolicyPlayer:
    """A ``Player`` running a policy vector (built-ins: ``strategies.ligretto``)."""

    def __init__(self, params: np.ndarray):
        self.params = np.asarray(params, dtype=np.float64)
        self.reaction = reaction_of(self.params)

    def decide(self, view, rng):
        return decide_view(self.params, view, rng)
