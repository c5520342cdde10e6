"""Round records in the pinned JSON-lines format, and a checked replay of them.

One JSON object per round with exactly the keys of the pinned format (``RECORD_KEYS``, in
that order): ``game`` "ligretto", ``players``, ``row_size``, ``seed`` (the deal seed),
``strategies``, ``deal`` (per seat the 40 card ids in dealt order), ``events`` (``[time_ms,
seat, kind, card_id, pile]`` in resolution order), ``recycled`` (per seat, each recycled hand
top first), ``ended_by`` (seat or null for a blockade), ``stack_left``, ``centre_cards``,
``scores``. Nothing else: the deal and the events say everything a replay needs (the play
seed, which drew the reaction times, is in the run's rows). ``replay`` rebuilds every state
card by card and checks each event and the totals against the rules.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .rules import card_name, row_size
from .state import SOURCES, IllegalMove, State

__all__ = ["RECORD_KEYS", "RoundRecord", "replay", "timeline", "RecordError"]

GAME = "ligretto"
RECORD_KEYS = (
    "game", "players", "row_size", "seed", "strategies", "deal", "events", "recycled",
    "ended_by", "stack_left", "centre_cards", "scores",
)  # fmt: skip
"""The keys of a round record, in the order the format lists them."""


class RecordError(ValueError):
    """A record that does not replay under the rules (the message says where)."""


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
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"not a JSON object: {e.msg}") from None
        if not isinstance(d, dict) or d.get("game") != GAME:
            raise RecordError('not a Ligretto round record ("game" must be "ligretto")')
        names = set(cls.__dataclass_fields__)
        missing = sorted(names - set(d))
        if missing:
            raise RecordError(f"record lacks {', '.join(missing)}")
        return cls(**{k: v for k, v in d.items() if k in names})


def replay(record: RoundRecord) -> list[State]:
    """Every state of the round, from the deal through each event; raises RecordError."""
    n = record.players
    if record.row_size != row_size(n):
        raise RecordError(f"row_size {record.row_size} is wrong for {n} players")
    try:
        state = State.deal(record.deal)
    except ValueError as e:
        raise RecordError(f"deal: {e}") from None
    states = [state]
    used = [0] * n
    for i, ev in enumerate(record.events):
        try:
            _time, seat, kind, card, pile = ev
            if kind in SOURCES:
                shown = state._card_at(seat, kind, _row_slot(state, seat, kind, card))
                if shown != card:
                    raise IllegalMove(f"seat {seat}'s {kind} does not show {card_name(card)}")
                state = state.play(seat, kind, _row_slot(state, seat, kind, card), pile)
            elif kind == "flip":
                state = state.flip(seat).rest(seat)
            elif kind == "recycle":
                order = record.recycled[seat][used[seat]]
                used[seat] += 1
                state = state.recycle(seat, order)
            elif kind == "fail":
                if state.accepts(pile, card):
                    raise IllegalMove(f"pile {pile} takes {card_name(card)}: the play cannot fail")
                state = state.rest(seat)
            else:
                raise IllegalMove(f"unknown kind {kind!r}")
        except (IllegalMove, ValueError, IndexError, TypeError) as e:
            raise RecordError(f"event {i} {ev}: {e}") from None
        if kind != "fail":
            states.append(state)
    ended = state.stack_emptied()
    if ended is None and not state.is_blockade():
        raise RecordError("the record stops before the round is over")
    if record.ended_by != ended:
        raise RecordError(f"ended_by is {record.ended_by}, the replay says {ended}")
    for name, got in (
        ("stack_left", state.stack_left()),
        ("centre_cards", state.centre_cards()),
        ("scores", state.scores()),
    ):
        if list(getattr(record, name)) != list(got):
            raise RecordError(f"{name} is {getattr(record, name)}, the replay says {list(got)}")
    return states


def _row_slot(state: State, seat: int, kind: str, card: int) -> int:
    if kind != "row":
        return 0
    try:
        return state.rows[seat].index(card)
    except ValueError:
        raise IllegalMove(f"seat {seat}'s row does not show {card_name(card)}") from None


def timeline(record: RoundRecord) -> list[str]:
    """The round as readable lines: who did what when, then the scores."""
    lines = [
        f"Ligretto, {record.players} players, row of {record.row_size}, seed {record.seed}",
        *(f"  seat {s}: {name}" for s, name in enumerate(record.strategies)),
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
    how = "blockade" if record.ended_by is None else f"seat {record.ended_by} emptied its stack"
    lines.append(f"round over: {how}")
    for s in range(record.players):
        lines.append(
            f"  seat {s} {record.strategies[s]}: {record.centre_cards[s]} in the centre, "
            f"{record.stack_left[s]} left in the stack -> {record.scores[s]} points"
        )
    return lines
