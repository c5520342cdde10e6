"""Numbers and interpretations of the 13 Leaves rules (``docs/rules.md``).

The numbers code reads are named constants here. Where the sources leave a choice open, this
implementation makes one fixed choice, stated below and in ``docs/rules.md`` (a named switch that
nothing reads would suggest a choice one cannot make). What a designer may change (hand
sizes, the deck, the player counts, the minimum count, what a pass takes, the expert target,
the turn limit) is a key of ``leaves.ruleset.Rules``; the numbers here are today's rules:

- P1: a pass takes a card, so a player facing an empty table (the round's leader, or after
  takes emptied it) must play.
- P2: every pass takes exactly one card while the table has any.
- X1 (expert variant): players tied for the lowest match total share the match win.
- Expert variant and an unfinished game (E1): with no winner, every player scores one point
  per card left in hand (nobody gets the winner's 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

N_VALUES = 13
"""Card values run 1..13 (index ``value - 1`` in every 13-long count vector)."""

DECK: tuple[int, ...] = tuple(8 - abs(v - 7) for v in range(1, N_VALUES + 1))
"""Copies of each value in the 62-card deck, value 1 first: 2,3,4,5,6,7,8,7,6,5,4,3,2."""

DECK_SIZE = sum(DECK)
MAX_COPIES = max(DECK)

MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND_SIZES: Mapping[int, int] = MappingProxyType({3: 12, 4: 11, 5: 10, 6: 9})
"""Cards dealt to each player by player count (Setup); read-only, as ``DECK`` is a tuple: an
edit would change every later deal while the rules still said they were today's."""

N_PLAY_ACTIONS = N_VALUES * MAX_COPIES  # 104: play (v, k) -> (v-1)*8 + (k-1)
TAKE_BASE = N_PLAY_ACTIONS  # pass taking t -> 104 + (t-1)
N_ACTIONS = N_PLAY_ACTIONS + N_VALUES  # 117: the pinned ids of today's rules
PASS_ID = N_ACTIONS
"""Id 117: a pass that takes nothing, legal only under the rule variant ``take=nothing``."""
N_ACTION_IDS = N_ACTIONS + 1  # every id any rule set can use

MAX_DECK = N_VALUES * MAX_COPIES
"""The most cards a variant deck can hold (8 copies of each value): the scratch decks' size."""

TURN_LIMIT = 1000
"""Interpretation E1: a game that reaches this many turns ends with no winner (unfinished).

Random play averages about 80 turns (4 players) and the longest of millions of random games
stays near 300, so real strategies never meet it; it only guards against degenerate loops.
Configurable per game: it is the rules' ``turn_limit`` (``new_game(..., rules="turn_limit=N")``)."""

EXPERT_TARGET = 20
"""Expert variant: the match ends after the game in which some total reaches this."""

PLAY_VERSION = "1"
"""The version of how 13 Leaves plays from a seed here: these rules, the deal, the compiled
kernels (numba's and the C engine's) and the built-in strategies (``leaves.players``). Bump it
by hand, in the change itself, when any of them makes a seed play otherwise (another card
dealt, move chosen, winner or turn count): a run's manifest records it (its versions' key
``leaves play``) and a resume refuses a run another play version played, whose new games would
be summed with games played otherwise. A release that plays alike keeps it, and so resumes the runs of the releases
before it."""
