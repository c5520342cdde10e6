"""Ligretto's rules as named constants: the one source for the core, the kernels and reports.

Every ``L*`` name states an Interpretation from the project's Ligretto rules text, where the
source article is silent, as every engine implements it (the Python path, the numba kernels, the
C engine): a statement, not a switch. Setting one False changes no engine; another reading would
be another game, so results would no longer compare. Tests hold each to the behaviour it names;
the plug-in declares ``L4_SHARED_WINS`` as its ``shared_wins``.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from gamekit.errors import shown

COLOURS = ("red", "green", "blue", "yellow")
N_COLOURS = 4
N_VALUES = 10
SET_SIZE = N_COLOURS * N_VALUES  # 40 cards per player, one of each colour x number
STACK_SIZE = 10  # the Ligretto stack
FLIP_COUNT = 3  # hand cards turned up at once
MIN_PLAYERS = 2
MAX_PLAYERS = 12
MAX_PILES = N_COLOURS * MAX_PLAYERS  # every pile starts with a 1: at most one per 1 dealt
MAX_HAND = SET_SIZE - STACK_SIZE - 3  # 27: the largest hand (9-12 players, row of 3)

CENTRE_POINTS = 1  # per own card in the centre
STACK_PENALTY = 2  # per card left in the own Ligretto stack
MATCH_TARGET = 100  # the source's example target for a game of several rounds

L1_STACK_TOP_FACE_UP = True
"""L1: the top card of the Ligretto stack lies face up and may be played directly."""

L2_ROW_REFILLED_FROM_STACK = True
"""L2: a row card played leaves a gap filled at once from the top of the own Ligretto stack."""

L3_RECYCLE_SHUFFLES = True
"""L3: turning over a used-up hand first shuffles the hand pile (seeded) into a new hand."""

L4_SHARED_WINS = True
"""L4: players tied for the highest total share the win (rounds as well as games)."""


def row_size(n_players: int) -> int:
    """Row length by player count: 5 with 2-4 players, 4 with 5-8, 3 with 9-12."""
    check_players(n_players)
    if n_players <= 4:
        return 5
    if n_players <= 8:
        return 4
    return 3


def check_players(n_players: int) -> None:
    """Raise TypeError for a player count that is no integer, ValueError (one line) for one
    Ligretto does not allow: never a count truncated from 4.5. The one sentence for it (the
    plug-in asks this check); a count too long for the line by its digits (``shown``: Python
    writes none past 4,300 and would raise its own error instead)."""
    n_players = whole_number(n_players, "n_players")
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(
            f"Ligretto takes {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"got {shown(n_players, typed=False)}"
        )


def whole_number(value: Any, name: str) -> int:
    """``value`` as an int when it is an integer (numpy's too, never a bool or a float);
    else a one-line TypeError naming ``name``."""
    if type(value) is int:  # the common case, cheaply
        return value
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {shown(value, typed=False)}")
    return int(value)


def card_id(colour: int, value: int) -> int:
    """Pinned card id: colour 0..3 (red, green, blue, yellow), number 1..10 -> 0..39."""
    colour, value = whole_number(colour, "colour"), whole_number(value, "value")
    if not (0 <= colour < N_COLOURS and 1 <= value <= N_VALUES):
        raise ValueError(
            f"no Ligretto card of colour {shown(colour, typed=False)} "
            f"and number {shown(value, typed=False)}"
        )
    return colour * N_VALUES + (value - 1)


def check_card(card: Any) -> int:
    """``card`` as an int when it is a card id 0..39 (never wrapped: 45 is no yellow 6); else
    a one-line TypeError or ValueError."""
    if type(card) is int and 0 <= card < SET_SIZE:  # the common case, cheaply
        return card
    card = whole_number(card, "card")
    if not 0 <= card < SET_SIZE:
        raise ValueError(
            f"card must be a card id 0 to {SET_SIZE - 1}, got {shown(card, typed=False)}"
        )
    return card


def colour_of(card: int) -> int:
    """The colour 0..3 (red, green, blue, yellow) of card id ``card``."""
    return check_card(card) // N_VALUES


def value_of(card: int) -> int:
    """The number 1..10 of card id ``card``."""
    return check_card(card) % N_VALUES + 1


def takes(top: int, card: int) -> bool:
    """Does a centre pile showing ``top`` take ``card``? Its colour, the next number: the one
    place this rule is written (the state, its views and the round loop ask it)."""
    return colour_of(top) == colour_of(card) and value_of(top) + 1 == value_of(card)


def card_name(card: int) -> str:
    """``"red 3"``: how timelines and errors show a card (an id 0..39, never wrapped)."""
    card = check_card(card)
    return f"{COLOURS[card // N_VALUES]} {card % N_VALUES + 1}"


def score(centre_cards: int, stack_left: int) -> int:
    """Round points: +1 per own card in the centre, -2 per card left in the own stack (counts
    a player can have: 0 to 40 in the centre, 0 to 10 in the stack)."""
    for name, value, most in (("centre_cards", centre_cards, SET_SIZE),
                              ("stack_left", stack_left, STACK_SIZE)):  # fmt: skip
        whole = whole_number(value, name)  # numpy's as an int: shown as the number itself
        if not 0 <= whole <= most:
            raise ValueError(f"{name} must be 0 to {most}, got {shown(whole, typed=False)}")
    return CENTRE_POINTS * int(centre_cards) - STACK_PENALTY * int(stack_left)


MAX_ROUND_MS = 600_000
"""Safety net: a round still running after 10 minutes of game time stops unfinished
(``ended_by`` = ENDED_UNFINISHED), scored as it stands. Built-in rounds at the default timing
last about 20 s at 4 players (50 s at 2); strategies that refuse to play what they can (user
code) get here, and so do slow timings (a ``think_ms`` of a minute)."""
MAX_ACTIONS = 2_000_000
"""Second safety net, on resolved actions (reaction times of 1 ms)."""
LIMIT_WORDS = (f"{MAX_ROUND_MS // 60_000} minutes of game time", f"{MAX_ACTIONS:,} actions")
"""The two safety limits in words, the clock's first: the one source of the timeline's and
the reports' words for them."""

ENDED_BLOCKADE = -1  # ``ended_by`` of a round that ended because nobody could move
ENDED_UNFINISHED = -2  # ``ended_by`` of a round stopped at MAX_ROUND_MS or MAX_ACTIONS
ENDED_FORFEIT = -3
"""``ended_by`` of a forfeited round's row: a seat broke the rules or raised, so the round has
no end (no emptied stack, no blockade, no limit reached); never in a round record, which a
forfeited round does not keep."""

DEFAULT_SPEED = 1.0
"""A reaction-time model's speed when none is given (1.1 is 10% faster)."""
