"""Game records: everything needed to reproduce a game, one JSON object a line.

A record keeps the dealt hands, the first player and the action ids, so ``replay`` rebuilds
every state with the rules core and refuses a record whose actions are illegal or whose stated
result does not match what the actions produce.

Long for one job: a record comes from anywhere (a file, a dict, numpy arrays), so each field
is made plain as JSON writes it and checked where it is read (``leaves.record_checks``), with
the one-line words a user acts on.
"""

from __future__ import annotations

import copy
import json
import numbers
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, NoReturn

from gamekit.errors import refuse_unknown_keys, shown
from gamekit.seed_check import check_seed as deal_seed

from .actions import IllegalActionError
from .record_checks import _check_deal, _check_fields, _check_unfinished, _named
from .rules import TURN_LIMIT
from .ruleset import Rules
from .state import State


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError("a game record's rules are read-only")


class ReadOnlyRules(dict):
    """A record's ``rules``: a dict (JSON, ``dataclasses.asdict``, pickling and copying take it
    as one) that refuses to change, with TypeError, as do the dicts and lists it holds
    (``_read_only``)."""

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))  # rebuilt whole: item by item would be refused

    def __hash__(self) -> int:  # a frozen record is hashable, its rules too
        return hash(_frozen(self))


class _ReadOnlyList(list):
    """A list in a record's rules (a deck): equal to the list it was, refusing to change."""

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __hash__(self) -> int:
        return hash(_frozen(self))


def _read_only(value: Any) -> Any:
    """Plain data (a record's rules) that refuses to change at every depth: numpy's values as
    Python's, every sequence but text as a list and a key of a number as its text, as its
    JSON reads back."""
    value = _unnumpied(value)
    if isinstance(value, Mapping):
        return ReadOnlyRules({_key(k): _read_only(v) for k, v in value.items()})
    if _listing(value):
        return _ReadOnlyList(_read_only(v) for v in value)
    return value


def _key(key: Any) -> Any:
    """A mapping's key as JSON writes it: a number (``{3: 12}``, a hand size by player
    count), True or None as its text; text and any other key as it is."""
    key = _unnumpied(key)
    return json.dumps(key) if key is None or isinstance(key, int | float) else key


def _thawed(value: Any) -> Any:
    """``_read_only``'s data as plain dicts and lists again: the caller's to change."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_thawed(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    """``value`` (plain data) as equal values hash: a dict as the set of its items."""
    if isinstance(value, Mapping):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _plain(value: Any) -> Any:
    """``value`` with numpy's scalars and arrays as Python's, and every sequence but text
    (a list, an ``array.array``, a deque) as a tuple (at every depth): what JSON writes and
    ``==`` compares."""
    kind = type(value)
    if kind is int or kind is str or value is None:  # the common case, cheaply
        return value
    value = _unnumpied(value)
    if _listing(value):
        if set(map(type, value)) <= _PLAIN:  # actions, a hand, labels: as they are, in C
            return tuple(value)
        return tuple([_plain(v) for v in value])
    return value


def _unnumpied(value: Any) -> Any:
    """A numpy scalar or array as Python's (``tolist``); any other value as it is."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return value.tolist()
    return value


def _listing(value: Any) -> bool:
    """Whether ``value`` is a sequence JSON writes as a list: not text, nor bytes (which
    iterate as numbers but are no list of them)."""
    if isinstance(value, list | tuple):
        return True
    return isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)


_PLAIN = {int, str, bool, float, type(None)}
"""The kinds ``_plain`` keeps as they are."""


@dataclass(frozen=True)
class GameRecord:
    """One finished (or unfinished) game, reproducible by ``leaves.replay``.

    Immutable: its sequences (``hands``, ``actions``, ``strategies``) are kept as tuples, given
    as any sequence but text (a list, a tuple, numpy's array, an ``array.array``), and its
    ``rules`` as a read-only dict (a copy of the mapping given, as its JSON reads back);
    ``to_dict`` gives them back as lists and a dict, the JSON form."""

    hands: tuple[tuple[int, ...], ...]
    first_player: int
    actions: tuple[int, ...]
    winner: int | None
    turns: int
    rounds: int
    seed: int | None = None
    """The deal seed of its hands and first player (``deal_state(n_players, seed, rules)`` of
    ``leaves.players.play`` deals them), as ``play_game``, ``play_batch`` and a tournament's
    ``--record`` write it; None for a game dealt otherwise (``new_game``'s seed is no deal
    seed). Kept as given, not dealt again to check the hands; with one, the hands must be a
    deal of its rules (as many as they allow players, each of their size), without one they
    may be any ``State.initial`` takes (a position set up by hand)."""
    strategies: tuple[str, ...] = ()
    turn_limit: int = TURN_LIMIT
    unfinished: bool = False
    forfeit_seat: int | None = None
    error: str | None = None
    stopped: str | None = None
    """Why the game was left before its end (e.g. "the player quit"), or None. Such a record
    is ``unfinished`` too, has no winner, and replays up to where it stopped."""
    rules: Mapping[str, Any] | None = None
    """The keys of ``leaves.Rules`` the game changed from today's rules (None: today's),
    read-only."""

    def __post_init__(self) -> None:
        # sequences but text (lists, numpy's arrays, array.array) become tuples, numpy's
        # scalars Python's; anything else is kept as given, for replay to name
        for name in _CONVERTED:
            value = getattr(self, name)
            if type(value) not in _PLAIN:  # the plain kinds are kept without a call
                object.__setattr__(self, name, _plain(value))
        if isinstance(self.rules, Mapping):
            object.__setattr__(self, "rules", _read_only(self.rules))

    def _fields(self) -> dict[str, Any]:
        """Its fields by name, as they are, but the rules as a plain dict."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["rules"] = _thawed(d["rules"])
        return d

    @property
    def n_players(self) -> int:
        return len(self.hands)

    def game_rules(self) -> Rules:
        """The rules the game was played under (its ``turn_limit`` included); ValueError when
        its ``rules`` name another turn limit than its ``turn_limit``."""
        rules = Rules.from_dict(self.rules)
        played = rules.replace(turn_limit=self.turn_limit)
        if "turn_limit" in (self.rules or {}) and rules.turn_limit != played.turn_limit:
            raise ValueError(
                f"its rules say turn_limit={rules.turn_limit}, its turn_limit is "
                f"{_named(self.turn_limit)}"
            )
        return played

    def initial_state(self) -> State:
        """The dealt position the game started from, under the record's rules."""
        return State.initial(self.hands, self.first_player, rules=self.game_rules())

    @classmethod
    def from_states(
        cls,
        initial: State,
        final: State,
        seed: int | None = None,
        strategies: list[str] | tuple[str, ...] = (),
        forfeit_seat: int | None = None,
        error: str | None = None,
        stopped: str | None = None,
    ) -> GameRecord:
        """Record the game that led from ``initial`` (a dealt position: a record keeps its
        hands and first player) to ``final`` (via ``final.history``); ``seed`` is the deal
        seed ``initial`` was dealt from, None when it was dealt otherwise (``new_game``'s seed
        is none) or set up by hand (``State.initial`` of any hands); ``stopped`` says why a
        game left before its end was (its record is unfinished). ValueError for a record
        ``replay`` would refuse."""
        for name, state in (("initial", initial), ("final", final)):
            if not isinstance(state, State):
                raise TypeError(f"{name} must be a leaves.State, got {shown(state)}")
        seed = None if seed is None else deal_seed(seed, "seed")  # a deal seed: the kernels'
        if isinstance(strategies, str) or not isinstance(strategies, Iterable):  # text: letters
            raise TypeError(f"strategies must list the seats' labels, got {shown(strategies)}")
        actions = tuple(a.id for _, a in final.history[len(initial.history) :])
        if not _leads_to(initial, actions, final):
            raise ValueError(
                "final did not come from initial: the actions of its history since initial "
                "do not lead from initial to it"
            )
        if not _dealt_position(initial):
            raise ValueError(
                "initial must be a game's dealt position (turn 0, nothing played, taken, "
                f"removed or passed), got {initial!r}: a record keeps its hands and first "
                "player only"
            )
        record = cls(
            hands=initial.hands,
            first_player=initial.current_player,
            actions=actions,
            winner=final.winner,
            turns=final.turn,
            rounds=final.round,
            seed=seed,
            strategies=tuple(strategies),
            turn_limit=initial.turn_limit,
            unfinished=final.unfinished or stopped is not None,
            forfeit_seat=forfeit_seat,
            error=error,
            stopped=stopped,
            rules=initial.rules.changes() or None,
        )
        _check_fields(record, initial.n_players)  # what replay would refuse is never written
        _check_deal(record, initial)
        _check_end(record, final)
        return record

    def to_dict(self) -> dict[str, Any]:
        """Plain data (its tuples as lists), as ``to_json`` writes it."""
        d = copy.deepcopy(self._fields())  # the caller's to change, as asdict's was
        for key in ("hands", "actions", "strategies"):
            if isinstance(d[key], tuple):
                d[key] = [list(x) if isinstance(x, tuple) else x for x in d[key]]
        for key in ("stopped", "rules"):
            if d[key] is None:
                del d[key]  # records of whole games under today's rules read as before
        return d

    def to_json(self) -> str:
        """One line of JSON (no newline inside)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        if not isinstance(d, dict):
            raise ValueError("a game record must be a JSON object")
        if "game" in d:  # a plug-in's record names its game; this game's records name none
            raise ValueError(f"a 13 Leaves game record names no game, this one names "
                             f"{_named(d['game'])} (its \"game\" key)")  # fmt: skip
        required = ("hands", "first_player", "actions", "winner", "turns", "rounds")
        missing = [k for k in required if k not in d]
        if missing:
            raise ValueError(f"game record is missing {', '.join(missing)}")
        keys = [f.name for f in fields(cls)]
        refuse_unknown_keys(d, keys, " in a game record (a later version's, or a typo)")
        return cls(**d)

    @classmethod
    def from_json(cls, line: str) -> GameRecord:
        if not isinstance(line, str | bytes | bytearray):
            raise TypeError(f"GameRecord.from_json reads one line of JSON text, got {shown(line)}")
        try:
            d = json.loads(line)
        except json.JSONDecodeError as exc:
            msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" a column
            raise ValueError(f"not a JSON game record: {msg} at column {exc.colno}") from None
        except UnicodeDecodeError:  # bytes that are no text
            raise ValueError("not a JSON game record: not UTF-8 text") from None
        except ValueError:  # Python reads no integer this long
            digits = sys.get_int_max_str_digits()
            raise ValueError(
                f"not a JSON game record: a number of more than {digits} digits"
            ) from None
        except RecursionError:
            raise ValueError(_TOO_DEEP) from None
        try:
            return cls.from_dict(d)
        except RecursionError:  # lists in lists, made plain level by level
            raise ValueError(_TOO_DEEP) from None


_TOO_DEEP = "not a JSON game record: lists or objects nested too deep to read"


def _dealt_position(state: State) -> bool:
    """Whether ``state`` is a game's first position, all a record keeps of one (its hands and
    first player): turn 0 of round 1, nothing played, taken, removed or passed. (Equal to
    ``State.initial`` of its hands, without the cost of building and checking that.)"""
    return (
        state.turn == 0 and state.round == 1 and state.winner is None and not state.stacks
        and not any(state.removed) and not any(state.passed) and not any(map(any, state.known))
    )  # fmt: skip


def _leads_to(initial: State, actions: tuple[int, ...], final: State) -> bool:
    """Whether ``actions`` played from ``initial`` reach the position ``final``."""
    state = initial
    try:
        for aid in actions:
            state = state.apply(aid)
    except IllegalActionError:
        return False
    return state == final


_CONVERTED = tuple(f.name for f in fields(GameRecord) if f.name != "rules")
"""The fields ``GameRecord.__post_init__`` makes plain (``_plain``): all but the rules."""


def replay(record: GameRecord, rules: Any = None) -> list[State]:
    """Every state of the recorded game, the dealt position first, under the record's rules.

    Raises ``IllegalActionError`` for an illegal action (naming the turn) and ``ValueError``
    when the record's stated winner, turns, rounds or ``unfinished`` (true of a game at its
    turn limit or stopped) differ from what its actions produce, when it says the game was cut
    short but its actions end it (a forfeit with its error may follow the last move: a seat
    that failed in ``end_game``),
    when the hands of a dealt record (one with a seed; a record of a position set up by hand has
    none) are not a deal of its rules, or when ``rules`` (the rules the caller
    expects, in any form ``Rules.of`` reads; the turn limit aside) differ from the record's.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(
            f"record must be a GameRecord (GameRecord.from_dict reads its dict form), "
            f"got {shown(record)}"
        )
    state = _dealt(record)
    if rules is not None and Rules.of(rules).replace(turn_limit=state.turn_limit) != state.rules:
        raise ValueError(f"the record was played under the rules {state.rules}, not {rules}")
    states = [state]
    for turn, aid in enumerate(record.actions):
        if isinstance(aid, bool) or not isinstance(aid, numbers.Integral):  # 1.5, "3": none
            raise ValueError(
                f"record action {turn} is {_named(aid)}, not an action id (a whole number)"
            )
        try:
            state = state.apply(int(aid))
        except (IllegalActionError, ValueError) as exc:
            at = f"turn {turn + 1}"  # as replays number turns
            at += "" if state.is_terminal else f" (seat {state.current_player} to move)"
            raise IllegalActionError(
                f"record action {turn} (id {_named(aid)}) is illegal at {at}: {exc}"
            ) from None
        states.append(state)
    _check_end(record, state)
    return states


def _dealt(record: GameRecord) -> State:
    """The record's dealt position, its fields and deal checked (``ValueError`` "bad record:
    ..." naming what is wrong)."""
    try:
        state = record.initial_state()
        _check_fields(record, state.n_players)
        _check_deal(record, state)
    except (TypeError, ValueError) as exc:  # e.g. a first player that is no seat number
        raise ValueError(f"bad record: {exc}") from None
    return state


def _check_end(record: GameRecord, state: State) -> None:
    """The record's stated result (winner, turns, rounds, a stop or a forfeit, unfinished)
    against ``state``, the position its actions reach: as ``replay`` refuses a record, so
    ``from_states`` refuses to write one."""
    cut_short = record.forfeit_seat is not None or record.stopped is not None
    if not cut_short and not state.is_terminal:  # first: an unfinished game has no winner
        raise ValueError("record ends before the game is over")
    # a seat that fails in end_game forfeits after the last move: its error says so
    after_end = record.stopped is None and record.error is not None
    if cut_short and state.is_terminal and not after_end:
        raise ValueError(
            "record says the game was cut short (a forfeit or a stop), but its actions end it"
        )
    if state.winner != record.winner:  # a game cut short has none either
        said = _named(record.winner)
        raise ValueError(f"record says winner {said}, its actions give {state.winner}")
    if state.turn != record.turns or state.round != record.rounds:
        raise ValueError(
            f"record says {_named(record.turns)} turns and {_named(record.rounds)} rounds, "
            "its actions give "
            f"{state.turn} and {state.round}"
        )
    _check_unfinished(record, state)


def read_records(path) -> list[GameRecord]:
    """All records of a JSON-lines file; ValueError names the bad line."""
    if not isinstance(path, str | os.PathLike):  # open(5) would read, then close, fd 5
        raise TypeError(f"read_records takes the path of a JSON-lines file, got {shown(path)}")
    out = []
    with open(path, encoding="utf-8") as fh:
        try:
            for i, line in enumerate(fh, 1):
                line = line.removeprefix(_BOM)  # a byte order mark is no record's
                if line.strip():
                    out.append(_record_line(path, i, line))
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not a text file of JSON lines (it is not UTF-8)") from None
    return out


_BOM = "\ufeff"
"""A byte order mark, as an editor begins a file with it: one may begin any line of a file
of records (files joined with ``cat``), and is no part of a record."""


def _record_line(path: Any, i: int, line: str) -> GameRecord:
    """The record of line ``i`` of the file ``path``; ValueError naming the line."""
    try:
        return GameRecord.from_json(line)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path}, line {i}: {exc}") from None
