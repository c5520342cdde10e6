"""Actions and their pinned integer encoding (docs/rules.md, "Action encoding")."""

from __future__ import annotations

from .rules import MAX_COPIES, N_ACTIONS, N_VALUES, TAKE_BASE


class IllegalActionError(ValueError):
    """Raised by ``State.apply`` for an action the rules forbid; the message names the rule."""


class Action:
    """One move: play ``count`` cards of ``value``, or pass taking one card of ``value``.

    Instances are interned (one object per id), immutable, hashable and ordered by id, so
    ``Action.from_id(i) is Action.from_id(i)`` and comparisons are cheap.
    """

    __slots__ = ("id", "is_pass", "value", "count")
    id: int
    is_pass: bool
    value: int
    count: int

    def __new__(cls, *_args, **_kwargs):  # pragma: no cover - construction goes via factories
        raise TypeError("use Action.play(value, count), Action.take(value) or Action.from_id(id)")

    @classmethod
    def _make(cls, action_id: int) -> Action:
        self = object.__new__(cls)
        set_ = object.__setattr__
        set_(self, "id", action_id)
        if action_id < TAKE_BASE:
            set_(self, "is_pass", False)
            set_(self, "value", action_id // MAX_COPIES + 1)
            set_(self, "count", action_id % MAX_COPIES + 1)
        else:
            set_(self, "is_pass", True)
            set_(self, "value", action_id - TAKE_BASE + 1)
            set_(self, "count", 1)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    @staticmethod
    def play(value: int, count: int) -> Action:
        """Play ``count`` (1..8) cards of ``value`` (1..13)."""
        if not (1 <= value <= N_VALUES):
            raise ValueError(f"card value must be 1..{N_VALUES}, got {value}")
        if not (1 <= count <= MAX_COPIES):
            raise ValueError(f"play count must be 1..{MAX_COPIES}, got {count}")
        return _ACTIONS[(value - 1) * MAX_COPIES + (count - 1)]

    @staticmethod
    def take(value: int) -> Action:
        """Pass, taking one card of ``value`` (1..13) from the table."""
        if not (1 <= value <= N_VALUES):
            raise ValueError(f"card value must be 1..{N_VALUES}, got {value}")
        return _ACTIONS[TAKE_BASE + value - 1]

    @staticmethod
    def from_id(action_id: int) -> Action:
        """The action with pinned id ``action_id`` (0..116)."""
        try:
            if action_id < 0:
                raise IndexError
            return _ACTIONS[action_id]
        except (IndexError, TypeError):
            raise ValueError(
                f"action id must be an integer 0..{N_ACTIONS - 1}, got {action_id!r}"
            ) from None

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the readable form back: ``"play 3x6"``, ``"pass, take 9"``, ``"take 9"`` or an id."""
        t = text.strip().lower()
        try:
            if t.isdigit():
                return Action.from_id(int(t))
            if t.startswith("play"):
                k, v = t[4:].strip().split("x")
                return Action.play(int(v), int(k))
            if t.startswith("pass"):
                t = t[4:].lstrip(" ,")
            if t.startswith("take"):
                return Action.take(int(t[4:].strip()))
        except ValueError as exc:
            if "must be" in str(exc):
                raise
        raise ValueError(f"cannot read an action from {text!r} (try 'play 3x6' or 'pass, take 9')")

    def __str__(self) -> str:
        if self.is_pass:
            return f"pass, take {self.value}"
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
        return self.id < other.id

    def __reduce__(self):
        return (Action.from_id, (self.id,))


_ACTIONS: tuple[Action, ...] = tuple(Action._make(i) for i in range(N_ACTIONS))
ALL_ACTIONS = _ACTIONS
