"""What a game record's fields must be, checked where a record is written or replayed: each
refusal one line, naming the field and what it holds, for the user to act on."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

from gamekit.errors import shown
from gamekit.seed_check import check_seed as deal_seed

from .rule_text import counts_text
from .state import State

if TYPE_CHECKING:
    from .record import GameRecord


def _check_unfinished(record: GameRecord, state: State) -> None:
    """The record's ``unfinished`` is true of a game at its turn limit or stopped (``state``
    its last), as ``from_states`` sets it: the refusal names what contradicts the flag."""
    if record.unfinished == (state.unfinished or record.stopped is not None):
        return
    if record.unfinished and state.is_terminal:  # won: at the limit it is unfinished
        raise ValueError("record says the game was unfinished, its actions give a finished game")
    if record.unfinished:  # cut short, not stopped: a seat forfeited before the end
        raise ValueError(
            f"record says the game was unfinished, but seat {record.forfeit_seat} forfeited it "
            f"after {state.turn} turns, short of its turn limit ({state.turn_limit}), and it "
            "names no stop: a game forfeited is finished"
        )
    if record.stopped is None:  # at the turn limit
        raise ValueError("record says the game was finished, its actions give an unfinished game")
    raise ValueError(f"record says the game was finished, but it stopped: {_named(record.stopped)}")


def _named(value: Any) -> str:
    """``value`` in an error's one line: its repr where that is one short line (5, 'no'),
    else ``shown``'s (one line, cut, its type named): a pandas Series' repr runs over lines.
    A record keeps its lists as tuples: they are named as the lists its JSON holds."""
    value = _as_read(value)
    plain, text = shown(value, typed=False), shown(value)
    return plain if plain == _spelled(value) else text


def _spelled(value: Any) -> str | None:
    """``value`` as Python writes it; None where it cannot (a number past the 4,300 digits
    Python writes, a failing repr): ``shown`` says those in words."""
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - any failure: the value is no short repr
        return None


def _as_read(value: Any) -> Any:
    """``value`` with its tuples as lists, at every depth: as a record's JSON reads."""
    if isinstance(value, tuple):
        return [_as_read(v) for v in value]
    return value


def _whole(x: Any) -> bool:
    return not isinstance(x, bool) and isinstance(x, numbers.Integral)


def _check_fields(record: GameRecord, n_players: int) -> None:
    """The record's fields besides the deal are of their kinds: a seed a deal seed (a whole number
    0 to 2**64 - 1, the kernels' rule and words, as ``from_states`` says them; or None), a
    winner and a forfeiting seat seats of the game (or None), turns, rounds and turn limit whole
    numbers >= 0, strategies labels (at most one a seat), an error and a reason for a stop in
    words (or None; an error only with a forfeiting seat), actions a sequence (a tuple, as the
    record keeps any but text; text is read action by action, and named), a flag True or False."""
    if record.seed is not None:
        try:
            deal_seed(record.seed, "seed")  # one rule and its words, as from_states says them
        except (TypeError, ValueError) as exc:
            raise ValueError(f"its {exc}") from None
    for what, seat in (("winner", record.winner), ("forfeiting seat", record.forfeit_seat)):
        if seat is not None and not (_whole(seat) and 0 <= seat < n_players):
            raise ValueError(f"its {what} is {_named(seat)}, not a seat 0..{n_players - 1}")
    for key in ("turns", "rounds", "turn_limit"):  # the limit's range: the rules check it
        count = getattr(record, key)
        if not (_whole(count) and count >= 0):
            raise ValueError(f"its {key} is {_named(count)}, not a whole number >= 0")
    labels = record.strategies
    if not (isinstance(labels, tuple) and len(labels) <= n_players
            and all(isinstance(x, str) for x in labels)):  # fmt: skip
        raise ValueError(
            f"its strategies are {_named(labels)}, not labels (text), at most one a seat"
        )
    error = record.error
    if error is not None and not isinstance(error, str):
        raise ValueError(f"its error is {_named(error)}, not words")
    if error is not None and record.forfeit_seat is None:
        raise ValueError("its error says why a seat forfeited, but no seat forfeited")
    stopped = record.stopped
    if stopped is not None and not (isinstance(stopped, str) and stopped.strip()):
        raise ValueError(f"its reason for stopping is {_named(stopped)}, not words")
    if not isinstance(record.actions, tuple | str):  # text is read action by action, and named
        raise ValueError(f"actions must be a list of action ids, got {_named(record.actions)}")
    if not isinstance(record.unfinished, bool):
        raise ValueError(f"unfinished must be True or False, got {_named(record.unfinished)}")


def _check_deal(record: GameRecord, state: State) -> None:
    """A dealt record's (one with a ``seed``) hands are a deal of its rules: as many hands as
    they allow players, each of the rules' size. A record with no seed may hold a position
    set up by hand, any that ``State.initial`` takes (any count from 2 to 6, any hands: an
    endgame, a two-player study), and is replayed as it is."""
    if record.seed is None:
        return
    _check_players(state)
    rules = state.rules
    size = rules.hand_size_for(state.n_players)
    if any(sum(h) != size for h in record.hands):
        raise ValueError(f"its hands are not {size} cards each, as its rules ({rules}) deal")


def _check_players(state: State) -> None:
    """The dealt game's hands are as many as its rules allow players: ``players=4`` deals no
    game of 3 hands."""
    allowed = state.rules.players
    if state.n_players not in allowed:
        raise ValueError(
            f"the game has {state.n_players} hands, but its rules ({state.rules}) allow "
            f"{counts_text(allowed)} players (its seed says they dealt it)"
        )
