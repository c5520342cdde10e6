"""The fixed-size observation of one seat of 13 Leaves: what the seat may see, nothing more.

Seats are relative to the observer (its own seat first, then the next to play after it, ...),
padded to six. One vector of int16 (int32 under a turn limit above 32,766, which int16 cannot
count to: ``dtype``), in this order (``LAYOUT`` names each part and its size):

* ``hand`` (13): the observer's cards, per value 1..13;
* ``table`` (13): cards on the table per value; ``ends`` (2): the lowest and highest value on
  the table (0 when it is empty);
* ``removed`` (13): cards out of play per value (cleared rounds);
* ``hand_sizes`` (6), ``passed`` (6), ``in_game`` (6): per relative seat, its cards, whether it
  passed this round, whether the seat exists at this table;
* ``known`` (6 x 13): per relative seat, cards known to be in its hand (taken from the table
  in view of everyone), the observer's own included;
* ``to_play`` (6): one-hot, the relative seat whose turn it is;
* ``round``, ``turn`` (2).

Everything comes from ``State.view(seat)`` (``leaves.PlayerView``), which holds no hidden card.
The layout is the same under every rule set ``leaves.Rules`` allows (2 to 6 seats, any deck);
only the bounds follow the rules' deck and turn limit (``bounds``), and the type the turn limit.

``encode_state`` is the global state instead (PettingZoo's ``state()``, for training that sees
everything): the whole position, every card where it is, seats as they are (``player_0``
first), in the order of ``STATE_LAYOUT``: ``hands`` (6 x 13, per seat per value), ``table``,
``ends``, ``removed``, ``undealt`` (13 each but the ends), ``passed``, ``in_game``, ``known``
(6 x 13), ``to_play``, ``round`` and ``turn``, as above; ``state_bounds`` its bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from leaves import MAX_PLAYERS, N_VALUES, Rules

LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", N_VALUES),
    ("table", N_VALUES),
    ("ends", 2),
    ("removed", N_VALUES),
    ("hand_sizes", MAX_PLAYERS),
    ("passed", MAX_PLAYERS),
    ("in_game", MAX_PLAYERS),
    ("known", MAX_PLAYERS * N_VALUES),
    ("to_play", MAX_PLAYERS),
    ("round", 1),
    ("turn", 1),
)
SIZE = sum(n for _, n in LAYOUT)
"""The observation's length (145)."""

STATE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hands", MAX_PLAYERS * N_VALUES),
    ("table", N_VALUES),
    ("ends", 2),
    ("removed", N_VALUES),
    ("undealt", N_VALUES),
    ("passed", MAX_PLAYERS),
    ("in_game", MAX_PLAYERS),
    ("known", MAX_PLAYERS * N_VALUES),
    ("to_play", MAX_PLAYERS),
    ("round", 1),
    ("turn", 1),
)
"""The global state's parts (``encode_state``), 217 entries."""


def part(layout: tuple[tuple[str, int], ...], name: str) -> slice:
    """Where the part ``name`` of ``layout`` (``LAYOUT`` or ``STATE_LAYOUT``) lies."""
    start = 0
    for key, size in layout:
        if key == name:
            return slice(start, start + size)
        start += size
    raise KeyError(name)


def dtype(rules: Any = None) -> type[np.signedinteger]:
    """The observation's integer type under ``rules`` (any form ``Rules.of`` reads): int16,
    or int32 when the turn limit is past what int16 counts to (the round reaches limit + 1)."""
    return np.int16 if Rules.of(rules).turn_limit < np.iinfo(np.int16).max else np.int32


def bounds(rules: Any = None) -> np.ndarray:
    """The largest value of each entry (for the observation space's ``high``) in a game under
    ``rules`` (any form ``Rules.of`` reads; today's by default): their deck and turn limit."""
    return _bounds(LAYOUT, Rules.of(rules))


def state_bounds(rules: Any = None) -> np.ndarray:
    """The largest value of each entry of the global state (``encode_state``) under ``rules``."""
    return _bounds(STATE_LAYOUT, Rules.of(rules))


def _bounds(layout: tuple[tuple[str, int], ...], rules: Rules) -> np.ndarray:
    deck, limit = rules.deck, rules.turn_limit
    most = max(deck)  # copies of the commonest value
    cap = {"hand": most, "hands": most, "table": most, "ends": N_VALUES, "removed": most,
           "undealt": most, "hand_sizes": sum(deck), "passed": 1, "in_game": 1, "known": most,
           "to_play": 1, "round": limit + 1, "turn": limit}  # fmt: skip
    return np.concatenate([np.full(n, cap[name], dtype(rules)) for name, n in layout])


def encode(view) -> np.ndarray:
    """The observation vector of ``view`` (a ``leaves.PlayerView``), of ``dtype(view.rules)``."""
    n, me, kind = view.n_players, view.player, dtype(view.rules)
    order = [(me + k) % n for k in range(n)]  # relative seats: the observer first
    ends = (view.ends[0][0], view.ends[1][0]) if view.ends else (0, 0)  # (value, count) each
    rel = np.zeros((4, MAX_PLAYERS), np.int16)  # hand sizes, passed, in game, to play
    known = np.zeros((MAX_PLAYERS, N_VALUES), np.int16)
    for k, seat in enumerate(order):
        rel[0, k] = view.hand_sizes[seat]
        rel[1, k] = view.passed[seat]
        rel[2, k] = 1
        rel[3, k] = seat == view.current_player and not view.is_terminal
        known[k] = view.known[seat]
    parts = [view.hand, view.table, ends, view.removed, rel[0], rel[1], rel[2], known.ravel(),
             rel[3], [view.round], [view.turn]]  # fmt: skip
    return np.concatenate([np.asarray(p, kind) for p in parts])


def encode_state(state) -> np.ndarray:
    """The global state of ``state`` (a ``leaves.State``), of ``dtype(state.rules)``: the whole
    position, hidden cards included, seats as they are (``STATE_LAYOUT``)."""
    n = state.n_players
    ends = (state.ends[0][0], state.ends[1][0]) if state.ends else (0, 0)
    seats = np.zeros((3, MAX_PLAYERS), np.int16)  # passed, in game, to play
    hands = np.zeros((2, MAX_PLAYERS, N_VALUES), np.int16)  # hands, known
    hands[0, :n], hands[1, :n] = state.hands, state.known
    seats[0, :n], seats[1, :n] = state.passed, 1
    if not state.is_terminal:
        seats[2, state.current_player] = 1
    parts = [hands[0].ravel(), state.table, ends, state.removed, state.undealt, seats[0],
             seats[1], hands[1].ravel(), seats[2], [state.round], [state.turn]]  # fmt: skip
    return np.concatenate([np.asarray(p, dtype(state.rules)) for p in parts])
