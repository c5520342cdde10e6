"""What one player may know: ``PlayerView`` and the determinizer ``sample_state``.

A view holds only public information plus the owner's hand (docs/rules.md, "What a player can
see"); it keeps no reference to the state it came from, so a strategy given a view cannot
reach hidden cards. Two states that differ only in hidden cards give equal views.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .actions import Action, shown
from .packed import LANE, MASK, join_lanes, pack, unpack
from .public import PublicFields
from .rules import N_VALUES


def draft_of(cls: type) -> type:
    """The class of ``cls`` instances being made: ``cls`` refuses every write (its
    ``__setattr__`` raises), its draft takes them at the speed of plain slots, and a made
    object leaves the draft by setting its ``__class__`` to ``cls`` (the same layout)."""
    return type(f"_{cls.__name__}Draft", (cls,), {
        "__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
        "__doc__": f"A {cls.__name__} being made; see ``leaves.view.draft_of``.",
    })  # fmt: skip


def check_seat(player: object, n: int, name: str = "player") -> int:
    """``player`` as a seat 0..n-1 (a plain int): the one check of a seat argument (called
    ``name`` in the message), so a numpy integer works, and a bool, a float, text or a seat
    out of range (-1 is not the last seat) is refused in one line."""
    if player.__class__ is int and 0 <= player < n:
        return player
    if isinstance(player, bool) or not isinstance(player, Integral):
        raise TypeError(f"{name} must be a seat number 0..{n - 1}, got {shown(player)}")
    if not 0 <= player < n:
        raise ValueError(f"{name} must be a seat 0..{n - 1}, got {shown(int(player), typed=False)}")
    return int(player)


class PlayerView(PublicFields):
    """Immutable information set of ``player``: own hand, public table, sizes and history."""

    __slots__ = (
        "player",
        "n_players",
        "current_player",
        "turn",
        "round",
        "turn_limit",
        "rules",
        "winner",
        "_hand",
        "_table",
        "_removed",
        "_known",
        "_sizes",
        "_passed",
        "_history",
        "_lo",
        "_hi",
        "_legal",
    )

    def __new__(cls, *_args: object, **_kwargs: object) -> PlayerView:
        """Refused: a view is what a state shows one seat (``_from_state`` makes it)."""
        raise TypeError("use state.view(seat) to make a PlayerView")

    @classmethod
    def _from_state(cls, state, player: int) -> PlayerView:
        if player.__class__ is not int or not 0 <= player < state._n:
            player = check_seat(player, state._n)
        v = _new(_ViewDraft)
        v.player = player
        v.n_players = state._n
        v.current_player = state._cur
        v.turn = state._turn
        v.round = state._round
        v.turn_limit = state._limit
        v.rules = state._rules
        v.winner = state.winner
        v._hand = (state._hh >> (LANE * player)) & MASK
        v._table = state._table
        v._removed = state._removed
        v._known = state._known
        v._sizes = state._sizes
        v._passed = state._passed
        v._history = state._history
        v._lo = state._lo
        v._hi = state._hi
        v._legal = None
        v.__class__ = cls
        return v

    # --------------------------------------------------------------- public information
    @property
    def hand(self) -> tuple[int, ...]:
        """Own cards per value (value 1 first)."""
        return unpack(self._hand)

    @property
    def hand_size(self) -> int:
        return self._sizes[self.player]

    @property
    def passed(self) -> tuple[bool, ...]:
        return tuple(bool(self._passed >> i & 1) for i in range(self.n_players))

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None or self.turn >= self.turn_limit

    def opponents_in_round(self) -> tuple[int, ...]:
        """Seats other than the owner that have not passed this round."""
        return tuple(
            i for i in range(self.n_players) if i != self.player and not (self._passed >> i & 1)
        )

    def unseen(self) -> tuple[int, ...]:
        """Cards the owner cannot place: in opponents' hands (beyond the known ones) or undealt."""
        deck = self.rules.deck
        hand = unpack(self._hand)
        table = unpack(self._table)
        removed = unpack(self._removed)
        known = [unpack(k) for i, k in enumerate(self._known) if i != self.player]
        return tuple(
            deck[v] - hand[v] - table[v] - removed[v] - sum(k[v] for k in known)
            for v in range(N_VALUES)
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """The owner's legal actions when it is their turn (empty otherwise)."""
        if self._legal is None:
            if self.current_player != self.player or self.is_terminal:
                legal = ()
            else:
                legal = self._public_state().legal_actions()
            object.__setattr__(self, "_legal", legal)  # the one cache a view fills
        return self._legal

    def _public_state(self):
        """A state with this view's public fields and own hand; other hands are placeholders.

        Only ``legal_actions`` of the owner is read from it, which depends on nothing hidden.
        """
        return self._state(self._hand << (LANE * self.player), 0, None)

    def _state(self, hh: int, undealt: int, history: tuple | None):
        """The ``State`` of this view's public fields with the hidden ones given: every
        seat's packed hands ``hh`` and the ``undealt`` pile."""
        from .state import State  # circle: leaves.state and leaves.view

        return State._build(
            n=self.n_players,
            hh=hh,
            table=self._table,
            lo=self._lo,
            hi=self._hi,
            removed=self._removed,
            undealt=undealt,
            kk=join_lanes(self._known),
            passed=self._passed,
            cur=self.current_player,
            winner=-1 if self.winner is None else self.winner,
            turn=self.turn,
            round=self.round,
            limit=self.turn_limit,
            rules=self.rules,
            history=history,
        )

    # --------------------------------------------------------------- determinization
    def sample_state(self, rng: np.random.Generator):
        """A full state consistent with this view, hidden cards dealt uniformly at random.

        Opponents keep their hand sizes and the cards they are known to hold; the remaining
        unseen cards are shuffled among their hidden slots and the undealt pile.
        """
        if not isinstance(rng, np.random.Generator):
            raise TypeError(
                f"rng must be a numpy Generator (np.random.default_rng), got {shown(rng)}"
            )
        pool = self.unseen()
        cards = np.repeat(np.arange(N_VALUES), pool)
        order = rng.permutation(len(cards))
        shuffled = cards[order]
        hands = []
        pos = 0
        for i in range(self.n_players):
            if i == self.player:
                hands.append(self._hand)
                continue
            known = self._known[i]
            hidden = self._sizes[i] - sum(unpack(known))
            part = np.bincount(shuffled[pos : pos + hidden], minlength=N_VALUES)
            pos += hidden
            hands.append(known + pack(part.tolist()))
        undealt = pack(np.bincount(shuffled[pos:], minlength=N_VALUES).tolist())
        return self._state(join_lanes(hands), undealt, self._history)

    # --------------------------------------------------------------- identity
    def _key(self) -> tuple:
        return (
            self.player, self.n_players, self.current_player, self.turn, self.round,
            self.turn_limit, self.rules, self.winner, self._hand, self._table, self._removed, self._known,
            self._sizes, self._passed, self.history,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name, value):
        raise AttributeError("PlayerView is immutable")

    def __delattr__(self, name):
        raise AttributeError("PlayerView is immutable")

    def __reduce__(self):
        return (_rebuilt, tuple(getattr(self, k) for k in PlayerView.__slots__))

    def __repr__(self) -> str:
        return (
            f"PlayerView(player={self.player}, turn={self.turn}, hand={list(self.hand)}, "
            f"stacks={list(self.stacks)}, hand_sizes={list(self._sizes)})"
        )


_new = object.__new__
_ViewDraft = draft_of(PlayerView)


def _rebuilt(*fields) -> PlayerView:
    """``PlayerView.__reduce__``'s inverse: the view of these slot values."""
    v = _new(_ViewDraft)
    for name, value in zip(PlayerView.__slots__, fields, strict=True):
        setattr(v, name, value)
    v.__class__ = PlayerView
    return v
