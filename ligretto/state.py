"""The immutable state of one Ligretto round and its transitions (the Python path).

A ``State`` holds every seat's Ligretto stack, row, face-down hand and face-up hand pile, and the
centre piles (each a run of ``(seat, card)`` from a 1 upwards). Transitions (``play``, ``flip``,
``recycle``) return a new state and never touch the old one; an illegal one raises
``IllegalMove``. ``view(seat)`` is what that seat may see. The compiled round loop
(``ligretto.compiled``) implements the same rules over arrays; a differential test compares them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gamekit.errors import shown

from .rng import DEAL, SplitMix, check_seed, shuffled, stream_seed
from .rules import (
    FLIP_COUNT,
    SET_SIZE,
    STACK_SIZE,
    card_name,
    check_players,
    colour_of,
    row_size,
    score,
    takes,
    value_of,
    whole_number,
)

__all__ = [
    "State",
    "PlayerView",
    "IllegalMove",
    "check_deal",
    "deal_orders",
    "SOURCES",
    "ended_words",
]

SOURCES = ("stack", "row", "hand")
"""Where a played card comes from (record kinds for successful plays)."""


class IllegalMove(ValueError):
    """A transition the rules do not allow (the message says why)."""


def ended_words(seat: int | None) -> str:
    """How a round ended: the seat whose stack emptied, or None for a blockade; the words a
    refused move and a record's replay both say, so the two say it alike."""
    if seat is None:
        return "a blockade (no seat can play any card)"
    return f"seat {seat} emptied its stack"


_BLOCKADE = f"the round is over: {ended_words(None)}"


def _piles(n: int) -> str:
    """The centre's ``n`` piles by number, for a message naming a pile that is not there."""
    return "no piles yet" if not n else "pile 0" if n == 1 else f"piles 0 to {n - 1}"


def deal_orders(n_players: int, deal_seed: int) -> list[list[int]]:
    """Each seat's shuffled own set, in dealt order (stack top first, row, hand top first)."""
    check_players(n_players)
    deal_seed = check_seed(deal_seed, "deal_seed")
    return [
        shuffled(list(range(SET_SIZE)), SplitMix(stream_seed(deal_seed, s, DEAL)))
        for s in range(n_players)
    ]


def check_deal(orders: Any) -> list[list[int]]:
    """Each seat's 40 card ids in dealt order, as ints (numpy's too; never 3.0 or True passing
    for 3 or 1), each card once, for 2 to 12 seats; else a one-line TypeError or ValueError."""
    if not isinstance(orders, list | tuple) or not all(isinstance(o, list | tuple) for o in orders):
        raise TypeError(f"orders must be a list of each seat's card ids, got {orders!r}")
    check_players(len(orders))
    cards = [[c if type(c) is int else whole_number(c, "a card id") for c in o] for o in orders]
    for s, order in enumerate(cards):
        if sorted(order) != list(range(SET_SIZE)):
            raise ValueError(f"seat {s}: a deal must hold each of the 40 card ids once")
    return cards


Pile = tuple[tuple[int, int], ...]  # (seat, card) from the 1 upwards

_STARTS = frozenset(c for c in range(SET_SIZE) if value_of(c) == 1)
"""The cards that start a pile (the 1s)."""
_TAKEN_ON = tuple(frozenset(c for c in range(SET_SIZE) if takes(top, c)) for top in range(SET_SIZE))
"""The cards a pile showing each card takes (``takes``, asked once for every pair)."""


@dataclass(frozen=True)
class State:
    """One round: per-seat tuples (stack top first, row by slot, hand top first, hand pile
    bottom first) and the centre piles in order of creation."""

    stacks: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    hand_piles: tuple[tuple[int, ...], ...]
    piles: tuple[Pile, ...] = ()
    idle: tuple[int, ...] = ()  # actions resolved since the seat's last successful play

    # ------------------------------------------------------------------ setup
    @classmethod
    def deal(cls, orders: list[list[int]]) -> State:
        """A fresh round from each seat's 40 cards in dealt order (see ``deal_orders``)."""
        orders = check_deal(orders)
        k = row_size(len(orders))
        return cls(
            stacks=tuple(tuple(o[:STACK_SIZE]) for o in orders),
            rows=tuple(tuple(o[STACK_SIZE : STACK_SIZE + k]) for o in orders),
            hands=tuple(tuple(o[STACK_SIZE + k :]) for o in orders),
            hand_piles=tuple(() for _ in orders),
            idle=tuple(0 for _ in orders),
        )

    @classmethod
    def new(cls, n_players: int, deal_seed: int) -> State:
        """A fresh round of ``n_players`` (2 to 12) dealt from ``deal_seed`` (0 to 2**64 - 1)."""
        return cls.deal(deal_orders(n_players, deal_seed))

    # ------------------------------------------------------------------ reading
    @property
    def n_players(self) -> int:
        return len(self.stacks)

    @property
    def row_size(self) -> int:
        return row_size(self.n_players)

    def check_seat(self, seat: int) -> int:
        """``seat`` as an int when it is a seat at this table (0 to n - 1; -1 is no seat, never
        the last one); else a one-line TypeError or ValueError."""
        if type(seat) is int and 0 <= seat < len(self.stacks):  # the common case, cheaply
            return seat
        n = len(self.stacks)
        if not 0 <= whole_number(seat, "seat") < n:
            said = shown(seat, typed=False)  # a number too long to write out: in words
            raise ValueError(f"seat must be 0 to {n - 1} at this table of {n}, got {said}")
        return int(seat)

    def stack_top(self, seat: int) -> int:
        """The face-up top of the seat's Ligretto stack (Interpretation L1), -1 when empty."""
        return self._stack_top(self.check_seat(seat))

    def _stack_top(self, seat: int) -> int:
        stack = self.stacks[seat]
        return stack[0] if stack else -1

    def hand_top(self, seat: int) -> int:
        """The playable top of the seat's hand pile, -1 when the pile is empty."""
        return self._hand_top(self.check_seat(seat))

    def _hand_top(self, seat: int) -> int:
        pile = self.hand_piles[seat]
        return pile[-1] if pile else -1

    def pile_top(self, pile: int) -> tuple[int, int]:
        """(colour, number) on top of centre pile ``pile`` (0 to the number of piles - 1)."""
        n = len(self.piles)
        if not 0 <= whole_number(pile, "pile") < n:
            said = shown(pile, typed=False)
            raise ValueError(f"pile must be a centre pile (the centre has {_piles(n)}), got {said}")
        card = self.piles[pile][-1][1]
        return colour_of(card), value_of(card)

    def accepts(self, pile: int, card: int) -> bool:
        """Does centre pile ``pile`` take ``card`` now? (Its colour, the next number; no pile
        there takes nothing.)"""
        if type(pile) is not int:  # numpy's ints too; a one-line TypeError for the rest
            pile = whole_number(pile, "pile")
        if not 0 <= pile < len(self.piles):
            return False
        return takes(self.piles[pile][-1][1], card)

    def target(self, card: int) -> int | None:
        """Where ``card`` fits: -1 starts a new pile (a 1), else the first pile taking it;
        None when no pile does (or ``card`` is -1, the views' "no card there")."""
        if card == -1:
            return None
        if value_of(card) == 1:
            return -1
        for i in range(len(self.piles)):
            if self.accepts(i, card):
                return i
        return None

    def fits(self, card: int) -> bool:
        return self.target(card) is not None

    def stack_left(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self.stacks)

    def centre_cards(self) -> tuple[int, ...]:
        counts = [0] * self.n_players
        for pile in self.piles:
            for seat, _ in pile:
                counts[seat] += 1
        return tuple(counts)

    def scores(self) -> tuple[int, ...]:
        """Round points per seat: +1 per own card in the centre, -2 per card left in the stack."""
        return tuple(
            score(c, s) for c, s in zip(self.centre_cards(), self.stack_left(), strict=True)
        )

    def stack_emptied(self) -> int | None:
        """The seat whose Ligretto stack is empty (the round is over), else None."""
        for s, stack in enumerate(self.stacks):
            if not stack:
                return s
        return None

    def accessible(self, seat: int) -> tuple[int, ...]:
        """Cards the seat could ever play without new centre cards: stack top, row, every
        hand card in any position (face down or on the hand pile)."""
        return self._accessible(self.check_seat(seat))

    def _accessible(self, seat: int) -> tuple[int, ...]:
        top = self._stack_top(seat)
        cards = [top] if top >= 0 else []
        cards += [c for c in self.rows[seat] if c >= 0]
        return tuple(cards) + self.hands[seat] + self.hand_piles[seat]

    def is_blockade(self) -> bool:
        """No player can play any card at all: the round ends early. (Asked before every
        action, so through the cards that fit now, not card by card through ``fits``.)"""
        fit = _STARTS.union(*(_TAKEN_ON[pile[-1][1]] for pile in self.piles))
        return all(fit.isdisjoint(self._accessible(s)) for s in range(self.n_players))

    def is_over(self) -> bool:
        return self.stack_emptied() is not None or self.is_blockade()

    def _check_going(self, blockade: bool = True) -> None:
        """Refuse an action once the round is over, as 13 Leaves' ``State.apply`` does after
        its end: a move then would change the scores of a finished round. ``blockade`` False
        leaves that test to the caller (a play in a blockade is refused by its card anyway)."""
        seat = self.stack_emptied()
        if seat is not None:
            raise IllegalMove(f"the round is over: {ended_words(seat)}")
        if blockade and self.is_blockade():
            raise IllegalMove(_BLOCKADE)

    def can_flip(self, seat: int) -> bool:
        seat = self.check_seat(seat)
        return bool(self.hands[seat] or self.hand_piles[seat])

    def cards_of(self, seat: int) -> list[int]:
        """Every card the seat owns, wherever it lies (40 of them, always)."""
        seat = self.check_seat(seat)
        centre = [c for pile in self.piles for s, c in pile if s == seat]
        return (
            list(self.stacks[seat])
            + [c for c in self.rows[seat] if c >= 0]
            + list(self.hands[seat])
            + list(self.hand_piles[seat])
            + centre
        )

    # ------------------------------------------------------------------ transitions
    def _set(self, field: str, seat: int, value: Any) -> tuple:
        items = list(getattr(self, field))
        items[seat] = value
        return tuple(items)

    def _card_at(self, seat: int, source: str, slot: int) -> int:
        if source == "stack":
            return self._stack_top(seat)
        if source == "row":
            if not 0 <= whole_number(slot, "slot") < len(self.rows[seat]):
                raise IllegalMove(f"seat {seat} has no row slot {shown(slot, typed=False)}")
            return self.rows[seat][slot]
        if source == "hand":
            return self._hand_top(seat)
        raise IllegalMove(f"unknown source {source!r} (stack, row or hand)")

    def play(self, seat: int, source: str, slot: int = 0, pile: int = -1) -> State:
        """Seat ``seat`` plays from ``source`` (row ``slot``) onto centre pile ``pile``.

        ``pile`` -1 (or ``len(piles)``) starts a new pile with a 1. A row card played is
        replaced at once by the top of the seat's Ligretto stack (Interpretation L2).
        """
        seat = self.check_seat(seat)
        self._check_going(blockade=False)
        pile = whole_number(pile, "pile")
        card = self._card_at(seat, source, slot)
        if card < 0:
            raise self._refused(f"seat {seat} has no card to play from its {source}")
        if value_of(card) == 1:
            if pile not in (-1, len(self.piles)):
                said = shown(pile, typed=False)
                raise IllegalMove(f"{card_name(card)} starts a new pile, not pile {said}")
            piles = self.piles + (((seat, card),),)
        else:
            if not self.accepts(pile, card):
                raise self._refused(self._not_taken(pile, card))
            piles = list(self.piles)
            piles[pile] = piles[pile] + ((seat, card),)
            piles = tuple(piles)
        new = replace(self, piles=piles, idle=self._set("idle", seat, 0))
        stack = self.stacks[seat]
        if source == "stack":
            return replace(new, stacks=self._set("stacks", seat, stack[1:]))
        if source == "row":
            row = list(self.rows[seat])
            row[slot] = stack[0] if stack else -1
            return replace(
                new,
                rows=self._set("rows", seat, tuple(row)),
                stacks=self._set("stacks", seat, stack[1:]),
            )
        return replace(new, hand_piles=self._set("hand_piles", seat, self.hand_piles[seat][:-1]))

    def _refused(self, why: str) -> IllegalMove:
        """A refused play: ``why``, or that the round is over in a blockade (no play fits
        then, and a player should hear that the round ended, not that this card does not)."""
        if self.is_blockade():
            return IllegalMove(_BLOCKADE)
        return IllegalMove(why)

    def _not_taken(self, pile: int, card: int) -> str:
        """Why ``card`` (not a 1) may not go on ``pile``, and which piles would take it."""
        name, n = card_name(card), len(self.piles)
        takers = [i for i in range(n) if self.accepts(i, card)]
        if not takers:
            where = "no pile takes it"
        elif len(takers) == 1:
            where = f"pile {takers[0]} takes it"
        else:
            where = f"piles {', '.join(map(str, takers[:-1]))} and {takers[-1]} take it"
        if pile in (-1, n):
            return f"a new pile (pile {pile}) does not take {name}: only a 1 starts one; {where}"
        if 0 <= pile < n:
            return f"pile {pile} does not take {name}; {where}"
        said = shown(pile, typed=False)
        return f"there is no pile {said} (the centre has {_piles(n)}); {where}"

    def flip(self, seat: int) -> State:
        """Turn the next 3 hand cards (fewer if fewer are left) onto the hand pile, as a block:
        the third ends on top."""
        seat = self.check_seat(seat)
        self._check_going()
        hand = self.hands[seat]
        if not hand:
            raise IllegalMove(f"seat {seat} has no face-down hand cards to turn (recycle first)")
        block = hand[:FLIP_COUNT]
        return replace(
            self,
            hands=self._set("hands", seat, hand[len(block) :]),
            hand_piles=self._set("hand_piles", seat, self.hand_piles[seat] + block),
        )

    def recycle(self, seat: int, order: tuple[int, ...] | list[int]) -> State:
        """The used-up hand: the hand pile becomes a new face-down hand in ``order`` (top
        first), which must be a reordering of the pile (Interpretation L3)."""
        seat = self.check_seat(seat)
        self._check_going()
        if not isinstance(order, list | tuple):
            raise TypeError(f"order must be a list or tuple of card ids, got {order!r}")
        order = [c if type(c) is int else whole_number(c, "a card id") for c in order]
        if self.hands[seat]:
            raise IllegalMove(f"seat {seat} still has face-down hand cards")
        if not self.hand_piles[seat]:
            raise IllegalMove(f"seat {seat} has no hand pile to recycle")
        if sorted(order) != sorted(self.hand_piles[seat]):
            raise IllegalMove(f"seat {seat}: a recycled hand must reorder its hand pile")
        return replace(
            self,
            hands=self._set("hands", seat, tuple(order)),
            hand_piles=self._set("hand_piles", seat, ()),
        )

    def rest(self, seat: int) -> State:
        """An action of ``seat`` that resolved without a play (flip, wait, or a lost race)."""
        seat = self.check_seat(seat)
        return replace(self, idle=self._set("idle", seat, self.idle[seat] + 1))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` (0 to n - 1) sees: face-up cards, its own hand pile, stack sizes."""
        seat = self.check_seat(seat)
        return PlayerView(
            seat=seat,
            n_players=self.n_players,
            pile_tops=tuple(pile[-1][1] for pile in self.piles),
            stack_tops=tuple(self._stack_top(s) for s in range(self.n_players)),
            stack_sizes=self.stack_left(),
            rows=self.rows,
            hand_tops=tuple(self._hand_top(s) for s in range(self.n_players)),
            hand_pile=self.hand_piles[seat],
            hand_left=len(self.hands[seat]),
            idle=self.idle[seat],
        )


@dataclass(frozen=True)
class PlayerView:
    """What one seat sees: every face-up card on the table, its own hand pile, stack sizes.

    Never a face-down card: no stack below its top, no face-down hand (only how many).
    """

    seat: int
    n_players: int
    pile_tops: tuple[int, ...]  # top card of each centre pile, in order of creation
    stack_tops: tuple[int, ...]  # -1: empty
    stack_sizes: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    hand_tops: tuple[int, ...]  # top of each seat's hand pile, -1: none
    hand_pile: tuple[int, ...]  # own hand pile, bottom first
    hand_left: int  # own face-down hand cards
    idle: int  # own actions since the last successful play

    @property
    def row(self) -> tuple[int, ...]:
        return self.rows[self.seat]

    @property
    def stack_top(self) -> int:
        return self.stack_tops[self.seat]

    @property
    def hand_top(self) -> int:
        return self.hand_tops[self.seat]

    @property
    def can_flip(self) -> bool:
        return bool(self.hand_left or self.hand_pile)

    def target(self, card: int) -> int | None:
        """-1 for a 1 (a new pile), the first pile taking ``card``, or None (also for -1, a
        view's "no card there": ``hand_top`` with an empty hand pile)."""
        if card == -1:
            return None
        if value_of(card) == 1:
            return -1
        for i, top in enumerate(self.pile_tops):
            if takes(top, card):
                return i
        return None
