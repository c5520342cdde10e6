"""The shape of a round record, checked before it is replayed.

A record is read from a file anyone may have edited, so every field is checked for what the
pinned format says it holds (``docs/ligretto-rules.md``, "Round records") before the replay
trusts it: a short deal, a seat that is not at the table or a card id that names no card is
said in one line, in the game's words, never as the Python error it would otherwise cause.
"""

from __future__ import annotations

import json
from typing import Any

from gamekit.errors import shown as one_line
from gamekit.seed_check import MAX_SEED

from .rules import (
    ENDED_UNFINISHED,
    MAX_ROUND_MS,
    SET_SIZE,
    STACK_SIZE,
    card_name,
    check_players,
    row_size,
)

__all__ = ["KINDS", "RecordError", "check_event", "check_fields", "counted", "shown"]

KINDS = ("stack", "row", "hand", "flip", "recycle", "fail")
"""An event's kinds, as the format lists them."""


class RecordError(ValueError):
    """A record that does not replay under the rules (the message says where)."""


def whole(value: Any) -> bool:
    """A JSON whole number (true and false are not numbers, 3.0 is not a whole one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: Any) -> str:
    """A value as the record's JSON spells it, compact as its line holds it
    (``[10,0,"row",5,0]``), where ``gamekit.errors.shown`` writes it out whole; else as that
    shows any bad value: cut short, a long number by its digits, on one line (never a
    screenful, nor an error raised by writing it)."""
    text = one_line(value, typed=False, as_json=True)
    try:
        written = text == json.dumps(value)  # nothing cut, nothing said in words
        return json.dumps(value, separators=(",", ":")) if written else text
    except Exception:  # noqa: BLE001 - no JSON value, or none Python writes: shown's words
        return text


def _number(name: str, value: Any, low: int) -> int:
    if not whole(value):
        raise RecordError(f"{name} is {shown(value)}, not a whole number")
    if value < low:
        raise RecordError(f"{name} is {shown(value)}, not at least {low}")
    return value


def counted(n: int, one: str, many: str) -> str:
    """A count with its noun, singular for one: '1 entry', '3 entries' (never '1 entries')."""
    return f"{n} {one if n == 1 else many}"


def _seat_lists(name: str, value: Any, n: int) -> list[Any]:
    """``value`` is a list with one entry per seat."""
    if not isinstance(value, list):
        raise RecordError(f"{name} is {shown(value)}, not a list with one entry per seat")
    if len(value) != n:
        raise RecordError(f"{name} has {counted(len(value), 'entry', 'entries')}, one per seat "
                          f"of the {n} players")  # fmt: skip
    return value


def card(name: str, value: Any) -> int:
    """A card id: a whole number 0..39."""
    if not whole(value) or not 0 <= value < SET_SIZE:
        raise RecordError(f"{name} is {shown(value)}, not a card id (0 to {SET_SIZE - 1})")
    return value


def _deal(deal: Any, n: int) -> None:
    """Each seat's own 40 cards, each once, in dealt order."""
    k = row_size(n)
    for s, order in enumerate(_seat_lists("deal", deal, n)):
        if not isinstance(order, list):
            raise RecordError(f"deal: seat {s}'s is {shown(order)}, not a list of card ids")
        if len(order) != SET_SIZE:
            raise RecordError(
                f"deal: seat {s} is dealt {counted(len(order), 'card', 'cards')}, not its own "
                f"{SET_SIZE} (stack of "
                f"{STACK_SIZE}, row of {k}, hand of {SET_SIZE - STACK_SIZE - k})"
            )
        seen: set[int] = set()
        for i, c in enumerate(order):
            if card(f"deal: seat {s}'s card {i}", c) in seen:
                raise RecordError(f"deal: seat {s} holds {card_name(c)} twice (each card once)")
            seen.add(c)


def _recycled(recycled: Any, n: int) -> None:
    """Per seat, each recycled hand (a list of card ids, top first)."""
    for s, hands in enumerate(_seat_lists("recycled", recycled, n)):
        if not isinstance(hands, list):
            raise RecordError(f"recycled: seat {s}'s entry is {shown(hands)}, not a list of hands")
        for h, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise RecordError(f"recycled: seat {s}'s hand {h} is {shown(hand)}, not a list "
                                 "of card ids")  # fmt: skip
            for c in hand:
                card(f"recycled: seat {s}'s hand {h}: a card", c)


def check_fields(record: Any) -> None:
    """Every field of ``record`` (a ``RoundRecord``) holds what the format says; raises
    ``RecordError`` naming the first that does not (events one by one: ``check_event``)."""
    n = _number("players", record.players, 0)
    try:
        check_players(n)  # the rules' one sentence of the counts Ligretto is played by
    except ValueError as exc:
        raise RecordError(f"players: {exc}") from None
    size = _number("row_size", record.row_size, 0)
    if size != row_size(n):
        raise RecordError(f"row_size is {shown(size)}, but {n} players have a row of "
                          f"{row_size(n)}")  # fmt: skip
    if not whole(record.seed) or not 0 <= record.seed <= MAX_SEED:
        raise RecordError(f"seed is {shown(record.seed)}, not a deal seed (0 to 2**64 - 1)")
    for s, label in enumerate(_seat_lists("strategies", record.strategies, n)):
        if not isinstance(label, str):
            raise RecordError(f"strategies: seat {s}'s is {shown(label)}, not a label (text)")
    _deal(record.deal, n)
    if not isinstance(record.events, list):
        raise RecordError(f"events is {shown(record.events)}, not a list of events")
    _recycled(record.recycled, n)
    ended = record.ended_by
    if ended is not None and not (whole(ended) and (0 <= ended < n or ended == ENDED_UNFINISHED)):
        raise RecordError(f"ended_by is {shown(ended)}, neither a seat (0 to {n - 1}) whose stack "
                          f"emptied nor null (a blockade) nor {ENDED_UNFINISHED} (stopped at a "
                          "limit)")  # fmt: skip
    for name in ("stack_left", "centre_cards", "scores"):
        for s, v in enumerate(_seat_lists(name, getattr(record, name), n)):
            if not whole(v):
                raise RecordError(f"{name}: seat {s}'s is {shown(v)}, not a whole number")


def check_event(ev: Any, n: int, after_ms: int) -> tuple[int, int, str, int, int]:
    """The fields of one event, ``[time_ms, seat, kind, card_id, pile]``, checked against a
    table of ``n`` seats and the time of the event before (``after_ms``)."""
    if not isinstance(ev, list) or len(ev) != 5:
        what = counted(len(ev), "field", "fields") if isinstance(ev, list) else "no list"
        raise RecordError(f"{what}, but an event is the 5 fields [time_ms, seat, kind, card_id, "
                          "pile]")  # fmt: skip
    t, seat, kind, c, pile = ev
    _number("time_ms", t, 0)
    if t > MAX_ROUND_MS:  # the loop never resolves an action due past the limit
        raise RecordError(f"time_ms is {shown(t)}, past the {MAX_ROUND_MS} ms a round may last")
    if t < after_ms:
        raise RecordError(f"at {t} ms it comes before the event above it ({after_ms} ms): events "
                         "are listed in the order they resolved")  # fmt: skip
    if not whole(seat) or not 0 <= seat < n:
        raise RecordError(f"seat {shown(seat)} is not at this table of {n} (seats 0 to {n - 1})")
    if kind not in KINDS:
        raise RecordError(f"kind {shown(kind)} is none of {', '.join(KINDS)}")
    if kind in ("flip", "recycle"):
        if c != -1 or pile != -1 or not (whole(c) and whole(pile)):
            raise RecordError(f"a {kind} has card_id -1 and pile -1")
        return t, seat, kind, c, pile
    card("card_id", c)
    if not whole(pile) or pile < 0:
        raise RecordError(f"pile is {shown(pile)}, not a centre pile (a whole number from 0)")
    return t, seat, kind, c, pile
