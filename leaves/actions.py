"""Actions and their pinned integer encoding (docs/rules.md, "Action encoding")."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral

from gamekit.errors import shown

from .rules import MAX_COPIES, N_ACTION_IDS, N_ACTIONS, N_VALUES, PASS_ID, TAKE_BASE


class IllegalActionError(ValueError):
    """Raised by ``State.apply`` for an action the rules forbid; the message names the rule."""


class _ClassOnly:
    """A constructor reachable on the class only: ``Action.take(9)`` builds an action, while
    ``a.take`` on an action raises, so it can never pass for an attribute (``a.take - 1``
    would otherwise fail far from the mistake, on a function)."""

    def __init__(self, fn: Callable[..., Action], instead: str):
        self.fn = fn
        self.instead = instead
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Callable[..., Action]:
        if obj is not None:
            raise AttributeError(
                f"Action.{self.name} is a constructor, not an attribute of an action: "
                f"{self.instead}"
            )
        return self.fn


def _whole(x: object) -> bool:
    """``x`` is a whole number (numpy's too), not a bool: True is no card value nor count,
    but a flag passed by mistake."""
    return x.__class__ is int or (isinstance(x, Integral) and not isinstance(x, bool))


def _said(x: int) -> str:
    """A whole number ``x`` (numpy's too) out of range, as an error writes it: ``14``, not
    ``np.int64(14)``; a number past the digits Python writes out, in words (``shown``)."""
    return shown(int(x), typed=False)


def _number(text: str) -> int:
    """``text`` (spaces aside) as a number of ASCII digits: ``int`` alone would read "٣" as 3,
    "1_3" as 13 and "+3" as 3. A number past the digits ``int`` reads (4,300 unless set
    otherwise) is past every range an action takes: it comes back as the least number of as
    many digits, which an error says as it would say the number itself ("a whole number of
    about 5,000 digits"), not as text no action is read from."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"not a number: {shown(text, typed=False)}")
    digits = text.lstrip("0") or "0"  # "0009" is 9, however many zeros lead
    try:
        return int(digits)
    except ValueError:  # past the digits int() reads
        return 10 ** (len(digits) - 1)


class Action:
    """One move: play ``count`` cards of ``value``, or pass taking one card of ``value`` (or,
    under the rule variant ``take=nothing``, pass taking nothing: ``Action.pass_()``, id 117).

    Build one with ``Action.play(value, count)``, ``Action.take(value)``,
    ``Action.from_id(id)`` or ``Action.parse(text)`` (on the class: ``a.take`` on an action
    raises AttributeError). Read-only attributes of an action ``a``:

    - ``a.is_play`` / ``a.is_pass``: a play of cards from the hand, or a pass (which takes one
      card from the table);
    - ``a.value``: the card value (1..13) played, or taken by a pass (0 for ``pass_()``);
    - ``a.count``: the cards played (1..8); 0 on a pass;
    - ``a.taken``: on a pass the value taken (the same as ``a.value``); None on a play and on
      a pass that takes nothing;
    - ``a.id``: the pinned integer id (0..116, and 117 for ``pass_()``; ``int(a)`` gives it).

    Instances are interned (one object per id), immutable, hashable and ordered by id, so
    ``Action.from_id(i) is Action.from_id(i)`` and comparisons are cheap.
    """

    __slots__ = ("id", "is_pass", "is_play", "value", "count", "taken")
    id: int
    is_pass: bool
    is_play: bool
    value: int
    count: int
    taken: int | None

    def __new__(cls, *_args, **_kwargs):  # pragma: no cover - construction goes via factories
        raise TypeError("use Action.play(value, count), Action.take(value) or Action.from_id(id)")

    @classmethod
    def _make(cls, action_id: int) -> Action:
        self = object.__new__(cls)
        set_ = object.__setattr__
        set_(self, "id", action_id)
        play = action_id < TAKE_BASE
        value = action_id // MAX_COPIES + 1 if play else action_id - TAKE_BASE + 1
        value = 0 if action_id == PASS_ID else value
        set_(self, "is_pass", not play)
        set_(self, "is_play", play)
        set_(self, "value", value)
        set_(self, "count", action_id % MAX_COPIES + 1 if play else 0)
        set_(self, "taken", None if play or not value else value)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    def __delattr__(self, name):
        raise AttributeError("Action is immutable")  # one object per id: shared by every game

    def play(value: int, count: int) -> Action:
        """Play ``count`` (1..8) cards of ``value`` (1..13)."""
        try:
            if not _whole(value) or not _whole(count):
                raise TypeError
            if 1 <= value <= N_VALUES and 1 <= count <= MAX_COPIES:
                return _ACTIONS[(int(value) - 1) * MAX_COPIES + (int(count) - 1)]
        except TypeError:  # a float or text: the index, or the comparison, refused it
            raise TypeError(
                f"Action.play takes a whole card value 1..{N_VALUES} and count "
                f"1..{MAX_COPIES}, got value={shown(value, typed=False)}, "
                f"count={shown(count, typed=False)}"
            ) from None
        if not (1 <= value <= N_VALUES):
            raise ValueError(f"card value must be 1..{N_VALUES}, got {_said(value)}")
        raise ValueError(f"play count must be 1..{MAX_COPIES}, got {_said(count)}")

    play = _ClassOnly(play, "use a.is_play, a.count and a.value")

    def take(value: int) -> Action:
        """Pass, taking one card of ``value`` (1..13) from the table."""
        try:
            if not _whole(value):
                raise TypeError
            if 1 <= value <= N_VALUES:
                return _ACTIONS[TAKE_BASE + int(value) - 1]
        except TypeError:  # as in ``play``
            said = shown(value, typed=False)
            raise TypeError(
                f"Action.take takes a whole card value 1..{N_VALUES}, got {said}"
            ) from None
        raise ValueError(f"card value must be 1..{N_VALUES}, got {_said(value)}")

    take = _ClassOnly(take, "on a pass, a.taken (or a.value) is the card value taken")

    def pass_() -> Action:
        """Pass taking nothing: the pass of the rule variant ``take=nothing`` (id 117)."""
        return _ACTIONS[PASS_ID]

    pass_ = _ClassOnly(pass_, "use a.is_pass and a.taken (None: nothing taken)")

    def from_id(action_id: int) -> Action:
        """The action with pinned id ``action_id`` (0..117)."""
        try:
            if isinstance(action_id, bool) or action_id < 0:
                raise IndexError  # True is not id 1: a flag passed where an id was meant
            return _ACTIONS[action_id]
        except (IndexError, TypeError):
            raise ValueError(
                f"action id must be an integer 0..{N_ACTION_IDS - 1}, "
                f"got {shown(action_id, typed=False)}"
            ) from None

    from_id = _ClassOnly(from_id, "use a.id (or int(a)) for its id")

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the readable form back: ``"play 3x6"``, ``"pass, take 9"``, ``"take 9"``,
        ``"pass"`` (taking nothing) or an id."""
        if not isinstance(text, str):
            raise TypeError(f"Action.parse takes text such as 'play 3x6', got {shown(text)}")
        t = text.strip().lower()
        try:
            if t[:1].isdigit():
                return Action.from_id(_number(t))
            if t.startswith("play"):
                k, v = t[4:].split("x")
                return Action.play(_number(v), _number(k))
            if t == "pass":
                return Action.pass_()
            if t.startswith("pass"):
                t = t[4:].lstrip(" ,")
            if t.startswith("take"):
                return Action.take(_number(t[4:]))
        except ValueError as exc:
            if "must be" in str(exc):
                raise
        said = shown(text, typed=False)
        raise ValueError(f"cannot read an action from {said} (try 'play 3x6' or 'pass, take 9')")

    def __str__(self) -> str:
        if self.is_pass:
            return f"pass, take {self.value}" if self.value else "pass"
        return f"play {self.count}x{self.value}"

    def __repr__(self) -> str:
        return f"Action({self})"

    def __int__(self) -> int:
        return self.id

    __index__ = __int__

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Action) and other.id == self.id)

    def __lt__(self, other: Action) -> bool:
        if not isinstance(other, Action):
            return NotImplemented  # an action is ordered among actions only
        return self.id < other.id

    def __reduce__(self):
        return (Action.from_id, (self.id,))


_ACTIONS: tuple[Action, ...] = tuple(Action._make(i) for i in range(N_ACTION_IDS))
ACTIONS_BY_ID = _ACTIONS
"""Every action by id, 0..117 (the pass taking nothing included)."""
ALL_ACTIONS = _ACTIONS[:N_ACTIONS]
"""The 117 actions of today's rules, by id (``docs/rules.md``, "Action encoding")."""


def action_id(action: object) -> int:
    """The id of ``action``, given as an ``Action`` or an action id (an int, numpy's too):
    the slow path of ``State.apply`` and ``State.is_legal``, so a bool, a float, text or
    another game's object is refused in one line instead of failing deep inside."""
    if action.__class__ is int and 0 <= action < N_ACTION_IDS:  # an id, as replays give
        return action
    if isinstance(action, Action):
        return action.id
    if isinstance(action, Integral) and not isinstance(action, bool):
        return Action.from_id(action).id  # ValueError outside 0..117
    raise TypeError(
        f"action must be an Action or an action id 0..{N_ACTION_IDS - 1}, got {shown(action)}"
    )
