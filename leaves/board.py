"""Layout of the compact array state used by the compiled kernels (``leaves.kernels``).

One ``int32`` array of shape ``(BOARD_ROWS, 13)`` holds a whole game, pgx-style, so numba
loops never touch Python objects and a copy for search is one ``memcpy``. Rows are fixed for
up to ``MAX_SEATS`` players (unused hand rows stay zero); column ``v`` is card value ``v + 1``.
"""

from __future__ import annotations

MAX_SEATS = 6

HANDS = 0  # rows HANDS .. HANDS + MAX_SEATS - 1: each seat's hand counts
TABLE = 6  # table counts per value (each nonzero entry is one stack)
REMOVED = 7  # cards removed from the game at round ends
UNDEALT = 8  # cards never dealt
KNOWN = 9  # rows KNOWN .. KNOWN + MAX_SEATS - 1: cards publicly known in each hand
META = 15  # scalars, indexed by the M_* columns below
BOARD_ROWS = 16

M_CUR = 0  # seat to act
M_WINNER = 1  # winning seat or -1
M_TURN = 2  # actions taken
M_ROUND = 3  # rounds begun (1-based)
M_LO = 4  # value index of the left end, -1 when the table is empty
M_HI = 5  # value index of the right end, -1 when the table is empty
M_N = 6  # number of players
M_PASSED = 7  # bit mask of seats that passed this round
M_NPASSED = 8  # how many passed this round
M_LIMIT = 9  # turn limit (Interpretation E1)
M_SIZE0 = 10  # unused spare column (kernels keep no cache here: hand sizes are summed)
M_FIRST = 11  # first player of the game (-1 when unknown: board_from_state past turn 0)
M_SPARE = 12
