"""Round records in the pinned JSON-lines format, and a checked replay of them.

One JSON object per round with exactly the keys of the pinned format (``RECORD_KEYS``, in
that order): ``game`` "ligretto", ``players``, ``row_size``, ``seed`` (the deal seed),
``strategies``, ``deal`` (per seat the 40 card ids in dealt order), ``events`` (``[time_ms,
seat, kind, card_id, pile]`` in resolution order), ``recycled`` (per seat, each recycled hand
top first), ``ended_by`` (seat, null for a blockade, or -2 for a round stopped unfinished at a
safety limit), ``stack_left``, ``centre_cards``, ``scores``. Nothing else: the deal and the
events say everything a replay needs (the play seed, which drew the reaction times, is in the
run's rows). ``replay`` rebuilds every state card by card and checks each event and the totals
against the rules.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from gamekit.text import printable

from .record_check import RecordError, check_event, check_fields, counted, shown
from .rules import (
    ENDED_BLOCKADE,
    ENDED_UNFINISHED,
    LIMIT_WORDS,
    card_name,
    value_of,
)
from .state import SOURCES, IllegalMove, State, ended_words

__all__ = ["RECORD_KEYS", "RoundRecord", "record_end", "replay", "timeline", "RecordError"]

GAME = "ligretto"
RECORD_KEYS = (
    "game", "players", "row_size", "seed", "strategies", "deal", "events", "recycled",
    "ended_by", "stack_left", "centre_cards", "scores",
)  # fmt: skip
"""The keys of a round record, in the order the format lists them."""


@dataclass
class RoundRecord:
    players: int
    row_size: int
    seed: int
    strategies: list[str]
    deal: list[list[int]]
    events: list[list[Any]]
    recycled: list[list[list[int]]]
    ended_by: int | None
    stack_left: list[int]
    centre_cards: list[int]
    scores: list[int]
    game: str = field(default=GAME)

    def to_json(self) -> str:
        d = asdict(self)
        return json.dumps({k: d[k] for k in RECORD_KEYS}, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> RoundRecord:
        if not isinstance(line, str | bytes | bytearray):
            raise TypeError(f"line must be text (one JSON object), got {type(line).__name__}")
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"not a JSON object: {e.msg}") from None
        if not isinstance(d, dict) or d.get("game") != GAME:
            raise RecordError('not a Ligretto round record ("game" must be "ligretto")')
        missing = [k for k in RECORD_KEYS if k not in d]
        if missing:
            raise RecordError(f"the record lacks {', '.join(missing)}")
        unknown = [k for k in d if k not in RECORD_KEYS]
        if unknown:  # the format is pinned: a misspelt key is said, not skipped
            raise RecordError(f"the record has {', '.join(map(shown, unknown))}, which the "
                              f"format does not (its keys: {', '.join(RECORD_KEYS)})")  # fmt: skip
        return cls(**d)


def replay(record: RoundRecord) -> list[State]:
    """Every state of the round, from the deal through each event; raises RecordError (one
    line, naming the field or the event and what is wrong with it); TypeError for no record."""
    _check_record(record)
    check_fields(record)
    states = [State.deal(record.deal)]  # check_fields: each seat's 40 cards, each once
    used = [0] * record.players
    over_at: int | None = -1 if states[0].is_over() else None  # the event that ended it
    last_ms = 0
    clock = _Clock(record.players)
    for i, ev in enumerate(record.events):
        try:
            if over_at is not None:
                after = "at the deal" if over_at < 0 else f"after event {over_at}"
                raise RecordError(
                    f"the round was over {after}: {ended_words(states[-1].stack_emptied())}"
                )
            last_ms, seat, kind, card, pile = check_event(ev, record.players, last_ms)
            clock.act(last_ms, seat, kind)
            state = _step(states[-1], record, used, seat, kind, card, pile)
        except (IllegalMove, RecordError) as e:
            raise RecordError(f"event {i} {shown(ev)}: {e}") from None
        if kind != "fail":
            states.append(state)
        if kind in SOURCES and state.is_over():
            over_at = i
    clock.close()
    state = states[-1]
    ended = _ended(state, record.ended_by)
    for seat, hands in enumerate(record.recycled):
        if len(hands) != used[seat]:
            raise RecordError(f"recycled: seat {seat} has {_hands(len(hands))} listed, but its "
                              f"events recycle {used[seat]}")  # fmt: skip
    if record.ended_by != ended:
        raise RecordError(f"ended_by is {shown(record.ended_by)}, the replay says {shown(ended)}")
    for name, got in (
        ("stack_left", state.stack_left()),
        ("centre_cards", state.centre_cards()),
        ("scores", state.scores()),
    ):
        if list(getattr(record, name)) != list(got):
            raise RecordError(f"{name} is {shown(getattr(record, name))}, the replay says "
                              f"{shown(list(got))}")  # fmt: skip
    return states


class _Clock:
    """The time model's order of one seat's actions (Interpretation L5): each takes at least
    1 ms, and a recycle is the first half of a turn-over, whose flip follows it at once."""

    def __init__(self, n: int):
        self.last: list[int | None] = [None] * n  # when each seat's last action resolved
        self.recycle: tuple[int, int] | None = None  # (ms, seat) of a recycle awaiting its flip

    def act(self, ms: int, seat: int, kind: str) -> None:
        if self.recycle is not None:
            if (ms, seat, kind) != (*self.recycle, "flip"):
                raise RecordError(self._unturned())
            self.recycle = None
            return
        before = self.last[seat]
        if before is not None and ms <= before:
            raise RecordError(f"seat {seat} acted at {before} ms already: an action takes at "
                              "least 1 ms")  # fmt: skip
        self.last[seat] = ms
        if kind == "recycle":
            self.recycle = (ms, seat)

    def close(self) -> None:
        """The events are over: a recycle cannot be their last."""
        if self.recycle is not None:
            raise RecordError(f"the record ends on {self._unturned()}")

    def _unturned(self) -> str:
        ms, seat = self.recycle or (0, 0)
        return (f"a recycle of seat {seat} at {ms} ms without the turn-over it begins (that "
                "seat's flip follows a recycle at once, at the same time)")  # fmt: skip


def _check_record(record: object) -> None:
    """A ``RoundRecord`` (a line of a file: ``RoundRecord.from_json``), else a TypeError."""
    if not isinstance(record, RoundRecord):
        raise TypeError(
            f"record must be a RoundRecord (RoundRecord.from_json reads one from a line), "
            f"got {type(record).__name__}"
        )


def record_end(ended: int) -> int | None:
    """A round's ``ended_by`` as the record writes it: the seat, null (None) for a blockade,
    ``ENDED_UNFINISHED`` (-2) for a round stopped at a safety limit (never null: not a
    blockade)."""
    return None if ended == ENDED_BLOCKADE else ended


def _ended(state: State, said: Any) -> int | None:
    """How the replayed round ended, as ``ended_by`` writes it; a round neither emptied nor
    blocked is one stopped at a limit, which only ``ended_by`` -2 may say."""
    seat = state.stack_emptied()
    if seat is not None or state.is_blockade():
        return seat
    if said != ENDED_UNFINISHED:
        raise RecordError(f"the record stops before the round is over (ended_by is {shown(said)}; "
                          f"{ENDED_UNFINISHED} marks a round stopped at a limit)")  # fmt: skip
    return ENDED_UNFINISHED


def _step(state: State, record: RoundRecord, used: list[int], seat: int, kind: str, card: int,
          pile: int) -> State:  # fmt: skip
    """The state after one checked event (a fail leaves it as it was but for the seat's
    idle count); raises IllegalMove when the rules do not allow it."""
    if kind in SOURCES:
        slot = _row_slot(state, seat, kind, card)
        if state._card_at(seat, kind, slot) != card:
            raise IllegalMove(f"seat {seat}'s {kind} does not show {card_name(card)}")
        return state.play(seat, kind, slot, pile)
    if kind == "flip":
        return state.flip(seat).rest(seat)
    if kind == "recycle":
        hands = record.recycled[seat]
        if used[seat] >= len(hands):
            raise IllegalMove(f"recycled: seat {seat} has {_hands(len(hands))} listed, fewer "
                              "than its events recycle")  # fmt: skip
        used[seat] += 1
        return state.recycle(seat, hands[used[seat] - 1])
    # a fail: a play that lost the race, of a card the seat still shows, to a pile that exists
    if card not in _face_up(state, seat):
        raise IllegalMove(f"seat {seat} shows no {card_name(card)} to try to play")
    if value_of(card) == 1:
        raise IllegalMove(f"{card_name(card)} starts a new pile: its play cannot fail")
    if not pile < len(state.piles):
        have = len(state.piles)
        raise IllegalMove(f"there is no pile {pile} yet (the centre has {have} pile"
                          f"{'' if have == 1 else 's'})")  # fmt: skip
    if state.accepts(pile, card):
        raise IllegalMove(f"pile {pile} takes {card_name(card)}: the play cannot fail")
    return state.rest(seat)


def _hands(n: int) -> str:
    return counted(n, "hand", "hands")


def _face_up(state: State, seat: int) -> tuple[int, ...]:
    """The cards ``seat`` may play: its stack top, its row and its hand-pile top."""
    return (state.stack_top(seat), *state.rows[seat], state.hand_top(seat))


def _row_slot(state: State, seat: int, kind: str, card: int) -> int:
    if kind != "row":
        return 0
    try:
        return state.rows[seat].index(card)
    except ValueError:
        raise IllegalMove(f"seat {seat}'s row does not show {card_name(card)}") from None


def timeline(record: RoundRecord) -> list[str]:
    """The round as readable lines: who did what when, then the scores (fields and events
    checked first: RecordError naming what is wrong, TypeError for no record)."""
    _check_record(record)
    check_fields(record)
    last_ms = 0
    for i, ev in enumerate(record.events):
        try:
            last_ms = check_event(ev, record.players, last_ms)[0]
        except RecordError as e:
            raise RecordError(f"event {i} {shown(ev)}: {e}") from None
    names = [printable(str(name)) for name in record.strategies]  # a label is shown, not obeyed
    lines = [
        f"Ligretto, {record.players} players, row of {record.row_size}, deal seed {record.seed}",
        *(f"  seat {s}: {name}" for s, name in enumerate(names)),
    ]
    for t, seat, kind, card, pile in record.events:
        stamp = f"{t / 1000:8.3f}s  seat {seat}"
        if kind in SOURCES:
            lines.append(f"{stamp}  plays {card_name(card)} from its {kind} onto pile {pile}")
        elif kind == "fail":
            lines.append(f"{stamp}  too slow: {card_name(card)} no longer fits pile {pile}")
        elif kind == "flip":
            lines.append(f"{stamp}  turns hand cards")
        else:
            lines.append(f"{stamp}  shuffles its used-up hand pile into a new hand")
    lines.append(_end_line(record.ended_by))
    for s in range(record.players):
        lines.append(
            f"  seat {s} {names[s]}: {record.centre_cards[s]} in the centre, "
            f"{record.stack_left[s]} left in the stack -> {_points(record.scores[s])}"
        )
    return lines


def _points(score: int) -> str:
    return f"{score} point" if abs(score) == 1 else f"{score} points"


def _end_line(ended: int | None) -> str:
    """The timeline's line on how the round ended."""
    if ended is None:
        return "round over: blockade"
    if ended == ENDED_UNFINISHED:
        return (f"round stopped unfinished at a safety limit ({' or '.join(LIMIT_WORDS)}), "
                "scored as it stands")  # fmt: skip
    return f"round over: {ended_words(ended)}"
