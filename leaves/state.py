"""The immutable game state of 13 Leaves and its transition function.

A ``State`` is a handful of Python ints (see ``leaves.packed``): hands, table, removed and
undealt piles are packed count vectors (all seats' hands share one int, a lane per seat), who
passed is a bit mask. ``apply`` builds a new state and never touches the old one, so states can
be shared freely by search code and kept as dictionary keys. The compiled kernels
(``leaves.kernels``) implement the same rules over arrays; a differential test drives both
through thousands of games and compares every state.

Around it: ``leaves.legal`` (legal actions by table lookup), ``leaves.deal`` (shuffling and
dealing), ``leaves.validate`` (``from_dict``: any position, checked). What stays here is
one job, the position and its transition: the ``State`` class (its fields, accessors,
identity and plain-data form) and ``apply``, the reference implementation of every rule,
written out in one function with the packed fields in locals because it is the hot path of
every Python-path game and search; splitting it would only add calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .actions import ALL_ACTIONS, Action, IllegalActionError
from .deal import SeedLike, as_generator, deal_packed
from .legal import ENDS, HIGH_VALUES, LOW_VALUES, NEED1, PLAYS, ends_miss, plays_miss
from .packed import LANE, MASK, ONES, SHIFTS, join_lanes, lane_total, lanes, unpack
from .public import PublicFields
from .rules import DECK, DECK_SIZE, N_VALUES, TURN_LIMIT, hand_size_for

_EMPTY: tuple = ()

# Per action id: (is_pass, value index, cards moved, their packed delta, shift of the value);
# a pass moves one card (the card taken; its ``count`` of cards played is 0).
_DECODE = tuple(
    (a.is_pass, a.value - 1, a.count or 1, (a.count or 1) * ONES[a.value - 1], SHIFTS[a.value - 1])
    for a in ALL_ACTIONS
)


_new = object.__new__


def _article(value: int) -> str:
    """'an' before a card value said with a vowel sound (8, 11, 18, 80-89), else 'a'."""
    return "an" if str(value).startswith("8") or value in (11, 18) else "a"


def _no_stack(value: int) -> str:
    return f"cannot take {_article(value)} {value}: there is no stack of {value}s on the table"


class State(PublicFields):
    """A position of 13 Leaves: immutable, hashable, cheap to copy.

    Equality and hashing cover the position (hands, table, piles, who passed, whose turn,
    winner, turn and round counters, turn limit), not the history that led to it.
    """

    __slots__ = (
        "_n",
        "_hh",
        "_table",
        "_lo",
        "_hi",
        "_removed",
        "_undealt",
        "_kk",
        "_passed",
        "_cur",
        "_winner",
        "_turn",
        "_round",
        "_limit",
        "_history",
        "_legal",
        "_key",
    )

    # ------------------------------------------------------------------ construction
    @classmethod
    def _raw(
        cls,
        n: int,
        hands: tuple[int, ...],
        table: int,
        lo: int,
        hi: int,
        removed: int,
        undealt: int,
        known: tuple[int, ...],
        passed: int,
        cur: int,
        winner: int,
        turn: int,
        rnd: int,
        limit: int,
        history: tuple | None,
    ) -> State:
        """A state from per-seat packed hands and known cards."""
        return cls._make(
            n, join_lanes(hands), table, lo, hi, removed, undealt, join_lanes(known), passed, cur,
            winner, turn, rnd, limit, history,
        )  # fmt: skip

    @classmethod
    def _make(
        cls,
        n: int,
        hh: int,
        table: int,
        lo: int,
        hi: int,
        removed: int,
        undealt: int,
        kk: int,
        passed: int,
        cur: int,
        winner: int,
        turn: int,
        rnd: int,
        limit: int,
        history: tuple | None,
    ) -> State:
        s = _new(cls)
        s._n = n
        s._hh = hh
        s._table = table
        s._lo = lo
        s._hi = hi
        s._removed = removed
        s._undealt = undealt
        s._kk = kk
        s._passed = passed
        s._cur = cur
        s._winner = winner
        s._turn = turn
        s._round = rnd
        s._limit = limit
        s._history = history
        s._legal = None
        s._key = None
        return s

    # Per-seat forms of the packed fields, as ``PlayerView`` and the dict form read them.
    @property
    def _hands(self) -> tuple[int, ...]:
        return lanes(self._hh, self._n)

    @property
    def _known(self) -> tuple[int, ...]:
        return lanes(self._kk, self._n)

    @property
    def _sizes(self) -> tuple[int, ...]:
        return tuple([lane_total(h) for h in lanes(self._hh, self._n)])

    @classmethod
    def initial(
        cls,
        hands: Sequence[Sequence[int]],
        first_player: int = 0,
        turn_limit: int = TURN_LIMIT,
    ) -> State:
        """The start of a game from dealt hands (n lists of 13 counts); the rest is undealt."""
        n = len(hands)
        d = {
            "hands": [list(h) for h in hands],
            "table": [0] * N_VALUES,
            "removed": [0] * N_VALUES,
            "undealt": [
                DECK[v] - sum(int(h[v]) for h in hands) if len(hands[0]) == N_VALUES else 0
                for v in range(N_VALUES)
            ],
            "passed": [False] * n,
            "current_player": first_player,
            "winner": None,
            "turn": 0,
            "round": 1,
            "turn_limit": turn_limit,
        }
        return cls.from_dict(d)

    # ------------------------------------------------------------------ public properties
    @property
    def n_players(self) -> int:
        return self._n

    @property
    def current_player(self) -> int:
        """Seat to act (the seat that acted last once the game is over)."""
        return self._cur

    @property
    def is_terminal(self) -> bool:
        """True once someone has emptied their hand or the turn limit (E1) is reached."""
        return self._winner >= 0 or self._turn >= self._limit

    @property
    def winner(self) -> int | None:
        """Seat of the winner, or None (game running, or unfinished at the turn limit)."""
        return self._winner if self._winner >= 0 else None

    @property
    def unfinished(self) -> bool:
        """True when the game ended at the turn limit with no winner (Interpretation E1)."""
        return self._winner < 0 and self._turn >= self._limit

    @property
    def turn(self) -> int:
        """Actions taken so far (plays and passes)."""
        return self._turn

    @property
    def round(self) -> int:
        """Rounds begun so far (1 during the first round)."""
        return self._round

    @property
    def turn_limit(self) -> int:
        return self._limit

    def hand(self, player: int) -> tuple[int, ...]:
        """Cards in ``player``'s hand per value (value 1 first)."""
        return unpack(self._hands[player])

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(unpack(h) for h in self._hands)

    @property
    def passed(self) -> tuple[bool, ...]:
        """Who has passed this round."""
        p = self._passed
        return tuple(bool(p >> i & 1) for i in range(self._n))

    @property
    def undealt(self) -> tuple[int, ...]:
        """Cards never dealt, per value (hidden from every player)."""
        return unpack(self._undealt)

    # ------------------------------------------------------------------ rules
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action for the player to act, in increasing id order."""
        legal = self._legal
        if legal is not None:
            return legal
        if self._winner >= 0 or self._turn >= self._limit:
            legal = _EMPTY
        else:
            h = (self._hh >> (LANE * self._cur)) & MASK
            t = self._table
            if not t:
                # Whole hands rarely repeat: look their two halves up instead.
                key = (h & LOW_VALUES) | NEED1
                legal = PLAYS.get(key)
                if legal is None:
                    legal = plays_miss(key)
                key = (h & HIGH_VALUES) | NEED1
                more = PLAYS.get(key)
                if more is None:
                    more = plays_miss(key)
                legal += more
            else:
                ends = ENDS.get(t)
                if ends is None:
                    ends = ends_miss(t)
                lmask, lneed, rmask, rneed, takes = ends
                key = (h & lmask) | lneed
                left = PLAYS.get(key)
                if left is None:
                    left = plays_miss(key)
                key = (h & rmask) | rneed
                right = PLAYS.get(key)
                if right is None:
                    right = plays_miss(key)
                legal = left + right + takes
        self._legal = legal
        return legal

    def legal_action_ids(self) -> tuple[int, ...]:
        return tuple(a.id for a in self.legal_actions())

    def is_legal(self, action: Action | int) -> bool:
        aid = action if isinstance(action, int) else action.id
        return any(a.id == aid for a in self.legal_actions())

    def apply(self, action: Action | int) -> State:
        """The state after ``action`` (an Action or its id); raises IllegalActionError."""
        try:
            aid = action.id
        except AttributeError:
            if not isinstance(action, int):
                raise
            aid = Action.from_id(action).id
        if self._winner >= 0:
            raise IllegalActionError(f"the game is over: seat {self._winner} has won")
        if self._turn >= self._limit:
            raise IllegalActionError(
                f"the game is over: the turn limit of {self._limit} turns was reached (E1)"
            )
        is_pass, vi, k, delta, sh = _DECODE[aid]
        p = self._cur
        base = LANE * p
        hh = self._hh
        table = self._table
        lo = self._lo
        n = self._n
        s = _new(State)
        if is_pass:
            if lo < 0:
                raise IllegalActionError(
                    "cannot pass on an empty table: a pass must take a card (P1)"
                )
            tc = (table >> sh) & 15
            if not tc:
                raise IllegalActionError(_no_stack(vi + 1))
            hi = self._hi
            table -= delta
            if tc == 1:
                if lo == hi:
                    lo = hi = -1
                elif vi == lo:
                    lo += 1
                    while not (table >> SHIFTS[lo]) & 15:
                        lo += 1
                elif vi == hi:
                    hi -= 1
                    while not (table >> SHIFTS[hi]) & 15:
                        hi -= 1
            delta <<= base
            s._hh = hh + delta
            s._kk = self._kk + delta
            passed = self._passed | (1 << p)
            if passed.bit_count() >= n - 1:
                # Round end: the survivor clears the table and leads the next round.
                q = 0
                while passed >> q & 1:
                    q += 1
                s._removed = self._removed + table
                s._round = self._round + 1
                table = 0
                lo = hi = -1
                passed = 0
            else:
                s._removed = self._removed
                s._round = self._round
                q = p + 1
                if q == n:
                    q = 0
                while passed >> q & 1:
                    q += 1
                    if q == n:
                        q = 0
            s._winner = -1
        else:
            # A play of k cards of value vi.
            h = (hh >> base) & MASK
            c = (h >> sh) & 15
            if c < k:
                raise IllegalActionError(
                    f"cannot play {k} card{'s' if k > 1 else ''} of value {vi + 1}: "
                    f"the hand holds {c}"
                )
            if lo < 0:
                lo = hi = vi
            else:
                hi = self._hi
                if vi <= lo:
                    need = (table >> SHIFTS[lo]) & 15
                    if k < need:
                        raise IllegalActionError(
                            f"needs at least {need} cards on the left end, got {k}"
                        )
                    lo = vi
                elif vi >= hi:
                    need = (table >> SHIFTS[hi]) & 15
                    if k < need:
                        raise IllegalActionError(
                            f"needs at least {need} cards on the right end, got {k}"
                        )
                    hi = vi
                else:
                    raise IllegalActionError(
                        f"value {vi + 1} lies between the ends {lo + 1} and {hi + 1}: never allowed"
                    )
            table += delta
            s._hh = hh - (delta << base)
            kk = self._kk
            if kk:
                kc = (kk >> (base + sh)) & 15
                if kc:
                    kk -= (kc if kc < k else k) << (base + sh)
            s._kk = kk
            s._removed = self._removed
            s._round = self._round
            passed = self._passed
            if h == delta:
                s._winner = q = p
            else:
                s._winner = -1
                q = p + 1
                if q == n:
                    q = 0
                while passed >> q & 1:
                    q += 1
                    if q == n:
                        q = 0
        s._n = n
        s._table = table
        s._lo = lo
        s._hi = hi
        s._undealt = self._undealt
        s._passed = passed
        s._cur = q
        s._turn = self._turn + 1
        s._limit = self._limit
        s._history = (self._history, p, aid)
        s._legal = None
        s._key = None
        return s

    def clone(self) -> State:
        """States are immutable, so a clone is the state itself (OpenSpiel-style API)."""
        return self

    def with_turn_limit(self, turn_limit: int) -> State:
        """The same position under another turn limit (E1)."""
        d = self.to_dict()
        d["turn_limit"] = turn_limit
        s = State.from_dict(d)
        s._history = self._history
        return s

    # ------------------------------------------------------------------ views
    def view(self, player: int):
        """What ``player`` may know (docs/rules.md, "What a player can see")."""
        from .view import PlayerView

        return PlayerView._from_state(self, player)

    # ------------------------------------------------------------------ identity
    def _position_key(self) -> tuple:
        key = self._key
        if key is None:
            key = (
                self._n, self._hh, self._table, self._removed, self._undealt, self._kk,
                self._passed, self._cur, self._winner, self._turn, self._round, self._limit,
            )  # fmt: skip
            self._key = key
        return key

    def __hash__(self) -> int:
        return hash(self._position_key())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, State):
            return NotImplemented
        return self._position_key() == other._position_key()

    def __repr__(self) -> str:
        status = (
            f"winner={self._winner}"
            if self._winner >= 0
            else ("unfinished" if self.unfinished else f"to_play={self._cur}")
        )
        return (
            f"State(n={self._n}, turn={self._turn}, round={self._round}, {status}, "
            f"stacks={list(self.stacks)}, hand_sizes={list(self._sizes)})"
        )

    def __reduce__(self):
        return (State.from_dict, (self.to_dict(),))

    # ------------------------------------------------------------------ dict form
    def to_dict(self) -> dict[str, Any]:
        """Plain-data form (lists and ints), round-trips through ``from_dict``."""
        return {
            "hands": [list(unpack(h)) for h in self._hands],
            "table": list(unpack(self._table)),
            "removed": list(unpack(self._removed)),
            "undealt": list(unpack(self._undealt)),
            "known": [list(unpack(k)) for k in self._known],
            "passed": list(self.passed),
            "current_player": self._cur,
            "winner": self.winner,
            "turn": self._turn,
            "round": self._round,
            "turn_limit": self._limit,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        """Build and validate a state; raises ValueError naming what makes it impossible."""
        from .validate import state_from_dict

        return state_from_dict(d)


def new_game(
    n_players: int,
    seed: SeedLike = None,
    first_player: int | None = None,
    hand_size: int | None = None,
    turn_limit: int = TURN_LIMIT,
) -> State:
    """Shuffle and deal a new game, drawing the deal then the first player from ``seed``.

    ``n_players`` must be 3..6 unless ``hand_size`` is given explicitly (then any count with
    ``n_players * hand_size <= 62`` and at least 2 players).
    """
    if not isinstance(n_players, int | np.integer):
        raise ValueError(f"n_players must be an integer, got {n_players!r}")
    if hand_size is None:
        hand_size = hand_size_for(n_players)
    elif n_players < 2 or hand_size < 1 or n_players * hand_size > DECK_SIZE:
        raise ValueError(
            f"cannot deal {hand_size} cards to each of {n_players} players from {DECK_SIZE}"
        )
    if turn_limit < 1:
        raise ValueError(f"turn_limit must be >= 1, got {turn_limit}")
    rng = as_generator(seed)
    hh, undealt = deal_packed(n_players, rng, hand_size)
    if first_player is None:
        first_player = int(rng.integers(n_players))
    elif not (0 <= first_player < n_players):
        raise ValueError(f"first_player must be a seat 0..{n_players - 1}, got {first_player}")
    return State._make(
        n_players, hh, 0, -1, -1, 0, undealt, 0, 0, int(first_player), -1, 0, 1,
        int(turn_limit), None,
    )  # fmt: skip
