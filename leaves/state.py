"""The immutable game state of 13 Leaves and its transition function.

A ``State`` is a handful of Python ints (see ``leaves.packed``): hands, table, removed and
undealt piles are packed count vectors (all seats' hands share one int, a lane per seat), who
passed is a bit mask. ``apply`` builds a new state
and never touches the old one, so states can be shared freely by search code and kept as
dictionary keys. The compiled kernels (``leaves.kernels``) implement the same rules over
arrays; a differential test drives both through thousands of games and compares every state.

The module is long because it is one job: the reference rules and the validated construction
of any position (``from_dict``), kept together so each rule is written once in Python.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from .actions import ALL_ACTIONS, Action, IllegalActionError
from .packed import LANE, MASK, ONES, SHIFTS, pack, unpack
from .rules import (
    DECK,
    DECK_SIZE,
    MAX_COPIES,
    N_VALUES,
    TAKE_BASE,
    TURN_LIMIT,
    hand_size_for,
)

SeedLike = int | np.random.SeedSequence | np.random.Generator | None

# _RUNS[v][need][c]: the play actions for value index v with k = need..c, as a tuple.
_RUNS: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(ALL_ACTIONS[v * MAX_COPIES + k - 1] for k in range(max(need, 1), c + 1))
            for c in range(16)
        )
        for need in range(16)
    )
    for v in range(N_VALUES)
)
_TAKES: tuple[Action, ...] = ALL_ACTIONS[TAKE_BASE:]
_DECK_PACKED = pack(DECK)
_EMPTY: tuple = ()

# All seats' hands (and publicly known cards) live in one int, LANE bits a seat: seat p's
# packed hand is ``(hands >> LANE * p) & MASK``; with 64-bit lanes ``struct`` splits them all at
# once. Moving a card is one shift and one add, where
# a tuple of per-seat ints would be rebuilt on every move.
_NEED_SHIFT = 4 * N_VALUES  # where a _PLAYS key keeps the need (above the 13 counts)
_NEED1 = 1 << _NEED_SHIFT  # need 1: any count plays (empty table)
_NIBBLE_LOW = sum(1 << s for s in SHIFTS)  # bit 0 of every nibble
_BYTES_0F = sum(15 << (8 * i) for i in range(7))  # the even nibbles, one per byte

# Legal actions are looked up in bounded caches instead of scanning 13 values each time; random
# play hits them about 9 times in 10 within a few thousand games. _PLAYS maps (a hand masked to
# the values playable on one end) | need << 52 to the plays there; _ENDS maps a packed table
# to what it implies (masks and needs of both ends, takes). A full cache is simply cleared, so
# memory stays bounded (tens of MB at most) over millions of games.
_CACHE_MAX = 1 << 17
_ENDS_MAX = 1 << 16
_PLAYS: dict[int, tuple[Action, ...]] = {}
_ENDS: dict[int, tuple[int, int, int, int, tuple[Action, ...]]] = {}
_TAKES_OF: dict[int, tuple[Action, ...]] = {}  # by the nonzero nibbles of a table (<= 8192)
_NEED_BITS = ~MASK
_LOW_VALUES = (1 << (4 * 7)) - 1  # values 1..7
_HIGH_VALUES = MASK ^ _LOW_VALUES  # values 8..13
_LEFT_MASKS = tuple((1 << (4 * (v + 1))) - 1 for v in range(N_VALUES))
_RIGHT_MASKS = tuple(MASK ^ ((1 << (4 * v)) - 1) for v in range(N_VALUES)) + (0,)

# Per action id: (is_pass, value index, count, count * ONES[value index], shift of the value).
_DECODE = tuple(
    (a.is_pass, a.value - 1, a.count, a.count * ONES[a.value - 1], SHIFTS[a.value - 1])
    for a in ALL_ACTIONS
)


def _scan(key: int) -> tuple[Action, ...]:
    """The plays of every value with at least ``need`` cards in a masked hand."""
    need = key >> _NEED_SHIFT
    out: list[Action] = []
    for v in range(N_VALUES):
        c = (key >> SHIFTS[v]) & 15
        if c >= need:
            out += _RUNS[v][need][c]
    return tuple(out)


def _plays_miss(key: int) -> tuple[Action, ...]:
    """``_PLAYS[key]`` on a miss. A key spanning values of both halves (1..7, 8..13) is joined
    from the plays of each half, which are cached too and hit far more often."""
    if len(_PLAYS) >= _CACHE_MAX:
        _PLAYS.clear()
    need = key & _NEED_BITS
    low = (key & _LOW_VALUES) | need
    high = (key & _HIGH_VALUES) | need
    if low == need or high == need:
        plays = _scan(key)
    else:
        plays = _PLAYS.get(low)
        if plays is None:
            plays = _PLAYS[low] = _scan(low)
        more = _PLAYS.get(high)
        if more is None:
            more = _PLAYS[high] = _scan(high)
        plays += more
    _PLAYS[key] = plays
    return plays


def _ends_miss(t: int) -> tuple[int, int, int, int, tuple[Action, ...]]:
    """``_ENDS[t]`` on a miss, for a nonempty packed table."""
    if len(_ENDS) >= _ENDS_MAX:
        _ENDS.clear()
    present = (t | t >> 1 | t >> 2 | t >> 3) & _NIBBLE_LOW
    lo = ((present & -present).bit_length() - 1) >> 2
    hi = (present.bit_length() - 1) >> 2
    takes = _TAKES_OF.get(present)
    if takes is None:
        takes = _TAKES_OF[present] = tuple(
            _TAKES[v] for v in range(lo, hi + 1) if present >> SHIFTS[v] & 1
        )
    info = (
        _LEFT_MASKS[lo],
        ((t >> SHIFTS[lo]) & 15) << _NEED_SHIFT,
        _RIGHT_MASKS[hi if hi > lo else lo + 1],
        ((t >> SHIFTS[hi]) & 15) << _NEED_SHIFT,
        takes,
    )
    _ENDS[t] = info
    return info


def _hand_size(h: int) -> int:
    """Sum of a packed hand's counts: byte lanes summed by the mod-255 trick (sum < 255)."""
    return ((h & _BYTES_0F) + ((h >> 4) & _BYTES_0F)) % 255


_STRUCTS: dict[int, struct.Struct] = {}


def _lanes(x: int, n: int) -> tuple[int, ...]:
    """The n per-seat values of an int with a 64-bit lane per seat."""
    st = _STRUCTS.get(n)
    if st is None:
        st = _STRUCTS[n] = struct.Struct(f"<{n}Q")
    return st.unpack(x.to_bytes(8 * n, "little"))


def _join(parts) -> int:
    x = 0
    for i, h in enumerate(parts):
        x |= h << (LANE * i)
    return x


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from an int, a SeedSequence, a Generator (used as is) or None."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


_new = object.__new__


class State:
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
            n, _join(hands), table, lo, hi, removed, undealt, _join(known), passed, cur,
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
        return _lanes(self._hh, self._n)

    @property
    def _known(self) -> tuple[int, ...]:
        return _lanes(self._kk, self._n)

    @property
    def _sizes(self) -> tuple[int, ...]:
        return tuple([_hand_size(h) for h in _lanes(self._hh, self._n)])

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

    @property
    def table(self) -> tuple[int, ...]:
        """Cards on the table per value (value 1 first); each nonzero entry is one stack."""
        return unpack(self._table)

    @property
    def stacks(self) -> tuple[tuple[int, int], ...]:
        """The table's stacks left to right as (value, size) pairs."""
        return tuple((v + 1, c) for v, c in enumerate(unpack(self._table)) if c)

    @property
    def ends(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """((left value, size), (right value, size)), or None for an empty table."""
        if self._lo < 0:
            return None
        t = self._table
        return (
            (self._lo + 1, (t >> SHIFTS[self._lo]) & 15),
            (self._hi + 1, (t >> SHIFTS[self._hi]) & 15),
        )

    def hand(self, player: int) -> tuple[int, ...]:
        """Cards in ``player``'s hand per value (value 1 first)."""
        return unpack(self._hands[player])

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(unpack(h) for h in self._hands)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._sizes

    @property
    def passed(self) -> tuple[bool, ...]:
        """Who has passed this round."""
        p = self._passed
        return tuple(bool(p >> i & 1) for i in range(self._n))

    @property
    def removed(self) -> tuple[int, ...]:
        """Cards removed from the game at round ends, per value."""
        return unpack(self._removed)

    @property
    def undealt(self) -> tuple[int, ...]:
        """Cards never dealt, per value (hidden from every player)."""
        return unpack(self._undealt)

    @property
    def known(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards publicly known to be in that hand (taken on a pass, not played since)."""
        return tuple(unpack(k) for k in self._known)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """The public history since this state's origin: (seat, action) pairs, oldest first."""
        out = []
        h = self._history
        while h is not None:
            h, seat, aid = h
            out.append((seat, ALL_ACTIONS[aid]))
        out.reverse()
        return tuple(out)

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
                key = (h & _LOW_VALUES) | _NEED1
                legal = _PLAYS.get(key)
                if legal is None:
                    legal = _plays_miss(key)
                key = (h & _HIGH_VALUES) | _NEED1
                more = _PLAYS.get(key)
                if more is None:
                    more = _plays_miss(key)
                legal += more
            else:
                ends = _ENDS.get(t)
                if ends is None:
                    ends = _ends_miss(t)
                lmask, lneed, rmask, rneed, takes = ends
                key = (h & lmask) | lneed
                left = _PLAYS.get(key)
                if left is None:
                    left = _plays_miss(key)
                key = (h & rmask) | rneed
                right = _PLAYS.get(key)
                if right is None:
                    right = _plays_miss(key)
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
                raise IllegalActionError(
                    f"cannot take a {vi + 1}: there is no stack of {vi + 1}s on the table"
                )
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
        return _state_from_dict(d)


def _counts(name: str, value: Any) -> tuple[int, ...]:
    try:
        counts = tuple(int(c) for c in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a list of {N_VALUES} card counts") from None
    if len(counts) != N_VALUES:
        raise ValueError(f"{name} must have {N_VALUES} counts (value 1 first), got {len(counts)}")
    for v, c in enumerate(counts):
        if c < 0 or c > DECK[v]:
            raise ValueError(
                f"{name}: {c} cards of value {v + 1} is impossible (the deck has {DECK[v]})"
            )
    return counts


def _state_from_dict(d: dict[str, Any]) -> State:
    if not isinstance(d, dict):
        raise ValueError("a state must be a dict")
    missing = [k for k in ("hands", "table", "current_player") if k not in d]
    if missing:
        raise ValueError(f"state is missing {', '.join(missing)}")
    raw_hands = d["hands"]
    if not isinstance(raw_hands, list | tuple) or len(raw_hands) < 2:
        raise ValueError("hands must list at least 2 players' hands")
    n = len(raw_hands)
    hands = [_counts(f"hands[{i}]", h) for i, h in enumerate(raw_hands)]
    table = _counts("table", d["table"])
    removed = _counts("removed", d.get("removed", [0] * N_VALUES))
    if "undealt" in d:
        undealt = _counts("undealt", d["undealt"])
    else:
        undealt = tuple(
            DECK[v] - sum(h[v] for h in hands) - table[v] - removed[v] for v in range(N_VALUES)
        )
    for v in range(N_VALUES):
        tot = sum(h[v] for h in hands) + table[v] + removed[v] + undealt[v]
        if tot != DECK[v]:
            raise ValueError(
                f"cards of value {v + 1} add up to {tot} (hands + table + removed + undealt), "
                f"the deck has {DECK[v]}"
            )
    known_raw = d.get("known") or [[0] * N_VALUES for _ in range(n)]
    if len(known_raw) != n:
        raise ValueError(f"known must have one entry per seat ({n}), got {len(known_raw)}")
    known = [_counts(f"known[{i}]", k) for i, k in enumerate(known_raw)]
    for i in range(n):
        for v in range(N_VALUES):
            if known[i][v] > hands[i][v]:
                raise ValueError(
                    f"known[{i}] says seat {i} holds {known[i][v]} of value {v + 1}, "
                    f"the hand has {hands[i][v]}"
                )
    passed_raw = d.get("passed") or [False] * n
    if len(passed_raw) != n:
        raise ValueError(f"passed must have one flag per seat ({n}), got {len(passed_raw)}")
    passed = [bool(x) for x in passed_raw]
    npassed = sum(passed)
    if npassed >= n - 1:
        raise ValueError(f"{npassed} of {n} players passed: the round should have ended")
    cur = d["current_player"]
    if not isinstance(cur, int | np.integer) or not (0 <= int(cur) < n):
        raise ValueError(f"current_player must be a seat 0..{n - 1}, got {cur!r}")
    cur = int(cur)
    winner = d.get("winner")
    sizes = tuple(sum(h) for h in hands)
    if winner is None:
        if passed[cur]:
            raise ValueError(f"current_player {cur} has passed this round and cannot act")
        empty = [i for i, s in enumerate(sizes) if s == 0]
        if empty:
            raise ValueError(f"seat {empty[0]} has no cards left but there is no winner")
    else:
        if not isinstance(winner, int | np.integer) or not (0 <= int(winner) < n):
            raise ValueError(f"winner must be a seat 0..{n - 1} or None, got {winner!r}")
        winner = int(winner)
        if sizes[winner] != 0:
            raise ValueError(f"winner {winner} still holds {sizes[winner]} cards")
    turn = int(d.get("turn", 0))
    rnd = int(d.get("round", 1))
    limit = int(d.get("turn_limit", TURN_LIMIT))
    if turn < 0:
        raise ValueError(f"turn must be >= 0, got {turn}")
    if rnd < 1:
        raise ValueError(f"round must be >= 1, got {rnd}")
    if limit < 1:
        raise ValueError(f"turn_limit must be >= 1, got {limit}")
    nz = [v for v in range(N_VALUES) if table[v]]
    lo, hi = (nz[0], nz[-1]) if nz else (-1, -1)
    return State._raw(
        n, tuple(pack(h) for h in hands), pack(table), lo, hi, pack(removed),
        pack(undealt), tuple(pack(k) for k in known),
        sum(1 << i for i in range(n) if passed[i]), cur,
        -1 if winner is None else winner, turn, rnd, limit, None,
    )  # fmt: skip


_CARDS = np.repeat(np.arange(N_VALUES), DECK)


def deal(
    n_players: int,
    rng: np.random.Generator,
    hand_size: int,
) -> tuple[list[list[int]], list[int]]:
    """Shuffle the deck with ``rng`` and deal ``hand_size`` cards to each seat in turn order.

    Returns (hands, undealt) as count lists. Seat i gets shuffled cards i*hand_size onwards;
    the cards after the last hand stay undealt.
    """
    shuffled = _CARDS[rng.permutation(DECK_SIZE)]
    owner = np.minimum(np.arange(DECK_SIZE) // hand_size, n_players)
    flat = np.bincount(owner * N_VALUES + shuffled, minlength=(n_players + 1) * N_VALUES)
    rows = flat.reshape(n_players + 1, N_VALUES).tolist()
    return rows[:n_players], rows[n_players]


_POW16 = np.array([1 << sh for sh in SHIFTS], dtype=np.int64)
_OWNERS: dict[tuple[int, int], np.ndarray] = {}


def _deal_packed(n_players: int, rng: np.random.Generator, hand_size: int) -> tuple[int, int]:
    """``deal`` (same draws from ``rng``, same cards) as (all hands in lanes, packed undealt)."""
    shuffled = _CARDS[rng.permutation(DECK_SIZE)]
    owner = _OWNERS.get((n_players, hand_size))
    if owner is None:
        owner = np.minimum(np.arange(DECK_SIZE) // hand_size, n_players) * N_VALUES
        _OWNERS[(n_players, hand_size)] = owner
    flat = np.bincount(owner + shuffled, minlength=(n_players + 1) * N_VALUES)
    packed = (flat.reshape(n_players + 1, N_VALUES) @ _POW16).tolist()
    undealt = packed.pop()
    return _join(packed), undealt


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
    hh, undealt = _deal_packed(n_players, rng, hand_size)
    if first_player is None:
        first_player = int(rng.integers(n_players))
    elif not (0 <= first_player < n_players):
        raise ValueError(f"first_player must be a seat 0..{n_players - 1}, got {first_player}")
    return State._make(
        n_players, hh, 0, -1, -1, 0, undealt, 0, 0, int(first_player), -1, 0, 1,
        int(turn_limit), None,
    )  # fmt: skip
