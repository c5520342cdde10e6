"""The opponents' past decisions, replayed from the public history for inference.

Each opponent decision keeps the public board it faced (table, ends, removed and known cards,
who passed, turn, round) and the public hand sizes, so a model policy can be asked what it
would have done holding a sampled hand. The boards come from replaying the history with the
core's kernels (``kernels.apply``, or the C engine's when it is built: ``cengine``), so the
rules are not written again here.

The replay starts from a deal: empty table, nothing removed or known, every hand of the size
the rules deal. A history from turn 0 of a position set up by hand (``State.from_dict`` with
its turn left at 0 and, say, a table already laid) starts elsewhere, so its replay reaches
another board than the view's; such a history gives no evidence, as a position without one
does.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from leaves import PlayerView
from leaves.board import (
    BOARD_ROWS,
    HANDS,
    M_CUR,
    MAX_SEATS,
    META,
    SEAT_SLOTS,
    TABLE,
    public_board,
    set_public,
)
from leaves.rules import MAX_COPIES, N_VALUES

from . import cengine

Evidence = namedtuple("Evidence", ["boards", "sizes", "seats", "actions", "offsets", "starts"])
"""Decision ``e`` was ``actions[e]`` by ``seats[e]`` on the public board ``boards[e]`` with
public hand sizes ``sizes[e]``; that seat's hand then was its hand now plus ``offsets[e]``
(what it played minus what it took since, the decision included). Decisions are grouped by
seat (in game order within a seat): seat ``p``'s are ``starts[p]:starts[p + 1]``, so a card
swap between two hands re-checks only those two seats' decisions."""

NO_EVIDENCE = Evidence(
    np.zeros((0, BOARD_ROWS, N_VALUES), np.int32),
    np.zeros((0, SEAT_SLOTS), np.int64),
    np.zeros(0, np.int64),
    np.zeros(0, np.int64),
    np.zeros((0, N_VALUES), np.int64),
    np.zeros(SEAT_SLOTS + 1, np.int64),
)

_STAND_IN = MAX_COPIES
"""Cards of every value in each hand of the replay board. The hands are unknown; these stand-in
cards only keep ``kernels.apply`` from seeing an emptied hand (no seat plays more of a value
than it was dealt, at most ``MAX_COPIES``); they are zeroed in every kept board."""


def evidence(view: PlayerView) -> Evidence:
    """The opponents' past decisions in ``view``'s history (``NO_EVIDENCE`` if none).

    Needs the history from the deal (``view.turn == len(history)``, standard hand sizes, the
    replay reaching the view's public board); otherwise there is no safe replay and no
    evidence: a position set up by hand (``State.from_dict``) has none to weigh.
    """
    return Replay().evidence(view)


class Replay:
    """The replay of one game's public history, kept between a seat's decisions: each
    ``evidence`` replays only the turns since the last one asked (a view that does not extend
    them starts over), so a game's decisions cost a replay of the game once, not once each."""

    def __init__(self) -> None:
        self._key: tuple | None = None  # (players, seat, rules) of the replay going on
        self._done: tuple = ()  # the history replayed so far
        self._failed = False  # the history so far is none the rules produce

    def evidence(self, view: PlayerView) -> Evidence:
        """``evidence(view)``, replaying only what this replay has not seen."""
        history = view.history
        n = view.n_players
        if not history or view.turn != len(history) or not 3 <= n <= MAX_SEATS:
            return NO_EVIDENCE
        key = (n, view.player, view.rules)
        k = len(self._done)
        if key != self._key or k > len(history) or history[:k] != self._done:
            if not self._start(view):
                return NO_EVIDENCE
            k = 0
        if not self._failed:
            self._advance(history[k:], view.player)
        if not self._failed and not self._reaches(view):
            self._failed = True  # the history started at no deal: its boards are not the game's
        self._done = history
        if self._failed or tuple(self._size) != tuple(view.hand_sizes) or not self._seats:
            return NO_EVIDENCE  # not a standard deal: no safe replay
        return self._gather()

    def _reaches(self, view: PlayerView) -> bool:
        """Whether the replay's public rows and META are ``view``'s (the hands are stand-ins):
        always, for a history from a deal; a history from a position set up otherwise at
        turn 0 replays on boards that were never the game's."""
        return np.array_equal(self._board[TABLE:], public_board(view)[0][TABLE:])

    def _start(self, view: PlayerView) -> bool:
        """A fresh replay from the deal of ``view``'s game (False: no standard deal)."""
        n = view.n_players
        try:
            dealt = view.rules.hand_size_for(n)
        except ValueError:
            self._key = None
            return False
        zeros = [0] * N_VALUES
        board = np.zeros((BOARD_ROWS, N_VALUES), np.int32)
        set_public(
            board,
            n_players=n,
            table=zeros,
            removed=zeros,
            known=[],
            current=view.history[0][0],
            winner=None,
            turn=0,
            round_=1,
            passed=[],
            rules=view.rules,
        )
        board[HANDS : HANDS + n] = _STAND_IN
        self._key = (n, view.player, view.rules)
        self._done = ()
        self._failed = False
        self._board = board
        self._size = [dealt] * n  # public hand sizes, as plain ints (cheaper than arrays)
        self._net = np.zeros((n, N_VALUES), np.int64)  # cumulative played minus taken, per seat
        self._boards = _Rows((BOARD_ROWS, N_VALUES), np.int32)
        self._size_rows = _Rows((SEAT_SLOTS,), np.int64)
        self._marks = _Rows((N_VALUES,), np.int64)
        self._seats: list = []
        self._actions: list = []
        return True

    def _advance(self, turns: tuple, player: int) -> None:
        """Replay ``turns``, keeping each opponent decision (not ``player``'s own)."""
        board, size, net = self._board, self._size, self._net
        apply = cengine.kernels().apply  # the replay's rules: C's, else numba's kernel
        for who, act in turns:
            if board[META, M_CUR] != who:
                self._failed = True  # not a history the rules produce
                return
            if who != player:
                seen = self._boards.add(board)
                seen[HANDS : HANDS + MAX_SEATS] = 0
                self._size_rows.add(size + [0] * (SEAT_SLOTS - len(size)))
                self._seats.append(who)
                self._actions.append(act.id)
                self._marks.add(net[who])
            if act.is_pass:
                if act.taken is not None:  # a pass taking nothing (take=nothing) moves no card
                    net[who, act.value - 1] -= 1
                    size[who] += 1
            else:
                net[who, act.value - 1] += act.count
                size[who] -= act.count
            apply(board, act.id)

    def _gather(self) -> Evidence:
        """The decisions kept so far as an ``Evidence``, grouped by seat."""
        seat_arr = np.array(self._seats, np.int64)
        order = np.argsort(seat_arr, kind="stable")  # grouped by seat, game order within a seat
        seat_arr = seat_arr[order]
        return Evidence(
            self._boards.rows()[order],
            self._size_rows.rows()[order],
            seat_arr,
            np.array(self._actions, np.int64)[order],
            (self._net[seat_arr] - self._marks.rows()[order]),
            np.searchsorted(seat_arr, np.arange(SEAT_SLOTS + 1)).astype(np.int64),
        )


class _Rows:
    """Rows of one shape and dtype added one at a time into a buffer that doubles when full:
    a decision's evidence is then a slice of arrays, not lists of small arrays stacked anew."""

    def __init__(self, shape: tuple, dtype: type) -> None:
        self._buf = np.empty((16, *shape), dtype)
        self._n = 0

    def add(self, row) -> np.ndarray:
        """Copy ``row`` in as the next row; returns that row (a view, to edit in place)."""
        if self._n == len(self._buf):
            self._buf = np.concatenate([self._buf, np.empty_like(self._buf)])
        out = self._buf[self._n]
        out[...] = row
        self._n += 1
        return out

    def rows(self) -> np.ndarray:
        """The rows added so far (a view of the buffer)."""
        return self._buf[: self._n]
