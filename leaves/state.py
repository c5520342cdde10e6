"""The immutable game state of 13 Leaves and its transition function.

A ``State`` is a handful of Python ints (see ``leaves.packed``): hands, table, removed and
undealt piles are packed count vectors, who passed is a bit mask. ``apply`` builds a new state
and never touches the old one, so states can be shared freely by search code and kept as
dictionary keys. The compiled kernels (``leaves.kernels``) implement the same rules over
arrays; a differential test drives both through thousands of games and compares every state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .actions import ALL_ACTIONS, Action, IllegalActionError
from .packed import ONES, SHIFTS, pack, unpack
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


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from an int, a SeedSequence, a Generator (used as is) or None."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _side_name(is_left: bool) -> str:
    return "left" if is_left else "right"


class State:
    """A position of 13 Leaves: immutable, hashable, cheap to copy.

    Equality and hashing cover the position (hands, table, piles, who passed, whose turn,
    winner, turn and round counters, turn limit), not the history that led to it.
    """

    __slots__ = (
        "_n",
        "_hands",
        "_sizes",
        "_table",
        "_lo",
        "_hi",
        "_removed",
        "_undealt",
        "_known",
        "_passed",
        "_npassed",
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
        sizes: tuple[int, ...],
        table: int,
        lo: int,
        hi: int,
        removed: int,
        undealt: int,
        known: tuple[int, ...],
        passed: int,
        npassed: int,
        cur: int,
        winner: int,
        turn: int,
        rnd: int,
        limit: int,
        history: tuple | None,
    ) -> State:
        s = object.__new__(cls)
        s._n = n
        s._hands = hands
        s._sizes = sizes
        s._table = table
        s._lo = lo
        s._hi = hi
        s._removed = removed
        s._undealt = undealt
        s._known = known
        s._passed = passed
        s._npassed = npassed
        s._cur = cur
        s._winner = winner
        s._turn = turn
        s._round = rnd
        s._limit = limit
        s._history = history
        s._legal = None
        s._key = None
        return s

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
            h = self._hands[self._cur]
            lo = self._lo
            out: list[Action] = []
            if lo < 0:
                for v in range(N_VALUES):
                    c = (h >> SHIFTS[v]) & 15
                    if c:
                        out += _RUNS[v][1][c]
            else:
                t = self._table
                hi = self._hi
                a = (t >> SHIFTS[lo]) & 15
                for v in range(lo + 1):
                    c = (h >> SHIFTS[v]) & 15
                    if c >= a:
                        out += _RUNS[v][a][c]
                b = (t >> SHIFTS[hi]) & 15
                for v in range(hi if hi > lo else lo + 1, N_VALUES):
                    c = (h >> SHIFTS[v]) & 15
                    if c >= b:
                        out += _RUNS[v][b][c]
                for v in range(lo, hi + 1):
                    if (t >> SHIFTS[v]) & 15:
                        out.append(_TAKES[v])
            legal = tuple(out)
        self._legal = legal
        return legal

    def legal_action_ids(self) -> tuple[int, ...]:
        return tuple(a.id for a in self.legal_actions())

    def is_legal(self, action: Action | int) -> bool:
        aid = action if isinstance(action, int) else action.id
        return any(a.id == aid for a in self.legal_actions())

    def apply(self, action: Action | int) -> State:
        """The state after ``action`` (an Action or its id); raises IllegalActionError."""
        if isinstance(action, int):
            action = Action.from_id(action)
        if self._winner >= 0:
            raise IllegalActionError(f"the game is over: seat {self._winner} has won")
        if self._turn >= self._limit:
            raise IllegalActionError(
                f"the game is over: the turn limit of {self._limit} turns was reached (E1)"
            )
        p = self._cur
        vi = action.value - 1
        sh = SHIFTS[vi]
        one = ONES[vi]
        lo = self._lo
        hi = self._hi
        table = self._table
        n = self._n
        hands = self._hands
        h = hands[p]
        if action.is_pass:
            if lo < 0:
                raise IllegalActionError(
                    "cannot pass on an empty table: a pass must take a card (P1)"
                )
            tc = (table >> sh) & 15
            if not tc:
                raise IllegalActionError(
                    f"cannot take a {vi + 1}: there is no stack of {vi + 1}s on the table"
                )
            table -= one
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
            hands = hands[:p] + (h + one,) + hands[p + 1 :]
            sizes = self._sizes
            sizes = sizes[:p] + (sizes[p] + 1,) + sizes[p + 1 :]
            known = self._known
            known = known[:p] + (known[p] + one,) + known[p + 1 :]
            passed = self._passed | (1 << p)
            npassed = self._npassed + 1
            removed = self._removed
            rnd = self._round
            if npassed >= n - 1:
                # Round end: the survivor clears the table and leads the next round.
                q = 0
                while passed >> q & 1:
                    q += 1
                removed += table
                table = 0
                lo = hi = -1
                passed = 0
                npassed = 0
                rnd += 1
            else:
                q = (p + 1) % n
                while passed >> q & 1:
                    q = (q + 1) % n
            return State._raw(
                n, hands, sizes, table, lo, hi, removed, self._undealt, known, passed,
                npassed, q, -1, self._turn + 1, rnd, self._limit,
                (self._history, p, action.id),
            )  # fmt: skip
        # A play of k cards of value vi.
        k = action.count
        c = (h >> sh) & 15
        if c < k:
            raise IllegalActionError(
                f"cannot play {k} card{'s' if k > 1 else ''} of value {vi + 1}: the hand holds {c}"
            )
        if lo < 0:
            lo = hi = vi
        else:
            if lo < vi < hi:
                raise IllegalActionError(
                    f"value {vi + 1} lies between the ends {lo + 1} and {hi + 1}: never allowed"
                )
            left = vi <= lo
            end = lo if left else hi
            need = (table >> SHIFTS[end]) & 15
            if k < need:
                raise IllegalActionError(
                    f"needs at least {need} cards on the {_side_name(left)} end, got {k}"
                )
            if vi < lo:
                lo = vi
            elif vi > hi:
                hi = vi
        table += k * one
        h -= k * one
        hands = hands[:p] + (h,) + hands[p + 1 :]
        size = self._sizes[p] - k
        sizes = self._sizes[:p] + (size,) + self._sizes[p + 1 :]
        known = self._known
        kn = known[p]
        kc = (kn >> sh) & 15
        if kc:
            known = known[:p] + (kn - min(kc, k) * one,) + known[p + 1 :]
        passed = self._passed
        if size == 0:
            winner = p
            q = p
        else:
            winner = -1
            q = (p + 1) % n
            while passed >> q & 1:
                q = (q + 1) % n
        return State._raw(
            n, hands, sizes, table, lo, hi, self._removed, self._undealt, known, passed,
            self._npassed, q, winner, self._turn + 1, self._round, self._limit,
            (self._history, p, action.id),
        )  # fmt: skip

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
        """What ``player`` may know (RULES.md, "What a player can see")."""
        from .view import PlayerView

        return PlayerView._from_state(self, player)

    # ------------------------------------------------------------------ identity
    def _position_key(self) -> tuple:
        key = self._key
        if key is None:
            key = (
                self._n, self._hands, self._table, self._removed, self._undealt, self._known,
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
    if npassed and not any(table):
        # Takes can empty the table mid-round; that is legal, so only check consistency below.
        pass
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
        n, tuple(pack(h) for h in hands), sizes, pack(table), lo, hi, pack(removed),
        pack(undealt), tuple(pack(k) for k in known),
        sum(1 << i for i in range(n) if passed[i]), npassed, cur,
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
    hands, undealt = deal(n_players, rng, hand_size)
    if first_player is None:
        first_player = int(rng.integers(n_players))
    elif not (0 <= first_player < n_players):
        raise ValueError(f"first_player must be a seat 0..{n_players - 1}, got {first_player}")
    return State._raw(
        n_players, tuple(pack(h) for h in hands), (hand_size,) * n_players, 0, -1, -1, 0,
        pack(undealt), (0,) * n_players, 0, 0, int(first_player), -1, 0, 1, int(turn_limit),
        None,
    )  # fmt: skip
