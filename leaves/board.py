"""Layout of the compact array state used by the compiled kernels (``leaves.kernels``), and the
Python builders of such boards: from a full ``State`` and from what one player may see.

One ``int32`` array of shape ``(BOARD_ROWS, 13)`` holds a whole game, pgx-style, so numba
loops never touch Python objects and a copy for search is one ``memcpy``. Rows are fixed for
up to ``MAX_SEATS`` players (unused hand rows stay zero); column ``v`` is card value ``v + 1``.
META holds only what cannot be derived from the rows cheaply: how many seats passed is the
bit count of ``M_PASSED``, hand sizes are row sums (the compiled loops track them in a
separate ``sizes`` vector of length ``SEAT_SLOTS``). The game's rules travel on the board:
the DECK row holds its deck (copies per value, public) and ``M_RULES`` the play and pass rules
(``Rules.flags``), so every kernel and policy reads them where it reads the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .rules import MAX_PLAYERS, N_VALUES
from .ruleset import DEFAULT_RULES, Rules

MAX_SEATS = MAX_PLAYERS

HANDS = 0  # rows HANDS .. HANDS + MAX_SEATS - 1: each seat's hand counts
TABLE = 6  # table counts per value (each nonzero entry is one stack)
REMOVED = 7  # cards removed from the game at round ends
UNDEALT = 8  # cards never dealt
KNOWN = 9  # rows KNOWN .. KNOWN + MAX_SEATS - 1: cards publicly known in each hand
META = 15  # scalars, indexed by the M_* columns below
DECK_ROW = 16  # the deck's copies per value (the rules' ``deck``)
BOARD_ROWS = 17

M_CUR = 0  # seat to act
M_WINNER = 1  # winning seat or -1
M_TURN = 2  # actions taken
M_ROUND = 3  # rounds begun (1-based)
M_LO = 4  # value index of the left end, -1 when the table is empty
M_HI = 5  # value index of the right end, -1 when the table is empty
M_N = 6  # number of players
M_PASSED = 7  # bit mask of seats that passed this round
M_LIMIT = 8  # turn limit (Interpretation E1)
M_FIRST = 9  # first player of the game (-1 when unknown: a public board, or past turn 0)
M_RULES = 10  # the rules' ``flags``: bit 0 no minimum count, bits 1-2 what a pass takes
NO_MIN = 1  # M_RULES bit: a play onto an end needs no minimum count (``min_count=off``)
TAKE_ENDS = 1  # M_RULES >> 1: a pass takes from an end stack only (``take=ends``)
TAKE_NOTHING = 2  # M_RULES >> 1: a pass takes nothing (``take=nothing``, action id 117)

SEAT_SLOTS = 8
"""Length of the per-seat vectors compiled code passes around (hand sizes, per-seat models):
``MAX_SEATS`` rounded up to a power of two."""


def set_public(
    board: np.ndarray,
    *,
    n_players: int,
    table: Any,
    removed: Any,
    known: Any,
    current: int,
    winner: int | None,
    turn: int,
    round_: int,
    passed: Any,
    first: int = -1,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """Write the public rows and META of ``board`` (its turn limit the rules'); the ends are
    derived from the table.

    Every builder of a board (from a state, from a view, the replay of a public history)
    goes through here, so META means the same everywhere.
    """
    if n_players > MAX_SEATS:
        raise ValueError(f"a board holds at most {MAX_SEATS} seats, the game has {n_players}")
    board[TABLE] = table
    board[REMOVED] = removed
    for i, kn in enumerate(known):
        board[KNOWN + i] = kn
    nz = np.flatnonzero(board[TABLE])
    meta = board[META]
    meta[M_CUR] = current
    meta[M_WINNER] = -1 if winner is None else winner
    meta[M_TURN] = turn
    meta[M_ROUND] = round_
    meta[M_LO] = nz[0] if len(nz) else -1
    meta[M_HI] = nz[-1] if len(nz) else -1
    meta[M_N] = n_players
    meta[M_PASSED] = sum(1 << i for i, x in enumerate(passed) if x)
    meta[M_LIMIT] = rules.turn_limit
    meta[M_FIRST] = first
    meta[M_RULES] = rules.flags
    board[DECK_ROW] = rules.deck
    return board


def public_board(view: Any) -> tuple[np.ndarray, np.ndarray]:
    """(board, sizes) holding exactly what ``view``'s owner (a ``PlayerView``) may see.

    The owner's hand fills its row; other hands and the undealt row stay zero; table,
    removed, known and META are public; ``sizes`` (int64[SEAT_SLOTS]) are the public hand
    sizes. Every decision made from a view (built-in policies, search) starts here.
    """
    board = np.zeros((BOARD_ROWS, N_VALUES), dtype=np.int32)
    n = view.n_players
    board[HANDS + view.player] = view.hand
    set_public(
        board,
        n_players=n,
        table=view.table,
        removed=view.removed,
        known=view.known,
        current=view.current_player,
        winner=view.winner,
        turn=view.turn,
        round_=view.round,
        passed=view.passed,
        rules=view.rules,
    )
    sizes = np.zeros(SEAT_SLOTS, dtype=np.int64)
    sizes[:n] = view.hand_sizes
    return board, sizes


def board_from_state(state: Any) -> np.ndarray:
    """The full board of a ``State``. ``M_FIRST`` is the seat to act at turn 0, else -1."""
    d = state.to_dict()
    n = len(d["hands"])
    b = np.zeros((BOARD_ROWS, N_VALUES), dtype=np.int32)
    set_public(
        b,
        n_players=n,
        table=d["table"],
        removed=d["removed"],
        known=d["known"],
        current=d["current_player"],
        winner=d["winner"],
        turn=d["turn"],
        round_=d["round"],
        passed=d["passed"],
        first=d["current_player"] if d["turn"] == 0 else -1,
        rules=state.rules,
    )
    for p in range(n):
        b[HANDS + p] = d["hands"][p]
    b[UNDEALT] = d["undealt"]
    return b


def state_from_board(board: np.ndarray, rules: Rules | None = None):
    """The ``State`` of a board under ``rules``, validated by ``State.from_dict`` (no
    history). Without ``rules`` the board must hold today's deck and play rules (its turn
    limit is kept); with them, they must match the board's deck and flags."""
    from .state import State  # start-up: the kernels' board loads no State until asked

    b = np.asarray(board)
    if b.shape != (BOARD_ROWS, N_VALUES):
        raise ValueError(f"a board has shape ({BOARD_ROWS}, {N_VALUES}), got {b.shape}")
    n = int(b[META, M_N])
    if not (2 <= n <= MAX_SEATS):
        raise ValueError(f"board says {n} players; a board holds 2..{MAX_SEATS}")
    rules = _board_rules(b, rules)
    passed = int(b[META, M_PASSED])
    winner = int(b[META, M_WINNER])
    return State.from_dict(
        {
            "hands": [b[HANDS + p].tolist() for p in range(n)],
            "table": b[TABLE].tolist(),
            "removed": b[REMOVED].tolist(),
            "undealt": b[UNDEALT].tolist(),
            "known": [b[KNOWN + p].tolist() for p in range(n)],
            "passed": [bool(passed >> p & 1) for p in range(n)],
            "current_player": int(b[META, M_CUR]),
            "winner": None if winner < 0 else winner,
            "turn": int(b[META, M_TURN]),
            "round": int(b[META, M_ROUND]),
            "turn_limit": int(b[META, M_LIMIT]),
            "rules": rules,
        }
    )


def _board_rules(b: np.ndarray, rules: Rules | None) -> Rules:
    deck = tuple(int(c) for c in b[DECK_ROW])
    flags = int(b[META, M_RULES])
    base = DEFAULT_RULES if rules is None else rules
    if deck != base.deck or flags != base.flags:
        what = "today's rules" if rules is None else f"the rules {rules}"
        raise ValueError(f"the board's deck or play rules are not {what}: pass its rules")
    return base
