"""Compiled dealing of 13 Leaves onto the array board (``leaves.board``): the shuffle every
compiled path shares, and the deal of a new game.

* ``board_deal`` starts from the sorted deck (two 1s, three 2s, ...), shuffles it with
  Durstenfeld's Fisher-Yates (``for i = 61..1: swap(deck[i], deck[rng_below(s, i + 1)])``),
  deals seat ``i`` the cards ``i*hand_size .. (i+1)*hand_size - 1`` and leaves the rest
  undealt; with ``first_player=-1`` it then draws the first player with ``rng_below(s, n)``.
* ``deal_into`` is that deal into a caller's scratch deck (no allocation), ``deal_unchecked``
  the same without the argument checks, for loops that checked them once.
* ``shuffle_head`` is the partial Fisher-Yates of the search's determinizations.

Everything is ``@njit(cache=True)`` except ``deal_board`` (a Python convenience). The rules
that play a dealt board are ``leaves.kernels``, which re-exports every name here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from gamekit.jit import njit
from gamekit.rng import below_step, rng_below, rng_new

from .board import (
    BOARD_ROWS,
    DECK_ROW,
    HANDS,
    M_CUR,
    M_FIRST,
    M_HI,
    M_LIMIT,
    M_LO,
    M_N,
    M_PASSED,
    M_ROUND,
    M_RULES,
    M_TURN,
    M_WINNER,
    MAX_SEATS,
    META,
    UNDEALT,
)
from .rules import DECK, DECK_SIZE, MAX_DECK, N_VALUES
from .ruleset import DEFAULT_RULES, Rules

__all__ = [
    "DECK_SORTED",
    "Setup",
    "board_copy",
    "board_deal",
    "board_new",
    "deal_board",
    "deal_into",
    "deal_setup",
    "deal_unchecked",
    "setup_for",
    "shuffle_deck",
    "shuffle_head",
]

DECK_SORTED = np.repeat(np.arange(N_VALUES, dtype=np.int64), DECK)
"""Today's deck before a shuffle, as value indices (two 1s, three 2s, ...)."""
DECK_COPIES = np.array(DECK, dtype=np.int64)


@njit(cache=True)
def board_new():
    """An all-zero board (``int32[BOARD_ROWS, 13]``); fill it with ``board_deal``."""
    return np.zeros((BOARD_ROWS, N_VALUES), dtype=np.int32)


@njit(cache=True)
def board_copy(b):
    """An independent copy of a board (one memcpy)."""
    return b.copy()


@njit(cache=True, inline="always")
def shuffle_head(a, m, rng):
    """Fisher-Yates shuffle of ``a[:m]`` in place, one draw per position from the last: the
    order of every deal (``shuffle_deck``) and of the search's partial shuffles."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]  # the state in locals (``below_step``)
    for i in range(m - 1, 0, -1):
        j, s0, s1, s2, s3 = below_step(s0, s1, s2, s3, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3


@njit(cache=True, inline="always")
def shuffle_deck(deck, rng):
    """Fill ``deck`` (int64[62]) with the sorted deck, then Fisher-Yates shuffle it, one draw per
    position from the last: the card order of every deal, on every compiled path."""
    for i in range(DECK_SIZE):
        deck[i] = DECK_SORTED[i]
    shuffle_head(deck, DECK_SIZE, rng)


class Setup(NamedTuple):
    """What a compiled deal needs from the rules, for one player count: ``cards`` is the
    sorted deck as value indices (its length the deck's size), ``copies`` its count per value
    (the board's DECK row), ``flags`` the play and pass rules (``Rules.flags``)."""

    n_players: int
    hand_size: int
    turn_limit: int
    flags: int
    cards: np.ndarray  # int64 (deck size,)
    copies: np.ndarray  # int64 (13,)


_SETUPS: dict[tuple[Rules, int], Setup] = {}


def setup_for(rules: Rules, n_players: int, hand_size: int | None = None) -> Setup:
    """The compiled deal's ``Setup`` of ``rules`` at ``n_players`` (ValueError for a count the
    rules do not allow); ``hand_size`` overrides the rules' (a Python convenience)."""
    key = (rules, n_players)
    setup = _SETUPS.get(key) if hand_size is None else None
    if setup is None:
        hs = rules.hand_size_for(n_players) if hand_size is None else int(hand_size)
        copies = np.array(rules.deck, dtype=np.int64)
        cards = np.repeat(np.arange(N_VALUES, dtype=np.int64), copies)
        setup = Setup(int(n_players), hs, rules.turn_limit, rules.flags, cards, copies)
        if hand_size is None:
            _SETUPS[key] = setup
    return setup


@njit(cache=True)
def deal_unchecked(board, setup, rng, first_player, deck):
    """``board_deal`` without its checks, into the scratch ``deck`` (int64[MAX_DECK]): for
    loops whose caller has checked the ``Setup`` once (no allocation, no exception to
    compile). The sorted deck is shuffled as ``shuffle_deck`` does today's."""
    size = setup.cards.shape[0]
    for i in range(size):
        deck[i] = setup.cards[i]
    shuffle_head(deck, size, rng)
    for r in range(BOARD_ROWS):
        for u in range(N_VALUES):
            board[r, u] = 0
    n_players = setup.n_players
    pos = 0
    for p in range(n_players):
        for _ in range(setup.hand_size):
            board[HANDS + p, deck[pos]] += 1
            pos += 1
    while pos < size:
        board[UNDEALT, deck[pos]] += 1
        pos += 1
    for u in range(N_VALUES):
        board[DECK_ROW, u] = setup.copies[u]
    if first_player < 0:
        first_player = rng_below(rng, n_players)
    board[META, M_CUR] = first_player
    board[META, M_WINNER] = -1
    board[META, M_TURN] = 0
    board[META, M_ROUND] = 1
    board[META, M_LO] = -1
    board[META, M_HI] = -1
    board[META, M_N] = n_players
    board[META, M_PASSED] = 0
    board[META, M_LIMIT] = setup.turn_limit
    board[META, M_FIRST] = first_player
    board[META, M_RULES] = setup.flags


@njit(cache=True)
def deal_into(board, setup, rng, first_player, deck):
    """``deal_unchecked`` with the checks of ``board_deal``: ``deck`` is an int64[MAX_DECK]
    scratch buffer, so bulk loops deal without allocating."""
    n_players = setup.n_players
    if n_players < 2 or n_players > MAX_SEATS:
        raise ValueError("board_deal: n_players must be 2..6")
    if setup.hand_size < 1 or n_players * setup.hand_size > setup.cards.shape[0]:
        raise ValueError("board_deal: n_players * hand_size must be 1..the deck's cards")
    if first_player < -1 or first_player >= n_players:
        raise ValueError("board_deal: first_player must be -1 (draw it) or a seat")
    if setup.turn_limit < 1:
        raise ValueError("board_deal: turn_limit must be >= 1")
    deal_unchecked(board, setup, rng, first_player, deck)


@njit(cache=True)
def deal_setup(board, setup, rng, first_player):
    """Shuffle and deal a new game of ``setup`` (``setup_for(rules, n)``) onto ``board``."""
    deck = np.empty(MAX_DECK, dtype=np.int64)
    deal_into(board, setup, rng, first_player, deck)


def board_deal(board, n_players, hand_size, rng, first_player, turn_limit):
    """Shuffle and deal a new game of today's deck onto ``board`` (overwritten) from the
    stream ``rng``.

    ``first_player=-1`` draws the first player with ``rng_below(rng, n_players)`` after the
    shuffle. Raises ValueError for an impossible deal.
    """
    setup = Setup(int(n_players), int(hand_size), int(turn_limit), 0, DECK_SORTED, DECK_COPIES)
    deal_setup(board, setup, rng, np.int64(first_player))


def deal_board(
    n_players: int,
    seed: int,
    first_player: int = -1,
    hand_size: int | None = None,
    rules: Any = DEFAULT_RULES,
) -> np.ndarray:
    """A freshly dealt board from one uint64 deal seed (Python convenience over
    ``deal_setup``) under ``rules`` (any form ``Rules.of`` reads); ``hand_size`` overrides
    theirs."""
    setup = setup_for(Rules.of(rules), int(n_players), hand_size)
    board = board_new()
    deal_setup(
        board, setup, rng_new(np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF)), np.int64(first_player)
    )
    return board
