"""The Python round loop: real time over the immutable ``State``, any ``Player`` objects.

Each seat holds one pending action: decided when its previous action resolved, from what the
seat saw then, and due after the reaction time its model draws. The earliest due action
resolves next (equal times: the smaller seeded tie key first, never the seat number). A play
whose pile no longer takes the card fails and its time is spent. The round ends when a stack
empties or at a true blockade (or stops unfinished at a safety limit, ``MAX_ROUND_MS``).
``ligretto.compiled`` is the same loop in numba.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any, NamedTuple, Protocol

from .record import RoundRecord, record_end
from .rng import POLICY, RECYCLE, TIME, SplitMix, check_seed, shuffled, stream_seed
from .rules import (
    ENDED_BLOCKADE,
    ENDED_UNFINISHED,
    MAX_ACTIONS,
    MAX_ROUND_MS,
    SET_SIZE,
    card_name,
    check_players,
    row_size,
    takes,
    value_of,
    whole_number,
)
from .state import SOURCES, IllegalMove, PlayerView, State, check_deal, deal_orders
from .timing import ReactionModel

__all__ = ["Decision", "Player", "RoundOutcome", "play_round", "PlayerError", "not_a_player"]


class Decision(NamedTuple):
    """What a player does next: ``kind`` "stack", "row" or "hand" (a play of ``card`` from
    row ``slot`` onto ``pile``, -1 starting a pile), "flip" or "wait"; ``looked``: how many
    cards it looked at (it costs time)."""

    kind: str
    slot: int = -1
    card: int = -1
    pile: int = -1
    looked: int = 0


class Player(Protocol):
    """A Ligretto player: a reaction-time model and a decision from a view."""

    reaction: ReactionModel

    def decide(self, view: PlayerView, rng: SplitMix) -> Decision: ...


class PlayerError(RuntimeError):
    """A player returned something the rules do not allow (the seat is in ``seat``)."""

    def __init__(self, seat: int, message: str):
        super().__init__(f"seat {seat}: {message}")
        self.seat = seat
        self.message = message  # what went wrong, without the seat


@dataclass
class RoundOutcome:
    """A finished round: final state, who ended it, scores, and its record."""

    state: State
    ended_by: int  # seat whose stack emptied, ENDED_BLOCKADE (-1) or ENDED_UNFINISHED (-2)
    time_ms: int
    events: list[list[Any]] = field(default_factory=list)
    record: RoundRecord | None = None

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores()


_NUMBERS = ("slot", "card", "pile", "looked")
"""A ``Decision``'s fields that must hold integers."""


def _check(view: PlayerView, d: Any, seat: int) -> Decision:
    """The decision, checked against what the seat sees (PlayerError: its seat forfeits), with
    plain ints: numpy's are integers too, and the record's JSON holds no numpy value."""
    if not isinstance(d, Decision):
        raise PlayerError(seat, f"decide must return a Decision, got {d!r}")
    for name, value in zip(_NUMBERS, d[1:], strict=True):
        if type(value) is not int and (isinstance(value, bool) or not isinstance(value, Integral)):
            raise PlayerError(seat, f"a Decision's {name} must be an integer, got {value!r}")
    if d.kind in SOURCES:
        card = {"stack": view.stack_top, "hand": view.hand_top}.get(d.kind)
        if d.kind == "row":
            if not 0 <= d.slot < len(view.row):
                raise PlayerError(seat, f"no row slot {d.slot}")
            card = view.row[d.slot]
        if card is None or card < 0 or card != d.card:
            named = f" ({card_name(d.card)})" if 0 <= d.card < SET_SIZE else ""
            raise PlayerError(seat, f"{d.kind} does not show card {d.card}{named}")
        if value_of(card) == 1:
            if d.pile != -1:
                raise PlayerError(seat, "a 1 starts a new pile: pile must be -1")
        elif not 0 <= d.pile < len(view.pile_tops):
            raise PlayerError(seat, f"no centre pile {d.pile}")
        elif not takes(view.pile_tops[d.pile], card):  # else its "fail" says a lost race
            raise PlayerError(seat, f"pile {d.pile} does not take {card_name(card)}")
    elif d.kind == "flip":
        if not view.can_flip:
            raise PlayerError(seat, "no hand cards to turn")
    elif d.kind != "wait":
        raise PlayerError(seat, f"unknown decision kind {d.kind!r}")
    if int(d.looked) < 0:
        raise PlayerError(seat, "looked must be at least 0")
    return Decision(d.kind, *(int(v) for v in d[1:]))


def _duration(player: Player, seat: int, looked: int, flip: bool, rng: SplitMix) -> int:
    """The reaction time a seat's model draws: whole milliseconds, at least 1 (a player's own
    model giving anything else forfeits, as a bad decision does: at 0 ms or less the round
    would never advance, and a fraction is no time a record holds)."""
    try:
        reaction = player.reaction
    except Exception as exc:  # a player's own code raising for its model: its seat forfeits
        raise PlayerError(seat, f"reaction: {type(exc).__name__}: {exc}") from exc
    try:
        dur = reaction.duration(looked, flip, rng)
    except Exception as exc:  # a player's own timing model failing: its seat forfeits
        raise PlayerError(seat, f"reaction.duration: {type(exc).__name__}: {exc}") from exc
    if isinstance(dur, bool) or not isinstance(dur, Integral) or dur < 1:
        raise PlayerError(seat, f"reaction.duration must give whole milliseconds of at least 1, "
                                f"got {dur!r}")  # fmt: skip
    return int(dur)


def _labels(labels: Any, players: Sequence[Player]) -> list[str]:
    """The record's label per seat: those given (one text per seat), else each player's own
    ``label`` (a strategy's) or its class name, never a repr naming a memory address."""
    n = len(players)
    if labels is None:
        return [p.label if isinstance(getattr(p, "label", None), str) else type(p).__name__
                for p in players]  # fmt: skip
    if isinstance(labels, str | bytes) or not isinstance(labels, Sequence):
        raise TypeError(f"labels must be a list of texts, one per seat, got {labels!r}")
    if len(labels) != n:
        raise ValueError(f"labels must hold one label per seat of the {n} players, "
                         f"got {len(labels)}")  # fmt: skip
    for s, label in enumerate(labels):
        if not isinstance(label, str):
            raise TypeError(f"labels: seat {s}'s label must be text, got {label!r}")
    return list(labels)


def not_a_player(player: Any) -> str | None:
    """Why ``player`` is no Player (a ``decide`` method and a reaction-time model, one with a
    ``duration`` method, as ``reaction``), in words; None when it is one. A ``reaction`` that
    raises is the player's own code raising, as a ``decide`` that raises is: not a reason here,
    its seat forfeits the round when it first draws a time. A strategy whose class says it
    cannot play (``cannot_play``: a ``LigrettoStrategy`` with neither ``decide`` nor a policy)
    would forfeit every round: it is refused for its class's reason, asked duck-typed (the
    engine imports no strategy class)."""
    if not callable(getattr(player, "decide", None)):
        return "no decide method"
    cannot_play = getattr(type(player), "cannot_play", None)
    why = cannot_play() if callable(cannot_play) else None
    if why is not None:
        return why
    try:
        reaction = player.reaction
    except AttributeError:
        return "no reaction-time model as reaction"
    except Exception:  # its own code raising: a forfeit, in the round
        return None
    if not callable(getattr(reaction, "duration", None)):
        return (f"its reaction ({type(reaction).__name__}) is no reaction-time model (one "
                "with a duration method, as ligretto.ReactionModel)")  # fmt: skip
    return None


def _check_players(players: Sequence[Player]) -> None:
    """A table of 2 to 12 objects that each decide and have a reaction-time model."""
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise TypeError(f"players must be a sequence of players, got {players!r}")
    check_players(len(players))
    for s, p in enumerate(players):
        why = not_a_player(p)
        if why is not None:
            raise TypeError(f"players: seat {s}'s {p!r} is no Player ({why})")


class _Round:
    """The Python path's round in play: the state, each seat's pending action (due time,
    seeded tie key, decision) and random streams, and what the record needs."""

    def __init__(self, players: Sequence[Player], state: State, play_seed: int):
        n = len(players)
        self.players = players
        self.state = state
        self.time_rng = [SplitMix(stream_seed(play_seed, s, TIME)) for s in range(n)]
        self.recycle_rng = [SplitMix(stream_seed(play_seed, s, RECYCLE)) for s in range(n)]
        self.policy_rng = [SplitMix(stream_seed(play_seed, s, POLICY)) for s in range(n)]
        self.pending: list[tuple[int, int, Decision]] = [(0, 0, Decision("wait"))] * n
        self.events: list[list[Any]] = []
        self.recycled: list[list[list[int]]] = [[] for _ in range(n)]

    def schedule(self, seat: int, now: int) -> None:
        """The seat decides from what it sees now; its action is timed."""
        view = self.state.view(seat)
        try:
            d = self.players[seat].decide(view, self.policy_rng[seat])
        except Exception as exc:  # a strategy's own bug: its seat forfeits the round
            raise PlayerError(seat, f"{type(exc).__name__}: {exc}") from exc
        d = _check(view, d, seat)
        rng = self.time_rng[seat]
        dur = _duration(self.players[seat], seat, int(d.looked), d.kind == "flip", rng)
        self.pending[seat] = (now + dur, rng.next(), d)

    def play(self, seat: int, now: int, d: Decision) -> int:
        """The seat's play lands or fails (someone was faster: the card stays, the time is
        spent); the seat that ended the round, ENDED_BLOCKADE or ENDED_UNFINISHED."""
        pile = len(self.state.piles) if value_of(d.card) == 1 else d.pile
        try:
            self.state = self.state.play(seat, d.kind, d.slot, pile)
        except IllegalMove:
            self.state = self.state.rest(seat)
            self.events.append([now, seat, "fail", d.card, d.pile])
            return ENDED_UNFINISHED
        self.events.append([now, seat, d.kind, d.card, pile])
        emptied = self.state.stack_emptied()
        if emptied is not None:
            return emptied
        return ENDED_BLOCKADE if self.state.is_blockade() else ENDED_UNFINISHED

    def flip(self, seat: int, now: int) -> None:
        """Turn hand cards, first recycling a used-up hand (its seeded order recorded)."""
        if not self.state.hands[seat]:
            order = shuffled(list(self.state.hand_piles[seat]), self.recycle_rng[seat])
            self.state = self.state.recycle(seat, order)
            self.recycled[seat].append(order)
            self.events.append([now, seat, "recycle", -1, -1])
        self.state = self.state.flip(seat).rest(seat)
        self.events.append([now, seat, "flip", -1, -1])

    def run(self, max_actions: int) -> tuple[int, int]:
        """Resolve actions in time order until the round ends: (ended_by, end time)."""
        n = len(self.players)
        if self.state.is_blockade():
            return ENDED_BLOCKADE, 0
        for s in range(n):
            self.schedule(s, 0)
        pending = self.pending
        ended, now, actions = ENDED_UNFINISHED, 0, 0
        while ended == ENDED_UNFINISHED and actions < max_actions:
            actions += 1
            seat = min(range(n), key=lambda s: (pending[s][0], pending[s][1]))
            if pending[seat][0] > MAX_ROUND_MS:  # stopped at the limit: it lasted that long
                now = MAX_ROUND_MS
                break
            now, _, d = pending[seat]
            if d.kind in SOURCES:
                ended = self.play(seat, now, d)
            elif d.kind == "flip":
                self.flip(seat, now)
            else:
                self.state = self.state.rest(seat)
            if ended == ENDED_UNFINISHED:
                self.schedule(seat, now)
        return ended, now


def _dealt(deal: Any, n: int) -> list[list[int]]:
    """A given deal, checked (``check_deal``) and for as many seats as there are players."""
    if isinstance(deal, str | bytes):
        raise TypeError(f"deal must hold each seat's 40 card ids, got {deal!r}")
    try:
        seats = list(deal)
    except TypeError:  # not a sequence at all
        raise TypeError(
            f"deal must hold each seat's 40 card ids, got {type(deal).__name__}"
        ) from None
    rows = []
    for seat, order in enumerate(seats):
        if isinstance(order, str | bytes) or not hasattr(order, "__iter__"):
            raise TypeError(
                f"deal must hold each seat's 40 card ids: seat {seat} holds {order!r}, not a "
                "list of card ids"
            )
        rows.append(list(order))
    orders = check_deal(rows)
    if len(orders) != n:
        raise ValueError(f"deal holds the cards of {len(orders)} seats, but {n} players play")
    return orders


def play_round(
    players: Sequence[Player],
    deal_seed: int,
    play_seed: int,
    record: bool = False,
    labels: Sequence[str] | None = None,
    max_actions: int = MAX_ACTIONS,
    deal: Sequence[Sequence[int]] | None = None,
) -> RoundOutcome:
    """Play one round of ``players`` (seat order) from two seeds, through the State API.

    ``deal`` (per seat, 40 card ids in dealt order) replaces the deal drawn from ``deal_seed``;
    ``labels`` name the seats in the record (default: each player's ``label``, else its class
    name). Seeds are whole numbers 0 to 2**64 - 1; bad input raises TypeError or ValueError.
    """
    deal_seed = check_seed(deal_seed, "deal_seed")
    play_seed = check_seed(play_seed, "play_seed")
    _check_players(players)
    n = len(players)
    labels = _labels(labels, players)
    if whole_number(max_actions, "max_actions") < 0:
        raise ValueError(f"max_actions must be at least 0, got {max_actions}")
    orders = _dealt(deal, n) if deal is not None else deal_orders(n, deal_seed)
    rnd = _Round(players, State.deal(orders), play_seed)
    ended, now = rnd.run(max_actions)
    state = rnd.state
    out = RoundOutcome(state=state, ended_by=ended, time_ms=now, events=rnd.events)
    if record:
        out.record = RoundRecord(
            players=len(players),
            row_size=row_size(len(players)),
            seed=int(deal_seed),
            strategies=labels,
            deal=orders,
            events=rnd.events,
            recycled=rnd.recycled,
            ended_by=record_end(ended),
            stack_left=list(state.stack_left()),
            centre_cards=list(state.centre_cards()),
            scores=list(state.scores()),
        )
    return out
