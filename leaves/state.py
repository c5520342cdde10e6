"""The immutable game state of 13 Leaves.

A ``State`` is a handful of Python ints (see ``leaves.packed``): hands, table, removed and
undealt piles are packed count vectors (all seats' hands share one int, a lane per seat), who
passed is a bit mask. ``apply`` builds a new state and never touches the old one, so states can
be shared freely by search code and kept as dictionary keys. The compiled kernels
(``leaves.kernels``) implement the same rules over arrays; a differential test drives both
through thousands of games and compares every state.

Around it: ``leaves.moves`` (the rules of a play and of a pass, which ``apply`` dispatches
to), ``leaves.legal`` (legal actions by table lookup), ``leaves.deal`` (shuffling and
dealing), ``leaves.validate`` (``from_dict``: any position, checked). What stays here is
one job, the position: its fields (``StateFields`` names them, ``State._build`` takes them
by name), accessors, identity and plain-data form.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any, NamedTuple

from .actions import Action, IllegalActionError, action_id, shown
from .deal import SeedLike, as_generator, deal_packed
from .legal import ENDS, HIGH_VALUES, LOW_VALUES, NEED1, PLAYS, variant_legal
from .moves import play, take
from .packed import LANE, MASK, lane_total, lanes, unpack
from .public import PublicFields
from .rules import N_VALUES, TAKE_BASE
from .ruleset import DEFAULT_RULES, FEWEST_PLAYERS, MOST_PLAYERS, Rules
from .view import PlayerView, check_seat, draft_of

_EMPTY: tuple = ()

_new = object.__new__


class StateFields(NamedTuple):
    """The raw fields of a ``State``, by name: the one list its slots (``_`` + name), its
    constructor ``State._build`` and its record ``State._fields`` follow."""

    n: int  # seats
    hh: int  # every seat's hand, packed, seat i in lane i (``leaves.packed``)
    table: int  # packed counts on the table; each nonzero value is one stack
    lo: int  # value index of the left end, -1 on an empty table
    hi: int  # value index of the right end, -1 on an empty table
    removed: int  # packed cards removed at round ends
    undealt: int  # packed cards never dealt
    kk: int  # cards publicly known in each hand (taken, not played since), lanes like hh
    passed: int  # bit mask of the seats that passed this round
    cur: int  # seat to act (the seat that acted last once the game is over)
    winner: int  # winning seat, -1 for none
    turn: int  # actions taken
    round: int  # rounds begun (1 during the first)
    limit: int  # turn limit (E1): the rules' ``turn_limit``
    rules: Rules  # the game's rules (``leaves.ruleset``)
    history: tuple | None = None  # (older history, seat, action id), newest first


class State(PublicFields):
    """A position of 13 Leaves: immutable (setting or deleting an attribute raises
    AttributeError), hashable, cheap to copy.

    Equality and hashing cover the position (hands, table, piles, who passed, whose turn,
    winner, turn and round counters, turn limit), not the history that led to it.
    """

    __slots__ = (*(f"_{name}" for name in StateFields._fields), "_legal", "_key")

    # ------------------------------------------------------------------ construction
    def __new__(cls, *_args: object, **_kwargs: object) -> State:
        """Refused: a state is dealt or checked, never made empty (``_build`` makes one past
        this, as pickling and copying do through it)."""
        raise TypeError(
            "use leaves.new_game(n_players, seed), State.initial(hands) or State.from_dict(d) "
            "to make a State"
        )

    @classmethod
    def _build(
        cls,
        *,
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
        round: int,
        limit: int,
        rules: Rules,
        history: tuple | None = None,
    ) -> State:
        """The one constructor, unchecked: every field of ``StateFields`` by name (a record
        ``f`` passes as ``**f._asdict()``). ``from_dict`` is the checked one."""
        s = _new(_Draft)
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
        s._round = round
        s._limit = limit
        s._rules = rules
        s._history = history
        s._legal = None
        s._key = None
        s.__class__ = cls
        return s

    def _fields(self) -> StateFields:
        """This state's raw fields as a record; ``_build(**f._replace(...)._asdict())`` copies
        it with changes."""
        return StateFields._make([getattr(self, f"_{name}") for name in StateFields._fields])

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
        rules: Any = DEFAULT_RULES,
    ) -> State:
        """The start of a game from dealt hands (n lists of 13 counts) under ``rules`` (any
        form ``Rules.of`` reads); the rest of the deck is undealt.

        Any hands the deck holds, at any count from 2 to 6 (the most any rules allow): a
        position set up by hand (an endgame, a two-player study) need not be a deal of
        ``rules``, whose ``players`` and ``hand_size`` say what ``new_game`` deals. Its game
        is recorded with no seed (``GameRecord.from_states``), as a position set up by hand;
        a record with a seed must hold a deal of its rules."""
        rules = Rules.of(rules)
        deck = rules.deck
        try:
            rows = [list(h) for h in hands]
            undealt = [
                deck[v] - sum(int(h[v]) for h in rows)
                if all(len(h) == N_VALUES for h in rows)
                else 0  # a hand of another length: from_dict names it
                for v in range(N_VALUES)
            ]
        except (TypeError, ValueError):  # None, a number, text: no lists of counts
            said = shown(hands, typed=False)
            raise ValueError(
                f"hands must be one list of {N_VALUES} card counts per player, got {said}"
            ) from None
        if 2 <= len(rows) <= MOST_PLAYERS:  # fewer or more: from_dict names the hands
            _held(rows, deck, undealt)  # the undealt pile is the rest: none was given to blame
            first_player = check_seat(first_player, len(rows), "first_player")
        d = {"hands": rows, "table": [0] * N_VALUES, "removed": [0] * N_VALUES,
             "undealt": undealt, "passed": [False] * len(rows), "current_player": first_player,
             "winner": None, "turn": 0, "round": 1, "rules": rules.changes()}  # fmt: skip
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
    def rules(self) -> Rules:
        """The rules this game is played under (``leaves.ruleset.Rules``)."""
        return self._rules

    def hand(self, player: int) -> tuple[int, ...]:
        """Cards in ``player``'s hand per value (value 1 first); the seat checked as ``view``
        checks it (seat -1 is no seat, not the last one)."""
        return unpack(self._hands[check_seat(player, self._n)])

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
        elif self._table and self._rules.flags:
            legal = variant_legal((self._hh >> (LANE * self._cur)) & MASK, self._table,
                                  self._rules.flags)  # fmt: skip
        else:
            h = (self._hh >> (LANE * self._cur)) & MASK
            t = self._table
            if not t:  # whole hands rarely repeat: look their two halves up instead
                legal = PLAYS[(h & LOW_VALUES) | NEED1] + PLAYS[(h & HIGH_VALUES) | NEED1]
            else:
                lmask, lneed, rmask, rneed, takes = ENDS[t]
                legal = PLAYS[(h & lmask) | lneed] + PLAYS[(h & rmask) | rneed] + takes
        _set_legal(self, legal)
        return legal

    def legal_action_ids(self) -> tuple[int, ...]:
        return tuple(a.id for a in self.legal_actions())

    def is_legal(self, action: Action | int) -> bool:
        """Whether ``action`` (an Action or its id) is legal now; TypeError for anything else."""
        try:
            aid = action.id
        except AttributeError:
            aid = action_id(action)
        return any(a.id == aid for a in self.legal_actions())

    def apply(self, action: Action | int) -> State:
        """The state after ``action`` (an Action or its id); raises IllegalActionError.

        Checks that the game is running; the move (``leaves.moves.play`` or ``take``) checks
        its rule and writes the fields it changes, the rest are written here."""
        try:
            aid = action.id
        except AttributeError:  # the slow path: an id (numpy's too), or a TypeError
            aid = action_id(action)
        if self._winner >= 0:
            raise IllegalActionError(f"the game is over: seat {self._winner} has won")
        if self._turn >= self._limit:
            raise IllegalActionError(
                f"the game is over: the turn limit of {self._limit} "
                f"turn{'' if self._limit == 1 else 's'} was reached (E1)"
            )
        s = _new(_Draft)
        if aid >= TAKE_BASE:
            take(self, s, aid)
        else:
            play(self, s, aid)
        s._n = self._n
        s._undealt = self._undealt
        s._turn = self._turn + 1
        s._limit = self._limit
        s._rules = self._rules
        s._history = (self._history, self._cur, aid)
        s._legal = None
        s._key = None
        s.__class__ = State
        return s

    def clone(self) -> State:
        """States are immutable, so a clone is the state itself (OpenSpiel-style API)."""
        return self

    # ------------------------------------------------------------------ views
    def view(self, player: int):
        """What ``player`` may know (docs/rules.md, "What a player can see")."""
        return PlayerView._from_state(self, player)

    # ------------------------------------------------------------------ identity
    def _position_key(self) -> tuple:
        key = self._key
        if key is None:
            key = (
                self._n, self._hh, self._table, self._removed, self._undealt, self._kk,
                self._passed, self._cur, self._winner, self._turn, self._round, self._limit,
                self._rules,
            )  # fmt: skip
            _set_key(self, key)
        return key

    def __hash__(self) -> int:
        return hash(self._position_key())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, State):
            return NotImplemented
        return self._position_key() == other._position_key()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"State is immutable: {name} cannot be set (apply makes a new one)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"State is immutable: {name} cannot be deleted")

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

    def __copy__(self) -> State:
        return self  # immutable: a copy is the state itself

    def __deepcopy__(self, memo: dict) -> State:
        return self  # as a copy (a deep one rebuilt and validated it through its pickled form)

    def __reduce__(self):
        # the position and the public history that led to it, oldest first (a flat list: a
        # linked tuple as long as the game would nest as deep as pickle recurses), so a state
        # sent to a worker gives the same views and the same decisions there
        moves = []
        h = self._history
        while h is not None:
            h, seat, aid = h
            moves.append((seat, aid))
        moves.reverse()
        return (_unpickle, (self.to_dict(), moves))

    # ------------------------------------------------------------------ dict form
    def to_dict(self) -> dict[str, Any]:
        """Plain-data form (lists and ints), round-trips through ``from_dict``; ``rules`` holds
        the keys that differ from today's rules (left out under today's)."""
        d = {
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
        if not self._rules.is_default:
            d["rules"] = self._rules.changes()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        """Build and validate a state; raises ValueError naming what makes it impossible."""
        from .validate import state_from_dict  # circle: leaves.state and leaves.validate

        return state_from_dict(d)


_Draft = draft_of(State)
"""A ``State`` being made: ``_build``, ``apply`` and the moves of ``leaves.moves`` write its
fields, then set its class to ``State``."""

# The writes to a finished state: the caches ``legal_actions`` and ``_position_key`` fill
# (through their slots, the cheapest way past ``State.__setattr__``), the history
# ``_unpickle`` restores.
_set_legal = State._legal.__set__
_set_key = State._key.__set__
_set_history = State._history.__set__


def _held(rows: list[list[Any]], deck: tuple[int, ...], undealt: list[int]) -> None:
    """Refuse hands that each fit the deck (``from_dict`` names one that does not) but hold
    more of a value together, leaving ``undealt`` (the rest) below 0: 'the hands hold 9 ...'."""
    v = next((i for i in range(N_VALUES) if undealt[i] < 0), None)
    fit = v is not None and all(len(h) == N_VALUES for h in rows)  # 13 counts, each in the deck
    if fit and all(isinstance(c, Integral) and not isinstance(c, bool) and 0 <= c <= deck[i]
                   for h in rows for i, c in enumerate(h)):  # fmt: skip
        raise ValueError(
            f"the hands hold {deck[v] - undealt[v]} cards of value {v + 1}; the deck has {deck[v]}"
        )


def _unpickle(d: dict[str, Any], moves: list[tuple[int, int]]) -> State:
    """``State.__reduce__``'s inverse: the position from its dict form, with its history."""
    state = State.from_dict(d)
    history = None
    for seat, aid in moves:
        history = (history, seat, aid)
    _set_history(state, history)
    return state


def new_game(
    n_players: int,
    seed: SeedLike = None,
    first_player: int | None = None,
    hand_size: int | None = None,
    rules: Any = DEFAULT_RULES,
) -> State:
    """Shuffle and deal a new game under ``rules`` (any form ``Rules.of`` reads, e.g.
    ``"turn_limit=50"``; today's by default), drawing the deal then the first player from
    ``seed``.

    ``n_players`` must be a count the rules allow (3..6 today). ``hand_size``, when given,
    changes that key of ``rules`` for this game (a hand size given this way allows any count
    from 2 to 6 the deck can deal).
    """
    if isinstance(n_players, bool) or not isinstance(n_players, Integral):
        raise TypeError(f"n_players must be an integer, got {shown(n_players)}")
    n_players = int(n_players)
    rules = Rules.of(rules)
    if hand_size is not None and (
        isinstance(hand_size, bool) or not isinstance(hand_size, Integral)
    ):
        raise TypeError(f"hand_size must be a whole number of cards, got {shown(hand_size)}")
    if hand_size is not None and not (
        n_players in rules.players and hand_size == rules.hand_size_for(n_players)
    ):
        if not FEWEST_PLAYERS <= n_players <= MOST_PLAYERS:  # no rules deal such a table
            said = shown(n_players, typed=False)
            raise ValueError(
                f"n_players must be {FEWEST_PLAYERS}..{MOST_PLAYERS} with a hand_size given, "
                f"got {said}"
            )
        if hand_size < 1 or n_players * hand_size > rules.deck_size:
            raise ValueError(
                f"cannot deal {hand_size} cards to each of {n_players} players "
                f"from {rules.deck_size}"
            )
        rules = rules.replace(hand_size={n_players: hand_size}, players=(n_players,))
    hand = rules.hand_size_for(n_players)
    rng = as_generator(seed)
    hh, undealt = deal_packed(n_players, rng, hand, rules.deck)
    if first_player is None:
        first_player = int(rng.integers(n_players))
    else:
        first_player = check_seat(first_player, n_players, "first_player")
    return State._build(
        n=n_players,
        hh=hh,
        table=0,
        lo=-1,
        hi=-1,
        removed=0,
        undealt=undealt,
        kk=0,
        passed=0,
        cur=int(first_player),
        winner=-1,
        turn=0,
        round=1,
        limit=rules.turn_limit,
        rules=rules,
    )
